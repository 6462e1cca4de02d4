package faults

// v2historyFaults break the rules of the v2history area (rules/v2history.go).
var v2historyFaults = []Fault{
	{"V2-TRADE-FIELDS", "leaves taker out of v2 user trades"},
	{"V2-TRADE-TAKER", "answers taker true on every v2 user trade, the resting order's too"},
	{"V2-HISTORY-SYMBOL", "ignores the symbol filter of GET /api/2/history/trades"},
	{"V2-HISTORY-SORT", "sorts v2 trade history ASC by default"},
	{"V2-HISTORY-BY", "reads from and till as times when by is id and as ids when by is timestamp"},
	{"V2-HISTORY-LIMIT", "answers one trade more than limit"},
	{"V2-HISTORY-OFFSET", "ignores offset"},
	{"V2-HISTORY-LIMIT-DEFAULT", "defaults limit to 50"},
	{"V2-HISTORY-MARGIN", "reads margin=only as include"},
	{"V2-HISTORY-ORDER-TRADES", "answers every trade of the account for /history/order/{orderId}/trades"},
}
