package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
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

// lightServer answers every request with fixed bytes from a read loop per
// connection, at a fraction of net/http's cost per request: against it
// the generators, not the server, take most of the machine, so the pair
// measures what a generator itself can send.
func lightServer() (url string, closeFn func(), err error) {
	body := `{"BTC":{"full_name":"Bitcoin","payin_enabled":true,"payout_enabled":true,"transfer_enabled":true,"precision_transfer":"0.00000001","networks":[]}}`
	answer := []byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go serveLight(c, answer)
		}
	}()
	return "http://" + ln.Addr().String(), func() { ln.Close() }, nil
}

// serveLight answers each request head read on c (the generators send
// no bodies) with answer.
func serveLight(c net.Conn, answer []byte) {
	defer c.Close()
	buf := make([]byte, 16<<10)
	n := 0
	for {
		m, err := c.Read(buf[n:])
		if err != nil {
			return
		}
		n += m
		for {
			i := bytes.Index(buf[:n], []byte("\r\n\r\n"))
			if i < 0 {
				break
			}
			if _, err := c.Write(answer); err != nil {
				return
			}
			n = copy(buf, buf[i+4:n])
		}
		if n == len(buf) {
			return // a head larger than the buffer: not a generator's
		}
	}
}

var (
	wrkRate     = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	wrkRequests = regexp.MustCompile(`([0-9]+) requests in`)
)

// generated is one side's figures: requests per second, and the
// generator's CPU time (user and system, the whole process) per request.
type generated struct {
	rate       float64
	cpuPerReq  time.Duration
	requests   int64
	processCPU time.Duration
}

func cpuOf(cmd *exec.Cmd) time.Duration {
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func runWrk(url string, conns int, d time.Duration) (generated, error) {
	cmd := exec.Command("wrk", "-t2", "-c"+strconv.Itoa(conns), "-d"+d.String(), url)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return generated{}, fmt.Errorf("wrk: %v: %s", err, out)
	}
	m, n := wrkRate.FindSubmatch(out), wrkRequests.FindSubmatch(out)
	if m == nil || n == nil {
		return generated{}, fmt.Errorf("wrk: no Requests/sec or requests in %s", out)
	}
	g := generated{processCPU: cpuOf(cmd)}
	g.rate, _ = strconv.ParseFloat(string(m[1]), 64)
	g.requests, _ = strconv.ParseInt(string(n[1]), 10, 64)
	return g, nil
}

// runConformLoad runs the built CLI at max rate and reads its throughput.
// Its CPU time includes what wrk does not do: writing results.bin, then
// reading it back for summary.json and report.html.
func runConformLoad(bin, url string, conns int, d time.Duration) (generated, error) {
	dir, err := os.MkdirTemp("", "benchcmp-load")
	if err != nil {
		return generated{}, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command(bin, "load", "--target", url, "--scenario", "public", "--rate", "max", "--override-bounds",
		"--connections", strconv.Itoa(conns), "--workers", strconv.Itoa(conns), "--max-workers", strconv.Itoa(conns), "--duration", d.String(), "--threshold", "none", "--out", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return generated{}, fmt.Errorf("conform load: %v: %s", err, out)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		return generated{}, err
	}
	var s struct {
		Throughput float64 `json:"throughput"`
		Requests   int64   `json:"requests"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return generated{}, err
	}
	return generated{rate: s.Throughput, requests: s.Requests, processCPU: cpuOf(cmd)}, nil
}

func compareLoad(rounds int, d time.Duration) error {
	const conns = 64
	if _, err := exec.LookPath("wrk"); err != nil {
		fmt.Println("== load generator: skipped: wrk is not installed (apt-get install wrk)")
		return nil
	}
	bin, err := filepath.Abs("../bin/conform")
	if err == nil {
		_, err = os.Stat(bin)
	}
	if err != nil {
		fmt.Println("== load generator: skipped: ../bin/conform is not built (make cli)")
		return nil
	}
	srv := trivialServer()
	defer srv.Close()
	fmt.Printf("== load generator: conform load --rate max vs wrk -t2 -c%d, one trivial endpoint (fixed JSON, net/http), loopback\n", conns)
	if err := loadPair(bin, srv.URL, conns, rounds, d, "conform load/wrk ratio"); err != nil {
		return err
	}
	light, closeLight, err := lightServer()
	if err != nil {
		return err
	}
	defer closeLight()
	fmt.Printf("\n== load generator, light target: the same pair against a read loop answering fixed bytes (the generators take most of the machine)\n")
	return loadPair(bin, light, conns, rounds, d, "conform load/wrk ratio, light target")
}

// loadPair runs wrk and conform load against url in turn, rounds times,
// the side that goes first alternating, and prints the median ratio.
func loadPair(bin, url string, conns, rounds int, d time.Duration, label string) error {
	var ratios, ws, cs, wcpu, ccpu []float64
	perReq := func(g generated) float64 { return float64(g.processCPU.Microseconds()) / float64(max(g.requests, 1)) }
	for r := 1; r <= rounds; r++ {
		var w, c generated
		wrk := func() (err error) { w, err = runWrk(url+"/api/3/public/currency", conns, d); return err }
		ours := func() (err error) { c, err = runConformLoad(bin, url, conns, d); return err }
		sides := []func() error{wrk, ours}
		if r%2 == 0 {
			sides[0], sides[1] = ours, wrk
		}
		for _, side := range sides {
			if err := side(); err != nil {
				return err
			}
		}
		fmt.Printf("round %d: wrk %8.0f req/s %5.2f µs CPU/req | conform load %8.0f req/s %5.2f µs CPU/req | ratio %.2f\n",
			r, w.rate, perReq(w), c.rate, perReq(c), c.rate/w.rate)
		ratios, ws, cs = append(ratios, c.rate/w.rate), append(ws, w.rate), append(cs, c.rate)
		wcpu, ccpu = append(wcpu, perReq(w)), append(ccpu, perReq(c))
	}
	fmt.Printf("wrk: %.0f req/s, %.2f µs of CPU per request; conform load: %.0f req/s, %.2f µs of CPU per request (with its results file and reports)\n",
		median(ws), median(wcpu), median(cs), median(ccpu))
	fmt.Printf("%s: %.2f (%s; target >= 1.00, with no more CPU per request than wrk)\n", label, median(ratios), spread(ratios))
	return nil
}
