package load

import (
	"encoding/json"
	"math"
)

// tradeSeen is one trades entry of a notification: the symbol (a slice of
// the message, valid until the next read), the trade's timestamp (t, Unix
// milliseconds) and its id (i).
type tradeSeen struct {
	sym  []byte
	t, i int64
}

// scanTrades appends the entries of a trades notification's update member
// to out. It reads what json.Unmarshal into tradesMsg reads, to the same
// values, without reflection or allocation: a subscriber reads tens of
// thousands of messages a second, and decoding them with encoding/json was
// half of the generator's CPU. ok is false when the message is not JSON
// that Unmarshal would decode without error; sure is false when the message
// has a shape the scanner leaves to Unmarshal (escapes in names, keys that
// match only case-insensitively, repeated members, numbers or nulls where
// Unmarshal's handling is subtle), in which case out is unchanged.
func scanTrades(b []byte, out []tradeSeen) (res []tradeSeen, ok, sure bool) {
	sc := scanner{b: b}
	n := len(out)
	out, ok = sc.message(out)
	if sc.unsure {
		return out[:n], false, false
	}
	if ok {
		sc.space()
		ok = sc.p == len(b)
	}
	if !ok {
		return out[:n], false, true
	}
	return out, true, true
}

// decodeTrades is the reading of record: the scanner, and json.Unmarshal
// for what the scanner leaves to it. ok is false when the message is not a
// notification Unmarshal decodes (it then counts as a message, without
// latency or ids, as before the scanner).
func decodeTrades(b []byte, out []tradeSeen, msg *tradesMsg) ([]tradeSeen, bool) {
	res, ok, sure := scanTrades(b, out)
	if sure {
		return res, ok
	}
	clear(msg.Update)
	if json.Unmarshal(b, msg) != nil {
		return out, false
	}
	for sym, es := range msg.Update {
		for _, e := range es {
			out = append(out, tradeSeen{sym: []byte(sym), t: e.T, i: e.I})
		}
	}
	return out, true
}

// scanner walks one JSON text; unsure is set when it meets a shape it
// leaves to encoding/json.
type scanner struct {
	b      []byte
	p      int
	depth  int
	unsure bool
}

// maxDepth is encoding/json's nesting limit: deeper is its error to give.
const maxDepth = 10000

func (s *scanner) space() {
	for s.p < len(s.b) {
		switch s.b[s.p] {
		case ' ', '\t', '\n', '\r':
			s.p++
		default:
			return
		}
	}
}

// next skips white space and returns the next byte (0 at the end).
func (s *scanner) next() byte {
	s.space()
	if s.p < len(s.b) {
		return s.b[s.p]
	}
	return 0
}

func (s *scanner) eat(c byte) bool {
	if s.next() == c {
		s.p++
		return true
	}
	return false
}

// message reads the top-level object: the update member in full, every
// other member validated and skipped.
func (s *scanner) message(out []tradeSeen) ([]tradeSeen, bool) {
	switch s.next() {
	case '{':
	case 'n':
		s.unsure = true // null decodes to nothing, without error
		return out, false
	default:
		s.unsure = s.value() // another valid value is a type error Unmarshal reports after decoding: left to it
		return out, false
	}
	s.p++
	seenUpdate := false
	if s.eat('}') {
		return out, true
	}
	for {
		key, plain, ok := s.str()
		if !ok || !s.eat(':') {
			return out, false
		}
		if !plain || foldsTo(key, "update") || foldsTo(key, "snapshot") {
			// Escaped names, update or snapshot in another case, and
			// snapshot (decoded into a map, where types matter) are
			// Unmarshal's to judge.
			if !plain || string(key) != "update" || seenUpdate {
				s.unsure = true
				return out, false
			}
		}
		if string(key) == "update" {
			seenUpdate = true
			if out, ok = s.update(out); !ok {
				return out, false
			}
		} else if !s.value() {
			return out, false
		}
		if s.eat(',') {
			continue
		}
		return out, s.eat('}')
	}
}

// update reads {symbol: [entries], ...}.
func (s *scanner) update(out []tradeSeen) ([]tradeSeen, bool) {
	if s.next() != '{' {
		s.unsure = true // null or a type error: Unmarshal's
		return out, false
	}
	s.p++
	if s.eat('}') {
		return out, true
	}
	start := len(out)
	for {
		sym, plain, ok := s.str()
		if !ok || !s.eat(':') {
			return out, false
		}
		if !plain {
			s.unsure = true
			return out, false
		}
		for _, e := range out[start:] {
			if string(e.sym) == string(sym) {
				s.unsure = true // a repeated symbol replaces the first's entries
				return out, false
			}
		}
		if s.next() != '[' {
			s.unsure = true
			return out, false
		}
		s.p++
		if !s.eat(']') {
			for {
				e := tradeSeen{sym: sym}
				if !s.entry(&e) {
					return out, false
				}
				out = append(out, e)
				if s.eat(',') {
					continue
				}
				if !s.eat(']') {
					return out, false
				}
				break
			}
		}
		if s.eat(',') {
			continue
		}
		return out, s.eat('}')
	}
}

