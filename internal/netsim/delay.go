package netsim

import (
	"net"
	"sync"
	"time"
)

// chunk is bytes in flight on a delayed connection, due at the far end at
// due; a chunk without bytes carries the end of the stream (err) or a
// half-close (closeWrite).
type chunk struct {
	b          []byte
	due        time.Time
	err        error
	closeWrite bool
}

// inFlight bounds the chunks queued each way, so a slow reader holds the
// sender back as a full network path would.
const inFlight = 256

// delayConn is a connection whose bytes each way arrive delay after they
// were sent, as over a long path: reads see what the peer sent delay ago,
// writes leave delay after Write returns. Throughput is not limited; a
// Close lets what was written leave first. Deadlines are ignored: the
// writes they would bound happen later, in writeLoop (crypto/tls sets a
// write deadline of now after its close_notify, which on the underlying
// connection would cut off the bytes still in flight).
type delayConn struct {
	net.Conn
	delay time.Duration

	in  chan chunk // filled by readLoop
	out chan chunk // drained by writeLoop
	cur []byte     // rest of the chunk Read is handing out
	err error      // the end Read reached

	closing   chan struct{} // Close was called
	closed    chan struct{} // the underlying connection is closed
	closeOnce sync.Once

	werrMu sync.Mutex
	werr   error
}

func newDelayConn(c net.Conn, delay time.Duration) *delayConn {
	d := &delayConn{Conn: c, delay: delay, in: make(chan chunk, inFlight), out: make(chan chunk, inFlight),
		closing: make(chan struct{}), closed: make(chan struct{})}
	go d.readLoop()
	go d.writeLoop()
	return d
}

func (d *delayConn) readLoop() {
	for {
		buf := make([]byte, 32<<10)
		n, err := d.Conn.Read(buf)
		c := chunk{b: buf[:n], due: time.Now().Add(d.delay), err: err}
		select {
		case d.in <- c:
		case <-d.closed:
			return
		}
		if err != nil {
			return
		}
	}
}

// wait sleeps until t, or returns false when the connection closes first.
func (d *delayConn) wait(t time.Time, stop <-chan struct{}) bool {
	w := time.Until(t)
	if w <= 0 {
		return true
	}
	tm := time.NewTimer(w)
	defer tm.Stop()
	select {
	case <-tm.C:
		return true
	case <-stop:
		return false
	}
}

// Read returns bytes that arrived at least delay ago.
func (d *delayConn) Read(p []byte) (int, error) {
	for len(d.cur) == 0 {
		if d.err != nil {
			return 0, d.err
		}
		var c chunk
		select {
		case c = <-d.in:
		case <-d.closing:
			return 0, net.ErrClosed
		case <-d.closed:
			// The write side broke and closed the connection: readLoop may
			// have returned without handing over its last chunk, so what
			// is queued is read and then the end.
			select {
			case c = <-d.in:
			default:
				return 0, net.ErrClosed
			}
		}
		if !d.wait(c.due, d.closing) {
			return 0, net.ErrClosed
		}
		d.cur, d.err = c.b, c.err
	}
	n := copy(p, d.cur)
	d.cur = d.cur[n:]
	return n, nil
}

// Write queues p to leave delay from now.
func (d *delayConn) Write(p []byte) (int, error) {
	if err := d.writeErr(); err != nil {
		return 0, err
	}
	c := chunk{b: append([]byte(nil), p...), due: time.Now().Add(d.delay)}
	select {
	case <-d.closing:
		return 0, net.ErrClosed
	default:
	}
	select {
	case d.out <- c:
		return len(p), nil
	case <-d.closing:
		return 0, net.ErrClosed
	}
}

// CloseWrite half-closes the connection once what was written has left.
func (d *delayConn) CloseWrite() error {
	select {
	case d.out <- chunk{closeWrite: true, due: time.Now().Add(d.delay)}:
		return nil
	case <-d.closing:
		return net.ErrClosed
	}
}

func (d *delayConn) writeErr() error {
	d.werrMu.Lock()
	defer d.werrMu.Unlock()
	return d.werr
}

// send writes one chunk when it is due; false when the connection broke.
func (d *delayConn) send(c chunk) bool {
	time.Sleep(time.Until(c.due))
	var err error
	switch {
	case c.closeWrite:
		if cw, ok := d.Conn.(interface{ CloseWrite() error }); ok {
			err = cw.CloseWrite()
		}
	default:
		_, err = d.Conn.Write(c.b)
	}
	if err != nil {
		d.werrMu.Lock()
		d.werr = err
		d.werrMu.Unlock()
		return false
	}
	return true
}

func (d *delayConn) writeLoop() {
	defer func() {
		_ = d.Conn.Close()
		close(d.closed)
	}()
	for {
		select {
		case c := <-d.out:
			if !d.send(c) {
				return
			}
		case <-d.closing:
			// Let what was written before Close leave, then close.
			for {
				select {
				case c := <-d.out:
					if !d.send(c) {
						return
					}
				default:
					return
				}
			}
		}
	}
}

// Close stops reads and writes at once and closes the connection when what
// was written has left.
func (d *delayConn) Close() error {
	d.closeOnce.Do(func() { close(d.closing) })
	return nil
}

// SetDeadline is ignored (see delayConn).
func (d *delayConn) SetDeadline(time.Time) error { return nil }

// SetReadDeadline is ignored (see delayConn).
func (d *delayConn) SetReadDeadline(time.Time) error { return nil }

// SetWriteDeadline is ignored (see delayConn).
func (d *delayConn) SetWriteDeadline(time.Time) error { return nil }
