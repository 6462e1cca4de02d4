package faults

// catalogue lists every fault. Keep one entry per rule; the switch itself is
// an `if faults.On(<rule>)` at the one place in the emulator that enforces
// the rule.
var catalogue = concat(coreFaults, marketFaults, spotFaults, limitFaults, marginFaults)

func concat(groups ...[]Fault) []Fault {
	var out []Fault
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// coreFaults break conventions, authentication and error rules.
var coreFaults = []Fault{
	// conventions
	{"V3-CONV-ADDRESS", "serves the REST API under /api/v3 instead of /api/3"},
	{"V3-CONV-TIMESTAMP", "writes DateTime fields as Unix seconds instead of ISO 8601 UTC"},
	{"V3-CONV-DECIMAL-STRING", "writes every decimal string of an answer as a JSON number"},
	{"V3-CONV-DECIMAL-PRECISION", "stores balances as float64, losing digits"},
	{"V3-CONV-NUMBER-TYPE", "writes Number fields (payin_confirmations) as strings"},
	{"V3-CONV-GET-QUERY", "ignores the query string of GET requests"},
	{"V3-CONV-BODY-FORM", "ignores form-encoded request bodies"},
	{"V3-CONV-BODY-JSON", "ignores JSON request bodies"},
	{"V3-CONV-KEEPALIVE", "closes the connection after every answer"},
	{"V3-CONV-KEEPALIVE-HTTP10", "closes HTTP/1.0 connections even when keep-alive is asked for"},
	// authentication
	{"V3-AUTH-PUBLIC", "demands credentials for public market data"},
	{"V3-AUTH-REQUIRED", "serves private endpoints without credentials"},
	{"V3-AUTH-BASIC", "refuses valid Basic credentials"},
	{"V3-AUTH-BASIC-FAIL", "accepts Basic credentials whatever the secret"},
	{"V3-AUTH-HS256", "signs the message without the ?query part, refusing correctly signed requests that have a query"},
	{"V3-AUTH-HS256-WINDOW", "leaves the window out of the signed message"},
	{"V3-AUTH-HS256-BODY", "leaves the body out of the signed message"},
	{"V3-AUTH-HS256-FAIL", "accepts any HS256 signature"},
	{"V3-AUTH-UNKNOWN-KEY", "answers an unknown API key with 1003 and HTTP 403"},
	{"V3-AUTH-MALFORMED", "answers a malformed Authorization header with 10001 and HTTP 400"},
	{"V3-AUTH-RIGHTS", "guards /spot/fee/{symbol} with Orderbook, History, Trading balance instead of Place/cancel orders"},
	// errors
	{"V3-ERR-BODY", "writes errors as {code, message} without the error envelope"},
	{"V3-ERR-10001", "answers an invalid sort with the default order instead of 10001"},
	{"V3-ERR-2001", "answers an unknown symbol with HTTP 404"},
	{"V3-ERR-2002", "answers an unknown currency with 2001"},
	{"V3-ERR-401", "sends 1001 and 1002 with HTTP 400"},
	{"V3-ERR-1003", "sends 1003 with HTTP 401"},
	{"V3-ERR-404", "answers unknown paths with HTTP 200 and an empty object"},
}
