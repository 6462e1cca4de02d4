package faults

// errorsFaults break the rules of the errors area (rules/errors.go).
var errorsFaults = []Fault{
	{"V3-ERR-BODY", "writes errors as {code, message} without the error envelope"},
	{"V3-ERR-10001", "answers an invalid sort with the default order instead of 10001"},
	{"V3-ERR-2001", "answers an unknown symbol with HTTP 404"},
	{"V3-ERR-2002", "answers an unknown currency with 2001"},
	{"V3-ERR-401", "sends 1001 and 1002 with HTTP 400"},
	{"V3-ERR-1003", "sends 1003 with HTTP 401"},
	{"V3-ERR-404", "answers unknown paths with HTTP 200 and an empty object"},
	{"V3-ERR-MESSAGES", "answers 10001 with the message Invalid parameters instead of Validation error"},
	{"V3-ERR-200", "answers a v3 POST that succeeds with HTTP 201"},
}
