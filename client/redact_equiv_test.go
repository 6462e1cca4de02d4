package client

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/conform-harness/conform/internal/race"
)

// referenceRedact is Redact as it was before its fast paths (every literal
// searched for, every regular expression run on every text): the fast one
// must answer the same for any text.
func referenceRedact(r *Redactor, s string) string {
	if s == "" {
		return s
	}
	if r != nil {
		for _, lit := range r.literals {
			if strings.Contains(s, lit) {
				s = strings.ReplaceAll(s, lit, Placeholder)
			}
		}
		if len(r.secrets) > 0 {
			s = base64Token.ReplaceAllStringFunc(s, func(tok string) string {
				if r.hidesSecret(tok) {
					return Placeholder
				}
				return tok
			})
		}
	}
	return redactSecretParams(redactAuthHeaders(redactAuthValues(s)))
}

// equivRedactor knows credentials whose encodings hold the characters the
// fast paths treat apart ('<', '>', a piece of the placeholder).
func equivRedactor() *Redactor {
	return NewRedactor(
		Credential{Key: "KEY1-abcdef", Secret: "s3cr3t-Value-0001"},
		Credential{Key: "k2", Secret: "pa<ss>word"},
		Credential{Key: "k3", Secret: "redact"},
		Credential{Key: "Zk4", Secret: "ZZZZZZZZZZZZ"},
	)
}

// pieces are what the random texts are made of: the literals, the words the
// patterns look for in several cases, base64 runs, separators, letters
// that fold beyond ASCII (the Kelvin sign, the long s), placeholders.
func equivPieces(r *Redactor) []string {
	p := append([]string{}, r.literals...)
	for _, lit := range r.literals {
		p = append(p, lit[:len(lit)/2], lit[len(lit)/2:])
	}
	return append(p, "Basic ", "basic", "BASIC ", "HS256 ", "Bearer ", "hmac-sha256 ", "Token", "ApiKey", "Authorization: ",
		`"authorization":"`, "api_key=", "apiKey", "secret=", "SECRET_KEY:", "signature=", "sKey", "pKey", "password:", "passphrase=",
		"jwt=", "nonce", "token=", " ", "  ", "&", "=", "==", ":", `"`, "'", ",", "}", "]", "\n", "\t", "-", "_", "/", "+",
		"QUJDREVGR0hJSktMTU5PUA", "a2V5OnNlY3JldA==", "0123456789abcdefXYZ", "ABCDEFGHIJKL", "abc", "x", "Z",
		"\u212a", "\u017f", "é", "<", ">", Placeholder, "<redac", "ted>", "whiskey: 12", "HMAC SHA256")
}

func TestRedactMatchesTheReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, r := range []*Redactor{nil, NewRedactor(), equivRedactor()} {
		pieces := equivPieces(equivRedactor())
		for i := 0; i < race.Depth(8000); i++ { // a quarter under -race
			var b strings.Builder
			for n := rng.IntN(12); n >= 0; n-- {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			s := b.String()
			if got, want := r.Redact(s), referenceRedact(r, s); got != want {
				t.Fatalf("Redact(%q)\n got %q\nwant %q", s, got, want)
			}
		}
	}
}

func FuzzRedactMatchesTheReference(f *testing.F) {
	for _, s := range equivPieces(equivRedactor()) {
		f.Add(s + " " + s)
	}
	r := equivRedactor()
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := r.Redact(s), referenceRedact(r, s); got != want {
			t.Fatalf("Redact(%q)\n got %q\nwant %q", s, got, want)
		}
	})
}

// BenchmarkRedact is a request body, a query and a stream frame through a
// redactor of a run's many credentials: the fast paths beside the
// reference.
func BenchmarkRedact(b *testing.B) {
	var creds []Credential
	for i := range 80 {
		creds = append(creds, Credential{Key: "key-" + strings.Repeat("k", i%7) + string(rune('a'+i%26)), Secret: "secret-value-" + strings.Repeat("s", i%5) + string(rune('A'+i%26))})
	}
	r := NewRedactor(creds...)
	texts := []string{"symbol=ETHBTC&side=buy&quantity=0.063&price=0.046016&client_order_id=conform-12345",
		"limit=100&offset=0&sort=DESC",
		`< {"ch":"orderbook/full","snapshot":{"ETHBTC":{"t":1626866578796,"s":27617207,"a":[["0.060506","0"]],"b":[["0.060490","0.01"]]}}}`}
	b.Run("fast", func(b *testing.B) {
		for b.Loop() {
			for _, s := range texts {
				r.Redact(s)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		for b.Loop() {
			for _, s := range texts {
				referenceRedact(r, s)
			}
		}
	})
}
