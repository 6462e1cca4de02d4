package scenarios

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/rules"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Labels of the scenario specs besides their rules.
const (
	// LabelLimits marks every limit scenario.
	LabelLimits = "limits"
	// LabelSlow marks specs that wait tens of seconds; they run only when a
	// label filter asks for them by name (slow, or their rule).
	LabelSlow = "slow"
)

// batchRules are the rules judged from the one run of every scenario, in
// the order their specs are declared. V3-LIMIT-PER-ACCOUNT (pending) has
// no spec of its own: the per-account rows check it where a target serves
// their paths. V3-LIMIT-SUSPENSION has none on purpose.
func batchRules() []string {
	ids := []string{rule429, ruleWindow, rulePerIP, rulePerAccount}
	for _, r := range Table() {
		ids = append(ids, r.Rule)
	}
	return append(ids, ruleConn, rule429Code, ruleMsgRefusal, ruleRowShared, ruleConnHow, ruleConnScope)
}

// containerLabels decorate the Ordered container of the batch.
func containerLabels() Labels { return Label(LabelLimits, framework.LabelProvokes429) }

// requireLoopback skips unless the target is on this machine and lets the
// harness connect from the scenarios' addresses.
func requireLoopback(ctx SpecContext, e *framework.Env) {
	if !e.Config.IsLoopback() {
		Skip("limit scenarios need source addresses of their own in 127.0.1.0/24 to 127.0.9.0/24, so a loopback target; " +
			"against " + e.Config.REST + " this machine has one address, which the functional specs' pacing already shares")
	}
	if e.Config.SharedSource {
		Skip("limit scenarios need source addresses of their own, but something between the harness and " + e.Config.REST +
			" (a proxy) connects from one address for all of them, so per-address budgets cannot be told apart")
	}
	if err := CanBind(ctx, e.HostPort()); err != nil {
		Skip("limit scenarios need source addresses of their own on loopback: " + err.Error())
	}
}

// The batch is the run's longest group of specs (seconds of offered load, all
// in one process): scheduled first, it runs beside the other specs instead of
// after them, alone on one process at the end of a parallel run.
var _ = Describe("Limits", Ordered, ContinueOnFailure, containerLabels(), SpecPriority(1), func() {
	var res *Results
	BeforeAll(func(ctx SpecContext) {
		e := framework.Current()
		requireLoopback(ctx, e)
		filter := GinkgoLabelFilter()
		cfg := Config{
			REST: e.Config.REST, WS: e.Config.WS, Symbol: e.AnySymbol(ctx, "spot"), Addresses: &Addresses{}, Guard: e.Guard(), TLS: e.TLS(),
			// Run only the scenarios whose specs the label filter selects,
			// so a mutation run of one rule costs one row.
			Wants: func(rule string) bool {
				return append(containerLabels(), framework.Checks(rule)...).MatchesLabelFilter(filter)
			},
		}
		for _, role := range []string{target.RoleFull, target.RoleCounterparty} {
			if a, ok := e.Config.Accounts[role]; ok {
				cfg.Identities = append(cfg.Identities, client.Credential{Key: a.APIKey, Secret: a.Secret})
			}
		}
		// Roles other than the counterparty are keys of the suite's one
		// account (target.RoleCounterparty is "a second account").
		for _, role := range []string{target.RoleFull, target.RoleReadOnly} {
			if a, ok := e.Config.Accounts[role]; ok {
				cfg.AccountKeys = append(cfg.AccountKeys, client.Credential{Key: a.APIKey, Secret: a.Secret})
			}
		}
		// The functional v2 specs of this process spend its account's
		// per-user v2 budget; the v2 rows start from a full one.
		Expect(e.V2Quiet(ctx)).To(Succeed(), "waiting for this process's v2 requests to leave the window")
		DeferCleanup(e.V2Spent) // and the specs after them wait for the window the rows spent
		var err error
		res, err = Run(ctx, cfg)
		Expect(err).NotTo(HaveOccurred(), "the limit scenarios could not run")
		AddReportEntry("limit scenarios", res.Summary(), ReportEntryVisibilityFailureOrVerbose)
	}, NodeTimeout(2*time.Minute))

	for _, id := range batchRules() {
		framework.ConformanceIt(id, func() {
			v := res.Judge(id)
			if v.Skipped != "" {
				Skip(v.Skipped)
			}
			if framework.Rule(id).Status == rules.Ambiguous {
				if len(v.Problems) > 0 {
					Fail("the observation needs its scenario to hold:\n" + strings.Join(v.Problems, "\n"))
				}
				if len(v.Inconclusive) > 0 {
					framework.Inconclusive(strings.Join(dedupe(v.Inconclusive), "; "))
				}
				framework.Observe(id, "%s", v.Observed)
				return
			}
			if len(v.Problems) > 0 {
				Fail(fmt.Sprintf("%s (%s)\n%s", id, framework.Rule(id).Statement, strings.Join(v.Problems, "\n")))
			}
			if len(v.Inconclusive) > 0 {
				framework.Inconclusive(strings.Join(dedupe(v.Inconclusive), "; "))
			}
		})
	}
})

