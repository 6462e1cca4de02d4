package rules

// Sections of the v2 buy-crypto rules.
const (
	secV2Buy        = "v2 Endpoints: Buy crypto"
	secV2BuyRecords = "v2 Resources: Buy-crypto records (v2)"
)

// v2buycryptoRules is the v2buycrypto area of the catalogue.
var v2buycryptoRules = []Rule{
	{ID: "V2-BUY-PROVIDERS", Area: "v2buycrypto", Section: secV2BuyRecords, Status: Testable,
		Statement: "GET /buy-crypto/provider answers providers with providerID Number, providerName String and methods (id Number; name, description, logoURL, status, type Strings; supportedSource and supportedTarget of {code, displayName, networkCode optional}; transactionLimits)."},
	{ID: "V2-BUY-PROVIDER-FILTER", Area: "v2buycrypto", Section: secV2Buy, Status: Testable,
		Statement: "providerId selects one provider in the v2 provider listing, and source and target the providers with a method taking that source and delivering that target."},
	{ID: "V2-BUY-LIMIT-FIELDS", Area: "v2buycrypto", Section: secV2BuyRecords, Status: Testable,
		Statement: "A v2 transaction limit carries currencyCode, targetCode, sourceMin and sourceMax Strings and networkCode when present."},
	{ID: "V2-BUY-LIMIT-MINMAX", Area: "v2buycrypto", Section: secV2BuyRecords, Status: Testable,
		Statement: "A v2 transaction limit's sourceMin is at most its sourceMax (the v3 record's source_min and source_max, \"same content\" with camelCase names: the least and the most of the source amount)."},
	{ID: "V2-BUY-RATE-FIELDS", Area: "v2buycrypto", Section: secV2BuyRecords, Status: Testable,
		Statement: "A v2 rate carries spotPrice and prices of {paymentMethodId Number, type, targetCode, sourceCode, targetAmount, sourceAmount}."},
	{ID: "V2-BUY-RATE-REQUIRED", Area: "v2buycrypto", Section: secV2Buy, Status: Testable,
		Statement: "source and target are required on a v2 rate request: without them it is refused with 10001."},
	{ID: "V2-BUY-RATE-PARAMS", Area: "v2buycrypto", Section: secV2Buy, Status: Testable,
		Statement: "The optional rate parameters act as in version 3: sourceAmount quotes that source amount, targetAmount that target amount, and paymentMethodId restricts the prices to that method."},
	{ID: "V2-BUY-ORDER-FIELDS", Area: "v2buycrypto", Section: secV2BuyRecords, Status: Testable,
		Statement: "A v2 buy order carries id, providerId, orderType buy, sourceCode, targetCode, walletAddress, checkoutURL, status (initial, in_progress, completed, failed, expired) and createdAt."},
	{ID: "V2-BUY-ORDER-REQUIRED", Area: "v2buycrypto", Section: secV2Buy, Status: Testable,
		Statement: "target, source, sourceAmount and paymentMethodId are required to create a v2 buy order (the further fields are optional): without one it is refused with 10001 and no order is created."},
	{ID: "V2-BUY-ORDERS-FROM-TILL", Area: "v2buycrypto", Section: secV2Buy, Status: Testable,
		Statement: "from and till are required on the v2 order listing: without them it is refused with 10001."},
	{ID: "V2-BUY-ORDERS-WINDOW", Area: "v2buycrypto", Section: secV2Buy, Status: Testable,
		Statement: "from and till, Unix timestamps, bound the v2 order listing by the orders' creation time: an order created inside the window is listed, one outside is not."},
	{ID: "V2-BUY-ORDERS-FILTERS", Area: "v2buycrypto", Section: secV2Buy, Status: Testable,
		Statement: "sourceCode, targetCode and walletAddress filter the v2 order listing."},
	{ID: "V2-BUY-ORDERS-LIMIT-OFFSET", Area: "v2buycrypto", Section: secV2Buy, Status: Testable,
		Statement: "limit and offset page through the v2 order listing."},
	{ID: "V2-BUY-ORDERS-NETWORK", Area: "v2buycrypto", Section: secV2Buy, Status: Testable,
		Statement: "targetNetworkCode filters the v2 order listing by the network the crypto is delivered on (Versioning: multichain support on the buy-crypto order listing as targetNetworkCode)."},
	{ID: "V2-BUY-ORDER-NETWORK", Area: "v2buycrypto", Section: secV2Buy, Status: Testable,
		Statement: "A v2 buy order may be created with targetNetworkCode (Versioning: multichain support on buy-crypto order creation as targetNetworkCode): the creation is accepted, and the order created with targetNetworkCode N is listed when the v2 order listing filters by targetNetworkCode N (the v2 order record shows no network)."},
	{ID: "V2-BUY-RIGHTS", Area: "v2buycrypto", Section: secV2Buy, Status: Testable,
		Statement: "The v2 buy-crypto endpoints need Payment information; a key lacking it gets 1003 with HTTP 403."},
	{ID: "V2-BUY-V3-SAME", Area: "v2buycrypto", Section: secV2BuyRecords, Status: Testable,
		Statement: "Version 2 shows the same providers and orders as version 3: an order created through v2 is listed through v3 with the same id, and the provider ids agree."},
	{ID: "V2-BUY-UNKNOWN-PROVIDER", Area: "v2buycrypto", Section: secV2Buy, Status: Ambiguous,
		Reason:    "providerID is a path segment of the rate and order endpoints, but the Errors table gives no code for a provider that does not exist",
		Statement: "How the rate of an unknown providerID is answered."},
}
