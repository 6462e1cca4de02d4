package faults

// v2buycryptoFaults break the rules of the v2buycrypto area (rules/v2buycrypto.go).
var v2buycryptoFaults = []Fault{
	{"V2-BUY-PROVIDERS", "(api v2) writes providerID as provider_id"},
	{"V2-BUY-PROVIDER-FILTER", "(api v2) ignores providerId on the provider listing"},
	{"V2-BUY-LIMIT-FIELDS", "(api v2) writes sourceMin as source_min"},
	{"V2-BUY-LIMIT-MINMAX", "swaps sourceMin and sourceMax of v2 transaction limits"},
	{"V2-BUY-RATE-FIELDS", "(api v2) writes spotPrice as spot_price"},
	{"V2-BUY-RATE-REQUIRED", "(api v2) quotes a rate without source and target"},
	{"V2-BUY-RATE-PARAMS", "(api v2) ignores paymentMethodId on rates"},
	{"V2-BUY-ORDER-FIELDS", "(api v2) leaves checkoutURL empty"},
	{"V2-BUY-ORDER-REQUIRED", "(api v2) creates a buy order without paymentMethodId through the provider's first method for the pair"},
	{"V2-BUY-ORDERS-FROM-TILL", "(api v2) lists orders without from and till"},
	{"V2-BUY-ORDERS-WINDOW", "(api v2) ignores till on the order listing"},
	{"V2-BUY-ORDERS-FILTERS", "(api v2) ignores targetCode on the order listing"},
	{"V2-BUY-ORDERS-LIMIT-OFFSET", "(api v2) ignores offset on the order listing"},
	{"V2-BUY-ORDERS-NETWORK", "(api v2) ignores targetNetworkCode on the order listing"},
	{"V2-BUY-ORDER-NETWORK", "(api v2) refuses targetNetworkCode on buy-order creation with 10001"},
	{"V2-BUY-RIGHTS", "(api v2) serves the provider listing to keys without Payment information"},
	{"V2-BUY-V3-SAME", "(api v2) answers created orders with an id other than the one both versions list"},
}
