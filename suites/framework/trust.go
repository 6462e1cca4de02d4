package framework

import (
	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/fixtures"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

// tradingGuard is the suite's live-trading guard for cfg: it permits
// authenticated mutating requests and trading stream messages only to the
// hosts that are the emulator or a declared sandbox (REST and stream target
// each judged on its own), or everywhere with --allow-live-trading.
func tradingGuard(cfg target.Config) *client.Guard {
	dests, all := cfg.TradingDestinations()
	if all {
		return client.PermitTrading()
	}
	return client.PermitOnly("", dests...)
}

// newRedactor knows every secret the run may send: the configured accounts,
// the control token and, on the emulator, every fixture account (each
// process uses its own).
func newRedactor(cfg target.Config) *client.Redactor {
	var creds []client.Credential
	for _, set := range append([]map[string]target.Account{cfg.Accounts}, cfg.AccountSets...) {
		for _, a := range set {
			creds = append(creds, client.Credential{Key: a.APIKey, Secret: a.Secret})
		}
	}
	if cfg.ControlToken != "" {
		creds = append(creds, client.Credential{Secret: cfg.ControlToken})
	}
	if accts, err := fixtures.Accounts(); err == nil {
		for _, a := range accts {
			for _, k := range a.AllKeys() {
				creds = append(creds, client.Credential{Key: k.APIKey, Secret: k.Secret})
			}
		}
	}
	return client.NewRedactor(creds...)
}

// Guard is the process's live-trading guard, for what sends requests
// without a framework client (load offers of the limit scenarios).
func (e *Env) Guard() *client.Guard { return e.guard }

// skipRefused turns a refusal of the live-trading guard into a skip with
// its reason: a spec that trades on a target that may not trade does not
// apply there, and nothing was sent.
func skipRefused(err error) { Skip("places, changes or cancels orders: " + err.Error()) }

// RedactedFail is the suite's fail handler (RegisterFailHandler(framework.RedactedFail)):
// every failure message, Gomega's included, passes the one redactor before
// Ginkgo reports it, so no secret reaches the console or a report whatever
// the spec printed.
func RedactedFail(message string, callerSkip ...int) {
	skip := 1
	if len(callerSkip) > 0 {
		skip += callerSkip[0]
	}
	var r *client.Redactor
	if env != nil {
		r = env.redactor
	}
	Fail(r.Redact(message), skip)
}

// reportEntry adds a report entry whose text passes the one redactor, as
// every entry the framework writes does (transcripts, observations).
func reportEntry(name, text string, visibility ReportEntryVisibility) {
	var r *client.Redactor
	if env != nil {
		r = env.redactor
	}
	AddReportEntry(name, r.Redact(text), visibility)
}

// EntryInconclusive names the report entry of an inconclusive spec; the
// reporters read it (results.InconclusiveEntry).
const EntryInconclusive = "inconclusive"

// Inconclusive ends the spec as neither passed nor failed: the harness could
// not tell (it missed its own timing after its retries), and reason says
// what was measured. Reports count it apart, as Autobahn's non-strict
// outcomes; it never fails a run. A target that does not answer is not
// inconclusive: fail the rule instead and say what was waited for.
func Inconclusive(reason string) {
	reportEntry(EntryInconclusive, reason, ReportEntryVisibilityAlways)
	Skip("inconclusive: " + reason)
}
