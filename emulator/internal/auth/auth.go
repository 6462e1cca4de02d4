// Package auth verifies the credentials of v3 REST requests: HTTP Basic and
// the HS256 signature, against API keys with access rights.
package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/call"
)

// Access rights, by the short names used in fixtures and target config.
const (
	RightOrderbook = "orderbook" // Orderbook, History, Trading balance
	RightTrading   = "trading"   // Place/cancel orders
	RightPayment   = "payment"   // Payment information
	RightWithdraw  = "withdraw"  // Withdraw cryptocurrencies
)

// Key is an API key pair bound to an account.
type Key struct {
	APIKey  string
	Secret  string
	Account string
	Rights  []string
}

// Gate says whether an account may use its keys: a frozen or disabled
// sub-account may not (the sub-account registry implements it).
type Gate interface {
	// Usable is the one "may this account use its keys" check, for
	// every authentication path (REST of both versions, stream logins).
	Usable(account string) bool
	// Admits is Usable for one REST request (method and path).
	Admits(account, method, path string) bool
}

// Store holds the keys. It is immutable after construction.
type Store struct {
	keys map[string]Key
	// rights holds each key's rights as the set a Principal carries, made
	// once: principals share it and only read it.
	rights map[string]map[string]bool
	seen   *basicSeen
	faults *faults.Set
	gate   Gate
}

// basicSeen remembers the Basic credentials accepted, by the exact
// Authorization header, so that a client sending the same header on every
// request is not decoded and checked again each time: the answer depends on
// the header alone (the keys and faults are fixed; the gate is asked every
// time). At most maxBasicSeen headers are kept, so that varied headers
// cannot grow it.
type basicSeen struct {
	m sync.Map // header → Key
	n atomic.Int32
}

const maxBasicSeen = 1024

func (b *basicSeen) remember(header string, k Key) {
	if b != nil && b.n.Add(1) <= maxBasicSeen {
		b.m.Store(header, k)
	}
}

func (b *basicSeen) lookup(header string) (Key, bool) {
	if b == nil {
		return Key{}, false
	}
	k, ok := b.m.Load(header)
	if !ok {
		return Key{}, false
	}
	return k.(Key), true
}

// WithGate returns the store refusing the keys of accounts g says are not
// usable (HTTP 401, 1002).
func (s *Store) WithGate(g Gate) *Store {
	c := *s
	c.gate = g
	return &c
}

// Usable reports whether the account owning a key may use it now; streams
// call it at login.
func (s *Store) Usable(account string) bool { return s.gate == nil || s.gate.Usable(account) }

// Lookup answers the key pair of an API key (for stream logins).
func (s *Store) Lookup(apiKey string) (Key, bool) {
	k, ok := s.keys[apiKey]
	return k, ok
}

// NewStore indexes keys by API key.
func NewStore(keys []Key, f *faults.Set) *Store {
	s := &Store{keys: map[string]Key{}, rights: map[string]map[string]bool{}, seen: &basicSeen{}, faults: f}
	for _, k := range keys {
		s.keys[k.APIKey] = k
		set := map[string]bool{}
		for _, r := range k.Rights {
			set[r] = true
		}
		s.rights[k.APIKey] = set
	}
	return s
}

// Authenticate implements api.Authenticator: the credentials must be right
// and the account usable.
func (s *Store) Authenticate(r *http.Request, body []byte) (*call.Principal, *call.Error) {
	p, err := s.authenticate(r, body)
	if err != nil || s.gate == nil || s.gate.Admits(p.Account, r.Method, r.URL.Path) {
		return p, err
	}
	return nil, call.AuthFailed("the account is frozen or disabled: its API keys cannot be used")
}

