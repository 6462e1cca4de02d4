package scenarios

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/load"
	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// restSender offers a REST request from one source address with Vegeta.
// The first answer it ever gets (from a fresh budget) sets what an
// accepted answer looks like: its HTTP status. Offers mixing credentials,
// whose accepted answers differ (401 and 200), are a fanout of senders.
type restSender struct {
	url     string // absolute URL
	method  string
	from    net.IP
	workers int
	cred    *client.Credential // nil: anonymous; sent as Basic, which needs no per-request signature
	guard   *client.Guard
	// hc, when set, carries the requests over its opened connections
	// (from one address, see warmClient) instead of fresh ones from from.
	hc *http.Client

	mu     sync.Mutex
	normal int // HTTP status of an accepted answer; 0 until learnt
}

func (s *restSender) Send(ctx context.Context, n int) (Burst, error) {
	answers, err := load.Offer{
		Requests: n, Workers: s.workers, LocalIP: s.from, Client: s.hc, Timeout: 10 * time.Second, MaxBody: 4 << 10, Guard: s.guard, TLS: tlsOf(ctx),
		Build: func(_ int, t *vegeta.Target) error {
			t.Method, t.URL = s.method, s.url
			t.Header = http.Header{"Accept": {"application/json"}}
			if s.cred != nil {
				t.Header.Set("Authorization", s.cred.BasicHeader())
			}
			return nil
		},
	}.Send(ctx)
	if err != nil {
		return Burst{}, fmt.Errorf("%s %s from %s: %w", s.method, s.url, s.from, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b := Burst{Offered: n}
	for i, a := range answers {
		if i == 0 || a.Sent.Before(b.Start) {
			b.Start = a.Sent
		}
		if a.Received().After(b.End) {
			b.End = a.Received()
		}
		if a.Err != "" {
			b.Failed = append(b.Failed, a.Err)
			continue
		}
		// A 429 is never what an accepted answer looks like: a sender whose
		// first answer came after another sender of the same account spent
		// a small budget (v2: 10 per user) learns from its next one.
		if s.normal == 0 && a.Status != http.StatusTooManyRequests {
			s.normal = a.Status
		}
		if a.Status == s.normal {
			b.Accepted++
			continue
		}
		b.Refused++
		desc, ok := documentedRefusal(a.Status, a.Body)
		if b.Refusals == nil {
			b.Refusals = map[string]int{}
		}
		b.Refusals[desc]++
		if !ok {
			b.BadRefusals = append(b.BadRefusals, desc)
		}
	}
	if len(answers) < n {
		b.Failed = append(b.Failed, fmt.Sprintf("%d requests were never sent", n-len(answers)))
	}
	return b, nil
}

// documentedRefusal describes a refusal ("HTTP 429 error 429 Too many
// requests") and reports whether it is what V3-LIMIT-429 asks for: HTTP 429
// with the documented error body {error: {code Number, message String,
// description String optional}}.
func documentedRefusal(status int, body []byte) (string, bool) {
	var doc struct {
		Error *struct {
			Code        json.Number `json:"code"`
			Message     *string     `json:"message"`
			Description any         `json:"description"`
		} `json:"error"`
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil || doc.Error == nil {
		return fmt.Sprintf("HTTP %d without the error body: %.120s", status, body), false
	}
	e := doc.Error
	_, intErr := e.Code.Int64()
	_, descIsString := e.Description.(string)
	shapeOK := intErr == nil && e.Message != nil && (e.Description == nil || descIsString)
	msg := ""
	if e.Message != nil {
		msg = *e.Message
	}
	desc := fmt.Sprintf("HTTP %d error %s %q", status, e.Code, msg)
	if !shapeOK {
		return desc + fmt.Sprintf(" (error body not {code Number, message String, description String}: %.120s)", body), false
	}
	return desc, status == http.StatusTooManyRequests
}

// fanout spreads an offer over several senders at once (the addresses and
// keys of one account), each taking an equal share.
type fanout []Sender

func (f fanout) Send(ctx context.Context, n int) (Burst, error) {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		total Burst
		first error
	)
	for i, s := range f {
		share := n / len(f)
		if i < n%len(f) {
			share++
		}
		if share == 0 {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := s.Send(ctx, share)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && first == nil {
				first = err
			}
			total.merge(b)
		}()
	}
	wg.Wait()
	return total, first
}
