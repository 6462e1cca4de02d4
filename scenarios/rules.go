package scenarios

import "strings"

// BatchRules are the rules judged from the one run of every scenario (Run
// or RunOneAddress), v3 and v2, in the order of their rows. V3-LIMIT-PER-
// ACCOUNT (pending) has no row of its own: the per-account rows check it
// where a target serves their paths. V3-LIMIT-SUSPENSION has none on
// purpose.
func BatchRules() []string {
	ids := []string{rule429, ruleWindow, rulePerIP, rulePerAccount}
	for _, r := range Table() {
		ids = append(ids, r.Rule)
	}
	for _, rd := range Readings() {
		ids = append(ids, rd.Rule)
	}
	return append(ids, ruleConn, rule429Code, ruleMsgRefusal, ruleRowShared, ruleConnHow, ruleConnScope)
}

// InconclusiveText is the verdict's reasons for being inconclusive, each
// once, in one line.
func (v Verdict) InconclusiveText() string { return strings.Join(dedupe(v.Inconclusive), "; ") }
