package rules

// v2conventionsRules is the v2conventions area of the catalogue.
var v2conventionsRules = []Rule{
	{ID: "V2-CONV-ADDRESS", Area: "v2conventions", Section: secV2Intro, Status: Testable,
		Statement: "Version 2 REST is served under {base_url}/api/2."},
	{ID: "V2-OOS-SANDBOX", Area: "v2conventions", Section: secV2Intro, Status: OutOfScope,
		Reason:    "a run addresses one target: that the sandbox has the same v2 path shapes is checked by running the suites against the sandbox, not by a spec",
		Statement: "A sandbox environment with the same path shapes exists at a separate address."},
	{ID: "V2-CONV-DECIMAL-STRING", Area: "v2conventions", Section: secV2Conventions, Status: Testable,
		Statement: "Finance values (fields typed number: fees, increments, rates, prices, volumes, balances, amounts) are arbitrary-precision decimals carried as strings."},
	{ID: "V2-PAGING-LIMIT-RANGE", Area: "v2conventions", Section: secV2Conventions, Status: Testable,
		Statement: "Pagination limit is 0 to 1000: GET /history/trades and GET /account/transactions answer limit 0 and limit 1000 (both ends of the range) with HTTP 200 and an array, at most 1000 records for 1000 (what 0 selects is V2-HISTORY-LIMIT-ZERO)."},
	{ID: "V2-CONV-TIMESTAMP", Area: "v2conventions", Section: secV2Conventions, Status: Testable,
		Statement: "Timestamps (DateTime fields) are ISO 8601 UTC strings."},
	{ID: "V2-CONV-NUMBER-TYPE", Area: "v2conventions", Section: secV2Conventions, Status: Testable,
		Statement: "Fields typed Number (payinConfirmations, precisionPayout, precisionTransfer, trade id and orderId, transaction index) are JSON numbers."},
	{ID: "V2-CONV-GET-QUERY", Area: "v2conventions", Section: secV2Conventions, Status: Testable,
		Statement: "GET parameters go in the query string."},
	{ID: "V2-CONV-POST-BODY", Area: "v2conventions", Section: secV2Conventions, Status: Testable,
		Statement: "POST parameters go in the body (form-encoded)."},
	{ID: "V2-CONV-PROCESSING-TIME", Area: "v2conventions", Section: secV2Currency, Status: Ambiguous,
		Reason:    "lowProcessingTime, highProcessingTime and avgProcessingTime are 'numbers in seconds': lowercase number is a decimal string elsewhere in v2, while v3 types the same values as JSON numbers",
		Statement: "The JSON type of the currency processing times."},
}
