package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"time"
)

// trivialServer answers every path with one Currency record, so that the
// load generator's preflight passes and every request costs the same.
func trivialServer() *httptest.Server {
	body := []byte(`{"BTC":{"full_name":"Bitcoin","payin_enabled":true,"payout_enabled":true,"transfer_enabled":true,"precision_transfer":"0.00000001","networks":[]}}`)
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
}

var wrkRate = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)

func runWrk(url string, conns int, d time.Duration) (float64, error) {
	out, err := exec.Command("wrk", "-t2", "-c"+strconv.Itoa(conns), "-d"+d.String(), url).CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("wrk: %v: %s", err, out)
	}
	m := wrkRate.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("wrk: no Requests/sec in %s", out)
	}
	return strconv.ParseFloat(string(m[1]), 64)
}

// runConformLoad runs the built CLI at max rate and reads its throughput.
func runConformLoad(bin, url string, conns int, d time.Duration) (float64, error) {
	dir, err := os.MkdirTemp("", "benchcmp-load")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command(bin, "load", "--target", url, "--scenario", "public", "--rate", "max", "--override-bounds",
		"--connections", strconv.Itoa(conns), "--workers", strconv.Itoa(conns), "--max-workers", strconv.Itoa(conns), "--duration", d.String(), "--threshold", "none", "--out", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("conform load: %v: %s", err, out)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		return 0, err
	}
	var s struct {
		Throughput float64 `json:"throughput"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return 0, err
	}
	return s.Throughput, nil
}

func compareLoad(rounds int, d time.Duration) error {
	const conns = 64
	fmt.Printf("== load generator: conform load --rate max vs wrk -t2 -c%d, one trivial endpoint (fixed JSON), loopback\n", conns)
	if _, err := exec.LookPath("wrk"); err != nil {
		fmt.Println("skipped: wrk is not installed (apt-get install wrk)")
		return nil
	}
	bin, err := filepath.Abs("../bin/conform")
	if err == nil {
		_, err = os.Stat(bin)
	}
	if err != nil {
		fmt.Println("skipped: ../bin/conform is not built (make build)")
		return nil
	}
	srv := trivialServer()
	defer srv.Close()
	var ratios, ws, cs []float64
	for r := 1; r <= rounds; r++ {
		w, err := runWrk(srv.URL+"/api/3/public/currency", conns, d)
		if err != nil {
			return err
		}
		c, err := runConformLoad(bin, srv.URL, conns, d)
		if err != nil {
			return err
		}
		fmt.Printf("round %d: wrk %8.0f req/s | conform load %8.0f req/s | ratio %.2f\n", r, w, c, c/w)
		ratios, ws, cs = append(ratios, c/w), append(ws, w), append(cs, c)
	}
	fmt.Printf("wrk: %.0f req/s; conform load: %.0f req/s\n", median(ws), median(cs))
	fmt.Printf("conform load/wrk ratio: %.2f (target >= 0.80)\n", median(ratios))
	return nil
}
