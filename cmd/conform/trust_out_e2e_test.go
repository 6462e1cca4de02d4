package main

// End-to-end checks that --out belongs to conform (package outdir), with
// the built CLI: a user's directory is refused and left untouched, conform's
// own is used again, and two runs on one --out do not mix (that a
// certification bundles only conform's files is checked on the remote
// certification's run: TestRemoteSandboxCertification). Like the other
// trust checks they need CONFORM_BIN (make trust).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/fixtures"
	"github.com/conform-harness/conform/internal/outdir"
)

// quickFilter selects a handful of specs that run in a second.
const quickFilter = "rule:V3-CONV-ADDRESS"

// fewSpecsProcs is --procs of the trust checks' runs of a few specs whose
// property does not depend on processes: each further process builds its
// own tree and emulator for specs one process runs in a second (make test
// runs a dozen such runs side by side).
const fewSpecsProcs = "1"

// snapshotTree is every entry under dir: files with their content,
// directories with a trailing slash.
func snapshotTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if fi.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for name, body := range before {
		if got, ok := after[name]; !ok {
			t.Errorf("%s: %s was removed", what, name)
		} else if got != body {
			t.Errorf("%s: %s was changed", what, name)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s: %s was added", what, name)
		}
	}
}

// configWithKeys is a target config holding fixture account i's keys (the
// secrets assertNoSecret looks for) for the target rest.
func configWithKeys(t *testing.T, rest string, i int) []byte {
	t.Helper()
	accts, err := fixtures.Accounts()
	if err != nil {
		t.Fatal(err)
	}
	accounts := map[string]any{}
	for _, k := range accts[i].Keys {
		accounts[k.Role] = map[string]any{"api_key": k.APIKey, "secret": k.Secret, "rights": k.Rights}
	}
	cfg := map[string]any{"accounts": accounts}
	if rest != "" {
		cfg["rest"] = rest
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A user's directory given as --out is refused by every command that
// writes there, in one line with exit 2, before anything runs, and is left
// exactly as it was: the user's target.json (with keys), README.md,
// bundle.json, report.png, an unrelated file and a previous/ of their own.
func TestTrustOutOfAUserIsRefusedUntouched(t *testing.T) {
	t.Parallel() // every trust check has targets, ports and directories of its own (make trust: go test -parallel)
	bin := binDir(t)
	root := t.TempDir()
	user := filepath.Join(root, "mine")
	files := map[string][]byte{
		"target.json":        configWithKeys(t, "", 6),
		"README.md":          []byte("# my project\n"),
		"bundle.json":        []byte(`{"mine":true}`),
		"report.png":         []byte("\x89PNG not conform's"),
		"notes.txt":          []byte("unrelated"),
		"previous/notes.txt": []byte("a previous/ that is not conform's"),
	}
	for name, b := range files {
		p := filepath.Join(user, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A fresh --out whose .tar.gz place holds a user's archive.
	if err := os.WriteFile(filepath.Join(root, "cert.tar.gz"), []byte("a user's archive"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(user, "target.json")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"run", []string{"run", "--label-filter", quickFilter, "--out", user}, "did not write"},
		{"run with the config inside", []string{"run", "--config", cfg, "--label-filter", quickFilter, "--out", user}, "did not write"},
		{"certify", []string{"run", "--certify", "--out", user}, "did not write"},
		{"certify beside a user's archive", []string{"run", "--certify", "--out", filepath.Join(root, "cert")}, "cert.tar.gz"},
		{"mutate", []string{"mutate", "--only", "V3-CONV-ADDRESS", "--suite", filepath.Join(bin, "suites.test"), "--out", user}, "did not write"},
		{"load", []string{"load", "--scenario", "public", "--rate", "10/s", "--duration", "1s", "--out", user}, "did not write"},
		{"an --out that is a file", []string{"run", "--label-filter", quickFilter, "--out", filepath.Join(user, "notes.txt")}, "is not a directory"},
		{"an --out that cannot be created", []string{"run", "--label-filter", quickFilter, "--out", filepath.Join(user, "notes.txt", "sub")}, "cannot create it"},
		{"a missing --spec-dir", []string{"run", "--label-filter", quickFilter, "--spec-dir", filepath.Join(root, "no-such-dir"), "--out", user}, "--spec-dir"},
	}
	before := snapshotTree(t, root)
	for _, c := range cases {
		start := time.Now()
		code, console := conformCLI(t, bin, nil, c.args...)
		took := time.Since(start)
		lines := strings.Split(strings.TrimSpace(console), "\n")
		if code != exitUsage || len(lines) != 1 || !strings.Contains(console, c.want) {
			t.Errorf("%s: exit %d, want %d with one line saying %q:\n%s", c.name, code, exitUsage, c.want, console)
		}
		if took > 10*time.Second {
			t.Errorf("%s: refused after %s: something ran first", c.name, took)
		}
		sameTree(t, c.name, before, snapshotTree(t, root))
	}
}

// A run into a new directory and a second run into the same directory both
// work; the first run's reports become previous/.
func TestTrustOutOfConformIsUsedAgain(t *testing.T) {
	t.Parallel() // every trust check has targets, ports and directories of its own (make trust: go test -parallel)
	bin := binDir(t)
	out := filepath.Join(t.TempDir(), "reports")
	var first []byte
	for i := range 3 {
		code, console := conformCLI(t, bin, nil, "run", "--label-filter", quickFilter, "--procs", fewSpecsProcs, "--out", out)
		if code != exitOK {
			t.Fatalf("run %d: exit %d:\n%s", i+1, code, console)
		}
		if i > 0 && !strings.Contains(console, "since the previous run:") {
			t.Errorf("run %d does not compare with the previous run:\n%s", i+1, console)
		}
		prev, err := os.ReadFile(filepath.Join(out, "previous", "results.json"))
		switch {
		case i == 0 && err == nil:
			t.Error("a first run has a previous/")
		case i > 0 && !bytes.Equal(prev, first):
			t.Errorf("run %d: previous/results.json is not the run before's (%v)", i+1, err)
		}
		if first, err = os.ReadFile(filepath.Join(out, "results.json")); err != nil {
			t.Fatal(err)
		}
		if err := outdir.Check(out); err != nil {
			t.Errorf("run %d: --out is not conform's afterwards: %v", i+1, err)
		}
	}
}

// A second run on an --out in use is refused in one line, exit 2, naming
// the first (pid, start, command); once the first is killed, its lock is
// taken over with a note.
func TestTrustOutInUseIsRefused(t *testing.T) {
	t.Parallel() // every trust check has targets, ports and directories of its own (make trust: go test -parallel)
	bin := binDir(t)
	out := filepath.Join(t.TempDir(), "reports")
	first := exec.Command(filepath.Join(bin, "conform"), "run", "--procs", "2", "--out", out)
	var firstOut bytes.Buffer
	first.Stdout, first.Stderr = &firstOut, &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = first.Process.Kill(); _ = first.Wait() }()
	lock := filepath.Join(out, outdir.LockFile)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if b, err := os.ReadFile(lock); err == nil && bytes.Contains(b, []byte(`"pid"`)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first run took no lock:\n%s", firstOut.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	code, console := conformCLI(t, bin, nil, "run", "--label-filter", quickFilter, "--out", out)
	holder := fmt.Sprintf("pid %d (conform run --procs 2 --out %s, started ", first.Process.Pid, out)
	if code != exitUsage || strings.Count(strings.TrimSpace(console), "\n") > 0 || !strings.Contains(console, holder) {
		t.Errorf("second run: exit %d, want %d with one line naming %q:\n%s", code, exitUsage, holder, console)
	}
	_ = first.Process.Kill() // kill -9: the lock file stays, its lock goes with the process
	_ = first.Wait()
	code, console = conformCLI(t, bin, nil, "run", "--label-filter", quickFilter, "--procs", fewSpecsProcs, "--out", out)
	if code != exitOK || !strings.Contains(console, fmt.Sprintf("took over the lock of conform pid %d", first.Process.Pid)) {
		t.Errorf("after the first was killed: exit %d, want %d with a note on the stale lock:\n%s", code, exitOK, console)
	}
	if _, err := os.Stat(lock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock outlived the run: %v", err)
	}
}

// A failure message names the frame that was sent, not its template: no
// literal %q reaches a report.
func TestTrustFailureMessagesAreFormatted(t *testing.T) {
	t.Parallel() // every trust check has targets, ports and directories of its own (make trust: go test -parallel)
	bin := binDir(t)
	base := startEmulator(t, emulator.Options{ControlPlane: true, Faults: []string{"V3-WS-PUB-MALFORMED"}})
	out := t.TempDir()
	code, console := conformCLI(t, bin, nil, "run", "--target", base, "--label-filter", "rule:V3-WS-PUB-MALFORMED", "--procs", fewSpecsProcs, "--out", out)
	if code != exitFailed {
		t.Fatalf("exit %d, want %d (the fault's rule failing):\n%s", code, exitFailed, console)
	}
	b, err := os.ReadFile(filepath.Join(out, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	for where, text := range map[string]string{"the console": console, "results.json": string(b)} {
		if strings.Contains(text, "%q") || strings.Contains(text, `%!`) {
			i := max(strings.Index(text, "%q"), strings.Index(text, "%!"))
			t.Errorf("%s holds an unformatted message: …%s…", where, text[max(0, i-120):min(len(text), i+40)])
		}
	}
}
