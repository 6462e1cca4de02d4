package scenarios

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// An outcome the harness could not time is inconclusive, never a problem
// of the rule; a harness error or a wrong count still is one.
func TestTimingMissesAreInconclusiveNotProblems(t *testing.T) {
	slow := Outcome{Who: "GET /public/symbol from 127.0.1.1", Budget: 80, Attempts: 3,
		Exact:  Burst{Offered: 80, Accepted: 70},
		Timing: []string{"the offer of 80 took 1.2s, more than the window"}}
	if p := slow.ExactProblems(); len(p) != 0 {
		t.Errorf("ExactProblems = %q, want none", p)
	}
	if p := slow.SlideProblems(); len(p) != 0 {
		t.Errorf("SlideProblems = %q, want none", p)
	}
	if r := slow.Inconclusive(); len(r) != 1 || !strings.Contains(r[0], "took 1.2s") || !strings.Contains(r[0], "3 attempts") {
		t.Errorf("Inconclusive = %q", r)
	}
	wrong := Outcome{Who: "x", Budget: 80, Exact: Burst{Offered: 80, Accepted: 70}}
	if len(wrong.ExactProblems()) == 0 || len(wrong.Inconclusive()) != 0 {
		t.Errorf("a wrong count must be a problem: %q / %q", wrong.ExactProblems(), wrong.Inconclusive())
	}
	broken := Outcome{Who: "x", Err: errors.New("connection refused"), Timing: []string{"late"}}
	if len(broken.ExactProblems()) == 0 || len(broken.Inconclusive()) != 0 {
		t.Errorf("a target that does not answer is a problem: %q / %q", broken.ExactProblems(), broken.Inconclusive())
	}
}

// The row-shared observation needs the first path's budget spent: when the
// harness could not offer it inside one window, that is no reading
// (inconclusive), not a failure; a spent-nothing offer in time still is one.
func TestRowSharedSlowOfferIsInconclusive(t *testing.T) {
	slow := &Results{Shared: &SharedOutcome{Spent: Outcome{Who: "GET /margin/order/x from 127.0.1.9", Attempts: 1,
		Exact:  Burst{Offered: 825, Accepted: 825},
		Timing: []string{"the offer of 825 took 1.4s, more than the window"}}}}
	if v := slow.Judge(ruleRowShared); len(v.Problems) != 0 || len(v.Inconclusive) != 1 {
		t.Errorf("slow offer: problems %q, inconclusive %q", v.Problems, v.Inconclusive)
	}
	unspent := &Results{Shared: &SharedOutcome{Spent: Outcome{Who: "x", Exact: Burst{Offered: 825, Accepted: 825}}}}
	if v := unspent.Judge(ruleRowShared); len(v.Problems) != 1 {
		t.Errorf("unspent budget in time: problems %q", v.Problems)
	}
}

// From one address, a row the address cannot decide is inconclusive with
// its reason, never skipped, passed or failed, and so are the rules that
// aggregate it when nothing else ran; the parts of a rule that need a
// second address leave it inconclusive once the rest held.
func TestOneAddressUndecidedIsInconclusive(t *testing.T) {
	one := &oneAddr{cfg: Config{Symbol: "BTCUSDT"}}
	rows := map[string]Row{}
	for _, r := range Table() {
		rows[r.Rule] = r
	}
	for _, tc := range []struct {
		rule      string
		decidable bool
	}{
		{"V3-LIMIT-IP-PUBLIC", true},
		{"V3-LIMIT-WS-TRADING-MSG", true},
		{"V3-LIMIT-ACCT-WS-TRADING-SUBSCRIBE", true}, // 5 of the stream's 20
		{"V3-LIMIT-ACCT-WS-WALLET-LOGIN", true},      // 12
		{"V3-LIMIT-ACCT-WS-WALLET", true},            // 15
		{"V2-LIMIT-OTHER", true},                     // no per-IP row
		{"V3-LIMIT-ACCT-WS-TRADING-QUERY", false},    // 30 > 20
		{"V3-LIMIT-ACCT-WS-TRADING-ORDER", false},
		{"V3-LIMIT-ACCT-WALLET", false},     // 50 > 20
		{"V3-LIMIT-ACCT-BUYCRYPTO", false},  // 50 > 20
		{"V3-LIMIT-ACCT-SUBACCOUNT", false}, // 50 = 50
	} {
		if why := one.cannotDecide(rows[tc.rule]); (why == "") != tc.decidable {
			t.Errorf("%s: decidable %v, reason %q", tc.rule, tc.decidable, why)
		}
	}
	slow := &oneAddr{path: PathStats{Samples: 8, Min: 260 * time.Millisecond, Median: 270 * time.Millisecond, Max: 300 * time.Millisecond}}
	slow.undecidable = slow.path.Undecidable()
	if slow.cannotDecide(rows["V3-LIMIT-IP-PUBLIC"]) == "" {
		t.Error("a 300 ms round trip must make every row undecidable")
	}

	res := &Results{OneAddress: true, Rows: map[string]*RowResult{
		"V3-LIMIT-IP-PUBLIC":   {Row: rows["V3-LIMIT-IP-PUBLIC"], Inconclusive: "too slow"},
		"V3-LIMIT-ACCT-WALLET": {Row: rows["V3-LIMIT-ACCT-WALLET"], Inconclusive: "hidden"},
	}}
	for _, id := range []string{"V3-LIMIT-IP-PUBLIC", "V3-LIMIT-ACCT-WALLET", ruleWindow, rule429, rulePerAccount} {
		if v := res.Judge(id); v.Skipped != "" || len(v.Problems) > 0 || len(v.Inconclusive) == 0 {
			t.Errorf("%s: skipped %q, problems %q, inconclusive %q; want inconclusive", id, v.Skipped, v.Problems, v.Inconclusive)
		}
	}

	held := Outcome{Who: "x", Budget: 50, Exact: Burst{Offered: 75, Accepted: 50, Refused: 25}}
	res = &Results{OneAddress: true, Identity: []Outcome{held, held},
		Caps: []CapOutcome{{Stream: "/ws/public", Opened: ConnCap, Extra: "refused", OneAddress: true, Freed: true}}}
	for _, id := range []string{rulePerIP, ruleConn} {
		if v := res.Judge(id); len(v.Problems) > 0 || len(v.Inconclusive) != 1 || !strings.Contains(v.Inconclusive[0], "second address") {
			t.Errorf("%s: problems %q, inconclusive %q; want the second address's part inconclusive", id, v.Problems, v.Inconclusive)
		}
	}
	res.Caps[0].ExtraAccepted = true
	if v := res.Judge(ruleConn); len(v.Problems) == 0 {
		t.Error("connection 101 accepted from one address must fail V3-LIMIT-WS-CONN")
	}
}
