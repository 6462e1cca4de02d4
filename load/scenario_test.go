package load

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/conform-harness/conform/client"
)

func testBase(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := ParseBase(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

var testKey = client.Credential{Key: "emu-full-01", Secret: "s3cret"}

func TestNewScenario(t *testing.T) {
	base := testBase(t, "http://127.0.0.1:1")
	cases := []struct {
		name string
		cfg  ScenarioConfig
		ok   bool
	}{
		{ScenarioPublic, ScenarioConfig{Base: base}, true},
		{ScenarioOrders, ScenarioConfig{Base: base, Key: testKey}, true},
		{ScenarioMixed, ScenarioConfig{Base: base, Key: testKey}, true},
		{ScenarioOrders, ScenarioConfig{Base: base}, false}, // no key
		{ScenarioOrders, ScenarioConfig{Base: base, Key: testKey, Order: OrderParams{Symbol: "BTCUSDT", Side: "hold", Quantity: "1", Price: "1"}}, false},
		{ScenarioOrders, ScenarioConfig{Base: base, Key: testKey, WorkerID: -1}, false},
		{ScenarioOrders, ScenarioConfig{Base: base, Key: testKey, WorkerID: maxWorkerID - 1}, true},
		{ScenarioOrders, ScenarioConfig{Base: base, Key: testKey, WorkerID: maxWorkerID}, false},
		{"nope", ScenarioConfig{Base: base}, false},
		{ScenarioPublic, ScenarioConfig{}, false}, // no target
	}
	for _, c := range cases {
		s, err := NewScenario(c.name, c.cfg)
		if (err == nil) != c.ok {
			t.Errorf("%s %+v: err %v, want ok %v", c.name, c.cfg, err, c.ok)
		}
		if err == nil && s.Name() != c.name {
			t.Errorf("name %s, want %s", s.Name(), c.name)
		}
	}
}

func TestPublicSpreadsOverEndpoints(t *testing.T) {
	s, _ := NewScenario(ScenarioPublic, ScenarioConfig{Base: testBase(t, "http://h:1/pre")})
	tr := s.Targeter()
	seen := map[string]int{}
	for range 4 * len(publicPaths()) {
		var tgt vegeta.Target
		if err := tr(&tgt); err != nil {
			t.Fatal(err)
		}
		if tgt.Method != "GET" || !strings.HasPrefix(tgt.URL, "http://h:1/pre/api/3/public/") {
			t.Errorf("%s %s", tgt.Method, tgt.URL)
		}
		seen[tgt.URL]++
	}
	for _, p := range publicPaths() {
		if n := seen["http://h:1/pre/api/3"+p]; n != 4 {
			t.Errorf("%s requested %d times, want 4", p, n)
		}
	}
}

// verifyHS256 checks a request's signature as the spec's Authentication
// section defines it and returns the timestamp it carries.
func verifyHS256(t *testing.T, key client.Credential, method, path string, body []byte, header string) time.Time {
	t.Helper()
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(header, "HS256 "))
	if err != nil || !strings.HasPrefix(header, "HS256 ") {
		t.Fatalf("authorization %q", header)
	}
	parts := strings.Split(string(raw), ":")
	if len(parts) != 3 || parts[0] != key.Key {
		t.Fatalf("credentials %q", raw)
	}
	if want := client.Sign(key.Secret, client.Message(method, path, "", body, parts[2], "")); parts[1] != want {
		t.Errorf("%s %s: signature %s, want %s", method, path, parts[1], want)
	}
	n, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		t.Fatalf("timestamp %q: %v", parts[2], err)
	}
	return time.UnixMilli(n)
}

var cloidRE = regexp.MustCompile(`^[A-Za-z0-9_-]{8,32}$`)

