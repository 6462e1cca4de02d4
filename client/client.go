// Package client speaks the exchange's REST API as a client library would:
// it builds requests, signs them (Basic or HS256), records every exchange
// with credentials redacted, and decodes documented error bodies. It knows
// nothing about what is correct; suites decide that.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// APIError is the documented error body together with the HTTP status.
type APIError struct {
	Status      int
	Code        int
	Message     string
	Description string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("HTTP %d, error %d %q %s", e.Status, e.Code, e.Message, e.Description)
}

// Client is a REST client bound to one base URL (the part before /api/3).
type Client struct {
	base    *url.URL
	prefix  string
	http    *http.Client
	auth    Authenticator
	rec     *Recorder
	headers http.Header
	pacer   *Pacer
	// pacers pace requests by the API version prefix of their path
	// (WithPacerFor): each version's limit rows are its own.
	pacers  map[string]*Pacer
	acct    *Pacer // per-account classes (v3 Limits, per account)
	budget  *Budget
	guard   *Guard
	redact  *Redactor
	refused func(error)
}

// Option configures a Client.
type Option func(*Client)

// WithAuth signs every request with a.
func WithAuth(a Authenticator) Option { return func(c *Client) { c.auth = a } }

// WithHTTPClient replaces the HTTP client (for a custom transport or timeout).
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// WithRecorder records every exchange into r.
func WithRecorder(r *Recorder) Option { return func(c *Client) { c.rec = r } }

// WithPacer paces requests per documented path class (see Pacer).
func WithPacer(p *Pacer) Option { return func(c *Client) { c.pacer = p } }

// WithPacerFor paces the requests whose path is under an API version's
// prefix ("/api/3", "/api/2") with p, by their path after that prefix,
// whichever version the client speaks: each version has limit rows of its
// own, and a request naming another version's path in full
// (Request.Absolute) counts against that version's. It takes precedence
// over WithPacer.
func WithPacerFor(prefix string, p *Pacer) Option {
	return func(c *Client) {
		m := make(map[string]*Pacer, len(c.pacers)+1)
		for k, v := range c.pacers {
			m[k] = v
		}
		m[prefix] = p
		c.pacers = m
	}
}

// WithAccountPacer paces requests by the per-account classes too; share one
// among every client of one account.
func WithAccountPacer(p *Pacer) Option { return func(c *Client) { c.acct = p } }

// WithHeader adds a header to every request.
func WithHeader(k, v string) Option {
	return func(c *Client) { c.headers.Add(k, v) }
}

// WithGuard sets the live-trading guard every authenticated mutating
// request must pass. Without it the client refuses them all.
func WithGuard(g *Guard) Option { return func(c *Client) { c.guard = g } }

// OnRefused calls f with the guard's error whenever the guard refuses a
// request, after it is recorded and before Do returns (a suite turns it
// into a skip).
func OnRefused(f func(error)) Option { return func(c *Client) { c.refused = f } }

// WithRedactor sets the redactor of recorded exchanges, so that credentials
// the client did not send itself (a spec's hand-made header, another
// account's) are known by value too. The client's own credentials are
// always known.
func WithRedactor(r *Redactor) Option { return func(c *Client) { c.redact = r } }

// DefaultTransport is a keep-alive transport with bounded timeouts, so that a
// dead target fails fast instead of hanging a run.
func DefaultTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: 15 * time.Second,
	}
}

// New returns a client for baseURL, e.g. "http://127.0.0.1:8080".
func New(baseURL string, opts ...Option) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil {
		return nil, fmt.Errorf("client: parse base URL %q: %w", baseURL, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("client: base URL %q: scheme must be http or https", baseURL)
	}
	c := &Client{base: u, prefix: "/api/3", http: &http.Client{Transport: DefaultTransport(), Timeout: 20 * time.Second}, headers: http.Header{}}
	for _, o := range opts {
		o(c)
	}
	c.knowOwnCredential()
	return c, nil
}

// knowOwnCredential makes sure the redactor knows the secret the client
// signs with, whatever redactor it was given.
func (c *Client) knowOwnCredential() {
	if cr, ok := c.auth.(interface{ Credential() Credential }); ok {
		c.redact = c.redact.With(cr.Credential())
	} else if c.redact == nil {
		c.redact = NewRedactor()
	}
}

// With returns a copy of c with further options applied (sharing the HTTP
// client, so connections are reused).
func (c *Client) With(opts ...Option) *Client {
	cp := *c
	cp.headers = c.headers.Clone()
	for _, o := range opts {
		o(&cp)
	}
	cp.knowOwnCredential()
	return &cp
}

// Request describes one call. Path is relative to the API prefix unless
// Absolute is set.
type Request struct {
	Method string
	Path   string
	// Query is encoded into the URL; RawQuery, when set, is used as is.
	Query    url.Values
	RawQuery string
	// Body is sent as is with ContentType; Form and JSON are conveniences.
	Body        []byte
	ContentType string
	Form        url.Values
	JSON        any
	// Header adds or overrides headers; an Authorization here replaces signing.
	Header http.Header
	// NoAuth sends the request without credentials.
	NoAuth bool
	// Absolute means Path already includes any version prefix.
	Absolute bool
}

