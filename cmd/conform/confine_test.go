package main

import (
	"slices"
	"testing"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/internal/registration"
)

func TestConfinementOf(t *testing.T) {
	spec := func(file string, line int, state types.SpecState) types.SpecReport {
		return types.SpecReport{LeafNodeType: types.NodeTypeIt, State: state, LeafNodeText: file,
			ContainerHierarchyLocations: []types.CodeLocation{{FileName: "/m/suites/" + file, LineNumber: line}}}
	}
	run, skip := types.SpecStatePassed, types.SpecStateSkipped
	tests := []struct {
		name       string
		specs      []types.SpecReport
		containers []string // nil: not confined
		left       int
	}{
		{"nothing selected: the run says so", []types.SpecReport{spec("spot/a.go", 1, skip), spec("auth/b.go", 2, skip)}, nil, 0},
		{"every container has a selected spec", []types.SpecReport{spec("spot/a.go", 1, run), spec("auth/b.go", 2, skip), spec("auth/b.go", 2, run)}, nil, 0},
		{"some containers", []types.SpecReport{spec("spot/a.go", 1, run), spec("spot/a.go", 1, skip), spec("auth/b.go", 2, skip), spec("auth/c.go", 9, skip)},
			[]string{"spot/a.go:1"}, 2},
		{"a pending spec counts as selected", []types.SpecReport{spec("spot/a.go", 1, types.SpecStatePending), spec("auth/b.go", 2, skip)},
			[]string{"spot/a.go:1"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dry := []types.Report{{SpecReports: tc.specs}}
			c := confinementOf(dry)
			if tc.containers == nil {
				if c != nil {
					t.Fatalf("confined to %v, want the whole tree", c.containers)
				}
				if c.env() != nil {
					t.Errorf("nil confinement has env %v", c.env())
				}
				return
			}
			if c == nil || !slices.Equal(c.containers, tc.containers) || len(c.left) != tc.left {
				t.Fatalf("confinement %+v, want containers %v and %d specs left", c, tc.containers, tc.left)
			}
			if got, want := c.env(), []string{registration.Env + "=" + registration.Value(tc.containers)}; !slices.Equal(got, want) {
				t.Errorf("env %v, want %v", got, want)
			}
			// The run's report gets the specs left out, skipped as the filter
			// leaves them: as many specs as the whole tree.
			ran := []types.Report{{SpecReports: []types.SpecReport{spec("spot/a.go", 1, run)}}}
			c.complete(ran)
			if n := len(ran[0].SpecReports); n != 1+tc.left {
				t.Errorf("completed report has %d specs, want %d", n, 1+tc.left)
			}
			for _, s := range ran[0].SpecReports[1:] {
				if s.State != types.SpecStateSkipped {
					t.Errorf("a spec left out is %s, want skipped", s.State)
				}
			}
		})
	}
}
