package faults

// conventionsFaults break the rules of the conventions area (rules/conventions.go).
var conventionsFaults = []Fault{
	{"V3-CONV-ADDRESS", "serves the REST API under /api/v3 instead of /api/3"},
	{"V3-CONV-TIMESTAMP", "writes DateTime fields as Unix seconds instead of ISO 8601 UTC"},
	{"V3-CONV-DECIMAL-STRING", "writes every decimal string of an answer as a JSON number"},
	{"V3-CONV-DECIMAL-PRECISION", "stores balances as float64, losing digits (of credited and transferred amounts)"},
	{"V3-CONV-NUMBER-TYPE", "writes Number fields (payin_confirmations) as strings"},
	{"V3-CONV-GET-QUERY", "ignores the query string of GET requests"},
	{"V3-CONV-BODY-FORM", "ignores form-encoded request bodies"},
	{"V3-CONV-BODY-JSON", "ignores JSON request bodies"},
	{"V3-CONV-KEEPALIVE", "closes the connection after every answer"},
	{"V3-CONV-KEEPALIVE-HTTP10", "closes HTTP/1.0 connections even when keep-alive is asked for"},
}
