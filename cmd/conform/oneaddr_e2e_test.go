package main

import (
	"encoding/json"
	"encoding/pem"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator"
)

// tlsFront serves upstream (a base URL) over TLS with a certificate of its
// own, as a sandbox's terminating proxy does, re-originating every request
// and WebSocket from its own address. It returns its https base URL and the
// CA file that trusts it (for SSL_CERT_FILE).
func tlsFront(t *testing.T, upstream string) (string, string) {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	// Upstream connections kept, as a terminating proxy keeps them: a
	// burst of hundreds would otherwise open as many to the emulator.
	rp.Transport = &http.Transport{MaxIdleConns: 1024, MaxIdleConnsPerHost: 1024, IdleConnTimeout: time.Minute}
	srv := httptest.NewTLSServer(rp)
	t.Cleanup(srv.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	return srv.URL, ca
}

// delayRelay stands in for the network to a remote sandbox: it relays every
// connection to upstream (a base URL) from its own address, as a NAT or a
// proxy does, so the target sees one peer for all, and holds every chunk
// of bytes for delay in each direction. It returns the relay's base URL,
// of upstream's scheme.
func delayRelay(t *testing.T, upstream string, delay time.Duration) string {
	t.Helper()
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu   sync.Mutex
		open []net.Conn
	)
	t.Cleanup(func() {
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range open {
			_ = c.Close()
		}
	})
	go func() {
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", u.Host)
			if err != nil {
				_ = in.Close()
				continue
			}
			mu.Lock()
			open = append(open, in, out)
			mu.Unlock()
			go delayCopy(out, in, delay)
			go delayCopy(in, out, delay)
		}
	}()
	return u.Scheme + "://" + ln.Addr().String()
}