// entry reads one trades entry: t and i as integers, the rest validated.
func (s *scanner) entry(e *tradeSeen) bool {
	if s.next() != '{' {
		s.unsure = true
		return false
	}
	s.p++
	if s.eat('}') {
		return true
	}
	for {
		key, plain, ok := s.str()
		if !ok || !s.eat(':') {
			return false
		}
		switch {
		case !plain || string(key) == "T" || string(key) == "I":
			s.unsure = true
			return false
		case string(key) == "t" || string(key) == "i":
			v, ok := s.integer()
			if !ok {
				return false
			}
			if key[0] == 't' {
				e.t = v
			} else {
				e.i = v
			}
		default:
			if !s.value() {
				return false
			}
		}
		if s.eat(',') {
			continue
		}
		return s.eat('}')
	}
}

// integer reads a JSON integer that fits an int64; anything else (a
// fraction, an exponent, a string, null, out of range) is Unmarshal's.
func (s *scanner) integer() (int64, bool) {
	s.space()
	neg := s.p < len(s.b) && s.b[s.p] == '-'
	i := s.p
	if neg {
		i++
	}
	start := i
	var v uint64
	for ; i < len(s.b) && s.b[i] >= '0' && s.b[i] <= '9'; i++ {
		if v > (math.MaxUint64-9)/10 {
			s.unsure = true
			return 0, false
		}
		v = v*10 + uint64(s.b[i]-'0')
	}
	digits := i - start
	if digits == 0 || (digits > 1 && s.b[start] == '0') || (i < len(s.b) && (s.b[i] == '.' || s.b[i] == 'e' || s.b[i] == 'E')) {
		s.unsure = true
		return 0, false
	}
	if (!neg && v > math.MaxInt64) || (neg && v > 1<<63) {
		s.unsure = true
		return 0, false
	}
	s.p = i
	if neg {
		return int64(-v), true
	}
	return int64(v), true
}

// str reads a string; plain is false when it holds an escape (its bytes
// are then not its value).
func (s *scanner) str() (val []byte, plain, ok bool) {
	if s.next() != '"' {
		return nil, false, false
	}
	s.p++
	start := s.p
	plain = true
	for s.p < len(s.b) {
		c := s.b[s.p]
		switch {
		case c == '"':
			val = s.b[start:s.p]
			s.p++
			return val, plain, true
		case c == '\\':
			plain = false
			if s.p+1 >= len(s.b) {
				return nil, false, false
			}
			switch s.b[s.p+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.p += 2
			case 'u':
				if s.p+6 > len(s.b) {
					return nil, false, false
				}
				for _, h := range s.b[s.p+2 : s.p+6] {
					if !isHex(h) {
						return nil, false, false
					}
				}
				s.p += 6
			default:
				return nil, false, false
			}
		case c < 0x20:
			return nil, false, false
		case c >= 0x80:
			// Invalid UTF-8 is replaced by Unmarshal, not refused: a name
			// holding any is left to it.
			plain = false
			s.p++
		default:
			s.p++
		}
	}
	return nil, false, false
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// value validates and skips any JSON value.
func (s *scanner) value() bool {
	s.depth++
	defer func() { s.depth-- }()
	if s.depth > maxDepth-4 { // the message, update, its array and an entry are above
		s.unsure = true
		return false
	}
	switch c := s.next(); {
	case c == '{':
		s.p++
		if s.eat('}') {
			return true
		}
		for {
			if _, _, ok := s.str(); !ok || !s.eat(':') || !s.value() {
				return false
			}
			if s.eat(',') {
				continue
			}
			return s.eat('}')
		}
	case c == '[':
		s.p++
		if s.eat(']') {
			return true
		}
		for {
			if !s.value() {
				return false
			}
			if s.eat(',') {
				continue
			}
			return s.eat(']')
		}
	case c == '"':
		_, _, ok := s.str()
		return ok
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return false
}

func (s *scanner) literal(w string) bool {
	if len(s.b)-s.p >= len(w) && string(s.b[s.p:s.p+len(w)]) == w {
		s.p += len(w)
		return true
	}
	return false
}

// number validates a JSON number.
func (s *scanner) number() bool {
	digits := func() int {
		n := 0
		for s.p < len(s.b) && s.b[s.p] >= '0' && s.b[s.p] <= '9' {
			s.p++
			n++
		}
		return n
	}
	if s.b[s.p] == '-' {
		s.p++
	}
	if s.p < len(s.b) && s.b[s.p] == '0' {
		s.p++
	} else if digits() == 0 {
		return false
	}
	if s.p < len(s.b) && s.b[s.p] == '.' {
		s.p++
		if digits() == 0 {
			return false
		}
	}
	if s.p < len(s.b) && (s.b[s.p] == 'e' || s.b[s.p] == 'E') {
		s.p++
		if s.p < len(s.b) && (s.b[s.p] == '+' || s.b[s.p] == '-') {
			s.p++
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}

// foldsTo reports whether key equals w (lower case ASCII) ignoring ASCII
// case, as encoding/json matches member names (names with other bytes,
// which it may fold too, are not plain and left to it).
func foldsTo(key []byte, w string) bool {
	if len(key) != len(w) {
		return false
	}
	for i := range key {
		c := key[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}
