package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeExe(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

func TestLocatorFind(t *testing.T) {
	root := t.TempDir()
	exeDir, cwdBin, pathDir := filepath.Join(root, "exe"), filepath.Join(root, "cwd", "bin"), filepath.Join(root, "path")
	writeExe(t, filepath.Join(exeDir, "suites.test"))
	writeExe(t, filepath.Join(cwdBin, "suites.test"))
	writeExe(t, filepath.Join(cwdBin, "ginkgo"))
	writeExe(t, filepath.Join(pathDir, "tool"))
	if err := os.WriteFile(filepath.Join(root, "plain"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	lookPath := func(name string) (string, error) {
		p := filepath.Join(pathDir, name)
		if _, err := os.Stat(p); err != nil {
			return "", errors.New("not found")
		}
		return p, nil
	}
	l := locator{dirs: []string{exeDir, cwdBin}, lookPath: lookPath}
	cases := []struct {
		name, binary, explicit string
		want                   string // path, or error substring when wantErr
		wantErr                bool
	}{
		{"next to conform first", "suites.test", "", filepath.Join(exeDir, "suites.test"), false},
		{"then ./bin", "ginkgo", "", filepath.Join(cwdBin, "ginkgo"), false},
		{"then PATH", "tool", "", filepath.Join(pathDir, "tool"), false},
		{"explicit wins", "suites.test", filepath.Join(cwdBin, "suites.test"), filepath.Join(cwdBin, "suites.test"), false},
		{"explicit missing", "suites.test", filepath.Join(root, "nope"), "run make build", true},
		{"explicit directory", "suites.test", root, "is a directory", true},
		{"explicit not executable", "suites.test", filepath.Join(root, "plain"), "not executable", true},
		{"nowhere", "missing", "", "missing not found next to conform, in ./bin or on PATH (run make build, or pass --flag)", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := l.find(c.binary, c.explicit, "flag")
			if c.wantErr {
				if err == nil || !strings.Contains(err.Error(), c.want) || exitCode(err) != exitHarness {
					t.Errorf("got %q, %v (exit %d); want a harness error with %q", got, err, exitCode(err), c.want)
				}
				return
			}
			if err != nil || got != c.want {
				t.Errorf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}
