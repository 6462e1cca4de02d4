package mutation

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/internal/registration"
	"github.com/conform-harness/conform/reporters/killtable"
	"github.com/conform-harness/conform/target"
)

// fakeSuite plays the suite binary for a Runner: it writes the report the
// job names, every spec of the run's rules failing under a fault in fail,
// and no report at all for a fault in broken. It records the most runs it
// saw at once.
type fakeSuite struct {
	fail, broken []string
	// secondOnly: faults whose specs fail from their second run on (a kill
	// that needs a harness on time).
	secondOnly []string
	// baselineOnce: the baseline fails its first run (a harness off time).
	baselineOnce bool
	mu           sync.Mutex
	now, most    int
	envs         [][]string
	runs         map[string]int
}

func (f *fakeSuite) exec(ctx context.Context, c Cmd) (int, error) {
	f.mu.Lock()
	f.now++
	f.most = max(f.most, f.now)
	f.envs = append(f.envs, c.Env)
	f.mu.Unlock()
	defer func() { f.mu.Lock(); f.now--; f.mu.Unlock() }()
	time.Sleep(5 * time.Millisecond) // long enough for the runs to overlap
	var filter, report, fault string
	for _, a := range c.Args {
		switch {
		case strings.HasPrefix(a, "--ginkgo.label-filter="):
			filter = strings.TrimPrefix(a, "--ginkgo.label-filter=")
		case strings.HasPrefix(a, "-conform.report="):
			report = strings.TrimPrefix(a, "-conform.report=")
		case strings.HasPrefix(a, "-conform.faults="):
			fault = strings.TrimPrefix(a, "-conform.faults=")
		}
	}
	if slices.Contains(f.broken, fault) {
		return 2, nil
	}
	f.mu.Lock()
	if f.runs == nil {
		f.runs = map[string]int{}
	}
	f.runs[fault]++
	again := f.runs[fault] > 1
	f.mu.Unlock()
	state := types.SpecStatePassed
	if slices.Contains(f.fail, fault) || again && slices.Contains(f.secondOnly, fault) || fault == "" && f.baselineOnce && !again {
		state = types.SpecStateFailed
	}
	var specs []types.SpecReport
	for _, l := range strings.Split(filter, " || ") {
		specs = append(specs, types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: l, LeafNodeLabels: []string{l}, State: state})
	}
	b, err := json.Marshal([]types.Report{{SuiteDescription: "conform", SpecReports: specs}})
	if err != nil {
		return 0, err
	}
	if err := os.WriteFile(report, b, 0o644); err != nil {
		return 0, err
	}
	if state == types.SpecStateFailed {
		return 1, nil
	}
	return 0, nil
}

// A plan run through a Runner: every job runs once, at most Parallel at a
// time, with the mutation environment; Judge then kills the fault whose
// spec failed, keeps the survivor and the broken run apart, and passes the
// baseline.
func TestRunnerAndJudge(t *testing.T) {
	dir := t.TempDir()
	all := []faults.Fault{{Rule: "V3-KILLED"}, {Rule: "V3-SURVIVED"}, {Rule: "V3-BROKEN"}, {Rule: "V3-NOSPEC"}}
	covered := []string{"V3-KILLED", "V3-SURVIVED", "V3-BROKEN"}
	p := NewPlan(covered, map[string]Wait{}, 2, dir, time.Minute)
	p.Confine(map[string][]string{"V3-KILLED": {"spot/a.go:1"}, "V3-SURVIVED": {"auth/b.go:2"}, "V3-BROKEN": {"errors/c.go:3"}})
	f := &fakeSuite{fail: []string{"V3-KILLED"}, broken: []string{"V3-BROKEN"}}
	var progress bytes.Buffer
	r := Runner{Suite: "suites.test", Dir: dir, Parallel: 2, Timeout: time.Minute, Exec: f.exec, Progress: &progress}
	runs := r.Run(context.Background(), p.Jobs)
	if len(runs) != len(p.Jobs) || f.most > 2 {
		t.Errorf("%d runs of %d jobs, %d at once (want at most 2)", len(runs), len(p.Jobs), f.most)
	}
	if n := strings.Count(progress.String(), "\n"); n != len(p.Jobs) || !strings.Contains(progress.String(), "V3-BROKEN error: suite exited with status 2 and wrote no report") {
		t.Errorf("progress:\n%s", progress.String())
	}
	oneP := 0
	for _, env := range f.envs {
		if !slices.Contains(env, target.SuiteEnv+"=") {
			t.Errorf("a run's environment %q passes a handed-down target on", env)
		}
		if slices.Contains(env, "GOMAXPROCS=1") {
			oneP++
		}
		if !slices.ContainsFunc(env, func(v string) bool { return strings.HasPrefix(v, registration.Env+"=") && v != registration.Env+"=" }) {
			t.Errorf("a run's environment %q names no container", env)
		}
	}

	if _, set := os.LookupEnv("GOMAXPROCS"); !set && oneP != 3 {
		t.Errorf("%d runs with one P, want the 3 fault runs (not the baseline)", oneP)
	}
	specs := func(rule string) int {
		if slices.Contains(covered, rule) {
			return 1
		}
		return 0
	}
	m := Judge(all, specs, p, runs)
	want := map[string]killtable.Verdict{"V3-KILLED": killtable.Killed, "V3-SURVIVED": killtable.Survived, "V3-BROKEN": killtable.Broken, "V3-NOSPEC": killtable.NoSpec}
	for _, res := range m.Faults {
		if res.Verdict != want[res.Rule] {
			t.Errorf("%s: %s, want %s", res.Rule, res.Verdict, want[res.Rule])
		}
		if res.Rule == "V3-KILLED" && (res.Report != dir+"/V3-KILLED.json" || res.Log != dir+"/V3-KILLED.log") {
			t.Errorf("%s: files %s, %s", res.Rule, res.Report, res.Log)
		}
	}
	if m.Baseline == nil || !m.Baseline.Passed || m.Killed != 1 || m.Total != 4 {
		t.Errorf("kill table: killed %d/%d, baseline %+v", m.Killed, m.Total, m.Baseline)
	}
}

