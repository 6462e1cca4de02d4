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
	for _, rd := range Readings() {
		ids = append(ids, rd.Rule)
	}
	return append(ids, ruleConn, rule429Code, ruleMsgRefusal, ruleRowShared, ruleConnHow, ruleConnScope)
}

// containerLabels decorate the Ordered container of the batch.
func containerLabels() Labels { return Label(LabelLimits, framework.LabelProvokes429) }

// oneAddress says whether the scenarios must run from this machine's one
// source address: a target off loopback, or behind a proxy that connects
// from one address for all, or a system that will not let the harness
// bind the scenarios' loopback addresses.
func oneAddress(ctx SpecContext, e *framework.Env) (bool, string) {
	switch {
	case !e.Config.IsLoopback():
		return true, e.Config.REST + " is not on this machine"
	case e.Config.SharedSource:
		return true, "something between the harness and " + e.Config.REST + " (a proxy) connects from one address for all"
	}
	if err := CanBind(ctx, e.HostPort()); err != nil {
		return true, err.Error()
	}
	return false, ""
}

// limitsContainer declares the batch. On loopback (addresses of its own for
// every scenario) it is the run's longest group of specs, seconds of
// offered load in one process: scheduled first, it runs beside the other
// specs instead of after them. From one source address it must run alone:
// Serial (after every parallel spec, on process 1) and last among the
// Serial ones, so that no other request of the run spends the budgets it
// measures. The choice is made while the tree is built, from what the
// flags say of the target (framework.OneSourceAtBuild).
func limitsContainer() {
	builtAlone := framework.OneSourceAtBuild()
	decorators := []any{Ordered, ContinueOnFailure, containerLabels()}
	if builtAlone {
		decorators = append(decorators, Serial, SpecPriority(-1))
	} else {
		decorators = append(decorators, SpecPriority(1))
	}
	// No text of its own: a spec's name ("Limits <rule>") is the same
	// whichever way the batch runs.
	Describe("", append(decorators, func() {
		var res *Results
		BeforeAll(func(ctx SpecContext) {
			e := framework.Current()
			one, why := oneAddress(ctx, e)
			if one && !builtAlone {
				Skip("limit scenarios from one source address (" + why + ") must run alone after every other spec, but this suite was built " +
					"before the target was known to be reached from one address: run it with conform run, or declare shared_source in the target config")
			}
			filter := GinkgoLabelFilter()
			cfg := Config{
				REST: e.Config.REST, WS: e.Config.WS, Symbol: e.AnySymbol(ctx, "spot"), Guard: e.Guard(), TLS: e.TLS(),
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
			if one {
				res, err = RunOneAddress(ctx, cfg)
			} else {
				cfg.Addresses = &Addresses{}
				res, err = Run(ctx, cfg)
			}
			if res != nil {
				AddReportEntry("limit scenarios", res.Summary(), ReportEntryVisibilityFailureOrVerbose)
			}
			Expect(err).NotTo(HaveOccurred(), "the limit scenarios could not run")
		}, NodeTimeout(3*time.Minute))

		for _, id := range batchRules() {
			framework.ConformanceIt(id, func() {
				judge(res, id)
			})
		}
	})...)
}

// judge turns the verdict on one rule into the spec's outcome.
func judge(res *Results, id string) {
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
}

var _ = Describe("Limits", limitsContainer)

// pingWait is the documented ping period and the tolerance on top of it.
const pingWait = 30*time.Second + 2*time.Second

// Last of the parallel specs: by then its process's connection (pingprobe.go)
// has long seen its ping.
var _ = Describe("Limits: ping", Label(LabelLimits, LabelSlow), SpecPriority(-5), func() {
	framework.ConformanceIt("V3-LIMIT-WS-PING", func(ctx SpecContext) {
		requireOptIn(pingLabels(), pingRule)
		// The connection opened when this process's first spec started
		// (pingprobe.go): by now it has usually seen its ping.
		d, err := probe.wait(ctx)
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
	if r.OneAddress {
		fmt.Fprintf(&b, "from one source address; %s\n", r.Path)
		for _, l := range r.Lanes {
			fmt.Fprintf(&b, "lane %s\n", l)
		}
	}
	for _, rr := range r.sortedRows() {
		if rr.Skipped != "" {
			fmt.Fprintf(&b, "%s: skipped: %s\n", rr.Row.Rule, rr.Skipped)
			continue
		}
		if rr.Inconclusive != "" {
			fmt.Fprintf(&b, "%s: not offered: %s\n", rr.Row.Rule, rr.Inconclusive)
			continue
		}
		for _, o := range rr.Outcomes() {
			fmt.Fprintf(&b, "%s %s (attempt %d):\n", rr.Row.Rule, o.Who, o.Attempts)
			for _, t := range o.Retried {
				fmt.Fprintf(&b, "    an earlier attempt: %s\n", t)
			}
			for _, t := range o.Timing {
				fmt.Fprintf(&b, "    inconclusive: %s\n", t)
			}
			for _, x := range o.Bursts() {
				fmt.Fprintf(&b, "    %s\n", x)
			}
		}
	}
	for _, o := range r.Identity {
		fmt.Fprintf(&b, "%s %s: %s\n", rulePerIP, o.Who, o.Exact)
	}
	for _, rd := range Readings() {
		if o, ok := r.Readings[rd.Rule]; ok {
			fmt.Fprintf(&b, "%s %s (attempt %d): %s\n", rd.Rule, o.Who, o.Attempts, o.Exact)
		}
	}
	for _, c := range r.Caps {
		fmt.Fprintf(&b, "%s %s from %s: %d opened, one more %s, another address %s\n", ruleConn, c.Stream, c.From, c.Opened, c.Extra, c.Other)
	}
	return b.String()
}
