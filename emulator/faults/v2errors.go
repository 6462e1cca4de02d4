package faults

// v2errorsFaults break the rules of the v2errors area (rules/v2errors.go).
var v2errorsFaults = []Fault{
	{"V2-ERR-BODY", "writes v2 errors as {code, message} without the error envelope"},
	{"V2-ERR-10001", "reads a missing amount of estimate-withdraw as 1 instead of refusing it"},
	{"V2-ERR-1003", "sends 1003 with HTTP 401 on version 2"},
	{"V2-ERR-401", "sends 1001 and 1002 with HTTP 400 on version 2"},
	{"V2-ERR-2001", "answers an unknown v2 symbol with HTTP 404"},
	{"V2-ERR-2002", "answers an unknown v2 currency with 2001"},
	{"V2-ERR-20001", "answers insufficient funds on v2 account operations with 10001"},
	{"V2-ERR-MESSAGES", "answers 10001 on version 2 with the message Invalid parameters instead of Validation error"},
	{"V2-ERR-200", "answers a v2 POST that succeeds with HTTP 201"},
}
