// Package v2streams holds the specs of the v2 JSON-RPC 2.0 streams: the
// request, answer and notification shapes, the reference data methods, the
// market data subscriptions (ticker, order book, trades, candles) and
// getTrades, stream login with each algo, and the trading stream's order
// reports.
//
// Isolation. Every Ginkgo process trades on accounts of its own; resting
// orders are buys at a few hundred ticks, which never trade. Book specs
// compare by sequence, so other processes' orders in the same book do not
// disturb them. Specs that need fills trade on symbols of their own (trading.FillMarkets),
// trade only over v3 REST (placing orders over a v2 stream is not shown in
// the document) and cancel what they create.
package v2streams

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The v2 stream locations.
const (
	pathPublic  = "/api/2/ws/public"
	pathTrading = "/api/2/ws/trading"
	pathAccount = "/api/2/ws/account"
	pathSingle  = "/api/2/ws"
)

// frame is one decoded message: an answer or a notification.
type frame = map[string]any

// stream is a v2 JSON-RPC connection.
type stream struct {
	c    *client.WSConn
	path string
	n    int
	// seen are the messages frames has read, in order.
	seen []frame
}

// open connects to a v2 stream location through the suite's one stream
// dial helper; the v2 streams show no limits, so its frames are paced at
// the helper's default rate, which a real target is unlikely to mind.
func open(ctx context.Context, path string) *stream {
	GinkgoHelper()
	return &stream{c: framework.Current().DialStream(ctx, path), path: path}
}

func decode(m client.WSMessage) frame {
	GinkgoHelper()
	var f frame
	dec := json.NewDecoder(bytes.NewReader(m.Raw))
	dec.UseNumber() // JSON numbers stay json.Number, as framework.Number expects
	Expect(dec.Decode(&f)).To(Succeed(), "a stream message is a JSON object: %s", m.Raw)
	return f
}

// nextID is a fresh request id, a number as JSON-RPC clients send.
func (s *stream) nextID() int {
	s.n++
	return s.n
}

// call sends {method, params, id} and returns the answer with that id.
func (s *stream) call(ctx context.Context, method string, params any) frame {
	GinkgoHelper()
	id := s.nextID()
	ch := s.c.Expect(strconv.Itoa(id))
	Expect(s.c.Send(frame{"method": method, "params": params, "id": id})).To(Succeed(), "sending %s on %s", method, s.path)
	m, err := s.c.Await(ctx, ch, framework.Timeouts.Eventually)
	Expect(err).NotTo(HaveOccurred(), "%s on %s: waiting for the answer with id %d", method, s.path, id)
	return decode(m)
}

// ok calls a method that must succeed and returns its result.
func (s *stream) ok(ctx context.Context, method string, params any) any {
	GinkgoHelper()
	a := s.call(ctx, method, params)
	Expect(a).To(HaveKey("result"), "%s on %s must succeed: %v", method, s.path, a)
	return a["result"]
}

// send writes a frame without waiting for anything.
func (s *stream) send(f frame) {
	GinkgoHelper()
	Expect(s.c.Send(f)).To(Succeed(), "sending %v on %s", f, s.path)
}

// frames reads the messages that answered no waiting request, in order,
// until until returns true for one (which is returned with those before it).
func (s *stream) frames(ctx context.Context, what string, until func(frame) bool) []frame {
	GinkgoHelper()
	var got []frame
	deadline := time.After(framework.Timeouts.Eventually)
	for {
		select {
		case m := <-s.c.Notifications():
			f := decode(m)
			got = append(got, f)
			s.seen = append(s.seen, f)
			if until(f) {
				return got
			}
		case <-s.c.Closed():
			Fail(fmt.Sprintf("%s on %s: the connection closed while waiting for %s (%s)", s.path, s.path, what, s.c.CloseReason()))
		case <-deadline:
			Fail(fmt.Sprintf("on %s nothing came within %s: waited for %s", s.path, framework.Timeouts.Eventually, what))
		case <-ctx.Done():
			Fail("interrupted while waiting for " + what)
		}
	}
}

// notification waits for the next notification of method whose params
// satisfy ok (nil: any) and returns its params.
func (s *stream) notification(ctx context.Context, method string, ok func(params any) bool) any {
	GinkgoHelper()
	fs := s.frames(ctx, method, func(f frame) bool { return f["method"] == method && (ok == nil || ok(f["params"])) })
	return fs[len(fs)-1]["params"]
}

// object is v as a JSON object, failing the spec otherwise.
func object(v any, what string) map[string]any {
	GinkgoHelper()
	m, ok := v.(map[string]any)
	Expect(ok).To(BeTrue(), "%s is a JSON object: %v", what, v)
	return m
}

// array is v as a JSON array, failing the spec otherwise.
func array(v any, what string) []any {
	GinkgoHelper()
	a, ok := v.([]any)
	Expect(ok).To(BeTrue(), "%s is a JSON array: %v", what, v)
	return a
}

// login logs the stream in as acct with algo BASIC.
func (s *stream) login(ctx context.Context, acct target.Account) {
	GinkgoHelper()
	Expect(s.ok(ctx, "login", frame{"algo": "BASIC", "pKey": acct.APIKey, "sKey": acct.Secret})).To(Equal(true), "login with BASIC and the key pair")
}

// errorOf returns the error member of an answer, failing when it has none.
func errorOf(a frame, why string) map[string]any {
	GinkgoHelper()
	Expect(a).To(HaveKey("error"), "the answer to %s must be an error, got %v", why, a)
	Expect(a).NotTo(HaveKey("result"), "the error answering %s carries no result, got %v", why, a)
	return object(a["error"], "error")
}

// pending returns the messages already queued that answered no waiting
// request, without waiting.
func (s *stream) pending() []frame {
	GinkgoHelper()
	var got []frame
	for {
		select {
		case m := <-s.c.Notifications():
			got = append(got, decode(m))
		default:
			return got
		}
	}
}

// barrier makes sure every message the server queued before now has been
// read: it calls getSymbols and waits for the answer, which the server
// sends after them.
func (s *stream) barrier(ctx context.Context, method string, params any) {
	GinkgoHelper()
	s.call(ctx, method, params)
}
