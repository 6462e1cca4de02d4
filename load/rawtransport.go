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

// rawConn is one HTTP/1.1 keep-alive connection with its buffers.
type rawConn struct {
	c  net.Conn
	br *bufio.Reader
	bw *bufio.Writer
	// num is room to format a Content-Length without allocating.
	num [20]byte
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
		// Answers are read through a large buffer, so that one read
		// takes all that has arrived.
		return &rawConn{c: c, br: bufio.NewReaderSize(c, 64<<10), bw: bufio.NewWriterSize(c, 4<<10)}, nil
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
