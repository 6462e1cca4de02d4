package scenarios

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/fixtures"
	"github.com/conform-harness/conform/internal/race"
)

// startEmulator runs an in-process emulator with the given faults.
func startEmulator(tb testing.TB, faults ...string) string {
	tb.Helper()
	emu, err := emulator.New(emulator.Options{Faults: faults})
	if err != nil {
		tb.Fatal(err)
	}
	if err := emu.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = emu.Close() })
	return emu.URL()
}

// emulatorConfig aims the scenarios at an emulator with its fixture keys.
func emulatorConfig(tb testing.TB, base string, addrs *Addresses) Config {
	tb.Helper()
	accts, err := fixtures.Accounts()
	if err != nil {
		tb.Fatal(err)
	}
	key := func(a fixtures.Account, role string) client.Credential {
		for _, k := range a.Keys {
			if k.Role == role {
				return client.Credential{Key: k.APIKey, Secret: k.Secret}
			}
		}
		tb.Fatalf("fixture account %s has no %s key", a.ID, role)
		return client.Credential{}
	}
	return Config{
		REST: base, WS: "ws" + strings.TrimPrefix(base, "http"), Symbol: "BTCUSDT",
		Identities:  []client.Credential{key(accts[0], "full"), key(accts[1], "full")},
		AccountKeys: []client.Credential{key(accts[0], "full"), key(accts[0], "read-only")},
		Addresses:   addrs,
		Guard:       client.PermitTrading(), // the emulator
	}
}

func skipWhenSlowed(t *testing.T) {
	t.Helper()
	switch {
	case race.Enabled:
		t.Skip("the race detector slows the harness below what a 1-second window needs; the suite runs these without it")
	case testing.Short():
		t.Skip("takes a few seconds")
	}
}

// The engine, driven directly: against the honest emulator every verdict
// is clean; against one with faults, each fault shows up under its rule.
func TestRunAgainstTheEmulator(t *testing.T) {
	skipWhenSlowed(t)
	testable := []string{rule429, ruleWindow, rulePerIP, ruleConn}
	for _, r := range Table() {
		testable = append(testable, r.Rule)
	}
	for _, tc := range []struct {
		name   string
		faults []string
	}{
		{"honest", nil},
		{"faulty", []string{"V3-LIMIT-WINDOW", "V3-LIMIT-PER-IP", "V3-LIMIT-IP-WALLET", "V3-LIMIT-WS-WALLET-MSG", "V3-LIMIT-WS-CONN"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), emulatorConfig(t, startEmulator(t, tc.faults...), &Addresses{}))
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range testable {
				v := res.Judge(id)
				broken, disturbed := false, false
				for _, f := range tc.faults {
					broken = broken || f == id
					// Counting per-IP budgets per key (the V3-LIMIT-PER-IP
					// fault) lets the per-IP budget bind before the
					// account's in the per-account rows, which offer two
					// keys' requests from a few addresses: those rows may
					// fail too, though their own rule's fault is off.
					disturbed = disturbed || (f == "V3-LIMIT-PER-IP" && strings.HasPrefix(id, "V3-LIMIT-ACCT-"))
				}
				switch {
				case v.Skipped != "":
					// The emulator serves every row's path, per-account
					// ones included.
					t.Errorf("%s skipped: %s", id, v.Skipped)
				case broken && len(v.Problems) == 0:
					t.Errorf("%s: the fault went unnoticed", id)
				case !broken && !disturbed && len(v.Problems) > 0:
					t.Errorf("%s: %s", id, strings.Join(v.Problems, "\n"))
				}
			}
		})
	}
}

// BenchmarkScenarios runs every scenario against the honest emulator once
// per iteration (run it with -benchtime=20x) and reports how far the
// accepted counts strayed from rate plus burst: deviations is the number
// of offers (of every phase of every row and address) that did not accept
// exactly what they should, over all iterations; retries the timing
// reruns the harness needed.
func BenchmarkScenarios(b *testing.B) {
	base := startEmulator(b)
	addrs := &Addresses{} // shared, so every run has fresh addresses and needs no wait
	var offers, deviations, retries, maxOff int
	for b.Loop() {
		res, err := Run(context.Background(), emulatorConfig(b, base, addrs))
		if err != nil {
			b.Fatal(err)
		}
		for _, rr := range res.sortedRows() {
			for _, o := range rr.Outcomes() {
				retries += o.Attempts - 1
				for _, w := range o.wants() {
					offers++
					if d := w.burst.Accepted - w.want; d != 0 {
						deviations++
						maxOff = max(maxOff, d, -d)
						b.Logf("%s %s: %s: %s, want %d", rr.Row.Rule, o.Who, w.phase, w.burst, w.want)
					}
				}
			}
		}
	}
	b.ReportMetric(float64(offers)/float64(b.N), "offers/op")
	b.ReportMetric(float64(deviations), "deviations")
	b.ReportMetric(float64(maxOff), "max-deviation")
	b.ReportMetric(float64(retries), "retries")
	if deviations > 0 {
		b.Errorf("%d of %d offers did not accept exactly rate plus burst", deviations, offers)
	}
	fmt.Fprintf(b.Output(), "%d runs: %d offers, %d deviations (max %d), %d timing reruns\n", b.N, offers, deviations, maxOff, retries)
}

type wanted struct {
	phase string
	burst *Burst
	want  int
}

// wants pairs each offer of the outcome with the count it must accept.
func (o Outcome) wants() []wanted {
	out := []wanted{{"at once", &o.Exact, o.Budget}}
	if o.Half != nil {
		out = append(out, wanted{"first part", o.Half, o.half()}, wanted{"rest", o.Rest, o.Budget - o.half()}, wanted{"slid", o.Slid, o.half()})
	}
	return out
}
