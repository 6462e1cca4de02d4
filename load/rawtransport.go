package load

import (
	"bufio"
	"context"
	"net"
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
