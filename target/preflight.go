package target

import (
	"bytes"
	"context"
	"crypto/tls"
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
// conf is the TLS configuration of the run (Config.TLS; nil: the system's roots).
func Preflight(ctx context.Context, rest string, timeout time.Duration, conf *tls.Config) error {
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
	resp, err := (&http.Client{Transport: &http.Transport{Proxy: nil, TLSClientConfig: conf}}).Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil {
			return fmt.Errorf("target %s is not this API: no HTTP answer to GET /api/3/public/currency within %s", rest, timeout)
		}
		var verify *tls.CertificateVerificationError
		if errors.As(err, &verify) {
			return tlsProblem(strings.TrimRight(rest, "/"), req.URL.Hostname(), err)
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
	// The documented shape is an object keyed by currency code; a list of
	// the same records is still this API (getting the shape wrong is for
	// the specs to judge), anything else is not.
	records, err := currencyRecords(body)
	if err != nil {
		return fmt.Errorf("target %s is not this API: GET /api/3/public/currency answered %s, %v", rest, found, err)
	}
	for _, rec := range records {
		if rec["full_name"] == nil {
			return fmt.Errorf("target %s is not this API: GET /api/3/public/currency answered %s; its entries are not Currency records (no full_name)", rest, found)
		}
	}
	return nil
}

// currencyRecords decodes an object of records keyed by code, or a list of
// records; it fails on anything else or on no record at all.
func currencyRecords(body []byte) ([]map[string]json.RawMessage, error) {
	var byCode map[string]map[string]json.RawMessage
	if err := json.Unmarshal(body, &byCode); err == nil && len(byCode) > 0 {
		out := make([]map[string]json.RawMessage, 0, len(byCode))
		for _, r := range byCode {
			out = append(out, r)
		}
		return out, nil
	}
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(body, &list); err == nil && len(list) > 0 {
		return list, nil
	}
	return nil, errors.New("not currency records (an object keyed by currency code)")
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
