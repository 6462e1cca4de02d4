package trading

import (
	"math/rand/v2"
	"strings"
)

// CloidChars are the characters a client_order_id may use.
const CloidChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// Cloids makes the client_order_ids of one suite: each starts with the
// suite's prefix (the Cloids value), so that its orders are recognisable on
// a shared target and a spec can tell them from orders it did not place.
type Cloids string

// New returns a fresh client_order_id of 24 characters.
func (c Cloids) New() string { return c.OfLen(24) }

// OfLen returns a fresh client_order_id of exactly n characters (an n of at
// least the prefix's length plus one keeps the prefix and some randomness).
func (c Cloids) OfLen(n int) string {
	var b strings.Builder
	b.WriteString(string(c))
	for b.Len() < n {
		b.WriteByte(CloidChars[rand.IntN(len(CloidChars))])
	}
	return b.String()[:n]
}
