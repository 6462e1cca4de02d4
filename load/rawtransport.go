package load

import (
	"bufio"
	"context"
	"net"
	"os"
	"time"
)

// connPool holds the engine's connections to the target: at most max
// open, idle ones kept for the next worker that needs one.
type connPool struct {
	dial    func(ctx context.Context, network, addr string) (net.Conn, error)
	idle    chan *rawConn
	slots   chan struct{} // one per connection that may exist
	timeout time.Duration // bounds the wait for a connection; 0: none
}

// rawConn is one HTTP/1.1 keep-alive connection. A request is built in
// out and sent by the first read of its answer (see Read), so that
// sending it and waiting for the answer cost one write and one read.
type rawConn struct {
	c  net.Conn
	br *bufio.Reader // reads through the rawConn
	// out is the request to send; sent counts what of it has gone out.
	out  []byte
	sent int
	// raw is the socket's descriptor access (see rawio_unix.go); nil
	// where there is none: out is then written with c.Write.
	raw rawIO
	// deadline is the connection's deadline as last set (see renewDeadline).
	deadline time.Time
}

// deadlineSlack is how much later than a request's own timeout its
// connection's deadline may fall: renewDeadline sets a deadline that
// much beyond, so that the requests that follow on the connection within
// the slack need none of their own (setting one is a timer change in the
// runtime per request, a few percent of the generator's CPU at max rate).
func deadlineSlack(timeout time.Duration) time.Duration { return timeout / 50 }

// renewDeadline makes sure the connection's deadline falls at or after
// due, at most deadlineSlack(timeout) after: a request that gets no answer
// fails between its timeout and its timeout plus the slack; one answered
// after its timeout, before the deadline, is failed by its sender (see
// timedOut), as if the deadline had been its own.
func (rc *rawConn) renewDeadline(due time.Time, timeout time.Duration) {
	if !rc.deadline.Before(due) {
		return
	}
	rc.deadline = due.Add(deadlineSlack(timeout))
	_ = rc.c.SetDeadline(rc.deadline)
}

// timedOut is the error of a request answered after its timeout: the one
// a deadline gives while the answer is awaited.
func (rc *rawConn) timedOut() error {
	return &net.OpError{Op: "raw-read", Net: "tcp", Source: rc.c.LocalAddr(), Addr: rc.c.RemoteAddr(), Err: os.ErrDeadlineExceeded}
}

func newConnPool(d *net.Dialer, maxConns int, timeout time.Duration) *connPool {
	if maxConns <= 0 {
		maxConns = 1
	}
	return &connPool{dial: d.DialContext, idle: make(chan *rawConn, maxConns), slots: make(chan struct{}, maxConns), timeout: timeout}
}

// conn takes an idle connection, or dials one while under the cap, or waits.
func (t *connPool) conn(ctx context.Context, addr string) (*rawConn, error) {
	select {
	case rc := <-t.idle:
		return rc, nil
	default:
	}
	if t.timeout > 0 {
		// Waiting for a connection counts towards the request's time.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.timeout)
		defer cancel()
	}
	select {
	case rc := <-t.idle:
		return rc, nil
	case t.slots <- struct{}{}:
		c, err := t.dial(ctx, "tcp", addr)
		if err != nil {
			<-t.slots
			return nil, err
		}
		rc := &rawConn{c: c, out: make([]byte, 0, 1024)}
		rc.raw = newRawIO(rc)
		// Answers are read through a large buffer, so that one read
		// takes all that has arrived.
		rc.br = bufio.NewReaderSize(rc, 64<<10)
		return rc, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// dialOne dials a connection outside the pool's count (the event loops
// keep their own), within the pool's timeout.
func (t *connPool) dialOne(ctx context.Context, addr string) (net.Conn, error) {
	if t.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.timeout)
		defer cancel()
	}
	return t.dial(ctx, "tcp", addr)
}

// put makes a connection idle, for the next request.
func (t *connPool) put(rc *rawConn) { t.idle <- rc }

// drop closes a connection that cannot serve another request.
func (t *connPool) drop(rc *rawConn) {
	_ = rc.c.Close()
	<-t.slots
}

// closeIdle closes the idle connections.
func (t *connPool) closeIdle() {
	for {
		select {
		case rc := <-t.idle:
			t.drop(rc)
		default:
			return
		}
	}
}

// flush writes what is left of the request the plain way.
func (rc *rawConn) flush() error {
	for rc.sent < len(rc.out) {
		n, err := rc.c.Write(rc.out[rc.sent:])
		rc.sent += n
		if err != nil {
			return err
		}
	}
	return nil
}

// Read reads the answer for bufio; the first read after a request is
// built sends it first. Through the descriptor, the write is followed by
// a wait for the answer, not by a read that would find nothing yet: Go's
// own Read tries the socket before waiting, one more system call per
// request, which was a third of the generator's.
func (rc *rawConn) Read(p []byte) (int, error) {
	if rc.sent < len(rc.out) {
		if rc.raw != nil {
			n, err, done := rc.raw.writeThenRead(p)
			if done {
				return n, err
			}
			// The socket's buffer is full: the rest of the request the
			// plain way, then the answer.
		}
		if err := rc.flush(); err != nil {
			return 0, err
		}
	}
	return rc.c.Read(p)
}