// delayCopy copies src to dst, each chunk delay after it was read, in order.
func delayCopy(dst, src net.Conn, delay time.Duration) {
	type chunk struct {
		b  []byte
		at time.Time
	}
	chunks := make(chan chunk, 1024)
	go func() {
		defer close(chunks)
		for {
			buf := make([]byte, 32<<10)
			n, err := src.Read(buf)
			if n > 0 {
				chunks <- chunk{buf[:n], time.Now().Add(delay)}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range chunks {
		time.Sleep(time.Until(c.at))
		if _, err := dst.Write(c.b); err != nil {
			_ = src.Close()
			for range chunks { // let the reader finish
			}
			return
		}
	}
	if tc, ok := dst.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
}

// ruleVerdicts reads each rule's verdict of results.json in dir.
func ruleVerdicts(t *testing.T, dir string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Rules []struct {
			ID      string `json:"id"`
			Verdict string `json:"verdict"`
		} `json:"rules"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, x := range r.Rules {
		out[x.ID] = x.Verdict
	}
	return out
}

// assertLimitsLast fails unless every spec outside the limit batch of the
// run in dir ended before the batch began: from one address they would
// spend the budgets it measures.
func assertLimitsLast(t *testing.T, dir string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "ginkgo.json"))
	if err != nil {
		t.Fatal(err)
	}
	var reports []struct {
		SpecReports []struct {
			ContainerHierarchyTexts []string
			LeafNodeType            string
			LeafNodeText            string
			State                   string
			StartTime, EndTime      time.Time
		}
	}
	if err := json.Unmarshal(b, &reports); err != nil || len(reports) == 0 {
		t.Fatalf("ginkgo.json: %v", err)
	}
	var began time.Time
	for _, s := range reports[0].SpecReports {
		if len(s.ContainerHierarchyTexts) > 0 && s.ContainerHierarchyTexts[0] == "Limits" && s.State != "skipped" &&
			(began.IsZero() || s.StartTime.Before(began)) {
			began = s.StartTime
		}
	}
	if began.IsZero() {
		t.Fatal("the limit batch did not run")
	}
	others := 0
	for _, s := range reports[0].SpecReports {
		if s.LeafNodeType != "It" || s.State == "skipped" || (len(s.ContainerHierarchyTexts) > 0 && s.ContainerHierarchyTexts[0] == "Limits") {
			continue
		}
		others++
		if s.EndTime.After(began) {
			t.Errorf("%q ended %s after the limit batch began", s.LeafNodeText, s.EndTime.Sub(began))
		}
	}
	if others == 0 {
		t.Error("no spec ran beside the limit batch")
	}
}

// The limits of a remote sandbox, from one address: the emulator with its
// control plane off behind a TLS-terminating proxy (trusted through
// SSL_CERT_FILE) and a relay that adds 20 ms each way, every connection
// reaching the emulator from one address, keys in a config that declares
// the sandbox and the shared source, as a user would write it. The limit rows run alone at
// the end of the run from that one address: against the honest emulator
// every rate row the address can decide passes (the rest are
// inconclusive, never failed); with V3-LIMIT-IP-PUBLIC's fault on, that
// rule fails (exit 1). A row the loaded machine could not time is
// inconclusive, which the test reports; under the fault it then skips
// rather than pass it.
func TestRemoteLimitsFromOneAddress(t *testing.T) {
	t.Parallel() // a target, relay and directory of its own; it mostly waits on windows
	bin := binDir(t)
	config := func(t *testing.T, rest string) string {
		accounts := map[string]map[string]any{}
		for _, kv := range fixtureKeysEnv(t, 5) {
			name, v, _ := strings.Cut(kv, "=")
			parts := strings.SplitN(v, ":", 3)
			role := strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(name, "CONFORM_KEY_"), "_", "-"))
			accounts[role] = map[string]any{"api_key": parts[0], "secret": parts[1], "rights": strings.Split(parts[2], ",")}
		}
		b, _ := json.Marshal(map[string]any{"rest": rest, "sandbox": true, "shared_source": true, "accounts": accounts})
		path := filepath.Join(t.TempDir(), "sandbox.json")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// Rows each address can decide: every per-IP REST and stream row, the
	// per-account stream rows whose budget fits in the address's, v2's.
	decidable := []string{"V3-LIMIT-IP-DEFAULT", "V3-LIMIT-IP-PUBLIC", "V3-LIMIT-IP-WALLET", "V3-LIMIT-IP-BUYCRYPTO-PROVIDER",
		"V3-LIMIT-IP-BUYCRYPTO-FIAT2CRYPTO", "V3-LIMIT-IP-SPOT-ORDER", "V3-LIMIT-IP-MARGIN", "V3-LIMIT-IP-FUTURES", "V3-LIMIT-IP-TRANSFER-CONVERT",
		"V3-LIMIT-WS-PUBLIC-MSG", "V3-LIMIT-WS-TRADING-MSG", "V3-LIMIT-WS-WALLET-MSG", "V3-LIMIT-ACCT-WS-TRADING-SUBSCRIBE",
		"V3-LIMIT-ACCT-WS-WALLET-LOGIN", "V3-LIMIT-ACCT-WS-WALLET", "V3-LIMIT-WINDOW", "V3-LIMIT-429", "V2-LIMIT-MARKETDATA", "V2-LIMIT-OTHER"}
	t.Run("honest", func(t *testing.T) {
		t.Parallel()
		front, ca := tlsFront(t, startEmulator(t, emulator.Options{}))
		relay := delayRelay(t, front, 20*time.Millisecond)
		out := t.TempDir()
		start := time.Now()
		// With the functional specs of two small areas, paced over the
		// same address, which must be over before the limits start.
		code, console := conformCLI(t, bin, []string{"SSL_CERT_FILE=" + ca}, "run", "--config", config(t, relay), "--procs", "2",
			"--label-filter", "area:limits || area:v2limits || area:conventions || area:errors", "--out", out)
		t.Logf("the limits from one address over TLS and 20 ms each way: exit %d in %s", code, time.Since(start).Round(time.Second))
		if code != exitOK {
			t.Fatalf("exit %d:\n%s", code, console)
		}
		assertLimitsLast(t, out)
		verdicts := ruleVerdicts(t, out)
		for _, id := range decidable {
			switch verdicts[id] {
			case "passed":
			case "inconclusive": // a "no reading", never a pass
				t.Logf("%s: inconclusive (the machine too loaded to time it)", id)
			default:
				t.Errorf("%s: %s, want passed", id, verdicts[id])
			}
		}
	})
	t.Run("V3-LIMIT-IP-PUBLIC fault", func(t *testing.T) {
		t.Parallel()
		front, ca := tlsFront(t, startEmulator(t, emulator.Options{Faults: []string{"V3-LIMIT-IP-PUBLIC"}}))
		relay := delayRelay(t, front, 20*time.Millisecond)
		out := t.TempDir()
		code, console := conformCLI(t, bin, []string{"SSL_CERT_FILE=" + ca}, "run", "--config", config(t, relay), "--label-filter", "rule:V3-LIMIT-IP-PUBLIC", "--out", out)
		v := ruleVerdicts(t, out)["V3-LIMIT-IP-PUBLIC"]
		switch {
		case v == "inconclusive":
			t.Skip("the machine was too loaded to time V3-LIMIT-IP-PUBLIC: inconclusive")
		case code != exitFailed || v != "failed":
			t.Fatalf("with the fault on: exit %d, V3-LIMIT-IP-PUBLIC %s; want exit %d and failed:\n%s", code, v, exitFailed, console)
		}
	})
}
