package rules

import (
	"strings"
	"testing"
)

func TestDefaultCatalogueIsWellFormed(t *testing.T) {
	c := Default()
	if len(c.All()) == 0 {
		t.Fatal("empty catalogue")
	}
	for _, r := range c.All() {
		if !strings.HasPrefix(r.ID, "V3-") && !strings.HasPrefix(r.ID, "V2-") {
			t.Errorf("%s: IDs start with the API version", r.ID)
		}
		if r.Pending != "" && r.Status != Testable {
			t.Errorf("%s: only testable rules can be pending", r.ID)
		}
	}
}

func TestNewRejectsBadDeclarations(t *testing.T) {
	cases := []struct {
		name string
		rs   []Rule
	}{
		{"duplicate", []Rule{{ID: "V3-A", Area: "spot", Section: "s", Statement: "x", Status: Testable}, {ID: "V3-A", Area: "spot", Section: "s", Statement: "x", Status: Testable}}},
		{"lower case", []Rule{{ID: "v3-a", Area: "spot", Section: "s", Statement: "x", Status: Testable}}},
		{"label syntax", []Rule{{ID: "V3-A|B", Area: "spot", Section: "s", Statement: "x", Status: Testable}}},
		{"ambiguous without reason", []Rule{{ID: "V3-A", Area: "spot", Section: "s", Statement: "x", Status: Ambiguous}}},
		{"no statement", []Rule{{ID: "V3-A", Area: "spot", Section: "s", Status: Testable}}},
		{"emulator-only but not testable", []Rule{{ID: "V3-A", Area: "spot", Section: "s", Statement: "x", Status: Ambiguous, Reason: "r", EmulatorOnly: "a clock"}}},
	}
	for _, tc := range cases {
		if _, err := New(tc.rs); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

func TestCheck(t *testing.T) {
	c := Default()
	if err := c.Check("V3-SYMBOL-MAP", "V3-AUTH-CODE-CHOICE"); err != nil {
		t.Fatal(err)
	}
	if err := c.Check("V3-NOPE"); err == nil || !strings.Contains(err.Error(), "V3-NOPE") {
		t.Fatalf("unknown ID: %v", err)
	}
	if err := c.Check("V3-OOS-ERROR-LIST"); err == nil {
		t.Fatal("out-of-scope rule accepted as checkable")
	}
	if got := FromLabels([]string{"fast", Label("V3-X")}); len(got) != 1 || got[0] != "V3-X" {
		t.Fatalf("FromLabels: %v", got)
	}
}

// Every limit row names a testable limit rule, once.
func TestLimitsNameLimitRules(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range Limits() {
		r, ok := Default().Lookup(l.Rule)
		if !ok || r.Area != "limits" || seen[l.Rule] || l.Rate <= 0 || len(l.Prefixes) == 0 {
			t.Errorf("limit row %+v: rule %+v found %v, twice %v", l, r, ok, seen[l.Rule])
		}
		seen[l.Rule] = true
	}
}

// Every rule's area is one of Areas, and Areas names each area once.
func TestAreas(t *testing.T) {
	names := map[string]bool{}
	for _, a := range Areas() {
		if names[a.Name] || (a.Document != "api-v3.md" && a.Document != "api-v2.md") || a.Title == "" {
			t.Errorf("area %+v: twice %v", a, names[a.Name])
		}
		names[a.Name] = true
	}
	for _, r := range Default().All() {
		if !names[r.Area] {
			t.Errorf("%s: area %q is not in Areas", r.ID, r.Area)
		}
	}
}
