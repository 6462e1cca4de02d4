package framework

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Control drives the emulator's control plane. Only emulator-only specs use it.
type Control struct {
	base string
	http *http.Client
}

// Control returns the control plane client, skipping when the target is not
// the emulator.
func (e *Env) Control() *Control {
	e.RequireEmulator()
	return &Control{base: e.Config.ControlURL, http: e.HTTPClient()}
}

func (c *Control) post(ctx context.Context, path string, body any) error {
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
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
