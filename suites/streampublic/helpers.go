package streampublic

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Path is the market data stream.
const Path = "/api/3/ws/public"

// quiet is how long a spec watches for something that must not come, taken
// from the one place timeouts live.
var quiet = framework.Timeouts.Eventually / 10

// session is one connection to the market data stream with helpers to send
// requests and read notifications by channel.
type session struct {
	c    *client.WSConn
	seq  atomic.Int64
	held map[string][]client.WSMessage
}

func open(ctx context.Context) *session {
	GinkgoHelper()
	return &session{c: framework.Current().DialStream(ctx, Path), held: map[string][]client.WSMessage{}}
}

// id returns a fresh request id.
func (s *session) id() string { return fmt.Sprintf("sp-%d", s.seq.Add(1)) }

// request sends {method, ch, params, id} (ch and params left out when empty)
// and returns the answer with that id.
func (s *session) request(ctx context.Context, id, method, ch string, params map[string]any) client.WSMessage {
	GinkgoHelper()
	extra := map[string]any{}
	if ch != "" {
		extra["ch"] = ch
	}
	if params != nil {
		extra["params"] = params
	}
	m, err := s.c.Request(ctx, framework.Timeouts.Eventually, id, method, extra)
	Expect(err).NotTo(HaveOccurred(), "%s %s: no answer with id %q", method, ch, id)
	return m
}

// raw sends a frame as it is and returns the answer with id.
func (s *session) raw(ctx context.Context, id, frame string) (client.WSMessage, error) {
	ch := s.c.Expect(id)
	if err := s.c.SendRaw([]byte(frame)); err != nil {
		return client.WSMessage{}, err
	}
	return s.c.Await(ctx, ch, framework.Timeouts.Eventually)
}

// subscribe subscribes and expects a result.
func (s *session) subscribe(ctx context.Context, ch string, params map[string]any) resultBody {
	GinkgoHelper()
	m := s.request(ctx, s.id(), "subscribe", ch, params)
	Expect(m.Error).To(BeNil(), "subscribe %s %v is answered with a result, not %s", ch, params, m.Raw)
	return resultOf(m)
}

// resultBody is the documented result {ch, subscriptions}.
type resultBody struct {
	Ch            *string  `json:"ch"`
	Subscriptions []string `json:"subscriptions"`
	raw           string
}

func resultOf(m client.WSMessage) resultBody {
	GinkgoHelper()
	var msg struct {
		Result json.RawMessage `json:"result"`
	}
	Expect(json.Unmarshal(m.Raw, &msg)).To(Succeed())
	Expect(msg.Result).NotTo(BeEmpty(), "the answer has a result member: %s", m.Raw)
	var r resultBody
	Expect(json.Unmarshal(msg.Result, &r)).To(Succeed(), "result is {ch String, subscriptions array of String}: %s", msg.Result)
	r.raw = string(m.Raw)
	return r
}

// expectError checks that m is an error answer carrying id.
func expectError(m client.WSMessage, id, why string) {
	GinkgoHelper()
	Expect(m.Error).NotTo(BeNil(), "%s: expected an error answer, got %s", why, m.Raw)
	Expect(m.HasID && m.ID == id).To(BeTrue(), "%s: the error carries the request's id %q: %s", why, id, m.Raw)
}

// notification is a decoded notification.
type notification struct {
	raw     map[string]json.RawMessage
	text    string
	member  string // snapshot or update ("" when neither)
	symbols map[string][]map[string]any
	at      time.Time // when it was received
}

func decode(m client.WSMessage) notification {
	GinkgoHelper()
	n := notification{text: string(m.Raw), at: m.At}
	Expect(decodeJSON(m.Raw, &n.raw)).To(Succeed(), "a notification is a JSON object: %s", m.Raw)
	for _, member := range []string{"snapshot", "update"} {
		if body, ok := n.raw[member]; ok {
			n.member = member
			Expect(decodeJSON(body, &n.symbols)).To(Succeed(), "%s is {<symbol>: [entries]}: %s", member, m.Raw)
		}
	}
	return n
}

// decodeJSON decodes keeping numbers as json.Number, as the schema matchers
// want them.
func decodeJSON(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	return d.Decode(v)
}

// next returns the next notification on ch, keeping those of other channels
// for later; it fails when none comes in time.
func (s *session) next(ch string) notification {
	GinkgoHelper()
	n, ok := s.within(ch, framework.Timeouts.Eventually)
	Expect(ok).To(BeTrue(), "a notification on %s within %s", ch, framework.Timeouts.Eventually)
	return n
}

// nextWhere returns the first notification on ch that f accepts, dropping
// the others.
func (s *session) nextWhere(ch string, f func(notification) bool, what string) notification {
	GinkgoHelper()
	deadline := time.Now().Add(framework.Timeouts.Eventually)
	for {
		n, ok := s.within(ch, time.Until(deadline))
		if !ok {
			Fail(fmt.Sprintf("no notification on %s with %s within %s", ch, what, framework.Timeouts.Eventually))
		}
		if f(n) {
			return n
		}
	}
}

// within waits up to d for the next notification on ch.
func (s *session) within(ch string, d time.Duration) (notification, bool) {
	GinkgoHelper()
	if q := s.held[ch]; len(q) > 0 {
		s.held[ch] = q[1:]
		return decode(q[0]), true
	}
	t := time.NewTimer(max(d, 0))
	defer t.Stop()
	for {
		select {
		case m := <-s.c.Notifications():
			if m.Ch != ch {
				s.held[m.Ch] = append(s.held[m.Ch], m)
				continue
			}
			return decode(m), true
		case <-t.C:
			return notification{}, false
		}
	}
}
