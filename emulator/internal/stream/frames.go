package stream

import (
	"sync"
	"sync/atomic"
)

// frameCache holds the update notifications already encoded, so that a
// trade or book change fanned out to thousands of subscribers is encoded
// once per channel rather than once per connection (encoding was an eighth
// of the emulator's CPU with 2,000 subscribers). It is used only while no
// fault is on: faults shape frames per connection.
type frameCache struct {
	on    bool
	m     atomic.Pointer[sync.Map]
	count atomic.Int64
}

// frameKey names an update: the event's sequence number (tape or engine)
// and the channel (with its target currency) it is encoded for.
type frameKey struct {
	seq        uint64
	ch, target string
}

// maxFrames bounds the cache: past it the cache starts afresh (the
// updates in flight are the last few hundred).
const maxFrames = 1 << 14

func newFrameCache(on bool) *frameCache {
	c := &frameCache{on: on}
	c.m.Store(&sync.Map{})
	return c
}

// get returns the frame of k, encoding it with build the first time; a
// nil frame (nothing to send) is cached too.
func (c *frameCache) get(k frameKey, build func() []byte) []byte {
	if !c.on {
		return build()
	}
	m := c.m.Load()
	if v, ok := m.Load(k); ok {
		return v.([]byte)
	}
	b := build()
	if _, loaded := m.LoadOrStore(k, b); !loaded && c.count.Add(1) > maxFrames {
		c.count.Store(0)
		c.m.Store(&sync.Map{})
	}
	return b
}
