package client

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"time"
)

// Authenticator sets the Authorization header of an outgoing request.
// It sees the method, the path, the raw query and the raw body as sent.
type Authenticator interface {
	Authorization(method, path, rawQuery string, body []byte) string
}

// Basic is HTTP Basic authentication with an API key pair.
type Basic struct {
	Key, Secret string
}

// Authorization implements Authenticator.
func (b Basic) Authorization(_, _, _ string, _ []byte) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(b.Key+":"+b.Secret))
}

// Credential implements the client's credential discovery for redaction.
func (b Basic) Credential() Credential { return Credential{Key: b.Key, Secret: b.Secret} }

// HS256 is the HMAC-SHA256 signature scheme of the v3 Authentication section.
type HS256 struct {
	Key, Secret string
	// Window, when non-empty, is appended to the message and the header.
	Window string
	// Now gives the timestamp; nil means time.Now.
	Now func() time.Time
}

// Authorization implements Authenticator.
func (h HS256) Authorization(method, path, rawQuery string, body []byte) string {
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	ts := strconv.FormatInt(now().UnixMilli(), 10)
	sig := Sign(h.Secret, Message(method, path, rawQuery, body, ts, h.Window))
	return HS256Header(h.Key, sig, ts, h.Window)
}

// Credential implements the client's credential discovery for redaction.
func (h HS256) Credential() Credential { return Credential{Key: h.Key, Secret: h.Secret} }

// Message builds the string to sign: method, path, "?"+query when a query
// exists, the body if any, the timestamp, then the window if used.
func Message(method, path, rawQuery string, body []byte, timestamp, window string) string {
	m := method + path
	if rawQuery != "" {
		m += "?" + rawQuery
	}
	return m + string(body) + timestamp + window
}

// Sign returns the lowercase hex HMAC-SHA256 of message keyed by secret.
func Sign(secret, message string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(message))
	return hex.EncodeToString(mac.Sum(nil))
}

// HS256Header assembles the header value from its parts, so that specs can
// also build deliberately wrong ones.
func HS256Header(key, signature, timestamp, window string) string {
	cred := key + ":" + signature + ":" + timestamp
	if window != "" {
		cred += ":" + window
	}
	return "HS256 " + base64.StdEncoding.EncodeToString([]byte(cred))
}
