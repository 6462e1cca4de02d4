package faults

// v2authFaults break the rules of the v2auth area (rules/v2auth.go).
var v2authFaults = []Fault{
	{"V2-AUTH-PUBLIC", "demands credentials for v2 public market data"},
	{"V2-AUTH-BASIC", "refuses valid Basic credentials on version 2"},
	{"V2-AUTH-BASIC-FAIL", "accepts v2 Basic credentials whatever the secret"},
	{"V2-AUTH-REQUIRED", "serves protected v2 endpoints without credentials, all but /account/balance, /history/trades and /account/transactions"},
	{"V2-AUTH-UNKNOWN-KEY", "answers an unknown API key on version 2 with 1003 and HTTP 403"},
	{"V2-AUTH-RIGHTS", "guards the v2 account endpoints with Orderbook, History, Trading balance instead of Payment information"},
	{"V2-AUTH-RIGHT-ALONE-ORDERBOOK", "lets a key holding Payment information alone pass where Orderbook, History, Trading balance is needed on version 2"},
	{"V2-AUTH-RIGHT-ALONE-PAYMENT", "lets a key holding Withdraw cryptocurrencies alone pass where Payment information is needed on version 2"},
	{"V2-AUTH-RIGHT-ALONE-WITHDRAW", "lets a key holding Payment information alone pass where Withdraw cryptocurrencies is needed on version 2"},
}
