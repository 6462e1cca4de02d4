// Package limits holds the specs of the v3 Limits section: one spec per
// rule judged from one batch of the limit scenarios (the library in
// scenarios/: the declarative table, the senders, Run and RunOneAddress),
// and the ping. The batch offers the rows of both Limits sections at once,
// so the container that runs it is declared here and the v2 rules' specs
// in it by suites/v2limits (BatchSpecs).
//
// On loopback the batch has addresses of its own and runs beside the other
// specs (scheduled first: it is the run's longest group); from one source
// address (a target off this machine, or behind a proxy that connects from
// one address for all) it is Serial and ordered last, so it runs alone
// after every other spec.
package limits

import (
	"fmt"
	"strings"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/rules"
	"github.com/conform-harness/conform/scenarios"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/v2limits"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Labels of the limit specs besides their rules.
const (
	// LabelLimits marks every limit scenario (conform mutate schedules
	// their faults by it).
	LabelLimits = "limits"
	// LabelSlow marks specs that wait tens of seconds; they run only when a
	// label filter asks for them by name (slow, or their rule).
	LabelSlow = framework.LabelSlow
)

// area is this package's area of the catalogue.
const area = "limits"

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
	if err := scenarios.CanBind(ctx, e.HostPort()); err != nil {
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
		var res *scenarios.Results
		BeforeAll(func(ctx SpecContext) {
			e := framework.Current()
			one, why := oneAddress(ctx, e)
			if one && !builtAlone {
				Skip("limit scenarios from one source address (" + why + ") must run alone after every other spec, but this suite was built " +
					"before the target was known to be reached from one address: run it with conform run, or declare shared_source in the target config")
			}
			filter := GinkgoLabelFilter()
			cfg := scenarios.Config{
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
				res, err = scenarios.RunOneAddress(ctx, cfg)
			} else {
				cfg.Addresses = &scenarios.Addresses{}
				res, err = scenarios.Run(ctx, cfg)
			}
			if res != nil {
				AddReportEntry("limit scenarios", res.Summary(), ReportEntryVisibilityFailureOrVerbose)
			}
			Expect(err).NotTo(HaveOccurred(), "the limit scenarios could not run")
		}, NodeTimeout(3*time.Minute))

		for _, id := range scenarios.BatchRules() {
			if framework.Rule(id).Area != area {
				continue
			}
			framework.ConformanceIt(id, func() {
				judge(res, id)
			})
		}
		v2limits.BatchSpecs(func(id string) { judge(res, id) })
	})...)
}

// judge turns the verdict on one rule into the spec's outcome.
func judge(res *scenarios.Results, id string) {
	v := res.Judge(id)
	if v.Skipped != "" {
		Skip(v.Skipped)
	}
	if framework.Rule(id).Status == rules.Ambiguous {
		if len(v.Problems) > 0 {
			Fail("the observation needs its scenario to hold:\n" + strings.Join(v.Problems, "\n"))
		}
		if len(v.Inconclusive) > 0 {
			framework.Inconclusive(v.InconclusiveText())
		}
		framework.Observe(id, "%s", v.Observed)
		return
	}
	if len(v.Problems) > 0 {
		Fail(fmt.Sprintf("%s (%s)\n%s", id, framework.Rule(id).Statement, strings.Join(v.Problems, "\n")))
	}
	if len(v.Inconclusive) > 0 {
		framework.Inconclusive(v.InconclusiveText())
	}
}

var _ = framework.AreaDescribe("Limits", limitsContainer)
