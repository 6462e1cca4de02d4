// Package feed fans the matching engine's events out to subscribers (the
// streams): each subscriber has a bounded queue, and one that falls behind is
// dropped (its channel closed) rather than slowing the engine down.
package feed

import (
	"sync"
	"sync/atomic"

	"github.com/conform-harness/conform/emulator/internal/engine"
)

// DefaultQueue is a subscriber's queue length when Subscribe is given none.
const DefaultQueue = 4096

// Hub is an engine.Observer that hands every event to the subscribers that
// want its kind. The zero value is not usable; call New.
type Hub struct {
	mu   sync.Mutex
	subs map[*Sub]struct{}
	taps []tap
	// mask is the union of the kinds subscribers want, read without the
	// lock on every engine event.
	mask atomic.Uint32
}

// tap is a synchronous observer (see Tap).
type tap struct {
	kinds engine.EventKind
	f     func(engine.Event)
}

// Tap adds f as a synchronous observer of kinds: it is called in line, with
// the engine's lock held, so it must be quick and must not call the engine.
// Taps are for records that must be current when the engine call returns
// (the market tape); streams subscribe.
func (h *Hub) Tap(kinds engine.EventKind, f func(engine.Event)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.taps = append(h.taps, tap{kinds, f})
	h.remask()
}

// New returns a hub without subscribers.
func New() *Hub { return &Hub{subs: map[*Sub]struct{}{}} }

// Sub is one subscription: read Events until it is closed.
type Sub struct {
	hub     *Hub
	kinds   engine.EventKind
	c       chan *engine.Event
	dropped atomic.Bool
	// only, when set, holds the symbols whose book events the subscriber
	// wants (other kinds always come).
	only atomic.Pointer[map[string]bool]
}

// OnlyBooks restricts the subscription's book events to symbols from now on
// (nil: every book again). The caller must not change the map afterwards.
func (s *Sub) OnlyBooks(symbols map[string]bool) {
	if symbols == nil {
		s.only.Store(nil)
		return
	}
	s.only.Store(&symbols)
}

// Subscribe starts a subscription to the events of kinds (a bit set), with a
// queue of queue events (<= 0: DefaultQueue).
func (h *Hub) Subscribe(kinds engine.EventKind, queue int) *Sub {
	if queue <= 0 {
		queue = DefaultQueue
	}
	s := &Sub{hub: h, kinds: kinds, c: make(chan *engine.Event, queue)}
	h.mu.Lock()
	h.subs[s] = struct{}{}
	h.remask()
	h.mu.Unlock()
	return s
}

// Events is the subscription's queue; it is closed by Close and when the
// subscriber fell too far behind (Dropped). Every subscriber of an event
// gets the same *Event: it must not change it (one pointer per event, not
// a copy of the event per subscriber, under the engine's lock).
func (s *Sub) Events() <-chan *engine.Event { return s.c }

// Dropped reports whether the hub ended the subscription because its queue
// was full.
func (s *Sub) Dropped() bool { return s.dropped.Load() }

// Close ends the subscription; it is safe to call more than once.
func (s *Sub) Close() {
	h := s.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	h.removeLocked(s)
}

func (h *Hub) removeLocked(s *Sub) {
	if _, ok := h.subs[s]; !ok {
		return
	}
	delete(h.subs, s)
	close(s.c)
	h.remask()
}

func (h *Hub) remask() {
	var m engine.EventKind
	for _, t := range h.taps {
		m |= t.kinds
	}
	for s := range h.subs {
		m |= s.kinds
	}
	h.mask.Store(uint32(m))
}

// Wants implements engine.Observer: whether any subscriber wants kind k.
func (h *Hub) Wants(k engine.EventKind) bool { return h.mask.Load()&uint32(k) != 0 }

// Observe implements engine.Observer: it never blocks.
func (h *Hub) Observe(ev engine.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, t := range h.taps {
		if t.kinds&ev.Kind != 0 {
			t.f(ev)
		}
	}
	var shared *engine.Event
	for s := range h.subs {
		if s.kinds&ev.Kind == 0 {
			continue
		}
		if only := s.only.Load(); only != nil && ev.Kind == engine.BookEvent && !(*only)[ev.Level.Symbol] {
			continue
		}
		if shared == nil {
			shared = &ev
		}
		select {
		case s.c <- shared:
		default:
			s.dropped.Store(true)
			h.removeLocked(s)
		}
	}
}

// Subscribers is how many subscriptions are open.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}
