package scenarios

import (
	"strings"

	"github.com/conform-harness/conform/client"
)

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

// GuardedRules are the rules of the rows and readings whose offers the
// live-trading guard decides: a REST request with a mutating method, or a
// trading stream method. Every other offer is a read (or anonymous), which
// the guard lets leave whatever the target; so a check that nothing trades
// on an undeclared target needs of the limit scenarios only these.
func GuardedRules() []string {
	var ids []string
	for _, r := range Table() {
		for _, t := range r.Targets {
			if guarded(t) {
				ids = append(ids, r.Rule)
				break
			}
		}
	}
	for _, rd := range Readings() {
		if guarded(rd.Target) {
			ids = append(ids, rd.Rule)
		}
	}
	return ids
}

func guarded(t Target) bool {
	if t.Message != "" {
		return client.TradingStreamMethod(streamMethod(t.Message))
	}
	return client.Mutating(t.Method)
}
