package faults

// v2limitsFaults break the rules of the v2limits area (rules/v2limits.go).
var v2limitsFaults = []Fault{
	{"V2-LIMIT-MARKETDATA", "allows 101 instead of 100 v2 market data requests per window"},
	{"V2-LIMIT-OTHER", "allows 11 instead of 10 other v2 requests per user and window"},
	{"V2-LIMIT-PUBLIC-COMMENT", "accepts a publicComment longer than 255 characters"},
}
