package trading

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/gorilla/websocket"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Stream paths of v3.
const (
	TradingStream = "/api/3/ws/trading"
	WalletStream  = "/api/3/ws/wallet"
)

// StreamSession is one connection to the trading or wallet stream, logged
// in as a role with the real service's login message (the spec shows none),
// with a REST Trader of the same role for reads and cleanup.
type StreamSession struct {
	*Trader
	WS   *client.WSConn
	path string

	mu    sync.Mutex
	seq   int
	notes []client.WSMessage
}

// NewStreamSession dials path and logs in as role (HS256, as client
// libraries do), failing the spec when the login is refused.
func NewStreamSession(ctx context.Context, role, path string) *StreamSession {
	GinkgoHelper()
	t := NewTrader(role, Spot)
	e := framework.Current()
	s := &StreamSession{Trader: t, WS: e.DialStream(ctx, path), path: path}
	ans := s.Request(ctx, "login", client.StreamLoginHS256(t.Acct.APIKey, t.Acct.Secret, time.Now(), 0))
	Expect(ans.Error).To(BeNil(), "logging in on %s as %s with the real service's login (type HS256): %s", path, role, ans.Describe())
	return s
}

// NextID is a fresh request id.
func (s *StreamSession) NextID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return fmt.Sprintf("c%d", s.seq)
}

// Pace waits until method may be sent under the per-account method limits
// of the v3 Limits section (framework's MethodPacer; the connection itself
// paces every frame under the per-IP message limit). Requests sent through
// WS directly must call it first.
func (s *StreamSession) Pace(ctx context.Context, method string) {
	GinkgoHelper()
	Expect(framework.Current().MethodPacer(strings.TrimPrefix(s.path, "/api/3")).Wait(ctx, method)).To(Succeed())
}

// Request sends {method, params, id} and waits for its answer.
func (s *StreamSession) Request(ctx context.Context, method string, params any) client.WSMessage {
	GinkgoHelper()
	s.Pace(ctx, method)
	m, err := s.WS.Request(ctx, framework.Timeouts.Request, s.NextID(), method, map[string]any{"params": params})
	Expect(err).NotTo(HaveOccurred(), "%s on the stream", method)
	return m
}

// collect moves the queued notifications into the session's record.
func (s *StreamSession) collect() {
	for {
		select {
		case m := <-s.WS.Notifications():
			s.mu.Lock()
			s.notes = append(s.notes, m)
			s.mu.Unlock()
		default:
			return
		}
	}
}

// Naming counts the notifications so far (messages without an id) whose
// text names the string s (a client_order_id): the spec does not show
// their shape, so nothing else of them is read.
func (s *StreamSession) Naming(str string) int {
	s.collect()
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, m := range s.notes {
		if !m.HasID && bytes.Contains(m.Raw, []byte(`"`+str+`"`)) {
			n++
		}
	}
	return n
}

// EventuallyNaming waits until at least n notifications name str.
func (s *StreamSession) EventuallyNaming(str string, n int, why string) {
	GinkgoHelper()
	Eventually(func() int { return s.Naming(str) }).WithTimeout(framework.Timeouts.Eventually).WithPolling(framework.Timeouts.Poll).
		Should(BeNumerically(">=", n), "%s: want at least %d notifications naming %q%s", why, n, str, s.closed())
}

// closed says how the connection ended, if it did.
func (s *StreamSession) closed() string {
	if !s.WS.IsClosed() {
		return ""
	}
	return " (" + s.WS.CloseReason() + ")"
}

// AnswerToMalformed sends a frame that is not JSON and says what came of
// it: the first frame the target sent back, or how the connection ended. It
// fails the spec when the connection was dropped without a close frame or
// nothing happened at all.
func (s *StreamSession) AnswerToMalformed(ctx context.Context) string {
	GinkgoHelper()
	s.Pace(ctx, "")
	Expect(s.WS.SendRaw([]byte("this is not JSON"))).To(Succeed())
	var got string
	dropped := false
	Eventually(func() string {
		select {
		case m := <-s.WS.Notifications():
			got = fmt.Sprintf("answered %s (id %v): %s", m.Describe(), map[bool]string{true: m.ID, false: "none"}[m.HasID], m.Raw)
		case <-s.WS.Closed():
			// 1006 is what a client library reports when no close frame
			// came (it is never sent on the wire).
			if ce := s.WS.CloseError(); ce != nil && ce.Code != websocket.CloseAbnormalClosure {
				got = fmt.Sprintf("closed with %d %q", ce.Code, ce.Text)
			} else {
				dropped, got = true, s.WS.CloseReason()
			}
		default:
		}
		return got
	}).WithTimeout(framework.Timeouts.Eventually).WithPolling(framework.Timeouts.Poll).
		ShouldNot(BeEmpty(), "a frame that is not JSON is answered or the connection is closed with a close frame")
	if dropped {
		Fail("the target dropped the connection without a close frame after a frame that is not JSON: " + got)
	}
	return got
}
