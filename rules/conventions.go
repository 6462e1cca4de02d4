package rules

// conventionsRules is the conventions area of the catalogue.
var conventionsRules = []Rule{
	{ID: "V3-CONV-ADDRESS", Area: "conventions", Section: secVersioning,
		Statement: "The REST interface is served under {base_url}/api/3 with the version as a path segment.", Status: Testable},
	{ID: "V3-CONV-TIMESTAMP", Area: "conventions", Section: secConventions,
		Statement: "Timestamps are ISO 8601 UTC strings (or Unix milliseconds where a field says so).", Status: Testable},
	{ID: "V3-CONV-DECIMAL-STRING", Area: "conventions", Section: secConventions,
		Statement: "Finance values (price, quantity, fee, amounts, steps, rates) are decimals carried as JSON strings, never JSON numbers.", Status: Testable},
	{ID: "V3-CONV-DECIMAL-PRECISION", Area: "conventions", Section: secConventions,
		Statement: "Finance values are arbitrary-precision decimals: an amount with many significant digits comes back exactly as it was set.", Status: Testable},
	{ID: "V3-CONV-NUMBER-TYPE", Area: "conventions", Section: secConventions,
		Statement: "Fields typed Number (identifiers, counts, confirmations) are JSON numbers.", Status: Testable},
	{ID: "V3-CONV-GET-QUERY", Area: "conventions", Section: secConventions,
		Statement: "Parameters of GET requests go in the query string.", Status: Testable},
	{ID: "V3-CONV-BODY-FORM", Area: "conventions", Section: secConventions,
		Statement: "Request bodies may be sent form-encoded.", Status: Testable},
	{ID: "V3-CONV-BODY-JSON", Area: "conventions", Section: secConventions,
		Statement: "Request bodies may be sent as JSON with a JSON content type.", Status: Testable},
	{ID: "V3-CONV-KEEPALIVE", Area: "conventions", Section: secConventions,
		Statement: "Persistent HTTP connections are supported: an HTTP/1.1 connection serves several requests in turn.", Status: Testable},
	{ID: "V3-CONV-KEEPALIVE-HTTP10", Area: "conventions", Section: secConventions,
		Statement: "An HTTP/1.0 client that sends Connection: keep-alive gets a persistent connection.", Status: Testable},
	{ID: "V3-CONV-PARAMS-ELSEWHERE", Area: "conventions", Section: secConventions, Status: Ambiguous,
		Reason:    "the spec says passing parameters any other way (a POST's parameters in the query string) is unsupported, without saying whether such a request is refused (and how) or its parameters ignored",
		Statement: "How a POST whose parameters are in the query string instead of the body is answered."},
}
