package auth

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

func TestLoginStream(t *testing.T) {
	s := NewStore([]Key{{APIKey: "k", Secret: "s", Account: "a", Rights: []string{RightTrading}}}, nil)
	sign := func(msg string) string {
		m := hmac.New(sha256.New, []byte("s"))
		m.Write([]byte(msg))
		return hex.EncodeToString(m.Sum(nil))
	}
	for _, tc := range []struct {
		name string
		l    StreamLogin
		ok   bool
	}{
		{"basic", StreamLogin{Type: "BASIC", APIKey: "k", SecretKey: "s"}, true},
		{"basic in v2 spelling", StreamLogin{Type: "Basic", APIKey: "k", SecretKey: "s"}, true},
		{"basic wrong secret", StreamLogin{Type: "BASIC", APIKey: "k", SecretKey: "x"}, false},
		{"hs256", StreamLogin{Type: "HS256", APIKey: "k", Timestamp: "1700000000000", Signature: sign("1700000000000")}, true},
		{"hs256 with window", StreamLogin{Type: "HS256", APIKey: "k", Timestamp: "1700000000000", Window: "10000", Signature: sign("170000000000010000")}, true},
		{"hs256 window not signed", StreamLogin{Type: "HS256", APIKey: "k", Timestamp: "1700000000000", Window: "10000", Signature: sign("1700000000000")}, false},
		{"unknown key", StreamLogin{Type: "BASIC", APIKey: "nope", SecretKey: "s"}, false},
		{"unknown type", StreamLogin{Type: "JWT", APIKey: "k"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := s.LoginStream(tc.l)
			if tc.ok && (err != nil || p.Account != "a") {
				t.Fatalf("refused: %v", err)
			}
			if !tc.ok && (err == nil || err.Code != 1002) {
				t.Fatalf("want 1002, got %v %v", p, err)
			}
		})
	}
}
