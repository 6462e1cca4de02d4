package load

import (
	"strings"
	"testing"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

func TestParseBase(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"https://api.example.com/", "https://api.example.com"},
		{"https://example.com/prefix", "https://example.com/prefix"},
		{"ftp://example.com", ""},
		{"example.com", ""},
		{"https://example.com/api/3", ""},
		{"https://example.com?x=1", ""},
	}
	for _, c := range cases {
		u, err := ParseBase(c.in)
		switch {
		case c.want == "" && err == nil:
			t.Errorf("%s: accepted as %s", c.in, u)
		case c.want != "" && (err != nil || u.String() != c.want):
			t.Errorf("%s: %v %v, want %s", c.in, u, err, c.want)
		}
	}
}

func TestConfine(t *testing.T) {
	base, _ := ParseBase("http://127.0.0.1:8080")
	cases := []struct {
		url string
		ok  bool
	}{
		{"http://127.0.0.1:8080/api/3/public/symbol", true},
		{"http://127.0.0.1:8080/api/3/spot/order#ld0-abcde-1", true},
		{"http://127.0.0.1:8081/api/3/public/symbol", false},
		{"https://127.0.0.1:8080/api/3/public/symbol", false},
		{"http://127.0.0.1:8080@evil.example/api/3", false},
		{"http://127.0.0.1:80800/api/3", false},
		{"http://example.com/api/3/public/symbol", false},
	}
	for _, c := range cases {
		tr := Confine(base, func(t *vegeta.Target) error { t.Method, t.URL = "GET", c.url; return nil })
		var tgt vegeta.Target
		err := tr(&tgt)
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok %v", c.url, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "refusing") {
			t.Errorf("%s: %v", c.url, err)
		}
	}
}
