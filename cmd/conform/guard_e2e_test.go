package main

// End-to-end check of the live-trading guard per destination: the REST
// target is an emulator, the stream target another host that is neither
// the emulator nor declared. Needs the binaries of `make build` (CONFORM_BIN,
// as the other trust checks).

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/conform-harness/conform/emulator"
	"github.com/gorilla/websocket"
)

// orderMethod is the harness's own reading of a stream frame that trades,
// kept apart from the client's list so that the check is independent.
var orderMethod = regexp.MustCompile(`(?i)new_?order|replace|cancel|close_?position|set_?account|transfer|withdraw|freeze`)

// streamLog records what reaches a stream host through streamProxy: every
// client frame whose method trades, and every authenticated mutating REST
// request.
type streamLog struct {
	mu             sync.Mutex
	frames, orders []string
	mutating       []string
}

func (l *streamLog) counts() (frames, orders, mutating int, example string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case len(l.orders) > 0:
		example = l.orders[0]
	case len(l.mutating) > 0:
		example = l.mutating[0]
	}
	return len(l.frames), len(l.orders), len(l.mutating), example
}

// streamProxy stands for a second host in front of upstream: it relays
// WebSocket connections frame by frame and HTTP requests, logging what it
// relays.
func streamProxy(t *testing.T, upstream string) (string, *streamLog) {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	log := &streamLog{}
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !websocket.IsWebSocketUpgrade(r) {
			if r.Header.Get("Authorization") != "" && r.Method != http.MethodGet && r.Method != http.MethodHead {
				log.mu.Lock()
				log.mutating = append(log.mutating, r.Method+" "+r.URL.Path)
				log.mu.Unlock()
			}
			rp.ServeHTTP(w, r)
			return
		}
		back, _, err := websocket.DefaultDialer.Dial("ws://"+u.Host+r.URL.RequestURI(), nil)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		front, err := up.Upgrade(w, r, nil)
		if err != nil {
			back.Close()
			return
		}
		go func() {
			defer front.Close()
			for {
				kind, data, err := back.ReadMessage()
				if err != nil || front.WriteMessage(kind, data) != nil {
					return
				}
			}
		}()
		defer back.Close()
		for {
			kind, data, err := front.ReadMessage()
			if err != nil {
				return
			}
			var f struct {
				Method string `json:"method"`
			}
			_ = json.Unmarshal(data, &f)
			log.mu.Lock()
			log.frames = append(log.frames, f.Method)
			if orderMethod.MatchString(f.Method) {
				log.orders = append(log.orders, r.URL.Path+" "+f.Method)
			}
			log.mu.Unlock()
			if back.WriteMessage(kind, data) != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http"), log
}

// skippedFor counts the specs of results.json skipped for a reason holding s.
func skippedFor(t *testing.T, dir, s string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), s)
}

