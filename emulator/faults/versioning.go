package faults

// versioningFaults break the rules of the versioning area (rules/versioning.go).
var versioningFaults = []Fault{
	{"V3-VERSION-V2-AVAILABLE", "retires version 2: /api/2 answers 404"},
	{"V3-VERSION-WS-PATHS", "serves the three streams under /api/v3/ws/ instead of /api/3/ws/"},
}
