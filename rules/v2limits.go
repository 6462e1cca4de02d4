package rules

// v2limitsRules is the v2limits area of the catalogue; the rate specs are
// judged from the limits batch (suites/limits runs it, suites/v2limits
// declares their specs).
var v2limitsRules = []Rule{
	{ID: "V2-LIMIT-MARKETDATA", Area: "v2limits", Section: secV2Limits, Status: Testable,
		Statement: "Market data: 100 requests per second per IP; the excess gets HTTP 429 (no burst: version 2 names none)."},
	{ID: "V2-LIMIT-OTHER", Area: "v2limits", Section: secV2Limits, Status: Testable,
		Statement: "All other requests, trading history included: 10 requests per second per user; the excess gets HTTP 429 (no burst)."},
	{ID: "V2-LIMIT-TRADING", Area: "v2limits", Section: secV2Limits, Status: Ambiguous,
		Reason:    "the rate (300 per second per user) is given but the v2 trading requests it counts are not shown (order placement over v2 REST is marked not shown); the scenario records how many order reads over /api/2/order one window accepts",
		Statement: "Trading: 300 requests per second per user."},
	{ID: "V2-LIMIT-BURST", Area: "v2limits", Section: secV2Limits, Status: Ambiguous,
		Reason:    "version 2 gives rates without bursts; conform reads that as no burst (at most the rate in any one-second window) and asserts that reading in the rate scenarios; this rule records how many requests beyond the rate a target accepts in one window",
		Statement: "Whether version 2 rates allow a burst."},
	{ID: "V2-LIMIT-HISTORY-MAX", Area: "v2limits", Section: secV2Limits, Status: Ambiguous,
		Reason:    "history limit is at most 1000 and offset at most 100000, but the document does not say whether larger values are refused (10001) or clamped",
		Statement: "What GET /history/trades and GET /account/transactions answer to limit 1001 and offset 100001."},
	{ID: "V2-LIMIT-PUBLIC-COMMENT", Area: "v2limits", Section: secV2Limits, Status: Testable,
		Statement: "A withdrawal's publicComment is at most 255 characters: 256 are refused (HTTP 400), 255 accepted."},
	{ID: "V2-LIMIT-ORDER-CAPS", Area: "v2limits", Section: secV2Limits, Status: OutOfScope,
		Reason:    "order placement over v2 REST is marked not shown; the same caps (25000 per user, 2000 per symbol) are checked through v3 by V3-SPOT-LIMIT-PER-USER and V3-SPOT-LIMIT-PER-SYMBOL on the one engine",
		Statement: "A user's active and suspended orders total at most 25000 across symbols and 2000 per symbol."},
	{ID: "V2-OOS-SUSPENSION", Area: "v2limits", Section: secV2Limits, Status: OutOfScope,
		Reason:    "the v2 Limits say significantly exceeding limits can lead to suspension without saying how much is significant or what a suspension is; no spec provokes it, since against a real target that would suspend the tester",
		Statement: "Significantly exceeding limits can lead to suspension."},
	{ID: "V2-OOS-STREAM-LIMITS", Area: "v2limits", Section: secV2Limits, Status: OutOfScope, Reason: notShown,
		Statement: "Limits specific to the version 2 streams."},
}
