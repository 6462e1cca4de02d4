package main

// End-to-end checks of the path that matters most: a remote sandbox. The
// stand-in is the emulator with its control plane off and its limits on,
// behind internal/netsim (TLS with a private CA, a delay each way, every
// connection from one address), keys of two account sets in a config file.
// Like the trust checks they need CONFORM_BIN (make remote sets it).

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/fixtures"
	"github.com/conform-harness/conform/internal/netsim"
	"github.com/conform-harness/conform/internal/outdir"
	"github.com/conform-harness/conform/reporters/browser"
	"github.com/conform-harness/conform/reporters/bundle"
)

// remoteDelay is the one-way latency of the stand-in: a sandbox in another
// region of the same continent (issue 24's path).
const remoteDelay = 20 * time.Millisecond

// delayOf is the stand-in's one-way latency for this run: remoteDelay, or
// CONFORM_REMOTE_DELAY (a Go duration) for a shorter path, as make test's
// remote profile uses to keep within its time; the certification's time
// target is judged on remoteDelay's path only (make remote).
func delayOf(t *testing.T) time.Duration {
	t.Helper()
	v := os.Getenv("CONFORM_REMOTE_DELAY")
	if v == "" {
		return remoteDelay
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 || d > time.Second {
		t.Fatalf("CONFORM_REMOTE_DELAY=%q: want a duration from 0 to 1s", v)
	}
	return d
}

// Targets of the remote certification (issue 24: "exits 0 within 240 s
// with at most 12 testable rules not judged"), asserted; the time on
// remoteDelay's path only (make remote: 3 min 43 s to 3 min 52 s on two
// cores on 2026-11-28), since make test's remote profile runs a shorter
// path (CONFORM_REMOTE_DELAY) to keep within its own time.
const (
	remoteMaxNotRun   = 12
	remoteMaxDuration = 240 * time.Second
)

// remoteSandbox starts the stand-in for a remote sandbox in front of an
// emulator with options o (the control plane is always off) and returns
// the proxy and the path of its CA certificate.
func remoteSandbox(t *testing.T, o emulator.Options, n netsim.Options) (*netsim.Proxy, string) {
	t.Helper()
	o.ControlPlane = false
	u, err := url.Parse(startEmulator(t, o))
	if err != nil {
		t.Fatal(err)
	}
	n.Upstream = u.Host
	p, err := netsim.Start(n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := p.WriteCA(ca); err != nil {
		t.Fatal(err)
	}
	return p, ca
}

// fixtureAccountSet is fixture account i's keys by role as a user writes
// them in a config file for a sandbox: the account's own keys, account
// i+half's full key as the counterparty, its first two keyed sub-accounts
// as sub and sub2, and its disabled sub-account's user id on the full key
// (what the suite gives itself on the emulator, see framework.Setup).
func fixtureAccountSet(t *testing.T, i int) map[string]map[string]any {
	t.Helper()
	accts, err := fixtures.Accounts()
	if err != nil {
		t.Fatal(err)
	}
	key := func(k fixtures.Key) map[string]any {
		return map[string]any{"api_key": k.APIKey, "secret": k.Secret, "rights": k.Rights}
	}
	set := map[string]map[string]any{}
	own := accts[i]
	for _, k := range own.Keys {
		set[k.Role] = key(k)
	}
	other := accts[i+len(accts)/2]
	for _, k := range other.Keys {
		if k.Role == "full" {
			set["counterparty"] = key(k)
			// What a sandbox's operator tells its users: version 2's internal
			// transfer names the recipient by username or email.
			set["counterparty"]["username"], set["counterparty"]["email"] = other.Username(), other.Email()
		}
	}
	subRoles := []string{"sub", "sub2"}
	for _, s := range own.SubAccounts {
		if len(s.Keys) > 0 && len(subRoles) > 0 {
			k := key(s.Keys[0])
			k["sub_account_id"], k["sub_account_user_id"] = s.SubAccountID, s.UserID
			set[subRoles[0]] = k
			subRoles = subRoles[1:]
		}
		if s.Status == "disable" && set["full"] != nil {
			set["full"]["disabled_sub_account_user_id"] = s.UserID
		}
	}
	return set
}

// writeSandboxConfig writes a target config for a sandbox at rest with
// account sets 0..sets-1 and the CA file, into dir; it returns its path.
func writeSandboxConfig(t *testing.T, dir, rest, caFile string, sets int) string {
	t.Helper()
	var more []any
	for i := 1; i < sets; i++ {
		more = append(more, fixtureAccountSet(t, i))
	}
	cfg := map[string]any{"rest": rest, "sandbox": true, "shared_source": true, "accounts": fixtureAccountSet(t, 0), "account_sets": more}
	if caFile != "" {
		cfg["ca_file"] = caFile
	}
	b, err := json.MarshalIndent(cfg, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "target.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// loadAverage is the first line of /proc/loadavg ("" elsewhere): the
// run's figures mean little without the machine's load beside them.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// certResults is what the remote certification's results.json says.
type certResults struct {
	Summary struct {
		SpecsRun    int `json:"specs_run"`
		Passed      int `json:"passed"`
		Failed      int `json:"failed"`
		Skipped     int `json:"skipped"`
		RulesFailed int `json:"rules_failed"`
		RulesNotRun int `json:"rules_not_run"`
		// RulesNotApplicable: not judged for a reason the catalogue declares
		// (the control plane, a second source address); not a failure.
		RulesNotApplicable int   `json:"rules_not_applicable"`
		DurationMS         int64 `json:"duration_ms"`
	} `json:"summary"`
	Rules []struct {
		ID           string   `json:"id"`
		Area         string   `json:"area"`
		Verdict      string   `json:"verdict"`
		Failures     []string `json:"failures"`
		SkipReasons  []string `json:"skip_reasons"`
		Reason       string   `json:"reason"`
		Inconclusive []string `json:"inconclusive"`
	} `json:"rules"`
	Specs []struct {
		Labels     []string `json:"labels"`
		Outcome    string   `json:"outcome"`
		DurationMS int64    `json:"duration_ms"`
	} `json:"specs"`
}

func readCertResults(t *testing.T, dir string) certResults {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r certResults
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// notRunByReason groups the rules that were not judged by their first
// reason (cut at the first colon or semicolon, so that one cause is one
// line), most rules first.
func (r certResults) notRunByReason() []string {
	by := map[string][]string{}
	for _, rr := range r.Rules {
		if rr.Verdict != "not-run" && rr.Verdict != "not-applicable" {
			continue
		}
		reasons := append(append([]string(nil), rr.Inconclusive...), rr.SkipReasons...)
		if rr.Verdict == "not-applicable" {
			reasons = []string{"not applicable: " + rr.Reason}
		}
		reason := "no spec of this run checks it"
		for _, r := range reasons {
			// Ginkgo's note on the later specs of an Ordered container whose
			// BeforeAll skipped is the last resort: the first spec says why.
			if reason == "no spec of this run checks it" || strings.HasPrefix(reason, "Spec skipped because") {
				reason = r
			}
		}
		if i := strings.IndexAny(reason, ";"); i > 0 {
			reason = reason[:i]
		}
		if len(reason) > 140 {
			reason = reason[:140] + "…"
		}
		by[reason] = append(by[reason], rr.ID)
	}
	var lines []string
	for reason, ids := range by {
		sort.Strings(ids)
		lines = append(lines, fmt.Sprintf("%3d  %s\n       %s", len(ids), reason, strings.Join(ids, " ")))
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i] > lines[j] })
	return lines
}

// areaTimes sums the spec durations by area label, longest first.
func (r certResults) areaTimes() string {
	sum := map[string]time.Duration{}
	for _, s := range r.Specs {
		for _, l := range s.Labels {
			if a, ok := strings.CutPrefix(l, "area:"); ok {
				sum[a] += time.Duration(s.DurationMS) * time.Millisecond
			}
		}
	}
	areas := make([]string, 0, len(sum))
	for a := range sum {
		areas = append(areas, a)
	}
	sort.Slice(areas, func(i, j int) bool { return sum[areas[i]] > sum[areas[j]] })
	var b strings.Builder
	for _, a := range areas {
		fmt.Fprintf(&b, "  %-22s %s\n", a, sum[a].Round(100*time.Millisecond))
	}
	return b.String()
}

// The certification of a remote sandbox, through the stand-in with 20 ms
// each way: no false failure, TLS with the sandbox's own CA from the config
// file, no run cut short by a time limit. It records the wall time and the
// rules not judged, by reason (issue 24's figures). The same run is make
// test's check of a sandbox with an account set per process (every process
// runs, and no secret of the config is in the console or the reports) and
// of the certification bundle (only conform's files of this run, listed in
// bundle.json, the .tar.gz beside it the same, no secret, nothing left in
// $TMPDIR by Chromium): a separate full run for each cost 44 CPU-seconds.
func TestRemoteSandboxCertification(t *testing.T) {
	t.Parallel()
	bin := binDir(t)
	p, ca := remoteSandbox(t, emulator.Options{}, netsim.Options{Delay: delayOf(t)})
	dir := t.TempDir()
	// ca_file relative to the config file, as a user keeps them side by side.
	if err := os.Rename(ca, filepath.Join(dir, "sandbox-ca.pem")); err != nil {
		t.Fatal(err)
	}
	// CONFORM_REMOTE_SETS runs it with more account sets, and as many
	// processes: the figure to weigh against issue 24's two.
	sets := 2
	if v := os.Getenv("CONFORM_REMOTE_SETS"); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n >= 1 && n <= 8 {
			sets = n
		} else {
			t.Fatalf("CONFORM_REMOTE_SETS=%q: want 1 to 8 (the fixture accounts' half)", v)
		}
	}
	cfg := writeSandboxConfig(t, dir, p.URL(), "sandbox-ca.pem", sets)
	// The bundle in a directory of its own, the config (keys) elsewhere:
	// beside it there must be only it and its .tar.gz.
	out, alone := filepath.Join(t.TempDir(), "reports"), true
	if keep := os.Getenv("CONFORM_REMOTE_OUT"); keep != "" {
		out, alone = keep, false // the reports outlive the test, for reading where the time went
	}
	tmp := shortTempDir(t)
	loadBefore := loadAverage()
	selfBefore := selfCPU()
	start := time.Now()
	code, console, cpu := conformCLITimed(t, bin, []string{"SSL_CERT_FILE=", "TMPDIR=" + tmp}, "run", "--certify", "--config", cfg, "--procs", strconv.Itoa(sets), "--timeout", "25m", "--out", out)
	took := time.Since(start)
	targetCPU := selfCPU() - selfBefore
	if code != exitOK && code != exitFailed {
		t.Fatalf("remote certification: exit %d after %s:\n%s", code, took, tail(console, 60))
	}
	r := readCertResults(t, out)
	notRun := r.notRunByReason()
	t.Logf("remote certification (%s each way, one address, TLS, control plane off, %d account sets, --procs %d): exit %d in %s; load average %s before, %s after; %d proxied connections",
		delayOf(t), sets, sets, code, took.Round(time.Second), loadBefore, loadAverage(), p.Connections())
	t.Logf("CPU: %s in conform, Ginkgo and the suite processes, %s in the emulator and the proxy (this test's process), of %s on %d CPUs",
		cpu.Round(time.Second), targetCPU.Round(time.Second), (took * time.Duration(runtime.NumCPU())).Round(time.Second), runtime.NumCPU())
	notJudged := r.Summary.RulesNotRun + r.Summary.RulesNotApplicable
	t.Logf("specs: %d run, %d passed, %d failed, %d skipped; testable rules not judged: %d (%d not run, %d not applicable), failed: %d",
		r.Summary.SpecsRun, r.Summary.Passed, r.Summary.Failed, r.Summary.Skipped, notJudged, r.Summary.RulesNotRun, r.Summary.RulesNotApplicable, r.Summary.RulesFailed)
	t.Logf("not judged, by reason:\n%s", strings.Join(notRun, "\n"))
	t.Logf("spec time by area (summed over processes):\n%s", r.areaTimes())

	if r.Summary.Failed > 0 || r.Summary.RulesFailed > 0 {
		var failed []string
		for _, rr := range r.Rules {
			if rr.Verdict == "failed" {
				failed = append(failed, fmt.Sprintf("%s: %s", rr.ID, firstOf(rr.Failures)))
			}
		}
		t.Errorf("%d specs failed through the remote path (a healthy sandbox must not fail a rule):\n%s", r.Summary.Failed, strings.Join(failed, "\n"))
	}
	if r.Summary.SpecsRun < 500 {
		t.Errorf("only %d specs ran: TLS or the config did not take", r.Summary.SpecsRun)
	}
	if notJudged > remoteMaxNotRun || code != exitOK {
		t.Errorf("target missed: exit %d (want 0), %d rules not judged (want at most %d)", code, notJudged, remoteMaxNotRun)
	}
	if took > remoteMaxDuration && delayOf(t) == remoteDelay {
		t.Errorf("target missed: %s (want at most %s on a path %s each way)", took.Round(time.Second), remoteMaxDuration, remoteDelay)
	}
	// An account set per process: every process runs, none shares an
	// account (the CLI would say it runs fewer "instead of" the asked).
	if strings.Contains(console, "instead of") {
		t.Errorf("%d account sets at --procs %d did not run as many processes:\n%s", sets, sets, tail(console, 40))
	}
	assertNoSecret(t, console, out)
	checkCertificationBundle(t, console, out, tmp, alone)
}

// shortTempDir is a new directory with a short path, removed when the test
// ends: Chromium's singleton socket must fit a Unix socket path under
// $TMPDIR (t.TempDir's names are too long for Chromium to start).
func shortTempDir(t *testing.T) string {
	t.Helper()
	tmp, err := os.MkdirTemp("", "ct")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(tmp) })
	return tmp
}

