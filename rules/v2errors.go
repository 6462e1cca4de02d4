package rules

// v2errorsRules is the v2errors area of the catalogue.
var v2errorsRules = []Rule{
	{ID: "V2-ERR-BODY", Area: "v2errors", Section: secV2Errors, Status: Testable,
		Statement: "Errors of version 2 carry the body {error: {code, message, description optional}}."},
	{ID: "V2-ERR-10001", Area: "v2errors", Section: secV2Errors, Status: Testable,
		Statement: "A required parameter missing is refused with 10001 and HTTP 400."},
	{ID: "V2-ERR-1003", Area: "v2errors", Section: secV2Errors, Status: Testable,
		Statement: "1003 (the key lacks the right) comes with HTTP 403."},
	{ID: "V2-ERR-401", Area: "v2errors", Section: secV2Errors, Status: Testable,
		Statement: "1001 (authorization required) and 1002 (authorization failed) come with HTTP 401."},
	{ID: "V2-ERR-2001", Area: "v2errors", Section: secV2Errors, Status: Testable,
		Statement: "An unknown symbol is refused with 2001 and HTTP 400."},
	{ID: "V2-ERR-2002", Area: "v2errors", Section: secV2Errors, Status: Testable,
		Statement: "An unknown currency is refused with 2002 and HTTP 400."},
	{ID: "V2-ERR-20001", Area: "v2errors", Section: secV2Errors, Status: Testable,
		Statement: "An account operation the balance cannot cover is refused with 20001 and HTTP 400."},
	{ID: "V2-ERR-1002-MESSAGE", Area: "v2errors", Section: secV2Errors, Status: Ambiguous,
		Reason:    "v2 names 1002 'Authorization failed' and v3 'Authorization is required or has been failed' for the same code; specs assert codes, and record the messages each version sends",
		Statement: "The message of error 1002 on version 2 and version 3."},
}
