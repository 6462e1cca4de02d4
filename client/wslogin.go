package client

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
)

// StreamLoginHS256 is the params of the v3 trading and wallet streams'
// login as the real service and its client libraries send it (the spec
// does not show it): type HS256, api_key, timestamp (Unix ms), signature =
// lowercase hex HMAC-SHA256 keyed with the secret over the timestamp, and
// the window appended when window > 0. The redactor hides api_key and
// signature in every transcript.
func StreamLoginHS256(apiKey, secret string, now time.Time, window int) map[string]any {
	ts := now.UnixMilli()
	msg := strconv.FormatInt(ts, 10)
	p := map[string]any{"type": "HS256", "api_key": apiKey, "timestamp": ts}
	if window > 0 {
		msg += strconv.Itoa(window)
		p["window"] = window
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(msg))
	p["signature"] = hex.EncodeToString(mac.Sum(nil))
	return p
}

// StreamLoginBasic is the Basic login params of the real service: type
// BASIC, api_key and secret_key.
func StreamLoginBasic(apiKey, secret string) map[string]any {
	return map[string]any{"type": "BASIC", "api_key": apiKey, "secret_key": secret}
}
