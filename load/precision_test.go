package load

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/fixtures"
)

// The precision and performance figures of issue 5. They take about a
// minute and want a quiet machine, so they run only when asked:
//
//	CONFORM_PRECISION=1 go test -run Precision -v -count=1 ./load/
const precisionEnv = "CONFORM_PRECISION"

func precisionOnly(t *testing.T) {
	t.Helper()
	if testing.Short() || os.Getenv(precisionEnv) == "" {
		t.Skipf("set %s=1 to measure precision and performance", precisionEnv)
	}
}

// startEmulator serves the emulator on loopback with or without limits.
func startEmulator(t *testing.T, limits bool) *emulator.Emulator {
	t.Helper()
	emu, err := emulator.New(emulator.Options{NoLimits: !limits})
	if err != nil {
		t.Fatal(err)
	}
	if err := emu.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	return emu
}

// measure runs a scenario and returns its analysis.
func measure(t *testing.T, base, scenario string, key client.Credential, p Pacing, d time.Duration, workers, maxWorkers uint64, conns int) *Summary {
	t.Helper()
	u := testBase(t, base)
	s, err := NewScenario(scenario, ScenarioConfig{Base: u, Key: key})
	if err != nil {
		t.Fatal(err)
	}
	cfg := RunConfig{Base: u, Scenario: s, Pacing: p, Duration: d, Workers: workers, MaxWorkers: maxWorkers, Connections: conns}
	defer debug.SetGCPercent(debug.SetGCPercent(GCPercent)) // as conform load does
	a, err := Execute(context.Background(), t.TempDir(), cfg, AnalyzeOptions{Title: scenario})
	if err != nil {
		t.Fatal(err)
	}
	sm := a.Summary
	lag := LagFigures{}
	if sm.ScheduleLag != nil {
		lag = *sm.ScheduleLag
	}
	t.Logf("%s: %s at %s for %s: %d requests, achieved %.2f/s (shortfall %.3f%%), success %.4f, latency p50 %s p99 %s max %s, schedule lag p99 %s max %s, verdict %s %v",
		t.Name(), scenario, p, d, sm.Requests, sm.AchievedRate, 100*sm.Shortfall, sm.Success, fmtMS(sm.Latency.P50MS), fmtMS(sm.Latency.P99MS),
		fmtMS(sm.Latency.MaxMS), fmtMS(lag.P99MS), fmtMS(lag.MaxMS), sm.Verdict.Status, sm.Verdict.Problems)
	return sm
}

// TestPrecisionOfferedRate: at 1,000 and 5,000 requests per second for 10s
// against the emulator with limits off (public scenario, the emulator
// embedded as conform load embeds it), the achieved rate is within 1% of
// the requested one. The same rates against a bare handler in its own
// process are the control: they show the generator's accuracy apart from
// the emulator's capacity.
func TestPrecisionOfferedRate(t *testing.T) {
	precisionOnly(t)
	emu := startEmulator(t, false).URL()
	bare := startBareServer(t)
	for _, c := range []struct {
		name, url string
		rate      int
	}{
		{"emulator 1000", emu, 1000},
		{"emulator 5000", emu, 5000},
		{"bare 1000", bare, 1000},
		{"bare 5000", bare, 5000},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := measure(t, c.url, ScenarioPublic, client.Credential{}, Pacing{Rate: ConstantRate(c.rate)}, 10*time.Second, 10, 1000, 100)
			if s.Shortfall > MaxShortfall || s.Verdict.Status == StatusInvalid {
				t.Errorf("achieved %.2f/s of %d/s, %d unsent: %v", s.AchievedRate, c.rate, s.Unsent, s.Verdict.Problems)
			}
		})
	}
}

// TestPrecisionEmulatorOrders: at 300 requests per second of order
// place-and-cancel against the emulator with limits on, p99 <= 5ms.
func TestPrecisionEmulatorOrders(t *testing.T) {
	precisionOnly(t)
	emu := startEmulator(t, true)
	accts, err := fixtures.Accounts()
	if err != nil {
		t.Fatal(err)
	}
	key := client.Credential{Key: accts[0].Keys[0].APIKey, Secret: accts[0].Keys[0].Secret}
	s := measure(t, emu.URL(), ScenarioOrders, key, Pacing{Rate: ConstantRate(300)}, 10*time.Second, 10, 1000, 100)
	if s.Latency.P99MS > 5 || s.Success < 1 || s.Verdict.Status != StatusPass {
		t.Errorf("p99 %s (want <= 5ms), success %.4f, %s", fmtMS(s.Latency.P99MS), s.Success, s.Verdict.Status)
	}
}

// wrkRate matches wrk's "Requests/sec:" line.
var wrkRate = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)

// bareServerEnv makes the test binary a bare HTTP server (see
// TestPrecisionBareServer), so that wrk and conform's generator meet the
// same server process, apart from either.
const bareServerEnv = "CONFORM_BARE_SERVER"

// TestPrecisionBareServer is not a test: it is the body of the bare
// server process started by TestPrecisionGeneratorHeadroom. It prints its
// address and serves until killed.
func TestPrecisionBareServer(t *testing.T) {
	if os.Getenv(bareServerEnv) == "" {
		t.Skip("runs only as the bare server process")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(ln.Addr())
	_ = http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok")) }))
}

// startBareServer starts the bare server process and returns its URL.
func startBareServer(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestPrecisionBareServer$")
	cmd.Env = append(os.Environ(), bareServerEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("bare server: %v", err)
	}
	return "http://" + strings.TrimSpace(line)
}

// TestPrecisionGeneratorHeadroom: the maximum rate conform's generator
// reaches against a bare net/http handler on loopback (its own process),
// beside wrk on the same endpoint in the same run, alternating, best of
// three each; the target is at least half of wrk's.
func TestPrecisionGeneratorHeadroom(t *testing.T) {
	precisionOnly(t)
	wrk, err := exec.LookPath("wrk")
	if err != nil {
		t.Skip("wrk is not installed (apt-get install -y wrk)")
	}
	url := startBareServer(t)
	const (
		d     = 5 * time.Second
		conns = 64
	)
	var bestWrk, bestConform float64
	for round := 1; round <= 3; round++ {
		out, err := exec.Command(wrk, "-t2", fmt.Sprintf("-c%d", conns), "-d"+d.String(), url+"/api/3/public/symbol").CombinedOutput()
		if err != nil {
			t.Fatalf("wrk: %v\n%s", err, out)
		}
		m := wrkRate.FindSubmatch(out)
		if m == nil {
			t.Fatalf("wrk output without Requests/sec:\n%s", out)
		}
		w, _ := strconv.ParseFloat(string(m[1]), 64)
		s := measure(t, url, ScenarioPublic, client.Credential{}, Unlimited, d, conns, conns, conns)
		t.Logf("round %d: wrk -t2 -c%d -d%s %.0f/s; conform load --rate max --workers %d --max-workers %d --connections %d %.0f/s (%.2f x wrk)",
			round, conns, d, w, conns, conns, conns, s.AchievedRate, s.AchievedRate/w)
		bestWrk, bestConform = max(bestWrk, w), max(bestConform, s.AchievedRate)
	}
	ratio := bestConform / bestWrk
	t.Logf("best: wrk %.0f/s, conform %.0f/s, %.2f x wrk (target 0.5)", bestWrk, bestConform, ratio)
	if ratio < 0.5 {
		t.Errorf("generator reached %.0f/s, %.2f of wrk's %.0f/s; want at least 0.5", bestConform, ratio, bestWrk)
	}
}
