package engine

// Client order IDs: the documented alphabet, the generator of IDs for
// orders sent without one, and the account's index by ID.
//
// The index is in two parts. IDs the trader chose are in a map
// (account.byCloid). Generated IDs are not: each encodes its generator
// sequence number, which orders history (history is by order ID, and both
// grow together), so a generated ID is found by decoding it and a binary
// search of history. Placing and retiring orders with generated IDs then
// touches no hash table: at a history of 100,000 orders per account, the
// map's cache misses were a third of the engine's time.

import (
	"encoding/binary"
	"strconv"
)

const genKey = 0x9e3779b97f4a7c15 // splitmix64's increment, also the second half's key

// hex16 writes x as 16 lowercase hex digits into b, eight at a time in
// one word (the digit-pair table took a quarter of generating an ID).
func hex16(b []byte, x uint64) {
	binary.BigEndian.PutUint64(b[:8], hex8(uint32(x>>32)))
	binary.BigEndian.PutUint64(b[8:], hex8(uint32(x)))
}

// hex8 is the eight hex digits of x as ASCII bytes, the first digit in
// the word's most significant byte.
func hex8(x uint32) uint64 {
	// Spread the nibbles one per byte, most significant nibble highest.
	v := uint64(x)
	v = (v | v<<16) & 0x0000ffff0000ffff
	v = (v | v<<8) & 0x00ff00ff00ff00ff
	v = (v | v<<4) & 0x0f0f0f0f0f0f0f0f
	// '0'+n, plus 'a'-'0'-10 where n > 9.
	letters := ((v + 0x0606060606060606) >> 4) & 0x0101010101010101
	return v + 0x3030303030303030 + letters*('a'-'0'-10)
}

// looksGenerated reports whether a client order ID has the generator's
// shape: 32 lowercase hex digits.
func looksGenerated(s string) bool {
	if len(s) != 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// genClientOrderID makes a 32-hex-digit identifier unused by the account,
// from a per-engine sequence so that runs are reproducible. The sequence
// never repeats a value (splitmix64 is a bijection), so only an ID of that
// shape that the account chose itself can be in the way: without one, no
// lookup is needed.
func (e *Engine) genClientOrderID(a *account) uint64 {
	for {
		e.cloidSeq++
		if !a.foreignHex || a.byCloid[genString(e.cloidSeq)] == nil {
			return e.cloidSeq
		}
	}
}

// genString is the ID the generator makes of sequence number seq.
func genString(seq uint64) string {
	x := splitmix64(seq)
	y := splitmix64(x ^ genKey)
	var b [32]byte
	hex16(b[:16], x)
	hex16(b[16:], y)
	return string(b[:])
}

// genID gives o a generated client order ID, kept as its sequence number
// (see order.clientID).
func (e *Engine) genID(o *order) {
	o.cloid, o.genSeq = "", e.genClientOrderID(o.acct)
	o.genID = true
}

// genSeqOf decodes a generated ID back to its sequence number; ok is false
// when s is not one the generator could have made.
func genSeqOf(s string) (uint64, bool) {
	if !looksGenerated(s) {
		return 0, false
	}
	x, err1 := strconv.ParseUint(s[:16], 16, 64)
	y, err2 := strconv.ParseUint(s[16:], 16, 64)
	if err1 != nil || err2 != nil || splitmix64(x^genKey) != y {
		return 0, false
	}
	return unsplitmix64(x), true
}

func splitmix64(x uint64) uint64 {
	x += genKey
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// unsplitmix64 inverts splitmix64: each step (add, xor-shift, multiply by
// an odd constant) is a bijection with an inverse.
func unsplitmix64(x uint64) uint64 {
	x = unxorshift(x, 31)
	x *= 0x319642b2d24d8ec3 // inverse of 0x94d049bb133111eb mod 2^64
	x = unxorshift(x, 27)
	x *= 0x96de1b173f119089 // inverse of 0xbf58476d1ce4e5b9 mod 2^64
	x = unxorshift(x, 30)
	return x - genKey
}

// unxorshift inverts x ^= x >> s.
func unxorshift(x uint64, s uint) uint64 {
	y := x
	for i := s; i < 64; i += s {
		y = x ^ (y >> s)
	}
	return y
}

// lookup is the account's newest record with client order ID cloid (active
// or final, not deleted), or nil.
func (a *account) lookup(cloid string) *order {
	generated := looksGenerated(cloid)
	if !generated || a.foreignHex {
		if o := a.byCloid[cloid]; o != nil {
			return o // a chosen ID is always newer than a generated one like it
		}
	}
	if !generated {
		return nil
	}
	seq, ok := genSeqOf(cloid)
	if !ok {
		return nil
	}
	for i := a.hist.search(func(h *histEntry) bool { return h.genSeq >= seq }); i < a.hist.len(); i++ {
		h := a.hist.at(i)
		if h.genSeq != seq {
			break
		}
		if h.deleted || !h.genID {
			continue
		}
		if h.o == nil {
			// Compact: the sequence number is the ID's.
			return h.view(a, new(order))
		}
		return h.o // the sequence number is the ID's
	}
	return nil
}

// index makes o, just registered, the account's newest record of its ID.
// Orders with a generated ID are found through history (see lookup), unless
// the account chose IDs of that shape, which may then be older records.
func (e *Engine) index(a *account, o *order) {
	if !o.genID {
		o.genSeq = e.cloidSeq // keeps history ordered by genSeq
		if looksGenerated(o.cloid) {
			a.foreignHex = true
		}
	}
	if o.genID && !a.foreignHex {
		return
	}
	id := o.clientID()
	if prev := a.lookup(id); prev != nil {
		o.extra().sameCloidPrev = prev
	}
	a.byCloid[id] = o
}

// unindex takes a deleted record out of the map, handing its ID to the
// previous record of it, if any is left.
func (a *account) unindex(o *order) {
	if o.genID && !a.foreignHex {
		return // never in the map
	}
	id := o.clientID()
	if a.byCloid[id] != o {
		return
	}
	prev := o.sameCloidPrev()
	for prev != nil && prev.deleted {
		prev = prev.sameCloidPrev()
	}
	if prev != nil && !prev.genID {
		a.byCloid[id] = prev
	} else {
		delete(a.byCloid, id) // a generated one is found through history
	}
}

// validClientOrderID checks the documented length and alphabet.
func (e *Engine) validClientOrderID(s string) bool {
	minLen := 8
	if e.faults.On("V3-SPOT-CLOID-LEN") {
		minLen = 7
	}
	if len(s) < minLen || len(s) > 32 {
		return false
	}
	loose := e.faults.On("V3-SPOT-CLOID-CHARSET")
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
		case loose && (c == '.' || c == ' '):
		default:
			return false
		}
	}
	return true
}
