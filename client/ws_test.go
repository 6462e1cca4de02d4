package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// echoServer answers every frame with {"id": <its id>, "result": true} after
// a notification without id.
func echoServer(t *testing.T) string {
	up := websocket.Upgrader{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			m := ParseWSMessage(data)
			_ = conn.WriteMessage(websocket.TextMessage, []byte(`{"ch":"trades","update":{}}`))
			_ = conn.WriteMessage(websocket.TextMessage, []byte(`{"id":"`+m.ID+`","result":true}`))
		}
	}))
	t.Cleanup(srv.Close)
	return "ws" + strings.TrimPrefix(srv.URL, "http")
}

func TestWSConn(t *testing.T) {
	ctx := context.Background()
	url := echoServer(t)
	c, err := DialWS(ctx, url, WSOptions{Guard: RefuseTrading("not here"), Redactor: NewRedactor(Credential{Key: "k", Secret: "s3cr3t-value"})})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	m, err := c.Request(ctx, 2*time.Second, "1", "login", map[string]any{"params": map[string]string{"type": "BASIC", "api_key": "k", "secret_key": "s3cr3t-value"}})
	if err != nil || m.ID != "1" || m.Kind() != "result" {
		t.Fatalf("answer %+v, %v", m, err)
	}
	select {
	case n := <-c.Notifications():
		if n.Ch != "trades" || n.HasID {
			t.Fatalf("notification %+v", n)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("no notification")
	}
	if tr := c.Transcript(); strings.Contains(tr, "s3cr3t-value") || !strings.Contains(tr, Placeholder) {
		t.Fatalf("transcript not redacted: %s", tr)
	}
	if _, err := c.Request(ctx, time.Second, "2", "spot_new_order", nil); !errors.Is(err, ErrLiveTrading) {
		t.Fatalf("spot_new_order passed the guard: %v", err)
	}
	if err := PermitTrading().CheckStream(url, "spot_new_order"); err != nil {
		t.Fatal(err)
	}
	if err := RefuseTrading("").CheckStream(url, "subscribe"); err != nil {
		t.Fatal(err)
	}
}