// Do sends req and returns the recorded exchange. The error is a transport
// error or an *APIError when the target answered with a documented error.
func (c *Client) Do(ctx context.Context, req Request) (*Exchange, error) {
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	body, ctype := req.Body, req.ContentType
	switch {
	case req.Form != nil:
		body, ctype = []byte(req.Form.Encode()), "application/x-www-form-urlencoded"
	case req.JSON != nil:
		b, err := json.Marshal(req.JSON)
		if err != nil {
			return nil, fmt.Errorf("client: encode JSON body: %w", err)
		}
		body, ctype = b, "application/json"
	}
	path := req.Path
	if !req.Absolute {
		path = c.prefix + path
	}
	rawQuery := req.RawQuery
	if rawQuery == "" && len(req.Query) > 0 {
		rawQuery = req.Query.Encode()
	}
	u := *c.base
	u.Path = c.base.Path + path
	u.RawQuery = rawQuery
	hreq, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("client: build %s %s: %w", method, path, err)
	}
	if len(body) == 0 {
		hreq.Body, hreq.ContentLength = http.NoBody, 0
	}
	for k, vs := range c.headers {
		hreq.Header[k] = vs
	}
	if ctype != "" {
		hreq.Header.Set("Content-Type", ctype)
	}
	hreq.Header.Set("Accept", "application/json")
	if c.auth != nil && !req.NoAuth {
		hreq.Header.Set("Authorization", c.auth.Authorization(method, u.EscapedPath(), rawQuery, body))
	}
	for k, vs := range req.Header {
		hreq.Header[http.CanonicalHeaderKey(k)] = vs
	}
	ex := &Exchange{Method: method, URL: c.redact.URL(&u), ReqHeader: c.redact.Header(hreq.Header), ReqBody: []byte(c.redact.Redact(string(body))), redact: c.redact}
	if err := c.guard.CheckHeader(method, u.String(), hreq.Header); err != nil {
		// Refused before anything is sent: recorded, so a transcript shows
		// what the spec would have sent, and returned for the caller.
		ex.Err = err
		if c.rec != nil {
			c.rec.Add(ex)
		}
		if c.refused != nil {
			c.refused(err)
		}
		return ex, err
	}
	pacer, rel, own := c.pacerOf(path)
	acct := c.acct
	if !own {
		acct = nil // the per-account classes are of the client's version
	}
	for _, p := range []*Pacer{pacer, acct} {
		if p == nil {
			continue
		}
		if err := p.Wait(ctx, rel); err != nil {
			return nil, fmt.Errorf("client: waiting for the rate limit of %s: %w", path, err)
		}
	}
	if c.budget != nil && c.auth != nil && !req.NoAuth {
		if err := c.budget.Wait(ctx, strings.TrimPrefix(path, c.prefix)); err != nil {
			return nil, fmt.Errorf("client: waiting for the per-user rate limit of %s: %w", path, err)
		}
	}
	start := time.Now()
	resp, err := c.guarded().Do(hreq)
	if err == nil {
		ex.Body, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		ex.Status, ex.RespHeader, ex.Proto = resp.StatusCode, resp.Header, resp.Proto
	}
	ex.Duration = time.Since(start)
	if err != nil {
		ex.Err = fmt.Errorf("%s %s: %w", method, ex.URL, err)
	}
	if c.rec != nil {
		c.rec.Add(ex)
	}
	if ex.Err != nil {
		return ex, ex.Err
	}
	if ex.Status == http.StatusTooManyRequests && pacer != nil {
		// Honour the 429 by waiting out the window for later requests; the
		// caller still sees this one, never a silent retry.
		pacer.Backoff(rel)
	}
	if ex.Status >= 400 {
		if apiErr, ok := ex.APIError(); ok {
			return ex, apiErr
		}
		return ex, &APIError{Status: ex.Status, Code: 0, Message: http.StatusText(ex.Status)}
	}
	return ex, nil
}

// guarded is the client's HTTP client with the guard on redirects too: a
// 307 or 308 resends an authenticated mutating request, with its
// Authorization when only the port changes, to wherever it points.
func (c *Client) guarded() *http.Client {
	hc := *c.http
	next := hc.CheckRedirect
	hc.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if err := c.guard.CheckHeader(r.Method, r.URL.String(), r.Header); err != nil {
			return err
		}
		if next != nil {
			return next(r, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &hc
}

// pacerOf returns the pacer of a request path (after the base URL's path)
// and the path as that pacer's classes read it: the pacer of the API
// version whose prefix the path is under (WithPacerFor), else the
// client's WithPacer. own says whether the path is the client's version's.
func (c *Client) pacerOf(path string) (p *Pacer, rel string, own bool) {
	for prefix, p := range c.pacers {
		if strings.HasPrefix(path, prefix+"/") {
			return p, strings.TrimPrefix(path, prefix), prefix == c.prefix
		}
	}
	return c.pacer, strings.TrimPrefix(path, c.prefix), strings.HasPrefix(path, c.prefix+"/")
}

// Get is Do for a GET with query parameters.
func (c *Client) Get(ctx context.Context, path string, query url.Values) (*Exchange, error) {
	return c.Do(ctx, Request{Method: http.MethodGet, Path: path, Query: query})
}

// IsAPIError reports whether err is an *APIError and returns it.
func IsAPIError(err error) (*APIError, bool) {
	var a *APIError
	ok := errors.As(err, &a)
	return a, ok
}