// With the REST target on an emulator and --ws-target on another host that
// is neither the emulator (a second one without its control plane) nor
// declared a sandbox, no order, replacement or cancellation reaches that
// host, and the specs that would trade there skip with the reason;
// declared with --ws-sandbox, the same proxy sees them (its log works).
func TestTrustGuardCoversTheStreamTarget(t *testing.T) {
	t.Parallel() // full suite run against targets of its own, as the other trust checks
	bin := binDir(t)
	rest := startEmulator(t, emulator.Options{ControlPlane: true})
	ws, log := streamProxy(t, startEmulator(t, emulator.Options{}))
	out := t.TempDir()
	// The areas that send on the streams with keys (trading and wallet
	// streams, the limit scenarios' stream rows, sub-accounts' sessions):
	// seconds, where a full run spends minutes in specs that wait on one
	// emulator's stream for what was done on the other's REST (a full run
	// was checked by hand: no order frame either). Of the limit scenarios
	// only the per-account stream rows (V3-LIMIT-ACCT-WS-*) log in and send
	// with keys, one of them orders (spot_replace_order): the batch runs
	// just the rows the filter selects, so the REST rows' seconds of offered
	// load, which never reach the stream host, stay out.
	code, console := conformCLI(t, bin, nil, "run", "--target", rest, "--ws-target", ws, "--procs", "2", "--out", out,
		"--label-filter", "area:streamtrading || area:streamwallet || (area:limits && /^rule:V3-LIMIT-ACCT-WS-/) || area:subaccounts")
	if code != exitOK && code != exitFailed {
		t.Fatalf("exit %d:\n%s", code, console)
	}
	frames, orders, mutating, example := log.counts()
	if orders > 0 || mutating > 0 {
		t.Errorf("%d order frames and %d authenticated mutating requests reached the undeclared stream host, e.g. %s", orders, mutating, example)
	}
	if frames == 0 {
		t.Error("no frame at all reached the stream host: the run did not use --ws-target")
	}
	if n := skippedFor(t, out, "is neither the conform emulator nor declared a sandbox (pass --ws-sandbox"); n == 0 {
		t.Errorf("no spec skipped for the undeclared stream target:\n%s", console)
	}
	if n := skippedFor(t, out, "stream method spot_replace_order on "+ws); n == 0 {
		t.Errorf("the limit scenarios' order row was not refused by the guard (not run?):\n%s", tail(console, 40))
	}

	declared := t.TempDir()
	code, console = conformCLI(t, bin, nil, "run", "--target", rest, "--ws-target", ws, "--ws-sandbox", "--procs", "2",
		"--label-filter", "area:streamtrading", "--out", declared)
	if code != exitOK && code != exitFailed {
		t.Fatalf("--ws-sandbox run: exit %d:\n%s", code, console)
	}
	if _, orders, _, _ := log.counts(); orders == 0 {
		t.Error("declared with --ws-sandbox, the trading stream specs sent no order frame: the log does not see them")
	}
}

// An emulator whose control plane takes a token: a run given the token
// (CONFORM_CONTROL_TOKEN) finds the emulator and drives its control plane
// (funding an account), and the token is nowhere in what it prints or
// writes; without the token the emulator is not recognised, and the
// emulator-only spec skips with the reason.
func TestTrustControlTokenReachesTheControlPlane(t *testing.T) {
	t.Parallel() // targets, ports and directories of its own
	bin := binDir(t)
	const token = "ctl-e2e-7c1d9a4b3f2e8d60"
	base := startEmulator(t, emulator.Options{ControlPlane: true, ControlToken: token})
	// A spec that funds an account through the control plane, and one that
	// trades (permitted only where the emulator is recognised).
	filter := "rule:V3-SPOT-DAY || rule:V3-SPOT-NEW" // V3-SPOT-DAY needs the control plane on every target
	out := t.TempDir()
	code, console := conformCLI(t, bin, []string{"CONFORM_CONTROL_TOKEN=" + token}, "run", "--target", base, "--procs", "1", "--label-filter", filter, "--out", out)
	if code != exitOK {
		t.Fatalf("with the token: exit %d:\n%s", code, console)
	}
	if n := skippedFor(t, out, "emulator-only: needs"); n != 0 {
		t.Errorf("with the token, %d emulator-only skips:\n%s", n, console)
	}
	if specs, _ := runSummary(t, out); specs < 2 {
		t.Errorf("with the token only %d specs ran", specs)
	}
	if strings.Contains(console, token) {
		t.Error("the console shows the control token")
	}
	_ = filepath.Walk(out, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if b, _ := os.ReadFile(path); strings.Contains(string(b), token) {
				t.Errorf("%s holds the control token", path)
			}
		}
		return nil
	})

	without := t.TempDir()
	code, console = conformCLI(t, bin, nil, "run", "--target", base, "--procs", "1", "--label-filter", filter, "--out", without)
	if code != exitOK {
		t.Fatalf("without the token: exit %d:\n%s", code, console)
	}
	if n := skippedFor(t, without, "emulator-only: needs the conform emulator's control plane"); n == 0 {
		t.Errorf("without the token the emulator-only spec did not skip for the control plane:\n%s", console)
	}
	if n := skippedFor(t, without, "neither the conform emulator nor declared a sandbox"); n == 0 {
		t.Errorf("without the token the trading spec did not skip for the unrecognised target:\n%s", console)
	}
}
