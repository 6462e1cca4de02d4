package wiremut

import (
	"bufio"
	"compress/gzip"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// upstream answers a JSON document over HTTP and sends it as one message
// to every WebSocket client.
func upstream(t *testing.T, doc string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if websocket.IsWebSocketUpgrade(r) {
			c, err := upgrader.Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer c.Close()
			_ = c.WriteMessage(websocket.TextMessage, []byte(doc))
			_, _, _ = c.ReadMessage() // until the client closes
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, doc)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func proxyFor(t *testing.T, up string, m Mutation) (*Proxy, *httptest.Server) {
	t.Helper()
	p, err := New(up, m)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return p, srv
}

// rawGet sends one HTTP/1.1 request on a fresh connection and returns the
// raw answer head and the body reader.
func rawGet(t *testing.T, addr, path, extra string) (string, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: x\r\n"+extra+"\r\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(c)
	var head strings.Builder
	for {
		l, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		head.WriteString(l)
		if l == "\r\n" {
			return head.String(), br
		}
	}
}

func TestTransportKinds(t *testing.T) {
	doc := `{"a":"` + strings.Repeat("x", 400) + `"}`
	up := upstream(t, doc)

	_, srv := proxyFor(t, up.URL, Mutation{Kind: Chunked, Also: []Kind{ExtraHeader}, Path: "/api/"})
	head, _ := rawGet(t, srv.Listener.Addr().String(), "/api/3/x", "Connection: close\r\n")
	for _, want := range []string{"Transfer-Encoding: chunked\r\n", "x-wiremut-extra: benign\r\n", "content-type: application/json\r\n"} {
		if !strings.Contains(head, want) {
			t.Errorf("chunked+extra-header: head lacks %q:\n%s", want, head)
		}
	}

	_, srv = proxyFor(t, up.URL, Mutation{Kind: Gzip, Path: "/api/"})
	head, br := rawGet(t, srv.Listener.Addr().String(), "/api/3/x", "Accept-Encoding: gzip\r\nConnection: close\r\n")
	if !strings.Contains(head, "Content-Encoding: gzip") {
		t.Fatalf("gzip: head %s", head)
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(zr); string(b) != doc {
		t.Errorf("gzip: body %q", b)
	}
	head, _ = rawGet(t, srv.Listener.Addr().String(), "/api/3/x", "Connection: close\r\n")
	if strings.Contains(head, "gzip") {
		t.Errorf("gzip without Accept-Encoding: %s", head)
	}

	_, srv = proxyFor(t, up.URL, Mutation{Kind: CloseSometimes, Path: "/api/"})
	cl := &http.Client{}
	closes := 0
	for i := 0; i < 8; i++ {
		resp, err := cl.Get(srv.URL + "/api/3/x")
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		if resp.Close {
			closes++
		}
	}
	if closes != 2 {
		t.Errorf("close-sometimes: %d of 8 answers on reused connections closed, want 2", closes)
	}
}

func TestWebSocketKinds(t *testing.T) {
	doc := `{"ch":"trades","data":"` + strings.Repeat("y", 300) + `"}`
	up := upstream(t, doc)
	p, srv := proxyFor(t, up.URL, Mutation{Kind: Fragment, Also: []Kind{PingInterleave}, Path: "/api/"})
	pings := 0
	d := websocket.Dialer{}
	c, _, err := d.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/api/3/ws/public", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetPingHandler(func(string) error { pings++; return nil })
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, b, err := c.ReadMessage()
	if err != nil || string(b) != doc {
		t.Fatalf("message %q, %v", b, err)
	}
	if pings != 1 || p.Hits() != 1 {
		t.Errorf("pings %d, hits %d, want 1 and 1", pings, p.Hits())
	}
}