// A run that cannot start is an error of that run, not of the others.
// A run that left out specs of its rules (a container it did not
// register) judges nothing: the fault's run is ERROR, the baseline fails.
func TestJudgeWantsEverySpec(t *testing.T) {
	dir := t.TempDir()
	p := NewPlan([]string{"V3-A"}, nil, 1, dir, time.Minute)
	f := &fakeSuite{fail: []string{"V3-A"}} // one spec per rule
	r := Runner{Suite: "suites.test", Dir: dir, Parallel: 1, Timeout: time.Minute, Exec: f.exec, Progress: &bytes.Buffer{}}
	m := Judge([]faults.Fault{{Rule: "V3-A"}}, func(string) int { return 2 }, p, r.Run(context.Background(), p.Jobs))
	if res := m.Faults[0]; res.Verdict != killtable.Broken || !strings.Contains(res.Note, "held 1 of the rule's 2 specs") {
		t.Errorf("fault: %+v", res)
	}
	if b := m.Baseline; b.Passed || !strings.Contains(strings.Join(b.Problems, "\n"), "baseline-1: held 1 of the 2 specs of V3-A") {
		t.Errorf("baseline: %+v", b)
	}
}

func TestRunnerExecError(t *testing.T) {
	dir := t.TempDir()
	p := NewPlan([]string{"V3-A"}, nil, 1, dir, time.Minute)
	r := Runner{Dir: dir, Parallel: 1, Timeout: time.Minute, Progress: &bytes.Buffer{},
		Exec: func(context.Context, Cmd) (int, error) { return 0, errors.New("no such file") }}
	for name, run := range r.Run(context.Background(), p.Jobs) {
		if run.Err == nil || !strings.Contains(run.Err.Error(), "no such file") {
			t.Errorf("%s: %v", name, run.Err)
		}
	}
}

// A fault that survives its first run gets a second, fewer at a time: killed
// there, its note says it was killed only on its second run and what the
// first said; a fault that survives both stays SURVIVED; killed ones are not
// run again.
func TestRunnerAgain(t *testing.T) {
	dir := t.TempDir()
	all := []faults.Fault{{Rule: "V3-KILLED"}, {Rule: "V3-LATE"}, {Rule: "V3-SURVIVED"}}
	covered := []string{"V3-KILLED", "V3-LATE", "V3-SURVIVED"}
	p := NewPlan(covered, map[string]Wait{}, 4, dir, time.Minute)
	f := &fakeSuite{fail: []string{"V3-KILLED"}, secondOnly: []string{"V3-LATE"}, baselineOnce: true}
	var progress bytes.Buffer
	r := Runner{Suite: "suites.test", Dir: dir, Parallel: 4, Timeout: time.Minute, Exec: f.exec, Progress: &progress}
	runs := r.Run(context.Background(), p.Jobs)
	specs := func(string) int { return 1 }
	first := Judge(all, specs, p, runs)
	f.most = 0
	m := r.Again(context.Background(), all, specs, p, runs, first)
	want := map[string]killtable.Verdict{"V3-KILLED": killtable.Killed, "V3-LATE": killtable.Killed, "V3-SURVIVED": killtable.Survived}
	for _, res := range m.Faults {
		if res.Verdict != want[res.Rule] {
			t.Errorf("%s: %s, want %s", res.Rule, res.Verdict, want[res.Rule])
		}
		if late := res.Rule == "V3-LATE"; late != strings.Contains(res.Note, "killed on its second run") {
			t.Errorf("%s: note %q", res.Rule, res.Note)
		}
	}
	if f.runs["V3-KILLED"] != 1 || f.runs["V3-LATE"] != 2 || f.runs["V3-SURVIVED"] != 2 || f.most > againParallel {
		t.Errorf("runs %v, %d at once", f.runs, f.most)
	}
	if first.Baseline.Passed || !m.Baseline.Passed {
		t.Errorf("baseline: first run passed %v, second %v (want false, true)", first.Baseline.Passed, m.Baseline.Passed)
	}
	if m.Killed != 2 || !strings.Contains(progress.String(), "2 faults survived their first run and 1 baseline parts failed; running them again") {
		t.Errorf("killed %d; progress:\n%s", m.Killed, progress.String())
	}
}

