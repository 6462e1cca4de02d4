package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Exchange is one recorded HTTP round trip, buffered so that matchers and
// failure reports never touch a live response.
type Exchange struct {
	Method     string
	URL        string
	Proto      string
	ReqHeader  http.Header // already redacted
	ReqBody    []byte      // already redacted
	Status     int
	RespHeader http.Header
	Body       []byte
	Duration   time.Duration
	Err        error // transport error, if any
	// redact renders the exchange: the response body is kept as received
	// for matchers, so a target echoing credentials is redacted in String.
	redact *Redactor
}

// JSON decodes the response body with numbers kept as json.Number, so that
// specs can tell a JSON number from a string.
func (e *Exchange) JSON() (any, error) {
	dec := json.NewDecoder(bytes.NewReader(e.Body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decode %s %s body: %w", e.Method, e.URL, err)
	}
	return v, nil
}

// Decode unmarshals the response body into v.
func (e *Exchange) Decode(v any) error {
	if err := json.Unmarshal(e.Body, v); err != nil {
		return fmt.Errorf("decode %s %s body: %w", e.Method, e.URL, err)
	}
	return nil
}

// APIError returns the documented error body, if the response carries one.
func (e *Exchange) APIError() (*APIError, bool) {
	var env struct {
		Error *struct {
			Code        json.Number `json:"code"`
			Message     string      `json:"message"`
			Description string      `json:"description"`
		} `json:"error"`
	}
	if e.Body == nil || json.Unmarshal(e.Body, &env) != nil || env.Error == nil {
		return nil, false
	}
	code, err := env.Error.Code.Int64()
	if err != nil {
		return nil, false
	}
	return &APIError{Status: e.Status, Code: int(code), Message: env.Error.Message, Description: env.Error.Description}, true
}

const maxShownBody = 2048

// String renders the exchange for a failure report: method, URL, status,
// bodies, through the redactor of the client that made it.
func (e *Exchange) String() string { return e.redact.Redact(e.render()) }

func (e *Exchange) render() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", e.Method, e.URL)
	if len(e.ReqBody) > 0 {
		fmt.Fprintf(&b, "  %s", clip(e.ReqBody))
	}
	if a := e.ReqHeader.Get("Authorization"); a != "" {
		fmt.Fprintf(&b, "  (Authorization: %s)", a)
	}
	if e.Err != nil {
		fmt.Fprintf(&b, "\n  -> transport error: %v", e.Err)
		return b.String()
	}
	fmt.Fprintf(&b, "\n  -> %d %s  (%s)", e.Status, clip(e.Body), e.Duration.Round(time.Microsecond))
	return b.String()
}

func clip(b []byte) string {
	s := string(b)
	if len(s) > maxShownBody {
		return s[:maxShownBody] + fmt.Sprintf("... (%d bytes)", len(b))
	}
	return s
}

// Recorder keeps the exchanges of one spec in order. It is safe for
// concurrent use.
type Recorder struct {
	mu        sync.Mutex
	exchanges []*Exchange
}

// Add appends an exchange.
func (r *Recorder) Add(e *Exchange) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.exchanges = append(r.exchanges, e)
}

// Exchanges returns a copy of what was recorded.
func (r *Recorder) Exchanges() []*Exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*Exchange(nil), r.exchanges...)
}

// String renders every exchange, numbered.
func (r *Recorder) String() string {
	var b strings.Builder
	for i, e := range r.Exchanges() {
		fmt.Fprintf(&b, "#%d %s\n", i+1, e)
	}
	return b.String()
}
