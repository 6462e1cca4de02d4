package load

import (
	"bufio"
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// deadlineConn counts the deadlines set on it.
type deadlineConn struct {
	net.Conn
	set []time.Time
}

func (c *deadlineConn) SetDeadline(t time.Time) error {
	c.set = append(c.set, t)
	return nil
}

// A connection's deadline is set only when a request's own would fall
// after it, and then to the request's plus the slack: never before a
// request's timeout, at most the slack after it.
func TestRenewDeadline(t *testing.T) {
	const timeout = 10 * time.Second
	slack := deadlineSlack(timeout)
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		sent  []time.Duration // each request's timestamp after t0
		wants []time.Duration // the deadlines set, after t0
	}{
		{"first request", []time.Duration{0}, []time.Duration{timeout + slack}},
		{"within the slack", []time.Duration{0, slack / 2, slack}, []time.Duration{timeout + slack}},
		{"past the slack", []time.Duration{0, slack + 1, 2*slack + 1}, []time.Duration{timeout + slack, timeout + 2*slack + 1}},
		{"later on", []time.Duration{0, time.Minute}, []time.Duration{timeout + slack, time.Minute + timeout + slack}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &deadlineConn{}
			rc := &rawConn{c: c}
			for _, at := range tt.sent {
				due := t0.Add(at + timeout)
				rc.renewDeadline(due, timeout)
				if rc.deadline.Before(due) || rc.deadline.After(due.Add(slack)) {
					t.Errorf("request at %s: deadline %s, want within [%s, %s]", at, rc.deadline.Sub(t0), due.Sub(t0), due.Add(slack).Sub(t0))
				}
			}
			if len(c.set) != len(tt.wants) {
				t.Fatalf("%d deadlines set, want %d", len(c.set), len(tt.wants))
			}
			for i, d := range tt.wants {
				if got := c.set[i].Sub(t0); got != d {
					t.Errorf("deadline %d: %s, want %s", i, got, d)
				}
			}
		})
	}
}

// An answer that comes after the request's timeout, but before its
// connection's deadline (set for an earlier request), fails the request
// as the deadline would have, and the connection is dropped.
func TestSendAnsweredAfterTimeout(t *testing.T) {
	tests := []struct {
		name   string
		delay  time.Duration
		failed bool
	}{
		{"in time", 0, false},
		{"too late", 80 * time.Millisecond, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, server := net.Pipe()
			defer server.Close()
			go func() {
				br := bufio.NewReader(server)
				for {
					l, err := br.ReadString('\n')
					if err != nil {
						return
					}
					if l == "\r\n" {
						break
					}
				}
				time.Sleep(tt.delay)
				_, _ = io.WriteString(server, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
			}()
			e := &engine{origin: "http://x", host: "x", timeout: 50 * time.Millisecond,
				pool: newConnPool(&net.Dialer{}, 1, 0), ctx: context.Background(),
				tr: func(t *vegeta.Target) error { t.Method, t.URL = "GET", "http://x/a"; return nil }}
			rc := &rawConn{c: client, out: make([]byte, 0, 64), deadline: time.Now().Add(time.Hour)}
			rc.br = bufio.NewReader(rc)
			e.pool.slots <- struct{}{}
			w := worker{e: e, rc: rc}
			r := vegeta.Result{Timestamp: time.Now()}
			err := w.send(&r)
			if !tt.failed {
				if err != nil || r.Code != 200 || w.rc == nil {
					t.Fatalf("err %v, code %d, connection kept %v", err, r.Code, w.rc != nil)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "raw-read") || !strings.HasSuffix(err.Error(), "i/o timeout") || r.Code != 0 || w.rc != nil {
				t.Fatalf("err %v, code %d, connection kept %v", err, r.Code, w.rc != nil)
			}
		})
	}
}
