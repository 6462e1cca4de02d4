// Package rules is the catalogue of every documented rule of the exchange API
// that conform knows about: its stable ID, area, spec section, one-sentence
// statement and status. Rules are declared once, here; suites name them,
// the emulator keys its faults by them and reporters join runs with them.
package rules

import (
	"fmt"
	"sort"
	"strings"
)

// Status says how a rule takes part in a conformance run.
type Status string

const (
	// Testable rules have a spec that passes or fails.
	Testable Status = "testable"
	// Ambiguous rules are ones the spec leaves open (a code or status not
	// given, two readings of a sentence, v2 and v3 disagreeing). Their specs
	// record what the target did as an informational outcome.
	Ambiguous Status = "ambiguous"
	// OutOfScope rules are items the spec marks "not shown" or that a client
	// cannot provoke; they are listed so that nobody guesses them into
	// assertions.
	OutOfScope Status = "out-of-scope"
)

// Rule is one documented rule.
type Rule struct {
	// ID is stable across releases, e.g. V3-SYMBOL-FILTER.
	ID string `json:"id"`
	// Area is the rule's section of its document, one of Areas(): the same
	// name as its catalogue file, fault file, suite package and report group.
	Area string `json:"area"`
	// Section names the heading of the spec the rule comes from.
	Section string `json:"section"`
	// Statement is the rule in one sentence; specs use it as their text.
	Statement string `json:"statement"`
	// Status is testable, ambiguous or out-of-scope.
	Status Status `json:"status"`
	// Reason explains an ambiguous or out-of-scope status.
	Reason string `json:"reason,omitempty"`
	// Pending names the work a testable rule is waiting for (for example an
	// endpoint that a later issue brings); such a rule may have no spec yet.
	Pending string `json:"pending,omitempty"`
	// EmulatorOnly says why the rule, or the part of it the sentence names,
	// is judged only where the conform emulator's control plane (reset,
	// fund, clock) is: on a sandbox its specs skip with this reason. Empty
	// for a rule judged on any target that may trade.
	EmulatorOnly string `json:"emulator_only,omitempty"`
	// SecondAddress says why the rule, or the part of it the sentence names,
	// is judged only by a harness with source addresses of its own (a
	// loopback emulator): from one address (a CI runner behind NAT, a
	// sandbox across a network) its specs end inconclusive with this
	// reason. Empty for a rule one address can judge.
	SecondAddress string `json:"second_address,omitempty"`
}

// Catalogue is an immutable, ordered set of rules.
type Catalogue struct {
	rules []Rule
	byID  map[string]int
}

// New builds a catalogue and checks that IDs are unique and well formed.
func New(rs ...[]Rule) (*Catalogue, error) {
	c := &Catalogue{byID: map[string]int{}}
	for _, group := range rs {
		for _, r := range group {
			if err := r.validate(); err != nil {
				return nil, err
			}
			if _, dup := c.byID[r.ID]; dup {
				return nil, fmt.Errorf("rules: duplicate rule ID %s", r.ID)
			}
			c.byID[r.ID] = len(c.rules)
			c.rules = append(c.rules, r)
		}
	}
	return c, nil
}

func (r Rule) validate() error {
	switch {
	case r.ID == "" || strings.ToUpper(r.ID) != r.ID || strings.ContainsAny(r.ID, " &|!,()/:{}"):
		return fmt.Errorf("rules: malformed rule ID %q", r.ID)
	case r.Area == "" || r.Section == "" || r.Statement == "":
		return fmt.Errorf("rules: rule %s lacks area, section or statement", r.ID)
	case !knownArea(r.Area):
		return fmt.Errorf("rules: rule %s names unknown area %q (see Areas)", r.ID, r.Area)
	case r.Status != Testable && r.Status != Ambiguous && r.Status != OutOfScope:
		return fmt.Errorf("rules: rule %s has unknown status %q", r.ID, r.Status)
	case r.Status != Testable && r.Reason == "":
		return fmt.Errorf("rules: %s rule %s needs a reason", r.Status, r.ID)
	case r.EmulatorOnly != "" && r.Status != Testable:
		return fmt.Errorf("rules: %s rule %s cannot be emulator-only: only testable rules are judged", r.Status, r.ID)
	case r.SecondAddress != "" && r.Status != Testable:
		return fmt.Errorf("rules: %s rule %s cannot need a second address: only testable rules are judged", r.Status, r.ID)
	}
	return nil
}

func knownArea(name string) bool {
	_, ok := LookupArea(name)
	return ok
}

// Default returns the catalogue of everything declared in this package.
func Default() *Catalogue { return defaultCatalogue }

var defaultCatalogue = mustNew(
	conventionsRules,
	marketdataRules,
	authRules,
	spotRules,
	orderlistsRules,
	marginRules,
	streampublicRules,
	streamtradingRules,
	streamwalletRules,
	errorsRules,
	limitsRules,
	subaccountsRules,
	buycryptoRules,
	versioningRules,
	v2subaccountsRules,
	v2buycryptoRules,
	v2conventionsRules,
	v2marketdataRules,
	v2historyRules,
	v2accountRules,
	v2authRules,
	v2errorsRules,
	v2limitsRules,
	v2versioningRules,
	v2streamsRules,
)

func mustNew(rs ...[]Rule) *Catalogue {
	c, err := New(rs...)
	if err != nil {
		panic(err) // a malformed declaration is a programming error caught by go test
	}
	return c
}

// All returns the rules in declaration order.
func (c *Catalogue) All() []Rule { return append([]Rule(nil), c.rules...) }

// Lookup finds a rule by ID.
func (c *Catalogue) Lookup(id string) (Rule, bool) {
	i, ok := c.byID[id]
	if !ok {
		return Rule{}, false
	}
	return c.rules[i], true
}

// Check returns an error naming every ID that is not in the catalogue or
// that names an out-of-scope rule (those must never be asserted).
func (c *Catalogue) Check(ids ...string) error {
	var bad []string
	for _, id := range ids {
		r, ok := c.Lookup(id)
		switch {
		case !ok:
			bad = append(bad, fmt.Sprintf("%s (not in the rule catalogue)", id))
		case r.Status == OutOfScope:
			bad = append(bad, fmt.Sprintf("%s (out of scope: %s)", id, r.Reason))
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		return fmt.Errorf("unknown or unusable rule ID: %s", strings.Join(bad, ", "))
	}
	return nil
}

// LabelPrefix starts the Ginkgo label that ties a spec to a rule.
const LabelPrefix = "rule:"

// Label is the Ginkgo label for a rule ID ("rule:<ID>").
func Label(id string) string { return LabelPrefix + id }

// FromLabels extracts rule IDs from a spec's labels.
func FromLabels(labels []string) []string {
	var ids []string
	for _, l := range labels {
		if id, ok := strings.CutPrefix(l, LabelPrefix); ok {
			ids = append(ids, id)
		}
	}
	return ids
}
