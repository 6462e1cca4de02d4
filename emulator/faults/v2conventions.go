package faults

// v2conventionsFaults break the rules of the v2conventions area (rules/v2conventions.go).
var v2conventionsFaults = []Fault{
	{"V2-CONV-ADDRESS", "serves version 2 under /api/v2 instead of /api/2"},
	{"V2-CONV-DECIMAL-STRING", "writes every decimal string of a v2 answer as a JSON number"},
	{"V2-CONV-TIMESTAMP", "writes v2 DateTime fields as Unix seconds"},
	{"V2-CONV-NUMBER-TYPE", "writes v2 integer Number fields as strings"},
	{"V2-CONV-GET-QUERY", "ignores the query string of v2 GET requests"},
	{"V2-CONV-POST-BODY", "ignores form-encoded v2 request bodies"},
	{"V2-PAGING-LIMIT-RANGE", "refuses limit 0 with 10001, reading the range as 1 to 1000"},
}
