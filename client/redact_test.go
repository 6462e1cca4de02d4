package client

import (
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestRedactorRemovesEveryFormOfACredential(t *testing.T) {
	const key, secret = "ak_9f8e7d6c5b4a", "sk_0a1b2c3d4e5f6a7b8c9d"
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	r := NewRedactor(Credential{Key: key, Secret: secret})
	cases := []struct{ name, in string }{
		{"raw secret", "secret was " + secret + " then"},
		{"basic header quoted by a spec", `Authorization: "Basic ` + b64(key+":"+secret) + `"`},
		{"unknown scheme", "Bearer " + b64(key+":"+secret)},
		{"no scheme at all", "value " + b64(key+":"+secret) + " sent"},
		{"url-safe base64", base64.URLEncoding.EncodeToString([]byte(key + ":" + secret))},
		{"unpadded base64 inside key:secret:ts", base64.RawStdEncoding.EncodeToString([]byte(key + ":" + secret + ":1700000000000"))},
		{"hex", hex.EncodeToString([]byte(secret))},
		{"url-escaped pair", url.QueryEscape(key + ":" + secret)},
		{"form field", "api_key=" + key + "&secret_key=" + secret},
		{"ws login json", `{"method":"login","params":{"type":"BASIC","api_key":"` + key + `","secret_key":"` + secret + `"}}`},
		{"v2 login json", `{"method":"login","params":{"algo":"BASIC","pKey":"` + key + `","sKey":"` + secret + `"}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := r.Redact(c.in)
			for _, leak := range []string{secret, b64(key + ":" + secret), hex.EncodeToString([]byte(secret))} {
				if strings.Contains(out, leak) {
					t.Errorf("Redact(%q) = %q still holds %q", c.in, out, leak)
				}
			}
			if !strings.Contains(out, Placeholder) {
				t.Errorf("Redact(%q) = %q: nothing redacted", c.in, out)
			}
		})
	}
}

func TestRedactorByFormWithoutKnownSecrets(t *testing.T) {
	var r *Redactor // nil: patterns only
	for _, c := range []struct{ in, secret string }{
		{"Authorization: HS256 a2V5OnNpZ25hdHVyZToxNzAw", "a2V5OnNpZ25hdHVyZToxNzAw"},
		{"signature=0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef"},
		{`{"algo":"HS256","pKey":"k","nonce":"n","signature":"abcdef0123"}`, "abcdef0123"},
		{"Authorization: Custom opaque-token-value", "opaque-token-value"},
		{"Authorization: Basic eDp5", "eDp5"}, // x:y, however short
		{"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlMTIz", "eyJhbGciOiJIUzI1NiJ9"},
		{"secret_key=swordfish&api_key=k", "swordfish"},  // a form value, whatever it looks like
		{`{"sKey":"swordfish","pKey":"k"}`, "swordfish"}, // a JSON value too
		{"password: hunter2", "hunter2"},                 // a bare value that is no plain word
		{"x_api_key=0123456789abcdef", "0123456789abcdef"},
		{"Authorization: HS256 0123456789abcdefABCDEF", "0123456789abcdefABCDEF"}, // an opaque token after a scheme
	} {
		out := r.Redact(c.in)
		if !strings.Contains(out, Placeholder) || strings.Contains(out, c.secret) {
			t.Errorf("Redact(%q) = %q: credential kept", c.in, out)
		}
	}
}

func TestRedactorLeavesProseAlone(t *testing.T) {
	r := NewRedactor(Credential{Key: "ak_9f8e7d6c5b4a", Secret: "sk_0a1b2c3d4e5f6a7b8c9d"})
	for _, in := range []string{
		"V3-AUTH-BASIC Basic authentication with an API key pair is accepted",
		"HTTP 400, error 10001 \"Validation error\" (symbol ETHBTC)",
		`{"id":828680665,"client_order_id":"f4307c6e507e49019907c917b6d7a084"}`,
		// Ordinary words after a scheme name or a credential word are prose.
		"Authorization: required for private endpoints",
		"signature (HMAC SHA256 of nonce with the secret key)",
		"signature: HMAC SHA256",
		"Basic ETHBTC order was placed",
		"a basic V3-AUTH-BASIC check",
		"secret: the secret key of the pair",
		"the nonce: must be unique; the token: a random string",
		"password: not shown",
		"whiskey: 12",
		"sKey: secret key",
	} {
		if out := r.Redact(in); out != in {
			t.Errorf("Redact(%q) = %q: prose changed", in, out)
		}
	}
}

func TestRedactorHeaderKeepsTheScheme(t *testing.T) {
	h := http.Header{"Authorization": {"Basic a2V5OnNlY3JldA=="}, "X-Api-Key": {"k"}, "Content-Type": {"application/json"}}
	got := NewRedactor().Header(h)
	if got.Get("Authorization") != "Basic "+Placeholder || got.Get("X-Api-Key") != Placeholder || got.Get("Content-Type") != "application/json" {
		t.Errorf("Header = %v", got)
	}
	if h.Get("Authorization") != "Basic a2V5OnNlY3JldA==" {
		t.Error("Header changed its argument")
	}
}

func TestClientKnowsItsOwnSecretInResponses(t *testing.T) {
	// A target that echoes the credentials back: the transcript must not.
	srv := newEchoServer(t)
	rec := &Recorder{}
	c, _ := New(srv, WithRecorder(rec), WithAuth(Basic{Key: "ak_9f8e7d6c5b4a", Secret: "sk_0a1b2c3d4e5f6a7b8c9d"}))
	_, _ = c.Get(t.Context(), "/spot/balance", nil)
	if out := rec.String(); strings.Contains(out, "sk_0a1b2c3d4e5f6a7b8c9d") || strings.Contains(out, base64.StdEncoding.EncodeToString([]byte("ak_9f8e7d6c5b4a:sk_0a1b2c3d4e5f6a7b8c9d"))) {
		t.Errorf("transcript leaks the secret:\n%s", out)
	}
}

// With a credential r knows is r itself; with a new one, a redactor that
// knows both, r unchanged. Literals go longest first either way.
func TestRedactorWith(t *testing.T) {
	a := Credential{Key: "ak_first_key", Secret: "sk_first_secret_0123"}
	b := Credential{Key: "ak_second_key", Secret: "sk_second_secret_456789"}
	r := NewRedactor(a)
	if r.With(a) != r || r.With() != r {
		t.Error("With of a known credential built a new redactor")
	}
	both := r.With(a, b)
	if both == r || !strings.Contains(r.Redact(b.Secret), b.Secret) {
		t.Fatal("With of a new credential changed r or returned it")
	}
	for _, c := range []Credential{a, b} {
		if out := both.Redact("x " + c.Secret + " " + c.BasicHeader()); strings.Contains(out, c.Secret) || strings.Contains(out, c.BasicHeader()[6:]) {
			t.Errorf("With(a, b) leaves %s in %q", c.Key, out)
		}
	}
	for i := 1; i < len(both.literals); i++ {
		if len(both.literals[i]) > len(both.literals[i-1]) {
			t.Fatalf("literal %d is longer than the one before: %q", i, both.literals)
		}
	}
}
