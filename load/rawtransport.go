package load

import (
	"bufio"
	"bytes"
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
type rawTransport struct {
	dial  func(ctx context.Context, network, addr string) (net.Conn, error)
	idle  chan *rawConn
	slots chan struct{} // one per connection that may exist
}

type rawConn struct {
	c  net.Conn
	br *bufio.Reader
	bw *bufio.Writer
}

func newRawTransport(d *net.Dialer, maxConns int) *rawTransport {
	if maxConns <= 0 {
		maxConns = 1
	}
	return &rawTransport{dial: d.DialContext, idle: make(chan *rawConn, maxConns), slots: make(chan struct{}, maxConns)}
}

// conn takes an idle connection, or dials one while under the cap, or waits.
func (t *rawTransport) conn(ctx context.Context, addr string) (*rawConn, error) {
	select {
	case rc := <-t.idle:
		return rc, nil
	default:
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
	if dl, ok := ctx.Deadline(); ok {
		_ = rc.c.SetDeadline(dl)
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
	resp, err := http.ReadResponse(rc.br, req)
	if err != nil {
		t.drop(rc)
		return nil, fmt.Errorf("raw transport: read answer: %w", err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.drop(rc)
		return nil, fmt.Errorf("raw transport: read answer body: %w", err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(b))
	if resp.Close {
		t.drop(rc)
	} else {
		_ = rc.c.SetDeadline(time.Time{})
		t.idle <- rc
	}
	return resp, nil
}