// pingWait is the documented ping period and the tolerance on top of it.
const pingWait = 30*time.Second + 2*time.Second

var _ = Describe("Limits: ping", Label(LabelLimits, LabelSlow), func() {
	framework.ConformanceIt("V3-LIMIT-WS-PING", func(ctx SpecContext) {
		requireOptIn(append(Label(LabelLimits, LabelSlow), framework.Checks("V3-LIMIT-WS-PING")...), "V3-LIMIT-WS-PING")
		e := framework.Current()
		d, err := WaitPing(WithTLS(ctx, e.TLS()), e.Config.WS+"/api/3/ws/public", nil, pingWait)
		Expect(err).NotTo(HaveOccurred(), "a connection to /ws/public that only listens must get a ping within 30 s")
		AddReportEntry("first ping", d.Round(time.Millisecond).String())
	}, NodeTimeout(pingWait+10*time.Second))
})

// requireOptIn skips a slow spec unless the label filter names it: with no
// filter, or one that would select the spec without its slow and rule
// labels too, it is not asked for. `conform mutate` (rule:<ID>) and
// --label-filter=slow run it.
func requireOptIn(labels Labels, rule string) {
	filter := GinkgoLabelFilter()
	bare := slices.DeleteFunc(slices.Clone(labels), func(l string) bool { return l == LabelSlow || l == rules.Label(rule) })
	if filter == "" || Labels(bare).MatchesLabelFilter(filter) {
		Skip(fmt.Sprintf("slow (waits up to %s for a ping): run with --label-filter=%s or --label-filter=%s", pingWait, LabelSlow, rules.Label(rule)))
	}
}

// Summary lists every outcome, for the report of a failed run.
func (r *Results) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "all scenarios in %s\n", r.Elapsed.Round(time.Millisecond))
	for _, rr := range r.sortedRows() {
		if rr.Skipped != "" {
			fmt.Fprintf(&b, "%s: skipped: %s\n", rr.Row.Rule, rr.Skipped)
			continue
		}
		for _, o := range rr.Outcomes() {
			fmt.Fprintf(&b, "%s %s (attempt %d):\n", rr.Row.Rule, o.Who, o.Attempts)
			for _, x := range o.Bursts() {
				fmt.Fprintf(&b, "    %s\n", x)
			}
		}
	}
	for _, o := range r.Identity {
		fmt.Fprintf(&b, "%s %s: %s\n", rulePerIP, o.Who, o.Exact)
	}
	for _, c := range r.Caps {
		fmt.Fprintf(&b, "%s %s from %s: %d opened, one more %s, another address %s\n", ruleConn, c.Stream, c.From, c.Opened, c.Extra, c.Other)
	}
	return b.String()
}