func TestOrdersPlaceThenCancelConfirmed(t *testing.T) {
	now := time.UnixMilli(1_700_000_000_123)
	clock := func() time.Time { return now }
	s, err := NewScenario(ScenarioOrders, ScenarioConfig{Base: testBase(t, "http://h:1"), Key: testKey, WorkerID: 1295, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	o := s.(*orders)
	tr := s.Targeter()
	next := func() vegeta.Target {
		var tgt vegeta.Target
		if err := tr(&tgt); err != nil {
			t.Fatal(err)
		}
		return tgt
	}
	// Nothing confirmed: placements, each with its own id and signature.
	ids := map[string]bool{}
	var posts []vegeta.Target
	for range 3 {
		p := next()
		if p.Method != "POST" || p.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
			t.Fatalf("%s %s %v", p.Method, p.URL, p.Header)
		}
		form, err := url.ParseQuery(string(p.Body))
		if err != nil {
			t.Fatal(err)
		}
		id := form.Get("client_order_id")
		if !cloidRE.MatchString(id) || ids[id] || p.URL != "http://h:1/api/3/spot/order#"+id {
			t.Errorf("client_order_id %q (url %s)", id, p.URL)
		}
		ids[id] = true
		for k, v := range map[string]string{"symbol": "BTCUSDT", "side": "buy", "type": "limit", "time_in_force": "GTC", "quantity": "0.001", "price": "1.00"} {
			if form.Get(k) != v {
				t.Errorf("%s=%q, want %q", k, form.Get(k), v)
			}
		}
		if ts := verifyHS256(t, testKey, "POST", "/api/3/spot/order", p.Body, p.Header.Get("Authorization")); !ts.Equal(now) {
			t.Errorf("timestamp %s, want %s", ts, now)
		}
		posts = append(posts, p)
		now = now.Add(time.Millisecond)
	}
	// The second placement is confirmed, the first refused, the third
	// unanswered: only the second is canceled, the third kept for cleanup.
	o.Observe(&vegeta.Result{Method: "POST", URL: posts[1].URL, Code: 200})
	o.Observe(&vegeta.Result{Method: "POST", URL: posts[0].URL, Code: 400})
	o.Observe(&vegeta.Result{Method: "POST", URL: posts[2].URL, Code: 0})
	d := next()
	id1 := strings.TrimPrefix(posts[1].URL, "http://h:1/api/3/spot/order#")
	if d.Method != "DELETE" || d.URL != "http://h:1/api/3/spot/order/"+id1 || d.Body != nil {
		t.Fatalf("after a confirmation: %s %s", d.Method, d.URL)
	}
	verifyHS256(t, testKey, "DELETE", "/api/3/spot/order/"+id1, nil, d.Header.Get("Authorization"))
	if p := next(); p.Method != "POST" {
		t.Errorf("with nothing confirmed: %s, want a placement", p.Method)
	}
	// A cancel refused with 429 is kept for the cleanup.
	o.Observe(&vegeta.Result{Method: "DELETE", URL: d.URL, Code: 429})
	id2 := strings.TrimPrefix(posts[2].URL, "http://h:1/api/3/spot/order#")
	if got := strings.Join(o.uncertain, ","); got != id2+","+id1 {
		t.Errorf("uncertain %s", got)
	}
}

func TestOrderIDsUniqueAcrossWorkersAndConcurrentCalls(t *testing.T) {
	base := testBase(t, "http://h:1")
	var mu sync.Mutex
	ids := map[string]bool{}
	var wg sync.WaitGroup
	for w := range 3 {
		s, err := NewScenario(ScenarioOrders, ScenarioConfig{Base: base, Key: testKey, WorkerID: w})
		if err != nil {
			t.Fatal(err)
		}
		tr := s.Targeter()
		for range 4 {
			wg.Go(func() {
				for range 500 {
					var tgt vegeta.Target
					_ = tr(&tgt)
					id := tgt.URL[strings.IndexByte(tgt.URL, '#')+1:]
					mu.Lock()
					if ids[id] || !cloidRE.MatchString(id) {
						t.Errorf("id %q repeated or malformed", id)
					}
					ids[id] = true
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	if len(ids) != 3*4*500 {
		t.Errorf("%d ids", len(ids))
	}
}

func TestMixedInterleaves(t *testing.T) {
	s, _ := NewScenario(ScenarioMixed, ScenarioConfig{Base: testBase(t, "http://h:1"), Key: testKey})
	tr := s.Targeter()
	var got []string
	for range 10 {
		var tgt vegeta.Target
		_ = tr(&tgt)
		got = append(got, tgt.Method)
	}
	if want := "GET POST POST POST POST GET POST POST POST POST"; strings.Join(got, " ") != want {
		t.Errorf("%s, want %s", strings.Join(got, " "), want)
	}
	if _, ok := s.(Observer); !ok {
		t.Error("mixed does not observe")
	}
	if _, ok := s.(Cleaner); !ok {
		t.Error("mixed does not clean up")
	}
}

func TestOrdersCleanup(t *testing.T) {
	var mu sync.Mutex
	calls := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
		mu.Lock()
		calls[id]++
		n := calls[id]
		mu.Unlock()
		switch {
		case r.Method != "DELETE":
			w.WriteHeader(http.StatusMethodNotAllowed)
		case strings.HasSuffix(id, "-gone"):
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":{"code":20002,"message":"Order not found"}}`))
		case strings.HasSuffix(id, "-busy") && n == 1:
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"error":{"code":429,"message":"Too many requests"}}`))
		case strings.HasSuffix(id, "-broken"):
			w.WriteHeader(http.StatusInternalServerError)
		default:
			_, _ = w.Write([]byte(`{}`))
		}
	}))
	defer srv.Close()
	s, _ := NewScenario(ScenarioOrders, ScenarioConfig{Base: testBase(t, srv.URL), Key: testKey})
	o := s.(*orders)
	o.retryWait = 10 * time.Millisecond
	o.confirmed = []string{"a-ok", "b-busy"}
	o.uncertain = []string{"c-gone", "d-broken"}
	rep, err := o.Cleanup(context.Background(), srv.Client())
	if want := (CleanupReport{Left: 4, Removed: 2, Gone: 1, Failures: 1}); rep != want {
		t.Errorf("report %+v, want %+v", rep, want)
	}
	if err == nil || !strings.Contains(err.Error(), "1 of 4") {
		t.Errorf("err %v", err)
	}
	if calls["b-busy"] != 2 {
		t.Errorf("b-busy tried %d times, want 2 (once more after the 429)", calls["b-busy"])
	}
	if rep, err := o.Cleanup(context.Background(), srv.Client()); rep.Left != 0 || err != nil {
		t.Errorf("second cleanup %+v %v", rep, err)
	}
}
