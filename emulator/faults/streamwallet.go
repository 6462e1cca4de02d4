package faults

// streamwalletFaults break the rules of the streamwallet area
// (rules/streamwallet.go).
var streamwalletFaults = []Fault{
	{"V3-WSW-METHODS", "answers wallet_balance on the wallet stream as an unknown method"},
	{"V3-WSW-MALFORMED", "drops the TCP connection, without a close frame, on a wallet stream frame that is not JSON"},
	{"V3-WSW-UNKNOWN-METHOD", "answers an unknown wallet stream method with an error that lacks the request id"},
	{"V3-WSW-LOGIN-FIRST", "answers wallet_balances before a login with an empty result"},
	{"V3-WSW-NO-TRADING", "executes the trading stream's methods on the wallet stream"},
	{"V3-WSW-ERROR-CODE", "writes the wallet stream's error codes as strings"},
}
