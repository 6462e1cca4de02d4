package rules

const notShown = "marked not shown in the spec"

// outOfScope lists what the spec marks "not shown", or what a client cannot
// provoke, so that nobody guesses it into an assertion.
var outOfScope = []Rule{
	{ID: "V3-OOS-MARKET-ENDPOINTS", Area: "marketdata", Section: secMarketData, Status: OutOfScope, Reason: notShown,
		Statement: "Ticker, order book, trades, candles and price-rate endpoints of v3 market data."},
	{ID: "V3-OOS-FUTURES-FUNDING", Area: "marketdata", Section: secMarketData, Status: OutOfScope, Reason: notShown,
		Statement: "Futures funding history and converted candles endpoints (parameters and responses)."},
	{ID: "V3-OOS-CANDLE-ALIGNMENT", Area: "marketdata", Section: secCandle, Status: OutOfScope,
		Reason:    "the spec does not say how candle timestamps align to period boundaries or what from/till default to",
		Statement: "Alignment of futures candle timestamps and the default from/till window."},
	{ID: "V3-OOS-HS256-WINDOW-MEANING", Area: "auth", Section: secAuthHS256, Status: OutOfScope, Reason: notShown,
		Statement: "The unit and meaning of the HS256 window, and so when a timestamp is too old."},
	{ID: "V3-OOS-STREAM-AUTH", Area: "auth", Section: secAuth, Status: OutOfScope, Reason: notShown,
		Statement: "Authentication of the v3 streaming interfaces (login message)."},
	{ID: "V3-OOS-AUTH-SERVICE", Area: "auth", Section: secAuth, Status: OutOfScope, Reason: notShown,
		Statement: "The authentication service (session and API key creation)."},
	{ID: "V3-OOS-ERROR-LIST", Area: "errors", Section: secErrors, Status: OutOfScope, Reason: notShown,
		Statement: "The full error code list and the meaning of code 20018."},
	{ID: "V3-OOS-ERROR-STATUS", Area: "errors", Section: secErrors, Status: OutOfScope, Reason: notShown,
		Statement: "The HTTP status attached to codes 20002, 21001, 21003 and 21004."},
	{ID: "V3-OOS-SERVER-FAULTS", Area: "errors", Section: secErrors, Status: OutOfScope,
		Reason:    "a client cannot provoke an internal error, maintenance or a gateway timeout on demand",
		Statement: "HTTP 500, 503 and 504 and codes 503 and 504."},
}
