package load

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// rawServer serves every connection with answer, called per request (its
// header read, br positioned at its body); false closes the connection.
func rawServer(t *testing.T, answer func(c net.Conn, br *bufio.Reader) bool) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					for {
						l, err := br.ReadSlice('\n')
						if err != nil {
							return
						}
						if len(bytes.TrimRight(l, "\r\n")) == 0 {
							break
						}
					}
					if !answer(c, br) {
						return
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

func write(parts ...string) func(c net.Conn, br *bufio.Reader) bool {
	return func(c net.Conn, br *bufio.Reader) bool {
		for i, p := range parts {
			if i > 0 {
				time.Sleep(2 * time.Millisecond)
			}
			if _, err := io.WriteString(c, p); err != nil {
				return false
			}
		}
		return true
	}
}

// At max rate (event loops on Linux, workers elsewhere) and through the
// workers (a run whose results are observed), answers are read to the
// same results: split over reads, closed connections, failures kept,
// redirects refused, timeouts and refused connections as errors.
func TestEngineUnlimitedAnswers(t *testing.T) {
	const ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
	refused := func() string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		return "http://" + addr
	}
	tests := []struct {
		name   string
		answer func(c net.Conn, br *bufio.Reader) bool // nil: nothing listens
		check  func(r vegeta.Result) bool
		maxLat time.Duration
		body   []byte // nil: a GET
	}{
		{"keep-alive", write(ok), func(r vegeta.Result) bool { return r.Code == 200 && r.Error == "" && r.BytesIn == 2 }, 0, nil},
		{"split over reads", write("HTTP/1.1 200 OK\r\nContent-", "Length: 2\r\n\r\no", "k"),
			func(r vegeta.Result) bool { return r.Code == 200 && r.Error == "" }, 0, nil},
		{"connection close", func(c net.Conn, br *bufio.Reader) bool {
			_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok")
			return false
		}, func(r vegeta.Result) bool { return r.Code == 200 && r.Error == "" }, 0, nil},
		{"closed without saying", func(c net.Conn, br *bufio.Reader) bool { _, _ = io.WriteString(c, ok); return false },
			func(r vegeta.Result) bool { return (r.Code == 200 && r.Error == "") || (r.Code == 0 && r.Error != "") }, 0, nil},
		{"chunked failure", write("HTTP/1.1 503 Service Unavailable\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nnope\r\n0\r\n\r\n"),
			func(r vegeta.Result) bool {
				return r.Code == 503 && r.Error == "503 Service Unavailable" && string(r.Body) == "nope"
			}, 0, nil},
		{"body to the close", func(c net.Conn, br *bufio.Reader) bool {
			_, _ = io.WriteString(c, "HTTP/1.1 500 Internal Server Error\r\n\r\nbroken")
			return false
		}, func(r vegeta.Result) bool { return r.Code == 500 && string(r.Body) == "broken" }, 0, nil},
		{"redirect", write("HTTP/1.1 302 Found\r\nLocation: http://elsewhere/\r\nContent-Length: 0\r\n\r\n"),
			func(r vegeta.Result) bool {
				return r.Code == 0 && strings.HasSuffix(r.Error, "stopped after 0 redirects") && strings.Contains(r.Error, "http://elsewhere/")
			}, 0, nil},
		{"cut mid-answer", func(c net.Conn, br *bufio.Reader) bool {
			_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Le")
			return false
		},
			func(r vegeta.Result) bool { return r.Code == 0 && strings.Contains(r.Error, "EOF") }, 0, nil},
		{"cut mid-body", func(c net.Conn, br *bufio.Reader) bool {
			_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc")
			return false
		},
			func(r vegeta.Result) bool { return r.Code == 0 && strings.Contains(r.Error, "EOF") }, 0, nil},
		{"no answer", func(c net.Conn, br *bufio.Reader) bool { time.Sleep(300 * time.Millisecond); return false },
			func(r vegeta.Result) bool {
				return r.Code == 0 && strings.HasSuffix(r.Error, "i/o timeout") && r.Latency >= 100*time.Millisecond
			}, 400 * time.Millisecond, nil},
		{"large request", func(c net.Conn, br *bufio.Reader) bool {
			if _, err := io.CopyN(io.Discard, br, 1<<20); err != nil {
				return false
			}
			_, err := io.WriteString(c, ok)
			return err == nil
		}, func(r vegeta.Result) bool { return r.Code == 200 && r.BytesOut == 1<<20 }, 0, bytes.Repeat([]byte("x"), 1<<20)},
		{"answered before the body", func(c net.Conn, br *bufio.Reader) bool {
			_, _ = io.WriteString(c, "HTTP/1.1 413 Request Entity Too Large\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
			time.Sleep(20 * time.Millisecond)
			return false
		}, func(r vegeta.Result) bool { return r.Code == 413 || (r.Code == 0 && r.Error != "") }, 0, bytes.Repeat([]byte("x"), 1<<20)},
		{"refused", nil, func(r vegeta.Result) bool { return r.Code == 0 && strings.Contains(r.Error, "connection refused") }, 0, nil},
	}
	for _, tt := range tests {
		for _, observe := range []bool{false, true} {
			name := tt.name + "/max rate"
			if observe {
				name = tt.name + "/workers"
			}
			t.Run(name, func(t *testing.T) {
				url := refused()
				if tt.answer != nil {
					url = rawServer(t, tt.answer)
				}
				cfg := RunConfig{Base: testBase(t, url), Pacing: Unlimited, Duration: 150 * time.Millisecond,
					Workers: 2, MaxWorkers: 2, Connections: 2, Timeout: 2 * time.Second}
				if tt.maxLat > 0 { // the timeout's case
					cfg.Timeout = 100 * time.Millisecond
				}
				tr := func(t *vegeta.Target) error {
					t.Method, t.URL = "GET", url+"/api/3/public/symbol"
					if tt.body != nil {
						t.Method, t.Body = "POST", tt.body
					}
					return nil
				}
				start := time.Now()
				out, _ := runEngineObserved(t, cfg, tr, observe)
				if d := time.Since(start); d > 2*time.Second {
					t.Errorf("took %s", d)
				}
				if len(out) == 0 {
					t.Fatal("no results")
				}
				for _, r := range out {
					if !tt.check(r) || (tt.maxLat > 0 && r.Latency > tt.maxLat) || r.Method == "" || r.URL == "" {
						t.Fatalf("result %+v (body %q)", r, r.Body)
					}
				}
				checkSeqOrder(t, out)
			})
		}
	}
}