// writeRun writes a conform run's Ginkgo report of one spec per rule, in
// state, with the run's label filter.
func writeRun(t *testing.T, filter string, state types.SpecState, ids ...string) string {
	t.Helper()
	var specs []types.SpecReport
	for _, id := range ids {
		specs = append(specs, types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: id, LeafNodeLabels: []string{"rule:" + id}, State: state})
	}
	b, err := json.Marshal([]types.Report{{SuiteDescription: "conform", SuiteConfig: types.SuiteConfig{LabelFilter: filter}, SpecReports: specs}})
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/ginkgo.json"
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A baseline given as a conform run's report: no baseline job runs, the
// fault runs do, and the report is judged as a baseline run is (every spec
// of each covered rule there, none failed); a filtered run, a missing file
// are refused.
func TestUseBaseline(t *testing.T) {
	all := []faults.Fault{{Rule: "V3-A"}, {Rule: "V3-B"}}
	covered := []string{"V3-A", "V3-B"}
	one := func(string) int { return 1 }
	run := func(p Plan) *killtable.Mutation {
		f := &fakeSuite{fail: []string{"V3-A", "V3-B"}}
		r := Runner{Suite: "suites.test", Dir: t.TempDir(), Parallel: 2, Timeout: time.Minute, Exec: f.exec, Progress: &bytes.Buffer{}}
		runs := r.Run(context.Background(), p.Jobs)
		if _, ran := f.runs[""]; ran {
			t.Errorf("a baseline job ran beside the given baseline")
		}
		return Judge(all, one, p, runs)
	}
	p := NewPlan(covered, nil, 2, t.TempDir(), time.Minute)
	given := writeRun(t, "", types.SpecStatePassed, "V3-A", "V3-B", "V3-OTHER")
	if err := p.UseBaseline(given); err != nil {
		t.Fatal(err)
	}
	if len(p.Jobs) != 2 || len(p.BaselineJobs) != 0 {
		t.Fatalf("jobs %+v, baseline jobs %v: want the two fault runs alone", p.Jobs, p.BaselineJobs)
	}
	m := run(p)
	if b := m.Baseline; b == nil || !b.Passed || b.From != given || len(b.Parts) != 0 || m.Killed != 2 {
		t.Errorf("kill table: killed %d, baseline %+v", m.Killed, m.Baseline)
	}

	for _, c := range []struct {
		name, want string
		report     string
	}{
		{"a spec failed", "fails without any fault", writeRun(t, "", types.SpecStateFailed, "V3-A", "V3-B")},
		{"a rule's spec missing", "held 0 of the 1 specs of V3-B", writeRun(t, "", types.SpecStatePassed, "V3-A")},
	} {
		p := NewPlan(covered, nil, 2, t.TempDir(), time.Minute)
		if err := p.UseBaseline(c.report); err != nil {
			t.Fatal(err)
		}
		if b := run(p).Baseline; b.Passed || !strings.Contains(strings.Join(b.Problems, "\n"), c.want) {
			t.Errorf("%s: baseline %+v, want a problem saying %q", c.name, b, c.want)
		}
	}
	filtered := NewPlan(covered, nil, 2, t.TempDir(), time.Minute)
	if err := filtered.UseBaseline(writeRun(t, "area:spot", types.SpecStatePassed, "V3-A", "V3-B")); err == nil ||
		!strings.Contains(err.Error(), `a run of the specs matching "area:spot"`) {
		t.Errorf("a filtered run as the baseline: %v", err)
	}
	missing := NewPlan(covered, nil, 2, t.TempDir(), time.Minute)
	if err := missing.UseBaseline(t.TempDir() + "/none.json"); err == nil {
		t.Error("a missing report as the baseline: no error")
	}
}