// checkCertificationBundle checks the bundle of the certification whose
// console is console, in out, run with $TMPDIR tmp and its config (keys)
// elsewhere: the directory and its .tar.gz hold only files conform wrote in
// this run, listed in bundle.json, and no secret; Chromium, when installed,
// read the report and left nothing in $TMPDIR. alone: out's parent is the
// test's, where only out and its .tar.gz may be.
func checkCertificationBundle(t *testing.T, console, out, tmp string, alone bool) {
	t.Helper()
	if !strings.Contains(console, "certification ") {
		t.Fatalf("no certification:\n%s", tail(console, 40))
	}
	if _, err := browser.Find(os.Getenv); err == nil && !strings.Contains(console, "certify: report.html checked in headless Chromium") {
		t.Errorf("Chromium is installed but did not look at the report:\n%s", tail(console, 40))
	}
	if err := outdir.Check(out); err != nil {
		t.Errorf("the bundle directory holds what conform did not write: %v", err)
	}
	var m bundle.Manifest
	b, err := os.ReadFile(filepath.Join(out, bundle.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	parent, base := filepath.Split(filepath.Clean(out))
	want := []string{base + "/" + bundle.ManifestFile}
	for _, f := range m.Files {
		want = append(want, base+"/"+f.Name)
	}
	entries := tarEntries(t, filepath.Clean(out)+".tar.gz")
	var got []string
	forms := secretForms(t)
	for name, body := range entries {
		got = append(got, name)
		for _, s := range forms {
			if bytes.Contains(body, []byte(s)) {
				t.Errorf("%s in the archive holds a secret (%.12s…)", name, s)
				break
			}
		}
		if disk, err := os.ReadFile(filepath.Join(parent, name)); err != nil || (!bytes.Equal(disk, body) && name != base+"/run.log") {
			t.Errorf("%s in the archive is not the bundle directory's (%v)", name, err)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the archive holds %v, bundle.json lists %v", got, want)
	}
	for _, name := range []string{"results.json", "report.html", "target.json", "README.md"} {
		if _, ok := entries[base+"/"+name]; !ok {
			t.Errorf("the archive lacks %s/%s", base, name)
		}
	}
	if left, _ := os.ReadDir(parent); alone && len(left) != 2 {
		t.Errorf("beside the bundle: %v, want %s and %s.tar.gz", left, base, base)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		check := console
		if i := strings.Index(console, "certify: "); i >= 0 {
			check = strings.SplitN(console[i:], "\n", 2)[0]
		}
		t.Errorf("the certification left %v in $TMPDIR (%s)", names, check)
	}
}

// tarEntries reads a .tar.gz's regular files.
func tarEntries(t *testing.T, path string) map[string][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	out := map[string][]byte{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeDir {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = b
	}
}

// conformCLITimed is conformCLI that also returns the CPU time (user and
// system) of conform and every process it waited for: Ginkgo and the suite.
func conformCLITimed(t *testing.T, bin string, env []string, args ...string) (int, string, time.Duration) {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "conform"), args...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("conform %s: %v", strings.Join(args, " "), err)
	}
	return code, out.String(), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func firstOf(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	return ss[0]
}

// A certificate the harness cannot trust is one line and exit 3 within
// seconds, before any spec runs: a private CA not given, a certificate for
// another host. With the CA (--ca-file, or SSL_CERT_FILE) the probe passes.
func TestRemoteSandboxCertificateProblems(t *testing.T) {
	t.Parallel()
	bin := binDir(t)
	p, ca := remoteSandbox(t, emulator.Options{}, netsim.Options{Delay: delayOf(t)})
	other, otherCA := remoteSandbox(t, emulator.Options{}, netsim.Options{Hosts: []string{"sandbox.test"}})
	otherPort := other.Addr()[strings.LastIndex(other.Addr(), ":"):]
	cases := []struct {
		name string
		env  []string
		args []string
		want string
	}{
		{"private CA not given", []string{"SSL_CERT_FILE="}, []string{"--target", p.URL()}, "--ca-file"},
		{"certificate for another host", []string{"SSL_CERT_FILE="}, []string{"--target", "https://127.0.0.1" + otherPort, "--ca-file", otherCA}, "not 127.0.0.1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			code, console := conformCLI(t, bin, tc.env, append(append([]string{"run"}, tc.args...), "--sandbox", "--out", t.TempDir())...)
			took := time.Since(start)
			t.Logf("exit %d after %s: %s", code, took.Round(time.Millisecond), strings.TrimSpace(console))
			if code != exitHarness || took > 20*time.Second {
				t.Errorf("exit %d after %s, want %d within 20s:\n%s", code, took, exitHarness, console)
			}
			if lines := strings.Split(strings.TrimSpace(console), "\n"); len(lines) != 1 || !strings.Contains(console, tc.want) {
				t.Errorf("want one line saying %q, got:\n%s", tc.want, console)
			}
		})
	}
	// conform load trusts the same CA, and refuses the same certificate.
	t.Run("conform load", func(t *testing.T) {
		args := []string{"load", "--target", p.URL(), "--scenario", "public", "--rate", "10/s", "--duration", "2s", "--out", t.TempDir()}
		code, console := conformCLI(t, bin, []string{"SSL_CERT_FILE="}, args...)
		if code != exitHarness || !strings.Contains(console, "--ca-file") {
			t.Errorf("without the CA: exit %d, want %d saying --ca-file:\n%s", code, exitHarness, console)
		}
		code, console = conformCLI(t, bin, []string{"SSL_CERT_FILE="}, append(args, "--ca-file", ca)...)
		if code != exitOK {
			t.Errorf("with --ca-file: exit %d:\n%s", code, tail(console, 20))
		}
	})
	// Trusted, by flag or by SSL_CERT_FILE, the run gets past the probe:
	// one small area runs over TLS, its stream included.
	for name, trust := range map[string]struct {
		env  []string
		args []string
	}{
		"--ca-file":     {[]string{"SSL_CERT_FILE="}, []string{"--ca-file", ca}},
		"SSL_CERT_FILE": {[]string{"SSL_CERT_FILE=" + ca}, nil},
	} {
		t.Run("trusted by "+name, func(t *testing.T) {
			out := t.TempDir()
			// The stand-in reaches the emulator from one address, as a user
			// declares of such a path (shared_source): the streams' messages
			// are then paced per address, not per connection.
			cfg := filepath.Join(t.TempDir(), "target.json")
			if err := os.WriteFile(cfg, []byte(fmt.Sprintf(`{"rest": %q, "shared_source": true}`, p.URL())), 0o600); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"run", "--config", cfg, "--procs", "1", "--label-filter", "area:streampublic", "--out", out}, trust.args...)
			code, console := conformCLI(t, bin, trust.env, args...)
			if code != exitOK {
				t.Fatalf("exit %d:\n%s", code, tail(console, 40))
			}
			if specs, _ := runSummary(t, out); specs < 5 {
				t.Errorf("only %d specs ran", specs)
			}
		})
	}
}

