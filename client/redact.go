package client

import (
	"cmp"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Credential is one API key pair: the one credential type of the harness,
// for REST clients, streams, limit scenarios and load runs alike, and what
// the redactor needs to know to take its secret out of every text.
type Credential struct {
	Key, Secret string
}

// BasicHeader is the Authorization value of the Basic scheme for c.
func (c Credential) BasicHeader() string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(c.Key+":"+c.Secret))
}

// Redactor is the one place where credentials are taken out of text that
// leaves the harness: exchange transcripts, failure messages, report files
// and console output all pass through it. It removes, whatever the spec
// that produced the text:
//   - the credential part of an Authorization value of any scheme;
//   - credential-looking parameters (api_key=, secret=, signature=, sKey,
//     pKey, nonce signatures, jwt, password) in queries, forms and JSON,
//     WebSocket login payloads included;
//   - every known secret, raw and in the encodings a request can carry it
//     (base64 of key:secret and of the secret, hex, URL escaping), and any
//     base64 token whose decoded text contains a known secret.
//
// A Redactor is immutable after NewRedactor and safe for concurrent use.
type Redactor struct {
	creds []Credential
	// literals are replaced wherever they appear, longest first.
	literals []string
	// byPrefix indexes literals (their positions in literals) by their
	// first four bytes, so that Redact finds the few a text holds in one
	// pass over it instead of searching it for each of a run's hundreds.
	byPrefix map[string][]int
	// always are literals that a placeholder put in by an earlier
	// replacement could complete (they hold '<' or '>', or lie inside
	// Placeholder): searched for whatever the text held at first.
	always []int
	// secrets are searched for inside decoded base64 tokens.
	secrets []string
}

// Placeholder replaces what the redactor removes.
const Placeholder = "<redacted>"

// minSecret is the shortest secret matched by value: shorter ones would
// redact ordinary words. Real API secrets are far longer.
const minSecret = 6

// NewRedactor returns a redactor that also knows the given credentials by
// value. With none it still removes every credential it recognises by form.
func NewRedactor(creds ...Credential) *Redactor {
	r := &Redactor{creds: creds}
	seen := map[string]bool{}
	add := func(s string) {
		if len(s) >= minSecret && !seen[s] {
			seen[s] = true
			r.literals = append(r.literals, s)
		}
	}
	for _, c := range creds {
		if len(c.Secret) < minSecret {
			continue
		}
		r.secrets = append(r.secrets, c.Secret)
		add(c.Secret)
		add(hex.EncodeToString([]byte(c.Secret)))
		add(url.QueryEscape(c.Secret))
		for _, plain := range []string{c.Key + ":" + c.Secret, c.Secret} {
			for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
				add(enc.EncodeToString([]byte(plain)))
			}
			add(url.QueryEscape(plain))
		}
	}
	// Longest first, so a base64 of key:secret goes before any shorter
	// literal that might be inside it.
	slices.SortStableFunc(r.literals, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	r.byPrefix = map[string][]int{}
	for i, lit := range r.literals {
		if strings.ContainsAny(lit, "<>") || strings.Contains(Placeholder, lit) {
			r.always = append(r.always, i)
			continue
		}
		r.byPrefix[lit[:literalPrefix]] = append(r.byPrefix[lit[:literalPrefix]], i)
	}
	return r
}

// literalPrefix is how many leading bytes index a literal (minSecret or
// fewer: every literal is at least that long).
const literalPrefix = 4

// present returns, longest first, the literals that may need replacing in
// s: those it holds and those a placeholder could complete.
func (r *Redactor) present(s string) []int {
	var found []int
	for i := 0; i+literalPrefix <= len(s); i++ {
		for _, j := range r.byPrefix[s[i:i+literalPrefix]] {
			if strings.HasPrefix(s[i:], r.literals[j]) && !slices.Contains(found, j) {
				found = append(found, j)
			}
		}
	}
	if len(found) == 0 && len(r.always) == 0 {
		return nil
	}
	found = append(found, r.always...)
	slices.Sort(found) // the order of literals: longest first
	return found
}

