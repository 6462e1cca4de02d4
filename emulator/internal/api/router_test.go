package api

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/conform-harness/conform/emulator/faults"
)

type fakeAuth struct{}

func (fakeAuth) Authenticate(r *http.Request, _ []byte) (*Principal, *Error) {
	switch r.Header.Get("Authorization") {
	case "":
		return nil, AuthRequired()
	case "reader":
		return &Principal{Account: "A", Rights: map[string]bool{"orderbook": true}}, nil
	}
	return nil, AuthFailed("bad")
}

func testRouter(t *testing.T, faultIDs ...string) http.Handler {
	t.Helper()
	fs, err := faults.New(faultIDs...)
	if err != nil {
		t.Fatal(err)
	}
	return NewRouter("/api/3", []Route{
		{Method: "GET", Path: "/public/thing/{id}", Public: true, Handle: func(r *Request) (any, *Error) {
			return map[string]string{"id": r.PathValue("id"), "price": "1.50"}, nil
		}},
		{Method: "GET", Path: "/private", Right: "orderbook", Handle: func(*Request) (any, *Error) { return []int{}, nil }},
		{Method: "GET", Path: "/trade", Right: "trading", Handle: func(*Request) (any, *Error) { return []int{}, nil }},
		{Method: "GET", Path: "/boom", Public: true, Handle: func(*Request) (any, *Error) { panic("boom") }},
	}, fakeAuth{}, fs, slog.New(slog.NewTextHandler(io.Discard, nil)))
}

func TestRouter(t *testing.T) {
	cases := []struct {
		method, path, auth string
		status, code       int
	}{
		{"GET", "/api/3/public/thing/x", "", 200, 0},
		{"GET", "/api/3/public/thing/", "", 404, 404},
		{"POST", "/api/3/public/thing/x", "", 404, 404},
		{"GET", "/api/3/nope", "", 404, 404},
		{"GET", "/api/3/private", "", 401, 1001},
		{"GET", "/api/3/private", "other", 401, 1002},
		{"GET", "/api/3/private", "reader", 200, 0},
		{"GET", "/api/3/trade", "reader", 403, 1003},
		{"GET", "/api/3/boom", "", 500, 500},
	}
	h := testRouter(t)
	for _, tc := range cases {
		r := httptest.NewRequest(tc.method, tc.path, nil)
		if tc.auth != "" {
			r.Header.Set("Authorization", tc.auth)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tc.status {
			t.Errorf("%s %s: status %d, want %d (%s)", tc.method, tc.path, w.Code, tc.status, w.Body)
			continue
		}
		if tc.code == 0 {
			continue
		}
		var body struct {
			Error struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Error.Code != tc.code || body.Error.Message == "" {
			t.Errorf("%s %s: body %s, want error code %d", tc.method, tc.path, w.Body, tc.code)
		}
		if w.Header().Get("Content-Length") == "" {
			t.Errorf("%s %s: no Content-Length (HTTP/1.0 keep-alive needs it)", tc.method, tc.path)
		}
	}
}

func TestWriterFaults(t *testing.T) {
	cases := []struct {
		fault, path, auth string
		status            int
		body              string
	}{
		{"V3-CONV-DECIMAL-STRING", "/api/3/public/thing/x", "", 200, `{"id":"x","price":1.50}`},
		{"V3-ERR-BODY", "/api/3/private", "", 401, `{"code":1001,"description":"send an Authorization header (Basic or HS256)","message":"Authorization required"}`},
		{"V3-ERR-401", "/api/3/private", "", 400, ""},
		{"V3-ERR-1003", "/api/3/trade", "reader", 401, ""},
		{"V3-ERR-404", "/api/3/nope", "", 200, "{}"},
	}
	for _, tc := range cases {
		h := testRouter(t, tc.fault)
		r := httptest.NewRequest("GET", tc.path, nil)
		if tc.auth != "" {
			r.Header.Set("Authorization", tc.auth)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != tc.status {
			t.Errorf("%s: status %d, want %d", tc.fault, w.Code, tc.status)
		}
		if tc.body != "" && w.Body.String() != tc.body+"\n" {
			t.Errorf("%s: body %s, want %s", tc.fault, w.Body, tc.body)
		}
	}
}

func TestSplitPathAsSplit(t *testing.T) {
	for _, p := range []string{"", "a", "a/b", "/a/b/", "a//b", "//", "a/b/c/d/e/f/g/h/i/j", "spot/order/x%2Fy"} {
		got, want := splitPath(nil, p), strings.Split(p, "/")
		if !slices.Equal(got, want) {
			t.Errorf("splitPath(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestReadBody reads bodies of announced length (right, short and long
// announcements) and of unknown length, the bound included.
func TestReadBody(t *testing.T) {
	big := strings.Repeat("x", MaxBody+1)
	for _, c := range []struct {
		body    string
		size    int64
		want    int
		wantErr bool
	}{
		{"", 0, 0, false}, {"a=1", 3, 3, false}, {"a=1", -1, 3, false}, {"a=1&b=2", 3, 7, false},
		{big, -1, MaxBody + 1, false}, {big, MaxBody, MaxBody + 1, false}, {big[:MaxBody], MaxBody, MaxBody, false},
	} {
		got, err := readBody(strings.NewReader(c.body), c.size)
		if len(got) != c.want || (err != nil) != c.wantErr || string(got) != c.body[:len(got)] {
			t.Errorf("readBody(%d bytes, size %d) = %d bytes, %v; want %d bytes", len(c.body), c.size, len(got), err, c.want)
		}
	}
	if _, err := readBody(io.MultiReader(strings.NewReader("ab"), iotest.ErrReader(io.ErrUnexpectedEOF)), 5); err != io.ErrUnexpectedEOF {
		t.Errorf("a truncated body: %v, want %v", err, io.ErrUnexpectedEOF)
	}
}
