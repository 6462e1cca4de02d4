package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/conform-harness/conform/internal/outdir"
	"github.com/conform-harness/conform/reporters/browser"
	"github.com/conform-harness/conform/reporters/bundle"
	"github.com/conform-harness/conform/reporters/htmlreport"
	"github.com/conform-harness/conform/reporters/junit"
	"github.com/conform-harness/conform/reporters/killtable"
	"github.com/conform-harness/conform/reporters/results"
	"github.com/conform-harness/conform/rules"
	"github.com/conform-harness/conform/target"
)

// certifyFilter selects every spec for a certification, slow ones too: a
// slow spec runs only when the filter would not select it without its slow
// and rule labels, and every spec has a rule label.
const certifyFilter = "slow || /^rule:/"

// certifyFiles are the files a certification adds to the reports.
var certifyFiles = []string{bundle.ManifestFile, bundle.TargetFile, bundle.ReadmeFile, screenshotFile}

const screenshotFile = "report.png"

// runReport writes the reports of one conform run.
type runReport struct {
	o          *runOptions
	cfg        target.Config
	configPath string
	outDir     string
	// out is --out, where the reports are recorded as conform's.
	out  *outdir.Dir
	self string
	// specDir holds the documents the rules come from, if given.
	specDir string
	// stop says when and why conform stopped the run (nil: it did not).
	stop *results.Interruption
	// kind is what the probe found the target to be, for the rules a
	// certification cannot judge on such a target.
	kind results.CertifyTarget
}

// write builds results.json, junit.xml and report.html from Ginkgo's
// reports, with a replay command for every failed rule.
func (rr runReport) write(reports []types.Report) (*results.Results, error) {
	if err := rr.out.Record(resultsReport, junitReport, htmlReport); err != nil {
		return nil, err
	}
	res := results.BuildStopped(reports, rules.Default(), rr.stop)
	if rr.o.certify {
		res.Certify(rules.Default(), rr.kind)
	}
	for i := range res.Rules {
		if v := res.Rules[i].Verdict; v == results.VerdictFailed || v == results.VerdictNotRun {
			res.Rules[i].Replay = rr.replay(res.Rules[i].ID)
		}
	}
	if err := res.Write(filepath.Join(rr.outDir, resultsReport)); err != nil {
		return nil, err
	}
	if err := junit.Write(filepath.Join(rr.outDir, junitReport), res); err != nil {
		return nil, err
	}
	opts := htmlreport.Options{Facts: rr.facts(), SpecURL: rr.o.specURL}
	if rr.specDir != "" {
		docs, err := rr.documents()
		if err != nil {
			return nil, err
		}
		opts.Docs = docs
	}
	if rr.o.certify {
		opts.Title = "conform certification report"
	}
	if err := htmlreport.WriteFile(filepath.Join(rr.outDir, htmlReport), res, opts); err != nil {
		return nil, err
	}
	return res, nil
}

// documents reads the documents of the catalogue's areas from specDir and
// copies them beside the report, where its links point (unless --spec-url
// points elsewhere).
func (rr runReport) documents() (*htmlreport.Documents, error) {
	docs, err := readDocuments(rr.specDir)
	if err != nil {
		return nil, err
	}
	if rr.o.specURL == "" {
		for _, name := range docs.Names() {
			b, err := os.ReadFile(filepath.Join(rr.specDir, name))
			if err != nil {
				return nil, err
			}
			if err := rr.out.WriteFile(name, b, 0o644); err != nil {
				return nil, err
			}
		}
	}
	return docs, nil
}

// readDocuments reads the documents of the catalogue's areas from dir,
// which must hold at least one.
func readDocuments(dir string) (*htmlreport.Documents, error) {
	var names []string
	for _, a := range rules.Areas() {
		if !slices.Contains(names, a.Document) {
			names = append(names, a.Document)
		}
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("--spec-dir %s: %w", dir, errors.Unwrap(err))
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("--spec-dir %s is not a directory", dir)
	}
	docs, err := htmlreport.LoadDocuments(dir, names...)
	if err != nil {
		return nil, err
	}
	if len(docs.Names()) == 0 {
		return nil, fmt.Errorf("--spec-dir %s holds none of %s", dir, strings.Join(names, ", "))
	}
	return docs, nil
}

// checkSpecDir reads the documents of --spec-dir before the suite runs, so
// that a wrong directory is one line and exit 2, not a harness error after
// the whole run.
func checkSpecDir(dir string) error {
	if dir == "" {
		return nil
	}
	if _, err := readDocuments(dir); err != nil {
		return usageErrorf("run: %v", err)
	}
	return nil
}

// command is the conform command line for this target and config, with
// extra flags; it never holds a key (keys come from the environment or
// the config file) and URLs lose any user information.
func (rr runReport) command(extra ...string) string {
	args := []string{cmpOr(rr.self, "conform"), "run"}
	if rr.cfg.REST != "" {
		args = append(args, "--target", bundle.PublicURL(rr.cfg.REST))
	}
	if rr.o.wsTarget != "" {
		args = append(args, "--ws-target", bundle.PublicURL(rr.cfg.WS))
	}
	if rr.configPath != "" {
		args = append(args, "--config", rr.configPath)
	}
	if rr.o.caFile != "" {
		args = append(args, "--ca-file", rr.cfg.CAFile)
	}
	if rr.cfg.Sandbox {
		args = append(args, "--sandbox")
	}
	if rr.cfg.AllowLiveTrading {
		args = append(args, "--allow-live-trading")
	}
	args = append(args, extra...)
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return strings.Join(args, " ")
}