var (
	// authValue is an Authorization value in free text: a scheme word
	// followed by a credential token. The scheme word is kept so a reader
	// still sees which scheme was sent.
	authValue = regexp.MustCompile(`(?i)\b(Basic|HS256|Bearer|Digest|Token|ApiKey|HMAC[-A-Za-z0-9]*)(\s+)([A-Za-z0-9+/=._~:-]{6,})`)
	// authHeader is a whole header line or field named Authorization whose
	// value is not of the scheme-and-token form above.
	authHeader = regexp.MustCompile(`(?i)(authorization["']?\s*[:=]\s*["']?)([A-Za-z0-9-]+)(\s+)([^\s"',}\]]+)`)
	// secretParam is a credential-looking parameter in a query, a form or a
	// JSON object (WebSocket login payloads of v3 and v2 included). The
	// name starts a word (or follows _ or -: x_api_key), so that
	// "whiskey: 12" is no sKey; groups: 1 before the name, 2 name, 3 its
	// closing quote, 4 separator, 5 the value's opening quote, 6 value.
	secretParam = regexp.MustCompile(`(?i)(^|[^A-Za-z])(api_?key|secret(?:_?key)?|signature|sKey|pKey|password|passphrase|jwt|token|nonce)(["']?)(\s*[=:]\s*)(["']?)([^&"',\s}\]]+)`)
	// base64Token is a run of base64 characters long enough to hide a secret.
	base64Token = regexp.MustCompile(`[A-Za-z0-9+/_-]{12,}={0,2}`)
)

// With returns a redactor that knows creds besides what r knows. r itself
// is unchanged; a nil r yields a redactor of creds alone. When r knows
// them all, it is r: every client a spec makes knows its own credential
// (Client.knowOwnCredential), and rebuilding a redactor of a run's
// hundreds of literals for each was a tenth of a short suite run's CPU.
func (r *Redactor) With(creds ...Credential) *Redactor {
	if r == nil {
		return NewRedactor(creds...)
	}
	if !slices.ContainsFunc(creds, func(c Credential) bool { return !slices.Contains(r.creds, c) }) {
		return r
	}
	return NewRedactor(append(slices.Clone(r.creds), creds...)...)
}

// Redact returns s with every credential it recognises replaced by
// Placeholder. A nil Redactor still redacts by form.
func (r *Redactor) Redact(s string) string {
	if s == "" {
		return s
	}
	if r != nil {
		for _, j := range r.present(s) {
			if lit := r.literals[j]; strings.Contains(s, lit) {
				s = strings.ReplaceAll(s, lit, Placeholder)
			}
		}
		if len(r.secrets) > 0 {
			s = replaceBase64Tokens(s, func(tok string) string {
				if r.hidesSecret(tok) {
					return Placeholder
				}
				return tok
			})
		}
	}
	// The patterns below need a word of their own in the text (a scheme,
	// "authorization", a parameter's name): a text of ASCII without any
	// of them (most request bodies and stream frames) skips the regular
	// expressions, which were a tenth of a suite run's CPU. Text beyond
	// ASCII takes them all: (?i) folds letters ToLower does not.
	var lower string
	folded := false
	words := func(ws ...string) bool {
		if !folded {
			folded = true
			if isASCII(s) {
				lower = strings.ToLower(s)
			}
		}
		if lower == "" { // not ASCII: any of them may be there
			return true
		}
		for _, w := range ws {
			if strings.Contains(lower, w) {
				return true
			}
		}
		return false
	}
	if words("basic", "hs256", "bearer", "digest", "token", "apikey", "hmac") {
		s = redactAuthValues(s)
	}
	if words("authorization") {
		s = redactAuthHeaders(s)
	}
	if words("api", "secret", "signature", "skey", "pkey", "pass", "jwt", "token", "nonce") {
		s = redactSecretParams(s)
	}
	return s
}

