package main

import (
	"fmt"
	"slices"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

func spec(serial bool, labels ...string) types.SpecReport {
	return types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeLabels: labels, IsSerial: serial}
}

func TestRuleWaits(t *testing.T) {
	reports := report(
		spec(false, "rule:V3-PING", "limits", "slow"),
		spec(false, "rule:V3-LIMIT-A", "limits"),
		spec(false, "rule:V3-WS-A", "area:streamtrading"),
		spec(true, "rule:V3-FILL"),
		spec(false, "rule:V3-REST", "rule:V3-LIMIT-A"),
		spec(false, "rule:V3-REST"),
		types.SpecReport{LeafNodeType: types.NodeTypeBeforeSuite, LeafNodeLabels: []string{"rule:V3-SUITE", "slow"}},
	)
	got := ruleWaits(reports)
	want := map[string]waitClass{"V3-PING": waitSlow, "V3-LIMIT-A": waitLimits, "V3-WS-A": waitStreams, "V3-FILL": waitStreams, "V3-REST": waitShort}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ruleWaits = %v, want %v", got, want)
	}
}

func TestPlanJobs(t *testing.T) {
	waits := map[string]waitClass{"PING": waitSlow, "L1": waitLimits, "L2": waitLimits, "WS": waitStreams}
	covered := []string{"A", "L1", "B", "PING", "WS", "L2", "C", "D"}
	job := func(name, filter string, faultIDs ...string) mutationJob {
		return mutationJob{name: name, filter: filter}
	}
	jobs, baseline := planJobs(covered, waits, 1, job)
	var got []string
	for _, j := range jobs {
		got = append(got, j.name+"{"+j.filter+"}")
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
