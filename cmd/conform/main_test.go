package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// testEnv is an env with captured output and no environment variables.
func testEnv(t *testing.T) (*env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	var out, errOut bytes.Buffer
	dir := t.TempDir()
	return &env{stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }, exeDir: dir, cwd: dir,
		lookPath: func(name string) (string, error) { return "", fmt.Errorf("%s: not on PATH", name) }}, &out, &errOut
}

func TestRealMainDispatchAndExitCodes(t *testing.T) {
	cases := []struct {
		name       string
		args       []string
		code       int
		stdout     string // substring
		stderrLine string // substring of the single stderr line
	}{
		{"no subcommand", nil, exitUsage, "", "no subcommand"},
		{"unknown subcommand", []string{"frobnicate"}, exitUsage, "", `unknown subcommand "frobnicate"`},
		{"help", []string{"help"}, exitOK, "Exit codes:", ""},
		{"--help", []string{"--help"}, exitOK, "Subcommands:", ""},
		{"help run", []string{"help", "run"}, exitOK, "-label-filter", ""},
		{"help unknown", []string{"help", "nope"}, exitUsage, "", `unknown subcommand "nope"`},
		{"run -h", []string{"run", "-h"}, exitOK, "usage: conform run", ""},
		{"bad flag", []string{"run", "--bogus"}, exitUsage, "", "flag provided but not defined: -bogus"},
		{"bad flag value", []string{"run", "--procs", "many"}, exitUsage, "", `invalid value "many"`},
		{"stray argument", []string{"rules", "extra"}, exitUsage, "", `unexpected argument "extra"`},
		{"bad target", []string{"run", "--target", "ftp://x"}, exitUsage, "", "want an http(s) base URL"},
		{"missing config", []string{"run", "--config", "/no/such/conform.json"}, exitUsage, "", "no such file"},
		{"missing suite binary", []string{"run"}, exitHarness, "", "suites.test not found"},
		{"rules without suite", []string{"rules", "--suite", "/no/such/suites.test"}, exitHarness, "", "run make build"},
		{"mutate --list", []string{"mutate", "--list"}, exitOK, "faults", ""},
		{"mutate unknown fault", []string{"mutate", "--only", "V3-NOPE"}, exitUsage, "", "no fault for V3-NOPE"},
		{"emulate unknown fault", []string{"emulate", "--faults", "V3-NOPE"}, exitUsage, "", "V3-NOPE"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, out, errOut := testEnv(t)
			if got := realMain(c.args, e); got != c.code {
				t.Errorf("exit %d, want %d (stderr %q)", got, c.code, errOut)
			}
			if !strings.Contains(out.String(), c.stdout) {
				t.Errorf("stdout lacks %q:\n%s", c.stdout, out)
			}
			if c.stderrLine == "" {
				if errOut.Len() != 0 {
					t.Errorf("unexpected stderr %q", errOut)
				}
				return
			}
			if !strings.Contains(errOut.String(), c.stderrLine) {
				t.Errorf("stderr %q lacks %q", errOut, c.stderrLine)
			}
			if n := strings.Count(strings.TrimRight(errOut.String(), "\n"), "\n"); n != 0 {
				t.Errorf("want one line on stderr, got:\n%s", errOut)
			}
			if strings.Contains(errOut.String(), "Usage") || strings.Contains(errOut.String(), "goroutine") {
				t.Errorf("usage dump or stack trace on stderr:\n%s", errOut)
			}
		})
	}
}
