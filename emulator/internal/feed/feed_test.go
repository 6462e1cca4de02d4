package feed

import (
	"testing"

	"github.com/conform-harness/conform/emulator/internal/engine"
)

func TestFanOut(t *testing.T) {
	h := New()
	if h.Wants(engine.TradeEvent) {
		t.Fatal("a hub without subscribers wants events")
	}
	trades := h.Subscribe(engine.TradeEvent, 4)
	books := h.Subscribe(engine.BookEvent|engine.TradeEvent, 4)
	if !h.Wants(engine.TradeEvent) || !h.Wants(engine.BookEvent) || h.Wants(engine.OrderEvent) {
		t.Fatal("Wants does not follow the subscriptions")
	}
	h.Observe(engine.Event{Kind: engine.TradeEvent, Seq: 1})
	h.Observe(engine.Event{Kind: engine.BookEvent, Seq: 2})
	if ev := <-trades.Events(); ev.Seq != 1 {
		t.Fatalf("trades got %d", ev.Seq)
	}
	select {
	case ev := <-trades.Events():
		t.Fatalf("trades got a %v event", ev.Kind)
	default:
	}
	if a, b := <-books.Events(), <-books.Events(); a.Seq != 1 || b.Seq != 2 {
		t.Fatalf("books got %d, %d", a.Seq, b.Seq)
	}
	books.Close()
	books.Close()
	if h.Wants(engine.BookEvent) || h.Subscribers() != 1 {
		t.Fatal("Close left the subscription")
	}
	if _, open := <-books.Events(); open {
		t.Fatal("a closed subscription's channel is open")
	}
}

func TestSlowSubscriberDropped(t *testing.T) {
	h := New()
	slow := h.Subscribe(engine.TradeEvent, 2)
	for i := range 3 {
		h.Observe(engine.Event{Kind: engine.TradeEvent, Seq: uint64(i + 1)})
	}
	if !slow.Dropped() || h.Subscribers() != 0 {
		t.Fatal("a full queue did not drop its subscriber")
	}
	n := 0
	for range slow.Events() {
		n++
	}
	if n != 2 {
		t.Fatalf("%d queued events kept, want 2", n)
	}
}
