package wiremut

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gorilla/websocket"
)

// ControlPrefix is the emulator's control plane, which always passes
// through unmutated: the harness provisions accounts and faults through it.
const ControlPrefix = "/_conform"

// Proxy is an http.Handler forwarding to an upstream API and applying one
// Mutation to the answers its selector names.
type Proxy struct {
	m        Mutation
	upstream *url.URL
	rp       *httputil.ReverseProxy
	hits     atomic.Int64
	answers  atomic.Int64 // HTTP answers and frames seen, for Delay
	mu       sync.Mutex
	perConn  map[string]int // answers per client connection, for CloseSometimes
	// transparent: upstream is on loopback, and the proxy connects to it
	// from each client's own address (source.go).
	transparent bool
}

// reqInfo is what the benign kinds need to know of the client's request,
// carried to the answer in its context: the proxy asks upstream for plain
// bodies (so the mutation sees JSON) over its own connections.
type reqInfo struct {
	gzip   bool   // the client accepted gzip
	http11 bool   // the client spoke HTTP/1.1 or later (chunked is possible)
	conn   string // the client connection (its remote address)
}

type reqInfoKey struct{}

// New returns a proxy to upstream (http://host:port) applying m.
func New(upstream string, m Mutation) (*Proxy, error) {
	u, err := url.Parse(upstream)
	if err != nil {
		return nil, fmt.Errorf("wiremut: upstream %q: %w", upstream, err)
	}
	p := &Proxy{m: m, upstream: u}
	p.rp = httputil.NewSingleHostReverseProxy(u)
	p.rp.ModifyResponse = p.modify
	if h := u.Hostname(); h == "localhost" || sourceIP(net.JoinHostPort(h, "0")) != nil {
		p.rp.Transport, p.transparent = &bySource{}, true
	}
	return p, nil
}

// Hits reports how many answers or frames the mutation changed: a run with
// none did not exercise the mutation at all.
func (p *Proxy) Hits() int64 { return p.hits.Load() }

// ServeHTTP forwards r, upgrading WebSocket requests to a frame pump.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if websocket.IsWebSocketUpgrade(r) {
		p.serveWS(w, r)
		return
	}
	// Plain bodies only, so the mutation sees JSON.
	r = withSource(r)
	r = r.WithContext(context.WithValue(r.Context(), reqInfoKey{}, reqInfo{
		gzip: strings.Contains(r.Header.Get("Accept-Encoding"), "gzip"), http11: r.ProtoAtLeast(1, 1), conn: r.RemoteAddr}))
	r.Header.Del("Accept-Encoding")
	if p.m.has(ExtraHeader) && p.selectsHTTP(r) {
		w = &lowerHeaders{ResponseWriter: w}
	}
	p.rp.ServeHTTP(w, r)
}

func (p *Proxy) selectsHTTP(r *http.Request) bool {
	if (p.m.WS && !p.m.Benign()) || strings.HasPrefix(r.URL.Path, ControlPrefix) {
		return false
	}
	if p.m.Method != "" && p.m.Method != r.Method {
		return false
	}
	return strings.HasPrefix(r.URL.Path, p.m.Path)
}

func (p *Proxy) modify(resp *http.Response) error {
	if !p.selectsHTTP(resp.Request) {
		return nil
	}
	if p.m.Benign() {
		return p.modifyBenign(resp)
	}
	if p.m.Kind == Status {
		if strconv.Itoa(resp.StatusCode) == p.m.From {
			to, err := strconv.Atoi(p.m.To)
			if err != nil {
				return fmt.Errorf("wiremut: status %q: %w", p.m.To, err)
			}
			resp.StatusCode = to
			resp.Status = fmt.Sprintf("%d %s", to, http.StatusText(to))
			p.hits.Add(1)
		}
		return nil
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return fmt.Errorf("wiremut: read answer: %w", err)
	}
	if out, ok := p.m.Apply(body); ok {
		body = out
		p.hits.Add(1)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return nil
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

// fragmentUpgrader's small write buffer cuts every message written in
// pieces into frames of fragmentSize bytes.
var fragmentUpgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }, WriteBufferSize: fragmentSize}

const fragmentSize = 64

// serveWS dials the same path upstream and pumps frames both ways,
// mutating the server's text frames the selector names.
func (p *Proxy) serveWS(w http.ResponseWriter, r *http.Request) {
	up := *p.upstream
	up.Scheme = "ws"
	if p.upstream.Scheme == "https" {
		up.Scheme = "wss"
	}
	up.Path, up.RawQuery = r.URL.Path, r.URL.RawQuery
	// Every end-to-end header passes (credentials, X-Forwarded-For, which an
	// emulator uses to tell clients behind one proxy apart); the dialer
	// writes the handshake's own.
	hdr := http.Header{}
	for k, vs := range r.Header {
		switch http.CanonicalHeaderKey(k) {
		case "Connection", "Upgrade", "Host", "Sec-Websocket-Key", "Sec-Websocket-Version",
			"Sec-Websocket-Extensions", "Sec-Websocket-Protocol":
			continue
		}
		hdr[k] = vs
	}
	d := websocket.DefaultDialer
	if p.transparent {
		d = wsDialer(r)
	}
	server, resp, err := d.Dial(up.String(), hdr)
	if err != nil {
		status := http.StatusBadGateway
		if resp != nil {
			status = resp.StatusCode
		}
		http.Error(w, "wiremut: upstream websocket: "+err.Error(), status)
		return
	}
	defer server.Close()
	up2 := &upgrader
	if p.m.Benign() && p.m.has(Fragment) {
		up2 = &fragmentUpgrader
	}
	client, err := up2.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer client.Close()
	mutate := (p.m.WS || p.m.Benign()) && strings.HasPrefix(r.URL.Path, p.m.Path)
	done := make(chan struct{}, 2)
	go pump(client, server, nil, nil, done)
	var wr writer
	if mutate && p.m.Benign() {
		wr = p.benignWriter()
	}
	go pump(server, client, wr, func(b []byte) []byte {
		if !mutate || (p.m.Match != "" && !bytes.Contains(b, []byte(p.m.Match))) {
			return b
		}
		if out, ok := p.m.Apply(b); ok {
			p.hits.Add(1)
			return out
		}
		return b
	}, done)
	<-done
}

// writer sends one message to a WebSocket connection.
type writer func(dst *websocket.Conn, mt int, b []byte) error

// pump copies frames from src to dst until either side closes, passing
// text frames through f when set, writing with w when set, and forwards
// the close.
func pump(src, dst *websocket.Conn, w writer, f func([]byte) []byte, done chan<- struct{}) {
	defer func() { done <- struct{}{} }()
	for {
		mt, b, err := src.ReadMessage()
		if err != nil {
			code, text := websocket.CloseNormalClosure, ""
			if ce, ok := err.(*websocket.CloseError); ok {
				code, text = ce.Code, ce.Text
			}
			if code == websocket.CloseNoStatusReceived || code == websocket.CloseAbnormalClosure {
				code = websocket.CloseNormalClosure
			}
			_ = dst.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(code, text))
			return
		}
		if mt == websocket.TextMessage && f != nil {
			b = f(b)
		}
		if w == nil {
			w = func(dst *websocket.Conn, mt int, b []byte) error { return dst.WriteMessage(mt, b) }
		}
		if err := w(dst, mt, b); err != nil {
			return
		}
	}
}
