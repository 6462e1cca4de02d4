package target

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// PreflightTimeout bounds the whole preflight check of a target.
const PreflightTimeout = 5 * time.Second

// Preflight checks, before any spec runs, that rest serves this API: GET
// /api/3/public/currency must answer within timeout, either HTTP 200 with
// JSON of the documented shape (an object keyed by currency code whose
// records carry full_name and payin_enabled) or the documented error body
// (a target that is this API but refuses is for the specs to judge). Otherwise the error says in one line what
// was found, so that a wrong target costs seconds, not a suite of failures.
func Preflight(ctx context.Context, rest string, timeout time.Duration) error {
	if timeout <= 0 {
		timeout = PreflightTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	url := strings.TrimRight(rest, "/") + "/api/3/public/currency"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("target %s: %w", rest, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := (&http.Client{Transport: &http.Transport{Proxy: nil}}).Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
			return fmt.Errorf("target %s is not this API: no HTTP answer to GET /api/3/public/currency within %s", rest, timeout)
		}
		return fmt.Errorf("target %s unreachable: %v", rest, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return fmt.Errorf("target %s is not this API: reading GET /api/3/public/currency: %v", rest, err)
	}
	found := fmt.Sprintf("HTTP %d %s %q", resp.StatusCode, resp.Header.Get("Content-Type"), snippet(body))
	if resp.StatusCode != http.StatusOK {
		if isAPIError(body) {
			// This API, refusing: whether it should is for the specs to say.
			return nil
		}
		return fmt.Errorf("target %s is not this API: GET /api/3/public/currency answered %s", rest, found)
	}
	var currencies map[string]json.RawMessage
	if err := json.Unmarshal(body, &currencies); err != nil || len(currencies) == 0 {
		return fmt.Errorf("target %s is not this API: GET /api/3/public/currency answered %s, not an object keyed by currency code", rest, found)
	}
	for code, raw := range currencies {
		var rec map[string]json.RawMessage
		if json.Unmarshal(raw, &rec) != nil || rec["full_name"] == nil || rec["payin_enabled"] == nil {
			return fmt.Errorf("target %s is not this API: GET /api/3/public/currency answered %s; entry %q is not a Currency record (full_name, payin_enabled)", rest, found, code)
		}
	}
	return nil
}

// isAPIError reports whether body is the documented error body,
// {"error": {"code": Number, "message": String, ...}}.
func isAPIError(body []byte) bool {
	var env struct {
		Error *struct {
			Code    *json.Number `json:"code"`
			Message *string      `json:"message"`
		} `json:"error"`
	}
	return json.Unmarshal(body, &env) == nil && env.Error != nil && env.Error.Code != nil && env.Error.Message != nil
}

// snippet is the start of a body, on one line, for an error message.
func snippet(b []byte) string {
	b = bytes.Join(bytes.Fields(b), []byte(" "))
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}
