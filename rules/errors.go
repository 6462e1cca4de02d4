package rules

// errorsRules is the errors area of the catalogue.
var errorsRules = []Rule{
	{ID: "V3-ERR-BODY", Area: "errors", Section: secErrors,
		Statement: "An error answer carries {error: {code Number, message String, description String optional}}.", Status: Testable},
	{ID: "V3-ERR-10001", Area: "errors", Section: secErrors,
		Statement: "Malformed or missing parameters yield 10001 Validation error with HTTP 400.", Status: Testable},
	{ID: "V3-ERR-2001", Area: "errors", Section: secErrors,
		Statement: "An unknown symbol yields 2001 Symbol not found with HTTP 400.", Status: Testable},
	{ID: "V3-ERR-2002", Area: "errors", Section: secErrors,
		Statement: "An unknown currency yields 2002 Currency not found with HTTP 400.", Status: Testable},
	{ID: "V3-ERR-401", Area: "errors", Section: secErrors,
		Statement: "Codes 1001 and 1002 come with HTTP 401.", Status: Testable},
	{ID: "V3-ERR-1003", Area: "errors", Section: secErrors,
		Statement: "Code 1003 (action forbidden for this API key) comes with HTTP 403.", Status: Testable},
	{ID: "V3-ERR-404", Area: "errors", Section: secErrors,
		Statement: "A request for something that cannot be found (an unknown path) gets HTTP 404.", Status: Testable},
	{ID: "V3-OOS-ERROR-LIST", Area: "errors", Section: secErrors, Status: OutOfScope, Reason: notShown,
		Statement: "The full error code list and the meaning of code 20018."},
	{ID: "V3-OOS-ERROR-STATUS", Area: "errors", Section: secErrors, Status: OutOfScope, Reason: notShown,
		Statement: "The HTTP status attached to codes 20002, 21001, 21003 and 21004."},
	{ID: "V3-OOS-SERVER-FAULTS", Area: "errors", Section: secErrors, Status: OutOfScope,
		Reason:    "a client cannot provoke an internal error, maintenance or a gateway timeout on demand",
		Statement: "HTTP 500, 503 and 504 and codes 503 and 504."},
}