// replay is the command line that runs just one rule again.
func (rr runReport) replay(id string) string {
	return rr.command("--label-filter", killtable.RuleFilter(id), "--out", filepath.Join(os.TempDir(), "conform-replay"))
}

// facts describe the target and the run for report.html.
func (rr runReport) facts() [][2]string {
	cat := rules.Default()
	t := bundle.DescribeTarget(rr.cfg, cat)
	where := t.REST
	if t.Embedded {
		where = "embedded emulator (127.0.0.1, free port)"
	}
	f := [][2]string{{"target", where}}
	if t.WS != "" {
		f = append(f, [2]string{"WebSocket", t.WS})
	}
	f = append(f, [2]string{"API versions", strings.Join(t.APIVersions, ", ")}, [2]string{"declared sandbox", fmt.Sprint(t.Sandbox)})
	for _, r := range t.Roles {
		f = append(f, [2]string{"role " + r.Name, "rights: " + cmpOr(strings.Join(r.Rights, ", "), "none")})
	}
	c := bundle.CatalogueOf(cat)
	tool := bundle.ToolVersion()
	f = append(f, [2]string{"rule catalogue", fmt.Sprintf("version %s (sha256 %s)", c.Version, c.SHA256)},
		[2]string{"tool", strings.TrimSpace(tool.Module + " " + tool.Version + " " + tool.Revision)})
	return f
}

// bundle completes a certification: the screenshot of report.html (when
// Chromium is there), the target description, manifest and README, and
// the .tar.gz.
func (rr runReport) bundle(ctx context.Context, res *results.Results, log io.Writer, e *env) error {
	out := io.MultiWriter(e.stdout, log)
	check := rr.lookAtReport(ctx, res, e)
	fmt.Fprintf(out, "certify: %s\n", check)
	verdict := "PASSED"
	switch {
	case len(res.SuiteFailures) > 0:
		verdict = "BROKEN"
	case res.Failing():
		verdict = "FAILED"
	}
	m := bundle.Manifest{Created: time.Now().UTC(), Verdict: verdict, Tool: bundle.ToolVersion(), Catalogue: bundle.CatalogueOf(rules.Default()),
		Target: bundle.DescribeTarget(rr.cfg, rules.Default()), Command: rr.command("--certify", "--out", rr.o.out), BrowserCheck: check}
	// The bundle is what this run wrote, nothing else of --out.
	if err := rr.out.Record(bundle.TargetFile, bundle.ReadmeFile, bundle.ManifestFile); err != nil {
		return err
	}
	files, err := bundle.Write(rr.outDir, rr.out.Written(), m)
	if err != nil {
		return err
	}
	tgz, err := rr.out.WriteArchive(func(w io.Writer) error { return bundle.WriteTarGz(w, rr.outDir, files) })
	if err != nil {
		return err
	}
	fi, err := os.Stat(tgz)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "certification %s: bundle %s (%s, %d bytes)\n", verdict, rr.outDir, tgz, fi.Size())
	return nil
}

// lookAtReport opens report.html in headless Chromium, saves the screenshot
// and says whether the page shows what results.json holds.
func (rr runReport) lookAtReport(ctx context.Context, res *results.Results, e *env) string {
	chromium, err := browser.Find(e.getenv)
	if err != nil {
		return "report.html not checked in a browser: " + err.Error()
	}
	lctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := rr.out.Record(screenshotFile); err != nil {
		return "report.html not checked in a browser: " + err.Error()
	}
	seen, err := browser.Look(lctx, filepath.Join(rr.outDir, htmlReport), browser.Options{Chromium: chromium, Screenshot: filepath.Join(rr.outDir, screenshotFile)})
	if err != nil {
		return "report.html not checked in a browser: " + err.Error()
	}
	want := map[string]int{}
	for _, r := range res.Rules {
		want[string(r.Verdict)]++
	}
	var problems []string
	for v, n := range want {
		if seen.RuleCounts[v] != n || seen.Rows[v] != n {
			problems = append(problems, fmt.Sprintf("%s: the page says %d and shows %d rows, results.json has %d", v, seen.RuleCounts[v], seen.Rows[v], n))
		}
	}
	if len(seen.Clipped) > 0 {
		problems = append(problems, "clipped at 1280 px: "+seen.Clipped[0])
	}
	if seen.TranscriptHidden && !seen.TranscriptShown {
		problems = append(problems, "a failed rule's transcript does not open")
	}
	if len(seen.Requests) > 0 {
		problems = append(problems, "the page asks the network for "+seen.Requests[0])
	}
	if len(problems) > 0 {
		return "report.html in Chromium differs from results.json: " + strings.Join(problems, "; ")
	}
	return "report.html checked in headless Chromium at 1280 px: counts equal results.json, nothing clipped, no network; screenshot " + screenshotFile
}

// shellQuote quotes a word for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,@%+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
