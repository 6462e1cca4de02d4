package v3

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
)

// fill sets every field of the struct v points to at random, through
// reflection, so that a field added to the Order resource without its
// line in AppendJSON fails TestOrderJSONAppend.
func fill(r *rand.Rand, v reflect.Value) {
	strs := []string{"", "0", "BTCUSDT", "1.5", "2026-11-28T16:00:00.000Z", `a"b\c`, "<&>", "é", "\u2028", "\x01\n\t", "\xff"}
	switch v.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			fill(r, v.Field(i))
		}
	case reflect.String:
		v.SetString(strs[r.IntN(len(strs))])
	case reflect.Int64:
		v.SetInt(r.Int64() - r.Int64())
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Pointer:
		if r.IntN(3) > 0 {
			p := reflect.New(v.Type().Elem())
			fill(r, p.Elem())
			v.Set(p)
		}
	case reflect.Slice:
		if n := r.IntN(4) - 1; n >= 0 {
			s := reflect.MakeSlice(v.Type(), n, n)
			for i := range n {
				fill(r, s.Index(i))
			}
			v.Set(s)
		}
	case reflect.Interface: // a trade's taker: a bool, or a string under V3-ORDER-TRADES
		if r.IntN(2) == 0 {
			v.Set(reflect.ValueOf(r.IntN(2) == 0))
		} else {
			v.Set(reflect.ValueOf(strs[r.IntN(len(strs))]))
		}
	default:
		panic("fill: no case for " + v.Kind().String())
	}
}

func TestOrderJSONAppend(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 3000; i++ {
		var list fullOrders
		fill(r, reflect.ValueOf(&list).Elem())
		for _, v := range []interface{ AppendJSON([]byte) []byte }{list, fullOrders{}} {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(v); err != nil {
				t.Fatal(err)
			}
			if got := append(v.AppendJSON([]byte("x")), '\n'); string(got[1:]) != want.String() {
				t.Fatalf("AppendJSON:\n%s\nencoding/json:\n%s", got[1:], want.String())
			}
		}
	}
}
