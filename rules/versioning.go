package rules

// versioningRules is the versioning area of the catalogue. The version in
// the path itself is V3-CONV-ADDRESS (conventions).
var versioningRules = []Rule{
	{ID: "V3-VERSION-V2-AVAILABLE", Area: "versioning", Section: secVersioning, Status: Testable,
		Statement: "Version 2 remains available beside version 3: the same {base_url} answers under /api/2 as well as /api/3 (V2-CONV-ADDRESS is the v2 document's own sentence)."},
	{ID: "V3-VERSION-WS-PATHS", Area: "versioning", Section: secVersioning, Status: Testable,
		Statement: "The streaming interfaces carry the version in their path too: {ws_url}/api/3/ws/public, /api/3/ws/trading and /api/3/ws/wallet accept WebSocket connections."},
	{ID: "V3-OOS-CHANGELOG-ONLY", Area: "versioning", Section: secVersioning, Status: OutOfScope,
		Reason:    "named only in the change log, with shapes marked not shown elsewhere (wallet transactions, airdrops, funding, converted candles, amount locks, price rate and balance feeds)",
		Statement: "Change-log items without a documented shape: transaction attempt_hashes, last_activity_at, operation_type and commit risk score, amount locks, airdrops, futures open interest and funding endpoints, converted candles, price rate and balance feeds."},
}
