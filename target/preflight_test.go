package target

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestPreflight(t *testing.T) {
	serve := func(status int, ctype, body string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ctype)
			w.WriteHeader(status)
			_, _ = io.WriteString(w, body)
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	for _, tc := range []struct {
		name, url, want string
	}{
		{"the API", serve(200, "application/json", `{"BTC":{"full_name":"Bitcoin","payin_enabled":true,"crypto":true}}`), ""},
		{"a web server", serve(404, "text/html", "<html><body>Not Found</body></html>"), "HTTP 404 text/html"},
		{"the API refusing (judged by the specs)", serve(401, "application/json", `{"error":{"code":1001,"message":"Authorization is required"}}`), ""},
		{"JSON error of another shape", serve(401, "application/json", `{"error":"nope"}`), "HTTP 401"},
		{"JSON of another shape", serve(200, "application/json", `{"status":"ok"}`), "not currency records"},
		{"records without full_name", serve(200, "application/json", `{"BTC":{"name":"x"}}`), "no full_name"},
		{"a JSON array of numbers", serve(200, "application/json", `[1,2]`), "not currency records"},
		{"an empty object", serve(200, "application/json", `{}`), "not currency records"},
		{"a list of records (the API, shaped wrong: for the specs)", serve(200, "application/json", `[{"full_name":"Bitcoin"}]`), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Preflight(context.Background(), tc.url, time.Second, nil)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n")):
				t.Errorf("want one line with %q, got %v", tc.want, err)
			}
		})
	}
}

func TestPreflightSilentListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // accept and never answer
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	start := time.Now()
	err = Preflight(context.Background(), "http://"+ln.Addr().String(), 300*time.Millisecond, nil)
	if err == nil || !strings.Contains(err.Error(), "no HTTP answer") || time.Since(start) > 2*time.Second {
		t.Errorf("after %s: %v", time.Since(start), err)
	}
}
