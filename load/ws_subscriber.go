package load

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// dialer returns a WebSocket dialer from a source address (nil: the
// system's choice).
func (c *StreamConfig) dialer(src net.IP) *websocket.Dialer {
	nd := &net.Dialer{Timeout: c.Timeout}
	if src != nil {
		nd.LocalAddr = &net.TCPAddr{IP: src}
	}
	return &websocket.Dialer{NetDialContext: nd.DialContext, TLSClientConfig: c.TLS, HandshakeTimeout: c.Timeout,
		Proxy: func(*http.Request) (*url.URL, error) { return nil, nil }}
}

// subscriber is one market data connection of ws-market (or ws2-market:
// v2).
type subscriber struct {
	idx      int
	ch, sym  string
	slow     bool
	v2       bool
	book     *tradeUnion // v2 orderbook subscribers: the sequences of every subscriber of the symbol
	conn     *websocket.Conn
	track    tradeTrack // trade ids (trades), or order book sequences (v2 orderbook)
	messages uint64
	maxLag   time.Duration
	lost     bool
	reason   string // how the connection ended, when lost
}

// subscribe opens the connection and subscribes; the error says which
// step failed, in a few words (they are counted by kind).
func (s *subscriber) subscribe(ctx context.Context, cfg *StreamConfig, url string, src net.IP) error {
	conn, resp, err := cfg.dialer(src).DialContext(ctx, url, nil)
	if err != nil {
		if resp != nil {
			return fmt.Errorf("handshake: HTTP %d", resp.StatusCode)
		}
		return fmt.Errorf("dial: %s", errKind(err))
	}
	req := map[string]any{"method": "subscribe", "ch": s.ch, "params": map[string]any{"symbols": []string{s.sym}, "limit": 0}, "id": fmt.Sprint(s.idx)}
	if s.v2 {
		req = v2Subscribe(s.ch, s.sym, s.idx)
	}
	_ = conn.SetWriteDeadline(time.Now().Add(cfg.Timeout))
	if err := conn.WriteJSON(req); err != nil {
		conn.Close()
		return fmt.Errorf("subscribe: %s", errKind(err))
	}
	_ = conn.SetReadDeadline(time.Now().Add(cfg.Timeout))
	defer conn.SetReadDeadline(time.Time{})
	for {
		_, b, err := conn.ReadMessage()
		if err != nil {
			conn.Close()
			return fmt.Errorf("subscribe: %s", errKind(err))
		}
		var ans struct {
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code json.RawMessage `json:"code"`
			} `json:"error"`
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(b, &ans) != nil || len(ans.ID) == 0 {
			continue // a notification before the answer
		}
		if ans.Error != nil {
			conn.Close()
			return fmt.Errorf("subscribe: error %s", ans.Error.Code)
		}
		s.conn = conn
		return nil
	}
}

// tradesMsg is the part of a trades notification read for every message.
type tradesMsg struct {
	Update   map[string][]tradeEntry `json:"update"`
	Snapshot map[string][]tradeEntry `json:"snapshot"`
}

type tradeEntry struct {
	T int64 `json:"t"`
	I int64 `json:"i"`
}

// read reads notifications until the connection ends; stopping tells a
// close of our own from a lost connection. Each message is read into a
// buffer of the subscriber's own and handed to the handler of its channel
// (v3 trades: scanned in place by scanTrades, so that the receive path
// allocates nothing per message).
func (s *subscriber) read(col *collector, union *tradeUnion, stopping *atomic.Bool, slowDelay time.Duration) {
	handle := s.handler(col, union)
	var buf []byte
	for {
		var err error
		buf, err = s.next(buf[:0])
		now := time.Now()
		if err != nil {
			if !stopping.Load() {
				s.lost = true
				s.reason = closeReason(err)
			}
			return
		}
		s.messages++
		if !s.slow {
			col.message(now)
		}
		if handle != nil {
			handle(buf, now)
		}
		if cap(buf) > maxKeptBuffer {
			buf = nil // a rare large message (a snapshot) does not stay in memory
		}
		if s.slow {
			time.Sleep(slowDelay)
		}
	}
}

// handler returns what reads a message of the subscriber's channel (nil:
// the message is only counted).
func (s *subscriber) handler(col *collector, union *tradeUnion) func(b []byte, now time.Time) {
	if s.v2 {
		return s.v2Handler(col, union)
	}
	if s.ch != "trades" {
		return nil
	}
	var msg tradesMsg
	var seen []tradeSeen
	return func(b []byte, now time.Time) {
		seen, _ = decodeTrades(b, seen[:0], &msg)
		for _, e := range seen {
			s.trade(col, union, now, now.Sub(time.UnixMilli(e.t)), s.symbol(e.sym), e.i)
		}
	}
}

// trade notes one trade received at now, lag after its own timestamp.
func (s *subscriber) trade(col *collector, union *tradeUnion, now time.Time, lag time.Duration, sym string, id int64) {
	if s.slow {
		s.maxLag = max(s.maxLag, lag)
		return
	}
	col.latency(s.idx, now, lag)
	union.add(sym, id)
	s.track.see(id)
}

// maxKeptBuffer is the largest read buffer a subscriber keeps between
// messages.
const maxKeptBuffer = 64 << 10

// next reads the next data message into buf.
func (s *subscriber) next(buf []byte) ([]byte, error) {
	_, r, err := s.conn.NextReader()
	if err != nil {
		return buf, err
	}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// symbol is sym as a string: the subscriber's own without allocating.
func (s *subscriber) symbol(sym []byte) string {
	if string(sym) == s.sym {
		return s.sym
	}
	return string(sym)
}

// closeReason names how a connection ended: the close frame's code and
// text, or the kind of network error.
func closeReason(err error) string {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		return fmt.Sprintf("close %d %s", ce.Code, ce.Text)
	}
	return errKind(err)
}

// errKind shortens a network error to its kind, so that errors count
// together (no addresses or ports).
func errKind(err error) string {
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	}
	msg := err.Error()
	for _, k := range []string{"connection refused", "connection reset", "broken pipe", "EOF", "too many open files", "cannot assign requested address"} {
		if strings.Contains(msg, k) {
			return k
		}
	}
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		return msg[i+2:]
	}
	return msg
}
