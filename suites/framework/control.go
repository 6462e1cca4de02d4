package framework

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/conform-harness/conform/target"
)

// Control drives the emulator's control plane. Only emulator-only specs use it.
type Control struct {
	base  string
	token string
	http  *http.Client
}

// Control returns the control plane client, skipping when the target is not
// the emulator. It presents the control token when one is configured
// (CONFORM_CONTROL_TOKEN, control_token).
func (e *Env) Control() *Control {
	e.RequireEmulator()
	return &Control{base: e.Config.ControlURL, token: e.Config.ControlToken, http: e.HTTPClient()}
}

// do sends one control plane request with the token, if any.
func (c *Control) do(ctx context.Context, method, path string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set(target.ControlTokenHeader, c.token)
	}
	return c.http.Do(req)
}

// Now reads the emulator's clock, which the control plane may have moved
// away from the wall clock.
func (c *Control) Now(ctx context.Context) (time.Time, error) {
	resp, err := c.do(ctx, http.MethodGet, "/info", nil)
	if err != nil {
		return time.Time{}, fmt.Errorf("control plane /info: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
		return time.Time{}, fmt.Errorf("control plane /info: HTTP %d %s", resp.StatusCode, msg)
	}
	var in struct {
		Now string `json:"now"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&in); err != nil {
		return time.Time{}, fmt.Errorf("control plane /info: %w", err)
	}
	now, err := time.Parse(time.RFC3339Nano, in.Now)
	if err != nil {
		return time.Time{}, fmt.Errorf("control plane /info: the clock %q: %w", in.Now, err)
	}
	return now.UTC(), nil
}

func (c *Control) post(ctx context.Context, path string, body any) error {
	b, _ := json.Marshal(body)
	resp, err := c.do(ctx, http.MethodPost, path, bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("control plane %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("control plane %s: HTTP %d %s", path, resp.StatusCode, msg)
	}
	return nil
}

// Fund credits the account owning apiKey with amount of currency.
func (c *Control) Fund(ctx context.Context, apiKey, currency, amount string) error {
	return c.post(ctx, "/fund", map[string]string{"api_key": apiKey, "currency": currency, "amount": amount})
}

// Advance moves the emulator clock forward by d.
func (c *Control) Advance(ctx context.Context, d time.Duration) error {
	return c.post(ctx, "/clock", map[string]string{"advance": d.String()})
}
