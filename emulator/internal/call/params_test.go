package call

import (
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestParseParams(t *testing.T) {
	cases := []struct {
		name, method, ctype, query, body string
		want                             map[string]string
		wantErr                          bool
	}{
		{"query for GET", "GET", "", "a=1&b=x", "", map[string]string{"a": "1", "b": "x"}, false},
		{"form body", "POST", "application/x-www-form-urlencoded", "", "symbol=ETHBTC&quantity=0.1", map[string]string{"symbol": "ETHBTC", "quantity": "0.1"}, false},
		{"JSON body with types", "PATCH", "application/json", "", `{"quantity":"0.1","strict_validate":true,"n":5}`, map[string]string{"quantity": "0.1", "strict_validate": "true", "n": "5"}, false},
		{"JSON body on DELETE", "DELETE", "application/json; charset=utf-8", "", `{"symbol":"ETHBTC"}`, map[string]string{"symbol": "ETHBTC"}, false},
		{"JSON sniffed without type", "POST", "", "", `{"a":"b"}`, map[string]string{"a": "b"}, false},
		{"body overrides query", "POST", "application/x-www-form-urlencoded", "a=1", "a=2", map[string]string{"a": "2"}, false},
		{"bad JSON", "POST", "application/json", "", `{"a":`, nil, true},
		{"JSON array", "POST", "application/json", "", `[1,2]`, nil, true},
		{"trailing JSON", "POST", "application/json", "", `{"a":"b"}{}`, nil, true},
		{"repeated parameter", "GET", "", "a=1&a=2", "", nil, true},
		{"bad escape", "GET", "", "a=%zz", "", nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(tc.method, "/x?"+tc.query, nil)
			if tc.ctype != "" {
				r.Header.Set("Content-Type", tc.ctype)
			}
			p, err := ParseParams(r, []byte(tc.body), nil)
			if tc.wantErr {
				if err == nil || err.Code != 10001 || err.Status != http.StatusBadRequest {
					t.Fatalf("want 10001/400, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.want {
				if got, _ := p.String(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

func TestParamHelpers(t *testing.T) {
	r := httptest.NewRequest("GET", "/x?limit=5&big=99999999999999999999&sort=UP&t=2024-01-02T03:04:05Z&ms=1700000000000&d=1e5&list=a,,b", nil)
	p, _ := ParseParams(r, nil, nil)
	if n, err := p.Int("limit", 10, 1, 1000); err != nil || n != 5 {
		t.Errorf("limit: %d %v", n, err)
	}
	if _, err := p.Int("big", 10, 1, 1000); err == nil {
		t.Error("overflowing integer accepted")
	}
	if _, err := p.Enum("sort", "DESC", "ASC", "DESC"); err == nil {
		t.Error("bad enum accepted")
	}
	if _, ok, err := p.Time("t"); !ok || err != nil {
		t.Errorf("ISO time: %v", err)
	}
	if v, _, err := p.Time("ms"); err != nil || v.UnixMilli() != 1700000000000 {
		t.Errorf("ms time: %v %v", v, err)
	}
	if _, _, err := p.Decimal("d"); err == nil {
		t.Error("exponent decimal accepted")
	}
	if got := p.List("list"); strings.Join(got, "|") != "a|b" {
		t.Errorf("list: %v", got)
	}
}

// FuzzParseParams feeds arbitrary requests to the decoder: it must never
// panic, and every refusal must be the documented 10001 with HTTP 400.
func FuzzParseParams(f *testing.F) {
	f.Add("POST", "application/json", "a=1", []byte(`{"a":[1,{"b":null}],"c":1e400}`))
	f.Add("GET", "", "x=%41&y", []byte{})
	f.Add("DELETE", "application/x-www-form-urlencoded", "", []byte("a=%&b"))
	f.Add("PATCH", "text/plain", ";;", []byte{0xff, 0xfe})
	f.Fuzz(func(t *testing.T, method, ctype, query string, body []byte) {
		r := httptest.NewRequest("GET", "/x", nil)
		r.Method = method
		r.URL.RawQuery = query
		r.Header.Set("Content-Type", ctype)
		p, err := ParseParams(r, body, nil)
		if err != nil {
			if err.Code != 10001 || err.Status != http.StatusBadRequest {
				t.Fatalf("refusal is not 10001/400: %+v", err)
			}
			return
		}
		_, _ = p.Int("limit", 10, 1, 1000)
		_, _, _ = p.Decimal("quantity")
		_, _, _ = p.Time("from")
		_ = p.List("symbols")
	})
}

// TestPlainFormAsParseQuery holds the plain-form reading to url.ParseQuery
// and addValues on random bodies: escapes, semicolons, empty pairs,
// repeated names, a query beside the body.
func TestPlainFormAsParseQuery(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	alphabet := []string{"a", "b", "=", "&", "&", "1", ".", "%", "%41", "+", ";", "é"}
	for i := 0; i < 20000; i++ {
		var sb strings.Builder
		for range r.IntN(12) {
			sb.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		body, query := sb.String(), ""
		if r.IntN(4) == 0 {
			query = "a=q"
		}
		req := httptest.NewRequest("POST", "/x?"+query, nil)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		got, gerr := ParseParams(req, []byte(body), nil)
		want := Params{values: map[string]string{}}
		var werr *Error
		if query != "" {
			werr = want.addValues(url.Values{"a": {"q"}})
		}
		if strings.TrimSpace(body) != "" {
			if v, err := url.ParseQuery(body); err != nil {
				werr = Validation("malformed form body: %v", err)
			} else {
				werr = want.addValues(v)
			}
		}
		if (gerr == nil) != (werr == nil) || (gerr == nil && !maps.Equal(got.values, want.values)) {
			t.Fatalf("body %q query %q: got %v %v, want %v %v", body, query, got.values, gerr, want.values, werr)
		}
	}
}
