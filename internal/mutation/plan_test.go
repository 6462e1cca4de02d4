package mutation

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/reporters/killtable"
)

func spec(serial bool, labels ...string) types.SpecReport {
	return types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeLabels: labels, IsSerial: serial}
}

func TestWaits(t *testing.T) {
	reports := []types.Report{{SpecReports: []types.SpecReport{
		spec(false, "rule:V3-PING", "limits", "slow"),
		spec(false, "rule:V3-LIMIT-A", "limits"),
		spec(false, "rule:V3-WS-A", "area:streamtrading"),
		spec(true, "rule:V3-FILL"),
		spec(false, "rule:V3-REST", "rule:V3-LIMIT-A"),
		spec(false, "rule:V3-REST"),
		{LeafNodeType: types.NodeTypeBeforeSuite, LeafNodeLabels: []string{"rule:V3-SUITE", "slow"}},
	}}}
	got := Waits(reports)
	want := map[string]Wait{"V3-PING": WaitSlow, "V3-LIMIT-A": WaitLimits, "V3-WS-A": WaitStreams, "V3-FILL": WaitStreams, "V3-REST": WaitShort}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Waits = %v, want %v", got, want)
	}
}

// A rule's containers are its specs' top-level containers (the v2 limit
// specs sit in suites/limits' container), or a spec at the top.
func TestContainers(t *testing.T) {
	in := func(leaf string, containers ...string) types.SpecReport {
		s := spec(false)
		s.LeafNodeLocation = types.CodeLocation{FileName: leaf, LineNumber: 9}
		for i, c := range containers {
			s.ContainerHierarchyLocations = append(s.ContainerHierarchyLocations, types.CodeLocation{FileName: c, LineNumber: i + 1})
		}
		return s
	}
	labelled := func(s types.SpecReport, labels ...string) types.SpecReport { s.LeafNodeLabels = labels; return s }
	reports := []types.Report{{SpecReports: []types.SpecReport{
		labelled(in("/c/suites/spot/a.go", "/c/suites/spot/a.go"), "rule:V3-SPOT", "rule:V3-ERR"),
		labelled(in("/c/suites/trading/rights.go", "/c/suites/auth/auth.go", "/c/suites/trading/rights.go"), "rule:V3-ERR"),
		labelled(in("/c/suites/v2limits/batch.go", "/c/suites/limits/limits.go", "/c/suites/limits/limits.go"), "rule:V2-LIMIT"),
		labelled(in("/c/suites/top/top.go"), "rule:V3-TOP"),
		{LeafNodeType: types.NodeTypeBeforeSuite, LeafNodeLabels: []string{"rule:V3-SUITE"}},
	}}}
	got := Containers(reports)
	want := map[string][]string{"V3-SPOT": {"spot/a.go:1"}, "V3-ERR": {"spot/a.go:1", "auth/auth.go:1"}, "V2-LIMIT": {"limits/limits.go:1"}, "V3-TOP": {"top/top.go:9"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Containers = %v, want %v", got, want)
	}
}

// Confine gives each job the containers of its rules; a job with a rule of
// no known container registers every one.
func TestConfine(t *testing.T) {
	p := NewPlan([]string{"V3-A", "V3-B", "V3-C", "V3-D"}, map[string]Wait{}, 1, "/r", time.Minute)
	p.Confine(map[string][]string{"V3-A": {"s/a.go:1"}, "V3-B": {"s/a.go:1", "a/b.go:2"}, "V3-C": {"e/c.go:3"}})
	var got []string
	for _, j := range p.Jobs {
		got = append(got, fmt.Sprintf("%s%v%v", j.Name, j.Rules, j.Containers))
	}
	want := []string{"baseline-1[V3-A V3-B][a/b.go:2 s/a.go:1]", "baseline-2[V3-C V3-D][]", "V3-A[V3-A][s/a.go:1]", "V3-B[V3-B][a/b.go:2 s/a.go:1]", "V3-C[V3-C][e/c.go:3]", "V3-D[V3-D][]"}
	if !slices.Equal(got, want) {
		t.Errorf("confined:\n got %q\nwant %q", got, want)
	}
}

func TestPlanJobs(t *testing.T) {
	waits := map[string]Wait{"PING": WaitSlow, "L1": WaitLimits, "L2": WaitLimits, "WS": WaitStreams}
	covered := []string{"A", "L1", "B", "PING", "WS", "L2", "C", "D"}
	job := func(name, filter string, faultIDs ...string) Job {
		return Job{Name: name, Filter: filter}
	}
	jobs, baseline := planJobs(covered, waits, 1, job)
	var got []string
	for _, j := range jobs {
		got = append(got, j.Name+"{"+j.Filter+"}")
	}
	// The slow rule's baseline and run first, then the limit rules' baseline
	// and the shares of the rest (two per slot), the limit runs, the stream
	// run, and the short runs in catalogue order.
	want := []string{
		"baseline-1{rule:PING}", "PING{rule:PING}",
		"baseline-2{rule:L1 || rule:L2}", "baseline-3{rule:A || rule:B}", "baseline-4{rule:WS || rule:C || rule:D}",
		"L1{rule:L1}", "L2{rule:L2}", "WS{rule:WS}",
		"A{rule:A}", "B{rule:B}", "C{rule:C}", "D{rule:D}",
	}
	if !slices.Equal(got, want) {
		t.Errorf("plan:\n got %q\nwant %q", got, want)
	}
	// One P for the short fault runs only: not a baseline part, nor a slow,
	// limit or stream run.
	for _, j := range jobs {
		if short := slices.Contains([]string{"A", "B", "C", "D"}, j.Name); j.OneP != short {
			t.Errorf("%s: OneP %v", j.Name, j.OneP)
		}
	}
	if !slices.Equal(baseline, []string{"baseline-1", "baseline-2", "baseline-3", "baseline-4"}) {
		t.Errorf("baseline parts %q", baseline)
	}
	// Every covered rule is in exactly one baseline part.
	var parts []string
	for _, s := range baselineShares(covered, waits, 3) {
		parts = append(parts, s...)
	}
	slices.Sort(parts)
	if sorted := slices.Sorted(slices.Values(covered)); !slices.Equal(parts, sorted) {
		t.Errorf("baseline parts cover %q, want %q", parts, sorted)
	}
}

// NewPlan names each run's files in the directory, gives the fault runs
// their fault and the baseline none, and lists the baseline's parts with
// their files.
func TestNewPlan(t *testing.T) {
	if p := NewPlan(nil, nil, 2, "/r", time.Minute); p.Jobs != nil || p.Baseline != nil {
		t.Errorf("nothing covered: %+v", p)
	}
	p := NewPlan([]string{"V3-A", "V3-B"}, map[string]Wait{}, 1, "/r", time.Minute)
	if len(p.Jobs) != 4 || !slices.Equal(p.BaselineJobs, []string{"baseline-1", "baseline-2"}) { // two shares per slot
		t.Fatalf("plan: %+v", p)
	}
	for _, j := range p.Jobs {
		if j.Report != filepath.Join("/r", j.Name+".json") || j.Log != filepath.Join("/r", j.Name+".log") {
			t.Errorf("%s: files %s, %s", j.Name, j.Report, j.Log)
		}
		faulty := slices.ContainsFunc(j.Args, func(a string) bool { return strings.HasPrefix(a, "-conform.faults=") })
		if faulty != !strings.HasPrefix(j.Name, "baseline-") || !slices.Contains(j.Args, "-conform.report="+j.Report) {
			t.Errorf("%s: args %q", j.Name, j.Args)
		}
	}
	b := p.Baseline
	if b.LabelFilter != "rule:V3-A || rule:V3-B" || len(b.Parts) != 2 || b.Parts[1].Report != "/r/baseline-2.json" || b.Parts[1].Log != "/r/baseline-2.log" {
		t.Errorf("baseline %+v", b)
	}
}

func TestSuiteArgs(t *testing.T) {
	got := SuiteArgs(killtable.RuleFilter("V3-A"), "/r/V3-A.json", time.Minute, "V3-A")
	want := []string{"--ginkgo.label-filter=rule:V3-A", "-conform.report=/r/V3-A.json", "--ginkgo.no-color", "--ginkgo.timeout=1m0s", "-conform.faults=V3-A"}
	if !slices.Equal(got, want) {
		t.Errorf("fault run:\n got %q\nwant %q", got, want)
	}
	got = SuiteArgs(killtable.RuleFilter("V3-A", "V3-B"), "/r/baseline.json", time.Minute)
	if got[0] != "--ginkgo.label-filter=rule:V3-A || rule:V3-B" || slices.ContainsFunc(got, func(a string) bool { return strings.HasPrefix(a, "-conform.faults") }) {
		t.Errorf("baseline run: %q", got)
	}
	if _, err := types.ParseLabelFilter(killtable.RuleFilter("V3-A", "V3-B-C")); err != nil {
		t.Errorf("rule filter does not parse: %v", err)
	}
}

func TestShares(t *testing.T) {
	ids := []string{"A", "B", "C", "D", "E"}
	for n, want := range map[int]string{0: "[[A B C D E]]", 1: "[[A B C D E]]", 2: "[[A B] [C D E]]", 5: "[[A] [B] [C] [D] [E]]", 9: "[[A] [B] [C] [D] [E]]"} {
		if got := fmt.Sprint(shares(ids, n)); got != want {
			t.Errorf("shares(5 ids, %d) = %s, want %s", n, got, want)
		}
	}
}