func (s *Store) authenticate(r *http.Request, body []byte) (*call.Principal, *call.Error) {
	h := r.Header.Get("Authorization")
	if k, ok := s.seen.lookup(h); ok {
		return s.principal(k), nil
	}
	if strings.TrimSpace(h) == "" {
		return nil, call.AuthRequired()
	}
	scheme, cred, ok := strings.Cut(h, " ")
	if !ok {
		return nil, s.malformed("the Authorization header lacks a scheme word")
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(cred))
	if err != nil {
		return nil, s.malformed("the credentials are not base64")
	}
	switch scheme {
	case "Basic":
		p, aerr := s.basic(string(raw))
		if aerr == nil {
			s.seen.remember(h, s.keys[p.APIKey])
		}
		return p, aerr
	case "HS256":
		return s.hs256(r, body, string(raw))
	default:
		return nil, s.malformed("unknown authorization scheme %q", scheme)
	}
}

func (s *Store) malformed(format string, args ...any) *call.Error {
	if s.faults.On("V3-AUTH-MALFORMED") {
		return call.Validation(format, args...)
	}
	return call.AuthFailed(format, args...)
}

func (s *Store) principal(k Key) *call.Principal {
	set, ok := s.rights[k.APIKey]
	if !ok { // a key from elsewhere than the store
		set = map[string]bool{}
		for _, r := range k.Rights {
			set[r] = true
		}
	}
	return &call.Principal{Account: k.Account, APIKey: k.APIKey, Rights: set}
}

func (s *Store) lookup(apiKey string) (Key, *call.Error) {
	k, ok := s.keys[apiKey]
	if !ok {
		if s.faults.On("V3-AUTH-UNKNOWN-KEY") {
			return Key{}, call.Forbidden("any")
		}
		return Key{}, call.AuthFailed("unknown API key")
	}
	return k, nil
}

func (s *Store) basic(cred string) (*call.Principal, *call.Error) {
	apiKey, secret, ok := strings.Cut(cred, ":")
	if !ok || apiKey == "" {
		return nil, s.malformed("Basic credentials must be <API_KEY>:<SECRET_KEY>")
	}
	k, err := s.lookup(apiKey)
	if err != nil {
		return nil, err
	}
	if s.faults.On("V3-AUTH-BASIC") {
		return nil, call.AuthFailed("Basic credentials refused")
	}
	if !hmac.Equal([]byte(secret), []byte(k.Secret)) && !s.faults.On("V3-AUTH-BASIC-FAIL") {
		return nil, call.AuthFailed("wrong secret key")
	}
	return s.principal(k), nil
}

func digits(s string) bool {
	if s == "" || len(s) > 19 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (s *Store) hs256(r *http.Request, body []byte, cred string) (*call.Principal, *call.Error) {
	parts := strings.Split(cred, ":")
	if len(parts) != 3 && len(parts) != 4 {
		return nil, s.malformed("HS256 credentials must be <API_KEY>:<signature>:<timestamp>[:<window>]")
	}
	apiKey, sig, ts := parts[0], parts[1], parts[2]
	window := ""
	if len(parts) == 4 {
		window = parts[3]
		if !digits(window) {
			return nil, s.malformed("window must be an integer string")
		}
	}
	if apiKey == "" || !digits(ts) {
		return nil, s.malformed("timestamp must be Unix milliseconds")
	}
	k, err := s.lookup(apiKey)
	if err != nil {
		return nil, err
	}
	if s.faults.On("V3-AUTH-HS256-FAIL") {
		return s.principal(k), nil
	}
	query := r.URL.RawQuery
	if s.faults.On("V3-AUTH-HS256") {
		query = ""
	}
	signedWindow := window
	if s.faults.On("V3-AUTH-HS256-WINDOW") {
		signedWindow = ""
	}
	msg := r.Method + r.URL.EscapedPath()
	if query != "" {
		msg += "?" + query
	}
	signedBody := string(body)
	if s.faults.On("V3-AUTH-HS256-BODY") {
		signedBody = ""
	}
	msg += signedBody + ts + signedWindow
	mac := hmac.New(sha256.New, []byte(k.Secret))
	mac.Write([]byte(msg))
	want := hex.EncodeToString(mac.Sum(nil))
	if !hmac.Equal([]byte(sig), []byte(want)) {
		return nil, call.AuthFailed("signature does not match the request")
	}
	return s.principal(k), nil
}
