package jsonrpc

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
)

// login authenticates the connection (v2 Authentication, stream login):
// BASIC with pKey and sKey; HS256 with pKey, nonce and signature, the hex
// HMAC SHA256 of nonce with the secret key; BEARER with pKey and jwt.
//
// Beyond the contract: the document leaves the bearer token's source out;
// the emulator accepts a JWT (RFC 7519) signed HS256 with the key's secret,
// whose sub is the API key and whose exp, when present, is in the future
// (see BearerToken).
func (s *Server) login(c *conn, _ *request, p api.Params) (any, *api.Error) {
	f := s.opts.Faults
	algo, _ := p.String("algo")
	pKey, _ := p.String("pKey")
	need := map[string][]string{"BASIC": {"sKey"}, "HS256": {"nonce", "signature"}, "BEARER": {"jwt"}}[algo]
	if need == nil {
		return nil, api.Validation("algo must be BASIC, HS256 or BEARER, got %q", algo)
	}
	if pKey == "" {
		return nil, api.Validation("pKey is required")
	}
	for _, name := range need {
		if v, _ := p.String(name); v == "" && !(algo == "BASIC" && f.On("V2-WS-LOGIN-MISSING")) {
			return nil, api.Validation("%s is required with algo %s", name, algo)
		}
	}
	k, ok := s.opts.Keys.Key(pKey)
	if !ok {
		if f.On("V2-WS-LOGIN-UNKNOWN-KEY") {
			c.setUser(&api.Principal{Account: "__nobody__", APIKey: pKey, Rights: map[string]bool{auth.RightOrderbook: true}})
			return true, nil
		}
		return nil, api.AuthFailed("unknown API key")
	}
	switch algo {
	case "BASIC":
		sKey, sent := p.String("sKey")
		if !hmac.Equal([]byte(sKey), []byte(k.Secret)) && !f.On("V2-WS-LOGIN-BASIC") && !(!sent && f.On("V2-WS-LOGIN-MISSING")) {
			return nil, api.AuthFailed("wrong secret key")
		}
	case "HS256":
		nonce, _ := p.String("nonce")
		sig, _ := p.String("signature")
		mac := hmac.New(sha256.New, []byte(k.Secret))
		mac.Write([]byte(nonce))
		if !hmac.Equal([]byte(strings.ToLower(sig)), []byte(hex.EncodeToString(mac.Sum(nil)))) && !f.On("V2-WS-LOGIN-HS256") {
			return nil, api.AuthFailed("wrong signature")
		}
	case "BEARER":
		jwt, _ := p.String("jwt")
		if err := checkBearer(jwt, k, s.opts.Clock.Now()); err != "" && !f.On("V2-WS-LOGIN-BEARER") {
			return nil, api.AuthFailed("%s", err)
		}
	}
	// A frozen or disabled sub-account cannot log in (v2 States and transitions).
	if !s.opts.Keys.Usable(k.Account) {
		return nil, api.AuthFailed("the account is frozen or disabled: its API keys cannot be used")
	}
	c.setUser(s.opts.Keys.Principal(k))
	return true, nil
}

func (c *conn) setUser(p *api.Principal) {
	c.mu.Lock()
	c.user = p
	c.mu.Unlock()
}

// BearerToken is a token the emulator's BEARER login accepts for the key
// (apiKey, secret) until exp: a JWT signed HS256 with the secret.
func BearerToken(apiKey, secret string, exp time.Time) string {
	enc := base64.RawURLEncoding
	head := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	claims, _ := json.Marshal(map[string]any{"sub": apiKey, "exp": exp.Unix()})
	msg := head + "." + enc.EncodeToString(claims)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(msg))
	return msg + "." + enc.EncodeToString(mac.Sum(nil))
}

// checkBearer says what is wrong with a bearer token ("" when nothing).
func checkBearer(jwt string, k auth.Key, now time.Time) string {
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		return "the jwt is not a JSON Web Token"
	}
	enc := base64.RawURLEncoding
	var head struct {
		Alg string `json:"alg"`
	}
	if b, err := enc.DecodeString(parts[0]); err != nil || json.Unmarshal(b, &head) != nil || head.Alg != "HS256" {
		return "the jwt must be signed HS256"
	}
	mac := hmac.New(sha256.New, []byte(k.Secret))
	mac.Write([]byte(parts[0] + "." + parts[1]))
	sig, err := enc.DecodeString(parts[2])
	if err != nil || !hmac.Equal(sig, mac.Sum(nil)) {
		return "the jwt's signature does not match the key"
	}
	var claims struct {
		Sub string `json:"sub"`
		Exp *int64 `json:"exp"`
	}
	if b, err := enc.DecodeString(parts[1]); err != nil || json.Unmarshal(b, &claims) != nil {
		return "the jwt's claims are not JSON"
	}
	if claims.Sub != k.APIKey {
		return "the jwt was issued for another key"
	}
	if claims.Exp != nil && now.Unix() >= *claims.Exp {
		return "the jwt has expired"
	}
	return ""
}
