package load

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/reporters/browser"
)

func TestReportCarriesThroughputAndStatusMix(t *testing.T) {
	dir := t.TempDir()
	src := writeRun(t, dir, 1000, func(int) time.Duration { return 0 }, func(k int) uint16 {
		if k%10 == 0 {
			return 429
		}
		return 200
	})
	a, err := Analyze([]Source{src}, AnalyzeOptions{Title: "test"})
	if err != nil {
		t.Fatal(err)
	}
	series := a.Summary.perSecond
	if len(series) != 10 || series[0].Sent != 100 || series[0].OK != 90 || series[9].Second != 9 {
		t.Fatalf("per second: %+v", series)
	}
	if err := a.WriteReports(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Status mix", "429: 100 (10.00%)", "Throughput over time", `aria-label="throughput over time"`, "Latency histogram", "Latency over time"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}

	// What a person sees at 1280 px: nothing clipped, the latency plot
	// whole inside its frame.
	chromium, err := browser.Find(os.Getenv)
	if err != nil {
		t.Skipf("layout not checked: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	clipped, err := browser.Layout(ctx, filepath.Join(dir, ReportFile), browser.Options{Chromium: chromium})
	if err != nil {
		t.Fatal(err)
	}
	if len(clipped) > 0 {
		t.Errorf("clipped at 1280 px:\n%s", strings.Join(clipped, "\n"))
	}
}
