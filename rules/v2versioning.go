package rules

// v2versioningRules is the v2versioning area of the catalogue: version 2
// stays available beside version 3, so where both documents describe the
// same thing, both versions must show the same state.
var v2versioningRules = []Rule{
	{ID: "V2-V3-SYMBOL-SAME", Area: "v2versioning", Section: secV2Versioning, Status: Testable,
		Statement: "A symbol has the same base and quote currency, quantity increment, tick size, fee currency and take/make (takeLiquidity/provideLiquidity) rates in version 2 and version 3."},
	{ID: "V2-V3-CURRENCY-SAME", Area: "v2versioning", Section: secV2Versioning, Status: Testable,
		Statement: "A currency has the same full name, crypto, payin, payout, transfer and delisted flags in version 2 and version 3."},
	{ID: "V2-V3-PAYOUT-FEE-SAME", Area: "v2versioning", Section: secV2Versioning, Status: Testable,
		Statement: "A currency's v2 payoutFee (default withdrawal fee) is the payout_fee of its default network in version 3."},
	{ID: "V2-V3-NETWORK-SAME", Area: "v2versioning", Section: secV2Versioning, Status: Testable,
		Statement: "A currency's v2 payinPaymentId, payinConfirmations, payoutIsPaymentId and precisionPayout (digits) are those of its default network in version 3."},
	{ID: "V2-V3-PRECISION-TRANSFER-SAME", Area: "v2versioning", Section: secV2Versioning, Status: Testable,
		Statement: "A currency's v2 precisionTransfer is the number of digits after the point of its v3 precision_transfer."},
	{ID: "V2-V3-TRADE-SAME", Area: "v2versioning", Section: secV2Versioning, Status: Testable,
		Statement: "A trade of an order placed over version 3 shows in GET /api/2/history/trades with the same id, order id, client order id, quantity, price and fee."},
	{ID: "V2-VERSION-NETWORK-PARAM", Area: "v2versioning", Section: secV2Versioning, Status: Testable,
		Statement: "Multichain support: GET /account/crypto/estimate-withdraw and GET /account/crypto/used-addresses/{currency} take networkCode, answering a fee and a list for a network of the currency (the address endpoints: V2-ACCOUNT-ADDRESS-NETWORK, V2-ACCOUNT-ADDRESS-NETWORK-GET)."},
}
