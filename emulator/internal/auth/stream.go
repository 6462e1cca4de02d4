package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/conform-harness/conform/emulator/internal/call"
)

// StreamLogin is the params of a stream login request in the shape the
// real service and its client libraries use (the spec does not show it):
//
//	{"type": "BASIC", "api_key": "...", "secret_key": "..."}
//	{"type": "HS256", "api_key": "...", "timestamp": 1626861109705, "window": 10000, "signature": "..."}
//
// where signature is the lowercase hex HMAC-SHA256, keyed with the secret,
// of the timestamp followed by the window when one is sent, both as decimal
// strings.
type StreamLogin struct {
	Type      string
	APIKey    string
	SecretKey string
	Timestamp string
	Window    string
	Signature string
}

// LoginStream checks a stream login. The REST authentication faults do not
// apply: they break the REST rules.
func (s *Store) LoginStream(l StreamLogin) (*call.Principal, *call.Error) {
	if l.APIKey == "" {
		return nil, call.AuthFailed("login needs api_key")
	}
	k, ok := s.keys[l.APIKey]
	if !ok {
		return nil, call.AuthFailed("unknown API key")
	}
	switch strings.ToUpper(l.Type) {
	case "BASIC":
		if !hmac.Equal([]byte(l.SecretKey), []byte(k.Secret)) {
			return nil, call.AuthFailed("wrong secret key")
		}
	case "HS256":
		if !digits(l.Timestamp) || (l.Window != "" && !digits(l.Window)) {
			return nil, call.AuthFailed("timestamp must be Unix milliseconds and window an integer")
		}
		mac := hmac.New(sha256.New, []byte(k.Secret))
		mac.Write([]byte(l.Timestamp + l.Window))
		if !hmac.Equal([]byte(strings.ToLower(l.Signature)), []byte(hex.EncodeToString(mac.Sum(nil)))) {
			return nil, call.AuthFailed("invalid signature")
		}
	default:
		return nil, call.AuthFailed("login type must be BASIC or HS256, not %q", l.Type)
	}
	// A frozen or disabled sub-account cannot log in (States and transitions).
	if s.gate != nil && !s.gate.Usable(k.Account) && !s.faults.On("V3-SUBACC-FROZEN-STREAMS") {
		return nil, call.AuthFailed("the account is frozen or disabled: its API keys cannot be used")
	}
	return s.principal(k), nil
}
