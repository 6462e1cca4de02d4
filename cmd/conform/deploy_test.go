package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/conform-harness/conform/load"
	"go.yaml.in/yaml/v3"
)

// k8sJob is the part of a Kubernetes Job the test reads.
type k8sJob struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    int    `yaml:"completions"`
		Template       struct {
			Spec struct {
				InitContainers []k8sContainer `yaml:"initContainers"`
				Containers     []k8sContainer `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

type k8sContainer struct {
	Name    string   `yaml:"name"`
	Command []string `yaml:"command"`
	Args    []string `yaml:"args"`
	Env     []struct {
		Name string `yaml:"name"`
	} `yaml:"env"`
}

func readJobs(t *testing.T, file string) []k8sJob {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var jobs []k8sJob
	dec := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var j k8sJob
		if err := dec.Decode(&j); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if j.Kind == "Job" {
			jobs = append(jobs, j)
		}
	}
	return jobs
}

// TestKubernetesManifests checks the checked-in Indexed Jobs against the
// CLI: every worker's arguments parse as conform load's flags (the
// completion index substituted), and the merge step names exactly the
// results file of every worker of each job.
func TestKubernetesManifests(t *testing.T) {
	workers := map[string][]string{} // out dir prefix -> the workers' results files
	kinds := map[string]bool{}
	for _, j := range readJobs(t, "../../deploy/k8s/load-job.yaml") {
		if j.Spec.CompletionMode != "Indexed" || j.Spec.Completions < 2 {
			t.Errorf("job %s: completion mode %q, %d completions: want an Indexed Job of several workers", j.Metadata.Name, j.Spec.CompletionMode, j.Spec.Completions)
		}
		for _, c := range j.Spec.Template.Spec.Containers {
			if len(c.Command) != 1 || c.Command[0] != "conform" || len(c.Args) == 0 || c.Args[0] != "load" {
				t.Fatalf("job %s: container %s runs %v %v, want conform load", j.Metadata.Name, c.Name, c.Command, c.Args)
			}
			declared := false
			for _, e := range c.Env {
				declared = declared || e.Name == "JOB_COMPLETION_INDEX"
			}
			if !declared {
				t.Errorf("job %s: $(JOB_COMPLETION_INDEX) is expanded only when the container declares it", j.Metadata.Name)
			}
			var outs []string
			for i := range j.Spec.Completions {
				args := make([]string, len(c.Args)-1)
				for k, a := range c.Args[1:] {
					args[k] = strings.ReplaceAll(a, "$(JOB_COMPLETION_INDEX)", fmt.Sprint(i))
				}
				e, _, _ := testEnv(t)
				o, err := parseLoad(args, e)
				if err != nil {
					t.Fatalf("job %s worker %d: %v", j.Metadata.Name, i, err)
				}
				if o.workerID != i || o.config == "" {
					t.Errorf("job %s worker %d: worker id %d, config %q", j.Metadata.Name, i, o.workerID, o.config)
				}
				file := load.ResultsFile
				if load.IsStream(o.scenario) {
					file = load.StreamResultsFile
				}
				if load.IsMarket(o.scenario) {
					// The manifest says the v2 counterpart runs with the same
					// arguments but the scenario's name.
					v2 := slices.Clone(args)
					for k, a := range v2 {
						if a == "--scenario="+o.scenario {
							v2[k] = "--scenario=" + load.ScenarioWS2Market
						}
					}
					if o2, err := parseLoad(v2, e); err != nil || o2.scenario != load.ScenarioWS2Market {
						t.Errorf("job %s worker %d as %s: %v", j.Metadata.Name, i, load.ScenarioWS2Market, err)
					}
				}
				kinds[file] = true
				outs = append(outs, path.Join(o.out, file))
			}
			workers[path.Dir(path.Dir(outs[0]))] = outs
		}
	}
	if !kinds[load.ResultsFile] || !kinds[load.StreamResultsFile] {
		t.Errorf("the manifest runs %v: want a REST and a stream scenario", kinds)
	}
	merged := 0
	for _, j := range readJobs(t, "../../deploy/k8s/load-merge-job.yaml") {
		spec := j.Spec.Template.Spec
		for _, c := range append(spec.InitContainers, spec.Containers...) {
			if len(c.Args) < 2 || c.Args[0] != "load" || c.Args[1] != "merge" {
				t.Fatalf("merge job: container %s runs %v, want conform load merge", c.Name, c.Args)
			}
			o := &loadMergeOptions{}
			fs := loadMergeFlagSet(o)
			if err := fs.Parse(c.Args[2:]); err != nil {
				t.Fatalf("merge job: container %s: %v", c.Name, err)
			}
			files := fs.Args()
			if len(files) == 0 {
				t.Fatalf("merge job: container %s merges nothing", c.Name)
			}
			want := workers[path.Dir(path.Dir(files[0]))]
			if strings.Join(files, " ") != strings.Join(want, " ") {
				t.Errorf("merge job: container %s merges %v, want the workers' %v", c.Name, files, want)
			}
			if path.Dir(o.out) != path.Dir(path.Dir(files[0])) {
				t.Errorf("merge job: container %s writes %s, beside its workers' %s", c.Name, o.out, path.Dir(path.Dir(files[0])))
			}
			merged++
		}
	}
	if merged != len(workers) {
		t.Errorf("%d merge steps for %d worker jobs", merged, len(workers))
	}
}