// isASCII reports whether s is ASCII alone.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// replaceBase64Tokens is base64Token.ReplaceAllStringFunc(s, f) without
// the regular expression: each maximal run of base64 characters at least
// 12 long, with up to two '=' after it, goes through f.
func replaceBase64Tokens(s string, f func(string) string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !isBase64Char(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isBase64Char(s[j]) {
			j++
		}
		if j-i < 12 {
			i = j
			continue
		}
		for k := 0; k < 2 && j < len(s) && s[j] == '='; k++ {
			j++
		}
		if tok := f(s[i:j]); tok != s[i:j] {
			b.WriteString(s[last:i])
			b.WriteString(tok)
			last = j
		}
		i = j
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isBase64Char(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-'
}

func redactAuthValues(s string) string {
	return authValue.ReplaceAllStringFunc(s, func(m string) string {
		sub := authValue.FindStringSubmatch(m)
		if sub[3] == Placeholder || !credentialLike(sub[3]) {
			return m
		}
		return sub[1] + sub[2] + Placeholder
	})
}

func redactAuthHeaders(s string) string {
	return authHeader.ReplaceAllStringFunc(s, func(m string) string {
		sub := authHeader.FindStringSubmatch(m)
		if sub[4] == Placeholder || strings.HasPrefix(sub[4], "<") || !headerValueLike(sub[4]) {
			return m
		}
		return sub[1] + sub[2] + sub[3] + Placeholder
	})
}

func redactSecretParams(s string) string {
	return secretParam.ReplaceAllStringFunc(s, func(m string) string {
		sub := secretParam.FindStringSubmatch(m)
		if sub[6] == Placeholder || !paramValueLike(sub[3] != "" || sub[5] != "", sub[4], sub[6]) {
			return m
		}
		return sub[1] + sub[2] + sub[3] + sub[4] + sub[5] + Placeholder
	})
}

// credentialLike tells a credential token from an ordinary word after a
// scheme name: "Basic authentication", "HMAC SHA256" and "Basic ETHBTC"
// are prose, "Basic a2V5OnNl" is not. A credential is either base64 of
// text with a colon (key:secret, key:signature:timestamp: the Basic and
// HS256 forms) or a long opaque token mixing lower case with digits or
// capitals (a JWT, an API token, a hex signature).
func credentialLike(tok string) bool {
	if decodesToPair(tok) {
		return true
	}
	return len(tok) >= 16 && hasLower(tok) && strings.ContainsFunc(tok, func(c rune) bool { return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' })
}

// headerValueLike tells the credential of an Authorization line with an
// unknown scheme ("Authorization: Custom opaque-token-value") from prose
// ("Authorization: required for private endpoints"): a word of letters
// alone, or a short one, hides no secret.
func headerValueLike(tok string) bool {
	return credentialLike(tok) || len(tok) >= 8 && !onlyLetters(tok)
}

// paramValueLike tells the value of a credential parameter from prose
// after the same word: in a query or form (=) or JSON (quoted) it is a
// value whatever it looks like; after a bare "name:" it is one unless it is
// a plain word ("signature: HMAC SHA256", "the nonce: must be unique").
func paramValueLike(quoted bool, sep, val string) bool {
	if quoted || strings.Contains(sep, "=") {
		return true
	}
	return !onlyLetters(val)
}

// decodesToPair reports whether tok is base64 (any alphabet) of printable
// text holding a colon.
func decodesToPair(tok string) bool {
	trimmed := strings.TrimRight(tok, "=")
	if len(trimmed) < 4 {
		return false
	}
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		b, err := enc.DecodeString(trimmed)
		if err != nil || !strings.Contains(string(b), ":") {
			continue
		}
		if !strings.ContainsFunc(string(b), func(c rune) bool { return c < 0x20 || c > 0x7e }) {
			return true
		}
	}
	return false
}

func hasLower(s string) bool {
	return strings.ContainsFunc(s, func(c rune) bool { return c >= 'a' && c <= 'z' })
}

func onlyLetters(s string) bool {
	return !strings.ContainsFunc(s, func(c rune) bool { return (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') })
}

// hidesSecret reports whether tok decodes, in any base64 alphabet, to text
// that contains a known secret (key:secret:timestamp and the like).
func (r *Redactor) hidesSecret(tok string) bool {
	trimmed := strings.TrimRight(tok, "=")
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		b, err := enc.DecodeString(trimmed)
		if err != nil {
			continue
		}
		for _, sec := range r.secrets {
			if strings.Contains(string(b), sec) {
				return true
			}
		}
	}
	return false
}

// Header returns a copy of h with credentials replaced: the Authorization
// scheme word is kept, the rest becomes Placeholder; API key and cookie
// headers are replaced whole; every other value passes through Redact.
func (r *Redactor) Header(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for k, vs := range h {
		for _, v := range vs {
			switch http.CanonicalHeaderKey(k) {
			case "Authorization", "Proxy-Authorization":
				scheme, _, _ := strings.Cut(v, " ")
				v = scheme + " " + Placeholder
			case "X-Api-Key", "Cookie", "Set-Cookie":
				v = Placeholder
			default:
				v = r.Redact(v)
			}
			out[k] = append(out[k], v)
		}
	}
	return out
}

// URL returns u as text without user info and with its query redacted.
func (r *Redactor) URL(u *url.URL) string {
	c := *u
	c.User = nil
	c.RawQuery = r.Redact(c.RawQuery)
	return c.String()
}
