package load

import (
	"bufio"
	"context"

	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// rawTransport is a synchronous HTTP/1.1 keep-alive RoundTripper: each
// request is written and its answer read on the calling goroutine, over a
// pool of at most max connections. net/http's Transport hands every request
// to two goroutines per connection (a reader and a writer); on a small
// machine those hand-offs, not the network, cap how fast a generator sends.
//
// It bounds each request itself (timeout, as a deadline on the connection)
// so that the client need not: http.Client.Timeout costs a context, a timer
// and a wrapped body per request, 9% of the generator's CPU at max rate.
type rawTransport struct {
	dial    func(ctx context.Context, network, addr string) (net.Conn, error)
	idle    chan *rawConn
	slots   chan struct{} // one per connection that may exist
	timeout time.Duration // per request, from taking a connection to the answer's end; 0: none
}

type rawConn struct {
	c  net.Conn
	br *bufio.Reader
	bw *bufio.Writer
	// deadline tells whether a deadline is set on c (one to clear when
	// a request has none).
	deadline bool
	// num is room to format a Content-Length without allocating.
	num [20]byte
}

func newRawTransport(d *net.Dialer, maxConns int, timeout time.Duration) *rawTransport {
	if maxConns <= 0 {
		maxConns = 1
	}
	return &rawTransport{dial: d.DialContext, idle: make(chan *rawConn, maxConns), slots: make(chan struct{}, maxConns), timeout: timeout}
}

// conn takes an idle connection, or dials one while under the cap, or waits.
func (t *rawTransport) conn(ctx context.Context, addr string) (*rawConn, error) {
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
		return &rawConn{c: c, br: bufio.NewReaderSize(c, 16<<10), bw: bufio.NewWriterSize(c, 4<<10)}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// closeIdle closes the idle connections.
func (t *rawTransport) closeIdle() {
	for {
		select {
		case rc := <-t.idle:
			t.drop(rc)
		default:
			return
		}
	}
}

func (t *rawTransport) drop(rc *rawConn) {
	_ = rc.c.Close()
	<-t.slots
}

// RoundTrip implements http.RoundTripper for plain http URLs.
func (t *rawTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme != "http" {
		return nil, fmt.Errorf("raw transport: only http, not %q", req.URL.Scheme)
	}
	addr := req.URL.Host
	if req.URL.Port() == "" {
		addr = net.JoinHostPort(req.URL.Hostname(), "80")
	}
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("raw transport: read request body: %w", err)
		}
		body = b
	}
	ctx := req.Context()
	rc, err := t.conn(ctx, addr)
	if err != nil {
		return nil, err
	}
	dl, ok := ctx.Deadline()
	if t.timeout > 0 {
		if d := time.Now().Add(t.timeout); !ok || d.Before(dl) {
			dl, ok = d, true
		}
	}
	if ok || rc.deadline {
		_ = rc.c.SetDeadline(dl) // the zero time clears a previous request's deadline
		rc.deadline = ok
	}
	w := rc.bw
	w.WriteString(req.Method)
	w.WriteByte(' ')
	w.WriteString(req.URL.RequestURI())
	w.WriteString(" HTTP/1.1\r\nHost: ")
	w.WriteString(req.URL.Host)
	w.WriteString("\r\n")
	for k, vs := range req.Header {
		for _, v := range vs {
			w.WriteString(k)
			w.WriteString(": ")
			w.WriteString(v)
			w.WriteString("\r\n")
		}
	}
	if len(body) > 0 || req.Method == http.MethodPost || req.Method == http.MethodPut || req.Method == http.MethodPatch {
		w.WriteString("Content-Length: ")
		w.WriteString(strconv.Itoa(len(body)))
		w.WriteString("\r\n")
	}
	w.WriteString("\r\n")
	w.Write(body)
	if err := w.Flush(); err != nil {
		t.drop(rc)
		return nil, fmt.Errorf("raw transport: write: %w", err)
	}
	resp, err := readResponse(rc.br, req)
	if err != nil {
		t.drop(rc)
		return nil, fmt.Errorf("raw transport: read answer: %w", err)
	}
	// The body is read by the caller straight from the connection's
	// buffer (no copy); the connection goes back to the pool when the body
	// has been read to its end or closed.
	resp.Body = &rawBody{body: resp.Body, t: t, rc: rc, keep: !resp.Close}
	return resp, nil
}

// rawBody is an answer's body on a pooled connection.
type rawBody struct {
	body io.ReadCloser
	t    *rawTransport
	rc   *rawConn // nil once released
	keep bool     // the connection may serve another request
}

func (b *rawBody) Read(p []byte) (int, error) {
	if b.rc == nil {
		return 0, io.EOF
	}
	n, err := b.body.Read(p)
	switch {
	case err == io.EOF:
		b.release(true)
	case err != nil:
		b.release(false)
		err = fmt.Errorf("raw transport: read answer body: %w", err)
	}
	return n, err
}

// Close reads what is left of the body (net/http's response body does),
// so that the connection can serve the next request.
func (b *rawBody) Close() error {
	if b.rc == nil {
		return nil
	}
	err := b.body.Close()
	b.release(err == nil)
	return err
}

func (b *rawBody) release(ok bool) {
	rc := b.rc
	b.rc = nil
	if ok && b.keep {
		b.t.idle <- rc
		return
	}
	b.t.drop(rc)
}
