package load

import (
	"encoding/gob"
	"errors"
	"io"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// gobResults writes results as Vegeta's gob encoder does, byte for byte,
// without gob's reflection for the common result: one with neither body
// nor headers (every success, see trim). The first result, and any with a
// body or headers, go through gob itself: it sends the type definitions
// first, and the Result's type id is read from its first value message.
// Encoding was a tenth of the generator's CPU at max rate.
type gobResults struct {
	w      io.Writer
	enc    *gob.Encoder // writes through last
	last   lastWrite
	typeID int64 // 0 until gob has sent the first result
	msg    []byte
	out    []byte
}

// lastWrite passes writes on and keeps the last one (gob writes each
// message with one Write).
type lastWrite struct {
	w   io.Writer
	got []byte
}

func (l *lastWrite) Write(p []byte) (int, error) {
	l.got = append(l.got[:0], p...)
	return l.w.Write(p)
}

func newGobResults(w io.Writer) *gobResults {
	g := &gobResults{w: w, last: lastWrite{w: w}}
	g.enc = gob.NewEncoder(&g.last)
	return g
}

// Encode writes r.
func (g *gobResults) Encode(r *vegeta.Result) error {
	if g.typeID == 0 || len(r.Body) > 0 || r.Headers != nil { // gob sends an empty map, not a nil one
		if err := g.enc.Encode(r); err != nil {
			return err
		}
		if g.typeID == 0 {
			return g.learnType()
		}
		return nil
	}
	m := appendGobInt(g.msg[:0], g.typeID)
	field := -1
	next := func(n int) {
		m = appendGobUint(m, uint64(n-field))
		field = n
	}
	if r.Attack != "" {
		next(0)
		m = appendGobString(m, r.Attack)
	}
	if r.Seq != 0 {
		next(1)
		m = appendGobUint(m, r.Seq)
	}
	if r.Code != 0 {
		next(2)
		m = appendGobUint(m, uint64(r.Code))
	}
	if r.Timestamp != (time.Time{}) {
		next(3)
		n := len(m)
		var err error
		if m, err = r.Timestamp.AppendBinary(m); err != nil {
			return err
		}
		// The time's bytes go as a byte slice: length first.
		g.out = append(appendGobUint(g.out[:0], uint64(len(m)-n)), m[n:]...)
		m = append(m[:n], g.out...)
	}
	if r.Latency != 0 {
		next(4)
		m = appendGobInt(m, int64(r.Latency))
	}
	if r.BytesOut != 0 {
		next(5)
		m = appendGobUint(m, r.BytesOut)
	}
	if r.BytesIn != 0 {
		next(6)
		m = appendGobUint(m, r.BytesIn)
	}
	if r.Error != "" {
		next(7)
		m = appendGobString(m, r.Error)
	}
	if r.Method != "" {
		next(9)
		m = appendGobString(m, r.Method)
	}
	if r.URL != "" {
		next(10)
		m = appendGobString(m, r.URL)
	}
	m = append(m, 0) // end of the struct
	g.msg = m
	g.out = append(appendGobUint(g.out[:0], uint64(len(m))), m...)
	_, err := g.w.Write(g.out)
	return err
}

// learnType reads the Result's type id from the message gob just wrote.
func (g *gobResults) learnType() error {
	p := g.last.got
	n, p, ok := readGobUint(p)
	if !ok || uint64(len(p)) != n {
		return errors.New("gob results: unexpected first message")
	}
	id, _, ok := readGobUint(p)
	if !ok || id&1 != 0 || id == 0 { // a value message: a positive type id
		return errors.New("gob results: unexpected first message")
	}
	g.typeID = int64(id >> 1)
	return nil
}

// appendGobUint appends x in gob's unsigned encoding: one byte below 128,
// else the negated byte count and the big-endian bytes.
func appendGobUint(b []byte, x uint64) []byte {
	if x < 0x80 {
		return append(b, byte(x))
	}
	n := 0
	for y := x; y > 0; y >>= 8 {
		n++
	}
	b = append(b, byte(-n))
	for i := n - 1; i >= 0; i-- {
		b = append(b, byte(x>>(8*i)))
	}
	return b
}

// appendGobInt appends i in gob's signed encoding: the sign in the low bit.
func appendGobInt(b []byte, i int64) []byte {
	if i < 0 {
		return appendGobUint(b, uint64(^i<<1)|1)
	}
	return appendGobUint(b, uint64(i<<1))
}

func appendGobString(b []byte, s string) []byte {
	return append(appendGobUint(b, uint64(len(s))), s...)
}

// readGobUint reads one unsigned integer at the start of p.
func readGobUint(p []byte) (x uint64, rest []byte, ok bool) {
	if len(p) == 0 {
		return 0, p, false
	}
	if p[0] < 0x80 {
		return uint64(p[0]), p[1:], true
	}
	n := int(-int8(p[0]))
	if n > 8 || len(p) < 1+n {
		return 0, p, false
	}
	for _, c := range p[1 : 1+n] {
		x = x<<8 | uint64(c)
	}
	return x, p[1+n:], true
}
