package rules

// v2historyRules is the v2history area of the catalogue.
var v2historyRules = []Rule{
	{ID: "V2-TRADE-FIELDS", Area: "v2history", Section: secV2UserTrade, Status: Testable,
		Statement: "GET /history/trades answers User trades: id and orderId (Number), clientOrderId, symbol, side (sell or buy), quantity, price, fee (decimal, may be negative), timestamp and taker (Boolean), liquidation optional."},
	{ID: "V2-TRADE-TAKER", Area: "v2history", Section: secV2UserTrade, Status: Testable,
		Statement: "A user trade's taker is true for the order that was instantly filled (it met a resting order) and false for the resting order it met."},
	{ID: "V2-HISTORY-SYMBOL", Area: "v2history", Section: secV2History, Status: Testable,
		Statement: "The symbol parameter limits GET /history/trades to that symbol."},
	{ID: "V2-HISTORY-SORT", Area: "v2history", Section: secV2History, Status: Testable,
		Statement: "GET /history/trades sorts DESC by default and ASC when asked."},
	{ID: "V2-HISTORY-BY", Area: "v2history", Section: secV2History, Status: Testable,
		Statement: "from and till bound trades by id when by is id (the default) and by time (DateTime) when by is timestamp."},
	{ID: "V2-HISTORY-LIMIT", Area: "v2history", Section: secV2History, Status: Testable,
		Statement: "limit caps the number of trades GET /history/trades answers."},
	{ID: "V2-HISTORY-OFFSET", Area: "v2history", Section: secV2History, Status: Testable,
		Statement: "offset skips that many trades of the sorted history."},
	{ID: "V2-HISTORY-LIMIT-DEFAULT", Area: "v2history", Section: secV2History, Status: Testable,
		Statement: "Without limit GET /history/trades answers at most 100 trades, and 100 when the account has more."},
	{ID: "V2-HISTORY-MARGIN", Area: "v2history", Section: secV2History, Status: Testable,
		Statement: "margin=only leaves spot trades out, margin=ignore and the default (include) keep them."},
	{ID: "V2-HISTORY-ORDER-TRADES", Area: "v2history", Section: secV2History, Status: Testable,
		Statement: "GET /history/order/{orderId}/trades answers the trades of that order only."},
	{ID: "V2-HISTORY-LIMIT-ZERO", Area: "v2history", Section: secV2Intro, Status: Ambiguous,
		Reason:    "the pagination conventions give limit 0 to 1000 without saying what 0 means (no records, or no limit); that 0 is accepted at all is asserted by V2-PAGING-LIMIT-RANGE",
		Statement: "What GET /history/trades answers with limit=0."},
}
