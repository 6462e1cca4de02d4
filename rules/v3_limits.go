package rules

// limitRules are the rate, burst and connection limits of the v3 Limits
// section.
var limitRules = []Rule{}
