package scenarios

import (
	"slices"
	"testing"

	"github.com/conform-harness/conform/client"
)

// A rule left out of GuardedRules has offers that a refusing guard lets
// leave even with credentials; one in it has an offer the guard stops.
func TestGuardedRules(t *testing.T) {
	guarded := GuardedRules()
	for _, want := range []string{"V3-LIMIT-ACCT-WS-TRADING-ORDER", "V3-LIMIT-IP-MARGIN"} {
		if !slices.Contains(guarded, want) {
			t.Errorf("GuardedRules() = %v, want %s in it", guarded, want)
		}
	}
	var refusing *client.Guard // nil refuses every authenticated mutating request
	stopped := func(tg Target) bool {
		if tg.Message != "" {
			return refusing.CheckStream("ws://sandbox.example/api/3"+tg.Path, streamMethod(tg.Message)) != nil
		}
		return refusing.Check(tg.Method, "https://sandbox.example/api/3"+tg.Path, true) != nil
	}
	check := func(rule string, targets []Target) {
		any := slices.ContainsFunc(targets, stopped)
		if in := slices.Contains(guarded, rule); in != any {
			t.Errorf("%s: in GuardedRules %v, but an offer the guard stops: %v", rule, in, any)
		}
	}
	for _, r := range Table() {
		check(r.Rule, r.Targets)
	}
	for _, rd := range Readings() {
		check(rd.Rule, []Target{rd.Target})
	}
}
