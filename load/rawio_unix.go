//go:build unix

package load

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// rawIO sends a request and reads its answer through the socket's
// descriptor, inside syscall.RawConn.Read: that call registers for
// readiness before it first runs the function, so a request written
// there and answered at once still wakes it.
type rawIO = *unixIO

type unixIO struct {
	rc   *rawConn
	sc   syscall.RawConn
	fn   func(fd uintptr) bool // step, made once (a method value allocates)
	p    []byte                // where the answer goes
	n    int
	err  error
	wait bool // written, not yet waited for
	full bool // the socket took only part of the request
}

func newRawIO(rc *rawConn) rawIO {
	c, ok := rc.c.(syscall.Conn)
	if !ok {
		return nil
	}
	sc, err := c.SyscallConn()
	if err != nil {
		return nil
	}
	u := &unixIO{rc: rc, sc: sc}
	u.fn = u.step
	return u
}

// writeThenRead writes what is left of the request and reads the first
// bytes of its answer into p. done is false when the socket's buffer
// filled before the request was written (the caller finishes the plain
// way).
func (u *unixIO) writeThenRead(p []byte) (n int, err error, done bool) {
	u.p, u.n, u.err, u.wait, u.full = p, 0, nil, false, false
	if err := u.sc.Read(u.fn); err != nil { // the deadline, or a closed connection
		u.p = nil
		return 0, err, true
	}
	u.p = nil
	if u.full {
		return 0, nil, false
	}
	return u.n, u.err, true
}

// step is called by RawConn.Read until it returns true; false waits for
// the socket to be readable.
func (u *unixIO) step(fd uintptr) bool {
	rc := u.rc
	for rc.sent < len(rc.out) {
		n, err := syscall.Write(int(fd), rc.out[rc.sent:])
		if n > 0 {
			rc.sent += n
		}
		switch {
		case err == syscall.EINTR:
		case err == syscall.EAGAIN:
			u.full = true
			return true
		case err != nil:
			u.err = os.NewSyscallError("write", err)
			return true
		}
		u.wait = true
	}
	if u.wait { // just written: the answer cannot be there yet
		u.wait = false
		return false
	}
	for {
		n, err := syscall.Read(int(fd), u.p)
		switch {
		case err == syscall.EINTR:
			continue
		case errors.Is(err, syscall.EAGAIN):
			return false
		case err != nil:
			u.err = os.NewSyscallError("read", err)
		case n == 0:
			u.err = io.EOF
		default:
			u.n = n
		}
		return true
	}
}
