package faults

// streamtradingFaults break the rules of the streamtrading area
// (rules/streamtrading.go).
var streamtradingFaults = []Fault{
	{"V3-WST-METHODS", "answers spot_fee on the trading stream as an unknown method"},
	{"V3-WST-METHODS-MARGIN", "answers margin_get_accounts on the trading stream as an unknown method"},
	{"V3-WST-METHODS-FUTURES", "answers futures_get_accounts on the trading stream as an unknown method"},
	{"V3-WST-UNKNOWN-METHOD", "answers an unknown trading stream method with an error that lacks the request id"},
	{"V3-WST-ERROR-ID", "drops the request id from trading stream errors of order requests"},
	{"V3-WST-FIFO", "executes a spot_new_order after the request that follows it on the connection"},
	{"V3-WST-NOTIFY-NEW", "sends no notification when an order is placed"},
	{"V3-WST-NOTIFY-REPLACE", "sends no notification when an order is replaced"},
	{"V3-WST-NOTIFY-CANCEL", "sends no notification when an order is canceled"},
	{"V3-WST-NOTIFY-FILL", "sends no notification when an order trades"},
	{"V3-WST-NOTIFY-EXPIRE", "sends no notification when an order expires"},
	{"V3-WST-NOTIFY-MARGIN", "sends margin_subscribe subscribers no notification of margin order updates (spot and futures ones still come)"},
	{"V3-WST-MALFORMED", "drops the TCP connection, without a close frame, on a trading stream frame that is not JSON"},
	{"V3-WST-CLOID-LEN", "accepts a 7-character client_order_id in spot_new_order (pads it to 8)"},
	{"V3-WST-LOGIN-FIRST", "answers spot_balances before a login with an empty result"},
	{"V3-WST-NO-WALLET", "answers the wallet stream's methods on the trading stream"},
	{"V3-WST-SUBSCRIBE-SEPARATE", "sends a connection subscribed to spot or margin orders the updates of both"},
}