// A fault in the target is found through the remote path too: a limit row
// judged from one address over the network, a fill-dependent rule on an
// empty book (issue 24: "the emulator with --faults V3-LIMIT-IP-PUBLIC makes
// --label-filter area:limits fail that rule (exit 1)").
func TestRemoteSandboxFaults(t *testing.T) {
	t.Parallel()
	bin := binDir(t)
	cases := []struct{ fault, filter string }{
		{"V3-LIMIT-IP-PUBLIC", "area:limits"},
		{"V3-SPOT-IOC", "rule:V3-SPOT-IOC"},
	}
	for _, tc := range cases {
		t.Run(tc.fault, func(t *testing.T) {
			t.Parallel()
			p, ca := remoteSandbox(t, emulator.Options{Faults: []string{tc.fault}}, netsim.Options{Delay: delayOf(t)})
			dir := t.TempDir()
			cfg := writeSandboxConfig(t, dir, p.URL(), ca, 1)
			out := filepath.Join(dir, "reports")
			var code int
			verdict := "absent"
			// A limit row the loaded machine could not time reads
			// inconclusive, no verdict either way: measured once more (a
			// second run on the same --out), as conform mutate does.
			for attempt := 1; attempt <= 2 && (attempt == 1 || verdict == "inconclusive"); attempt++ {
				var console string
				code, console = conformCLI(t, bin, []string{"SSL_CERT_FILE="}, "run", "--config", cfg, "--label-filter", tc.filter, "--timeout", "10m", "--out", out)
				if code != exitOK && code != exitFailed {
					t.Fatalf("exit %d:\n%s", code, tail(console, 40))
				}
				for _, rr := range readCertResults(t, out).Rules {
					if rr.ID == tc.fault {
						verdict = rr.Verdict
					}
				}
				t.Logf("fault %s through the remote path, --label-filter %s, run %d: exit %d, rule %s", tc.fault, tc.filter, attempt, code, verdict)
			}
			if code != exitFailed || verdict != "failed" {
				t.Errorf("fault %s survived the remote path: exit %d, rule %s (want exit %d, failed)", tc.fault, code, verdict, exitFailed)
			}
		})
	}
}
