package wiremut

// The wire-mutation run: for every mutation of Table, an in-process
// emulator with its control plane, this proxy in front of it applying the
// one mutation, and the built suite run against the proxy on the areas the
// mutation targets. A failing run detected the corruption; a green one let
// it escape. Opt-in (minutes of both cores): WIREMUT=1 and CONFORM_BIN the
// directory of `make build`'s binaries (make wiremut sets both);
// WIREMUT_ONLY=name,... selects mutations; the table is written to
// $WIREMUT_OUT/wiremut.md when set.

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conform-harness/conform/emulator"
)

func TestWireMutations(t *testing.T) {
	bin, only := runnerEnv(t, "WIREMUT", "make wiremut")
	// A mutation that changes nothing must leave every area green through
	// the proxy, or no verdict below means anything.
	base := Mutation{Name: "baseline", Kind: DropField, Path: "/", Field: "\x00none"} // every area
	if len(only) == 0 || only[base.Name] {
		if v, _, d := runOne(t, bin, base); v != "idle" {
			t.Fatalf("the suite fails through a proxy that mutates nothing (%s):\n%s", v, d)
		}
	}
	var rows []string
	detected, escaped, idle := 0, 0, 0
	for _, m := range Table() {
		if len(only) > 0 && !only[m.Name] {
			continue
		}
		verdict, hits, detail := runOne(t, bin, m)
		switch verdict {
		case "detected":
			detected++
		case "escaped":
			escaped++
		default:
			idle++
		}
		row := fmt.Sprintf("| %s | %s | %s | %s | %d | %s |", m.Name, m.Kind, selector(m), m.Areas, hits, verdict)
		rows = append(rows, row)
		t.Log(row)
		if verdict == "escaped" {
			t.Logf("  %s", detail)
		}
	}
	table := "| mutation | kind | target | areas run | answers changed | verdict |\n|---|---|---|---|---|---|\n" +
		strings.Join(rows, "\n") + fmt.Sprintf("\n\ndetected %d, escaped %d, not exercised %d\n", detected, escaped, idle)
	writeTable(t, "wiremut.md", table)
}

// runnerEnv is what an opt-in runner needs: it skips unless gate is set,
// and answers CONFORM_BIN (the directory of make build's binaries) and the
// mutations WIREMUT_ONLY selects (none: all).
func runnerEnv(t *testing.T, gate, target string) (bin string, only map[string]bool) {
	t.Helper()
	if os.Getenv(gate) == "" {
		t.Skipf("set %s=1 and CONFORM_BIN (%s does)", gate, target)
	}
	bin = os.Getenv("CONFORM_BIN")
	if bin == "" {
		t.Fatal("CONFORM_BIN: the directory of conform, suites.test and ginkgo")
	}
	only = map[string]bool{}
	for _, n := range strings.Split(os.Getenv("WIREMUT_ONLY"), ",") {
		if n != "" {
			only[n] = true
		}
	}
	return bin, only
}

// writeTable logs a runner's table and writes it to $WIREMUT_OUT/name when
// set.
func writeTable(t *testing.T, name, table string) {
	t.Helper()
	t.Log("\n" + table)
	if dir := os.Getenv("WIREMUT_OUT"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(table), 0o644); err != nil {
			t.Error(err)
		}
	}
}

func selector(m Mutation) string {
	s := strings.TrimSpace(m.Method + " " + m.Path)
	if m.WS {
		s = "WS " + m.Path
	}
	arg := m.Field
	if m.From != "" || m.To != "" {
		arg = strings.TrimSpace(arg + " " + m.From + "->" + m.To)
	}
	return s + " " + arg
}

// runOne runs the suite's areas of m against a proxy applying m and says
// whether the run failed (detected), passed (escaped) or never met the
// mutation's target (idle).
func runOne(t *testing.T, bin string, m Mutation) (verdict string, hits int64, detail string) {
	t.Helper()
	emu, err := emulator.New(emulator.Options{Addr: "127.0.0.1:0", ControlPlane: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = emu.Close() }()
	p, err := New(emu.URL(), m)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	defer srv.Close()
	out := t.TempDir()
	if dir := os.Getenv("WIREMUT_OUT"); dir != "" {
		out = filepath.Join(dir, m.Name) // reports kept for reading
	}
	args := []string{"run", "--target", srv.URL, "--procs", "2", "--out", out, "--timeout", "6m"}
	if m.Areas != "" {
		args = append(args, "--label-filter", m.Areas)
	}
	cmd := exec.Command(filepath.Join(bin, "conform"), args...)
	var console bytes.Buffer
	cmd.Stdout, cmd.Stderr = &console, &console
	err = cmd.Run()
	hits = p.Hits()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("%s: conform run: %v", m.Name, err)
	}
	switch {
	case err != nil:
		return "detected", hits, failures(console.String())
	case hits == 0:
		return "idle", hits, ""
	default:
		lines := strings.Split(strings.TrimSpace(console.String()), "\n")
		return "escaped", hits, lines[len(lines)-1]
	}
}

// failures keeps the console lines naming failed specs.
func failures(console string) string {
	var keep []string
	for _, l := range strings.Split(console, "\n") {
		if strings.Contains(l, "FAIL") || strings.Contains(l, "fail") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
