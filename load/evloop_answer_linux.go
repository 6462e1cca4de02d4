//go:build linux

package load

import (
	"errors"
	"net"
	"net/url"
	"os"
	"time"
)

// answer reads c's answer from what arrived; false while it is incomplete.
// The common answer is read in place (quickAnswer), any other through
// readAnswer.
func (l *evloop) answer(c *loopConn) bool {
	e, t, r := l.e, &c.tgt, &c.r
	var (
		a   answer
		err error
	)
	qa, used, q := quickAnswer(c.in, t.Method, r)
	if q == quickPending && !c.eof {
		return false
	}
	switch q {
	case quickDone:
		a = qa
		// Bytes beyond the answer: kept for the next one.
		c.in = append(c.in[:0], c.in[used:]...)
	default: // readAnswer also tells an answer cut by the server's close
		got := c.in
		c.br.Reset(&c.src)
		a, err = readAnswer(c.br, t.Method, r)
		if errors.Is(err, errPending) {
			// From the start again when more has arrived.
			c.in = got
			r.Code, r.Error, r.Body, r.Headers, r.BytesIn = 0, "", nil, nil, 0
			return false
		}
		if left := len(c.in) + c.br.Buffered(); left > 0 && err == nil {
			c.in = append(got[:0], got[len(got)-left:]...)
		} else {
			c.in = got[:0]
		}
	}
	r.Latency = time.Since(r.Timestamp) // done keeps it
	if err == nil && e.timeout > 0 && r.Latency > e.timeout {
		r.Code, r.Body, r.Headers, r.BytesIn = 0, nil, nil, 0
		err = &net.OpError{Op: "raw-read", Net: "tcp", Source: c.la, Addr: c.ra, Err: os.ErrDeadlineExceeded}
	}
	switch {
	case err != nil:
		l.fail(c, err)
		return true
	case a.close || c.eof || c.sent < len(c.out):
		l.closeConn(c) // the rest of a request unsent would be taken for the next
	}
	if a.location != "" {
		r.Code, r.Body, r.Headers, r.BytesIn = 0, nil, nil, 0
		l.done(c, &url.Error{Op: opName(t.Method), URL: a.location, Err: errors.New("stopped after 0 redirects")})
		return true
	}
	l.done(c, nil)
	return true
}

// expire fails the requests that outlived the timeout. It looks every
// loopWait: a request without an answer fails between its timeout and
// loopWait after (an answer after the timeout fails in answer).
func (l *evloop) expire(now time.Duration) {
	e := l.e
	if e.timeout <= 0 {
		return
	}
	if now-l.lastExpiry < loopWait {
		return
	}
	l.lastExpiry = now
	for i, c := range l.cs {
		if c.busy && !c.dialing && now-c.r.Timestamp.Sub(e.began) > e.timeout {
			l.fail(c, &net.OpError{Op: "raw-read", Net: "tcp", Source: c.la, Addr: c.ra, Err: os.ErrDeadlineExceeded})
			l.next(i)
		}
	}
}
