package rules

// v2authRules is the v2auth area of the catalogue.
var v2authRules = []Rule{
	{ID: "V2-AUTH-PUBLIC", Area: "v2auth", Section: secV2Auth, Status: Testable,
		Statement: "Public market data of version 2 needs no credentials."},
	{ID: "V2-AUTH-BASIC", Area: "v2auth", Section: secV2Auth, Status: Testable,
		Statement: "HTTP Basic with <API_KEY>:<SECRET_KEY> of a valid key is accepted on version 2."},
	{ID: "V2-AUTH-BASIC-FAIL", Area: "v2auth", Section: secV2Auth, Status: Testable,
		Statement: "Basic credentials with a wrong secret are refused with 1001 or 1002 and HTTP 401."},
	{ID: "V2-AUTH-REQUIRED", Area: "v2auth", Section: secV2Auth, Status: Testable,
		Statement: "A protected version 2 endpoint without credentials is refused with 1001 or 1002 and HTTP 401."},
	{ID: "V2-AUTH-UNKNOWN-KEY", Area: "v2auth", Section: secV2Auth, Status: Testable,
		Statement: "Credentials naming an unknown API key are refused with 1001 or 1002 and HTTP 401."},
	{ID: "V2-AUTH-RIGHTS", Area: "v2auth", Section: secV2Auth, Status: Testable,
		Statement: "Each version 2 endpoint is guarded by the right of its table (history: Orderbook, History, Trading balance; account: Payment information; withdraw and internal transfer: Withdraw cryptocurrencies); a key lacking it gets 1003 with HTTP 403, a key holding it is served."},
	{ID: "V2-AUTH-RIGHT-ALONE-ORDERBOOK", Area: "v2auth", Section: secV2Auth, Status: Testable,
		Statement: "A version 2 endpoint guarded by Orderbook, History, Trading balance (the trading history) serves a key holding that right alone and refuses a key holding any one other right alone (Place/cancel orders, Payment information, Withdraw cryptocurrencies) with 1003 and HTTP 403."},
	{ID: "V2-AUTH-RIGHT-ALONE-PAYMENT", Area: "v2auth", Section: secV2Auth, Status: Testable,
		Statement: "A version 2 endpoint guarded by Payment information (account balance, addresses, estimates, transfer-convert, bank transfer, transactions, sub-account ACL and balance, buy crypto) serves a key holding that right alone and refuses a key holding any one other right alone with 1003 and HTTP 403."},
	{ID: "V2-AUTH-RIGHT-ALONE-WITHDRAW", Area: "v2auth", Section: secV2Auth, Status: Testable,
		Statement: "A version 2 endpoint guarded by Withdraw cryptocurrencies (withdraw, its commit and rollback, internal transfer, sub-account transfer) serves a key holding that right alone and refuses a key holding any one other right alone with 1003 and HTTP 403."},
	{ID: "V2-OOS-HS256", Area: "v2auth", Section: secV2Auth, Status: OutOfScope, Reason: notShown,
		Statement: "Support for the HS256 header scheme on version 2 REST."},
}
