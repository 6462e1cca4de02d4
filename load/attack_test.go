package load

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// counter answers the first `allow` requests 200 and the rest 429, records
// every request's source host and X-Index header, and the largest number
// of requests in flight at once.
type counter struct {
	allow int
	delay time.Duration

	mu       sync.Mutex
	served   int
	hosts    map[string]int
	indexes  map[string]int
	inFlight int
	peak     int
}

func (c *counter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	c.served++
	n := c.served
	host, _, _ := net.SplitHostPort(r.RemoteAddr)
	c.hosts[host]++
	c.indexes[r.Header.Get("X-Index")]++
	c.inFlight++
	c.peak = max(c.peak, c.inFlight)
	c.mu.Unlock()
	time.Sleep(c.delay)
	c.mu.Lock()
	c.inFlight--
	c.mu.Unlock()
	if n > c.allow {
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprintf(w, `{"error":{"code":429,"message":"Too many requests"}}`)
		return
	}
	fmt.Fprintf(w, `{"n":%d}`, n)
}

func newCounter(t *testing.T, allow int, delay time.Duration) (*counter, string) {
	t.Helper()
	c := &counter{allow: allow, delay: delay, hosts: map[string]int{}, indexes: map[string]int{}}
	s := httptest.NewServer(c)
	t.Cleanup(s.Close)
	return c, s.URL
}

func get(url string) func(int, *vegeta.Target) error {
	return func(i int, t *vegeta.Target) error {
		t.Method, t.URL = "GET", url+"/x"
		t.Header = http.Header{"X-Index": {strconv.Itoa(i)}}
		return nil
	}
}

func TestSendCountsEveryAnswer(t *testing.T) {
	for _, tc := range []struct {
		name      string
		requests  int
		allow     int
		workers   int
		keepAlive bool
	}{
		{"fewer than allowed", 10, 50, 4, true},
		{"exactly allowed", 50, 50, 8, true},
		{"more than allowed", 80, 50, 16, true},
		{"one worker", 30, 20, 1, true},
		{"no keep-alive", 30, 20, 4, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, url := newCounter(t, tc.allow, time.Millisecond)
			answers, err := Offer{Requests: tc.requests, Workers: tc.workers, NoKeepAlive: !tc.keepAlive, Build: get(url)}.Send(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(answers) != tc.requests {
				t.Fatalf("%d answers, want %d", len(answers), tc.requests)
			}
			ok, limited := 0, 0
			for i, a := range answers {
				switch {
				case a.Err != "":
					t.Fatalf("answer %d: %s", i, a.Err)
				case a.Status == 200 && strings.HasPrefix(string(a.Body), `{"n":`):
					ok++
				case a.Status == 429 && strings.Contains(string(a.Body), `"code":429`):
					limited++
				default:
					t.Fatalf("answer %d: %d %s", i, a.Status, a.Body)
				}
				if i > 0 && a.Seq <= answers[i-1].Seq {
					t.Fatalf("answers out of order at %d", i)
				}
				if a.Received().Before(a.Sent) {
					t.Fatalf("answer %d received before it was sent", i)
				}
			}
			if want := min(tc.requests, tc.allow); ok != want || limited != tc.requests-want {
				t.Fatalf("%d ok and %d limited, want %d and %d", ok, limited, want, tc.requests-want)
			}
			// Each request was built once, fresh.
			if len(c.indexes) != tc.requests {
				t.Fatalf("%d distinct requests reached the server, want %d", len(c.indexes), tc.requests)
			}
			if c.peak > tc.workers {
				t.Fatalf("%d requests in flight with %d workers", c.peak, tc.workers)
			}
		})
	}
}

func TestSendFromLocalAddress(t *testing.T) {
	c, url := newCounter(t, 1000, 0)
	for _, ip := range []string{"127.0.5.1", "127.0.5.2"} {
		if _, err := (Offer{Requests: 5, LocalIP: net.ParseIP(ip), Build: get(url)}).Send(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if c.hosts["127.0.5.1"] != 5 || c.hosts["127.0.5.2"] != 5 || len(c.hosts) != 2 {
		t.Fatalf("server saw %v, want 5 from each of 127.0.5.1 and 127.0.5.2", c.hosts)
	}
}

func TestSendPacesTheRate(t *testing.T) {
	_, url := newCounter(t, 1000, 0)
	for _, tc := range []struct {
		rate, requests int
		min, max       time.Duration // from the first send to the last
	}{
		{100, 21, 190 * time.Millisecond, 400 * time.Millisecond},
		{0, 21, 0, 150 * time.Millisecond},
	} {
		answers, err := Offer{Requests: tc.requests, Rate: tc.rate, Build: get(url)}.Send(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		span := answers[len(answers)-1].Sent.Sub(answers[0].Sent)
		if span < tc.min || span > tc.max {
			t.Errorf("rate %d: %d requests sent over %s, want %s to %s", tc.rate, tc.requests, span, tc.min, tc.max)
		}
	}
}

func TestSendStopsWithTheContext(t *testing.T) {
	_, url := newCounter(t, 1000, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	answers, err := Offer{Requests: 1000, Rate: 50, Build: get(url)}.Send(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want the context's", err)
	}
	if time.Since(start) > 2*time.Second || len(answers) >= 1000 {
		t.Fatalf("ran on for %s and %d answers", time.Since(start), len(answers))
	}
}

func TestSendReportsFailures(t *testing.T) {
	boom := errors.New("boom")
	var built atomic.Int64
	_, url := newCounter(t, 1000, 0)
	_, err := Offer{Requests: 10, Build: func(i int, t *vegeta.Target) error {
		built.Add(1)
		if i == 3 {
			return boom
		}
		return get(url)(i, t)
	}}.Send(context.Background())
	if !errors.Is(err, boom) {
		t.Fatalf("err %v, want the Build error", err)
	}

	// Nothing listens: every answer carries the transport error.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + ln.Addr().String()
	ln.Close()
	answers, err := Offer{Requests: 3, Build: get(dead)}.Send(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range answers {
		if a.Status != 0 || a.Err == "" {
			t.Fatalf("answer from nothing: %+v", a)
		}
	}

	for _, o := range []Offer{{Requests: 0, Build: get(url)}, {Requests: 1}, {Requests: 1, Rate: -1, Build: get(url)}} {
		if _, err := o.Send(context.Background()); err == nil {
			t.Errorf("invalid offer %+v accepted", o)
		}
	}
}
