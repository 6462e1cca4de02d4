package wiremut

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/websocket"
)

// modifyBenign applies a benign mutation's body and transport kinds to an
// HTTP answer. Every answer it changes counts as a hit.
func (p *Proxy) modifyBenign(resp *http.Response) error {
	n := p.answers.Add(1)
	info, _ := resp.Request.Context().Value(reqInfoKey{}).(reqInfo)
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return fmt.Errorf("wiremut: read answer: %w", err)
	}
	changed := false
	if out, ok := p.m.Apply(body); ok {
		body, changed = out, true
	}
	if p.m.has(Gzip) {
		if info.gzip && resp.Header.Get("Content-Encoding") == "" {
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			if _, err := zw.Write(body); err != nil {
				return fmt.Errorf("wiremut: gzip: %w", err)
			}
			if err := zw.Close(); err != nil {
				return fmt.Errorf("wiremut: gzip: %w", err)
			}
			body, changed = b.Bytes(), true
			resp.Header.Set("Content-Encoding", "gzip")
			resp.Header.Add("Vary", "Accept-Encoding")
		}
	}
	if p.m.has(ExtraHeader) {
		resp.Header.Set("X-Wiremut-Extra", "benign")
		resp.Header.Add("X-Wiremut-Extra", "twice")
		resp.Header.Set("X-Request-Id", strconv.FormatInt(n, 10))
		resp.Header.Set("Server", "wiremut/1.0")
		changed = true
	}
	if p.m.has(CloseSometimes) && p.connAnswers(info.conn)%closeEvery == 0 {
		resp.Header.Set("Connection", "close")
		changed = true
	}
	if p.m.has(Delay) {
		time.Sleep(delay(n))
		changed = true
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	if p.m.has(Chunked) && info.http11 && len(body) > 0 {
		// No length and a body read in small pieces: the reverse proxy
		// flushes every piece, one chunk each.
		resp.Body = io.NopCloser(&pieces{r: bytes.NewReader(body), n: 97})
		resp.ContentLength = -1
		resp.Header.Del("Content-Length")
		changed = true
	}
	if changed {
		p.hits.Add(1)
	}
	return nil
}

// closeEvery is how many answers a client connection gets before
// CloseSometimes closes it, the way servers cap requests per connection:
// persistent connections stay supported (the document's Conventions).
const closeEvery = 4

// connAnswers counts the answers on the client connection conn.
func (p *Proxy) connAnswers(conn string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.perConn == nil {
		p.perConn = map[string]int{}
	}
	p.perConn[conn]++
	return p.perConn[conn]
}

// delay is the n-th answer's latency, 5 to 20 ms, the same on every run.
func delay(n int64) time.Duration { return time.Duration(5+(n*7)%16) * time.Millisecond }

// pieces reads at most n bytes per Read.
type pieces struct {
	r io.Reader
	n int
}

func (p *pieces) Read(b []byte) (int, error) {
	if len(b) > p.n {
		b = b[:p.n]
	}
	return p.r.Read(b)
}

// lowerHeaders writes response header names in lower case (HTTP header
// names are case-insensitive); the server writes the names of the map as
// they are. The framing headers the server itself reads stay as they are,
// and a nil canonical entry keeps the server from adding its own Date or
// Content-Type beside the lower-case one.
type lowerHeaders struct {
	http.ResponseWriter
	wrote bool
}

var framing = map[string]bool{"Content-Length": true, "Transfer-Encoding": true, "Connection": true}

func (l *lowerHeaders) WriteHeader(code int) {
	if !l.wrote {
		l.wrote = true
		h := l.ResponseWriter.Header()
		for k, v := range h {
			if lk := strings.ToLower(k); lk != k && !framing[k] && v != nil {
				h[k] = nil
				h[lk] = v
			}
		}
	}
	l.ResponseWriter.WriteHeader(code)
}

func (l *lowerHeaders) Write(b []byte) (int, error) {
	if !l.wrote {
		l.WriteHeader(http.StatusOK)
	}
	return l.ResponseWriter.Write(b)
}

// Flush lets the reverse proxy flush chunks through the wrapper.
func (l *lowerHeaders) Flush() {
	if f, ok := l.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// benignWriter writes server messages to the client with the mutation's
// WebSocket kinds: a delay, a ping before each, in fragments.
func (p *Proxy) benignWriter() writer {
	return func(dst *websocket.Conn, mt int, b []byte) error {
		n := p.answers.Add(1)
		hit := false
		if p.m.has(Delay) {
			time.Sleep(delay(n))
			hit = true
		}
		if p.m.has(PingInterleave) {
			if err := dst.WriteControl(websocket.PingMessage, []byte("wiremut"), time.Now().Add(5*time.Second)); err != nil {
				return err
			}
			hit = true
		}
		if !p.m.has(Fragment) || len(b) <= fragmentSize {
			if hit {
				p.hits.Add(1)
			}
			return dst.WriteMessage(mt, b)
		}
		w, err := dst.NextWriter(mt)
		if err != nil {
			return err
		}
		for len(b) > 0 {
			k := min(fragmentSize/2, len(b))
			if _, err := w.Write(b[:k]); err != nil {
				return err
			}
			b = b[k:]
		}
		p.hits.Add(1)
		return w.Close()
	}
}
