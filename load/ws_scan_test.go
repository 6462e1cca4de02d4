package load

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// referenceTrades is the reading before the scanner: json.Unmarshal into
// tradesMsg; the entries by symbol, in order.
func referenceTrades(b []byte) (map[string][][2]int64, bool) {
	var msg tradesMsg
	if json.Unmarshal(b, &msg) != nil {
		return nil, false
	}
	out := map[string][][2]int64{}
	for sym, es := range msg.Update {
		for _, e := range es {
			out[sym] = append(out[sym], [2]int64{e.T, e.I})
		}
	}
	return out, true
}

func bySymbol(es []tradeSeen) map[string][][2]int64 {
	out := map[string][][2]int64{}
	for _, e := range es {
		out[string(e.sym)] = append(out[string(e.sym)], [2]int64{e.t, e.i})
	}
	return out
}

// sameAsUnmarshal fails t when decodeTrades reads b otherwise than
// json.Unmarshal did.
func sameAsUnmarshal(t *testing.T, b []byte) {
	t.Helper()
	want, wantOK := referenceTrades(b)
	var msg tradesMsg
	got, ok := decodeTrades(b, nil, &msg)
	if ok != wantOK {
		t.Fatalf("%s: ok %v, Unmarshal's %v", b, ok, wantOK)
	}
	if !ok {
		return
	}
	g := bySymbol(got)
	if len(g) != len(want) {
		t.Fatalf("%s: %v, Unmarshal read %v", b, g, want)
	}
	for sym, es := range want {
		if !slices.Equal(g[sym], es) {
			t.Fatalf("%s: %s %v, Unmarshal read %v", b, sym, g[sym], es)
		}
	}
}

var scanCases = []string{
	`{"ch":"trades","update":{"BTCUSDT":[{"t":1626861123552,"i":1584,"p":"30000.00","q":"0.0001","s":"buy"}]}}`,
	`{"ch":"trades","update":{"BTCUSDT":[{"t":1,"i":2,"p":"1","q":"1","s":"buy"},{"t":3,"i":4,"p":"1","q":"1","s":"sell"}],"ETHBTC":[{"i":9,"t":8}]}}`,
	` { "update" : { "X" : [ { "t" : -5 , "i" : 0 } ] } , "ch" : "trades" } `,
	`{"ch":"trades","update":{}}`,
	`{"ch":"trades","update":{"X":[]}}`,
	`{"ch":"trades","update":{"X":[{}]}}`,
	`{"ch":"trades","update":{"X":[{"t":1}]}}`,
	`{}`,
	`{"ch":"trades"}`,
	`{"result":{"ch":"trades","subscriptions":["BTCUSDT"]},"id":"3"}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":2,"extra":{"a":[1,2.5e-3,true,false,null,"\u00e9\n"]}}]}}`,
	// What the scanner leaves to Unmarshal.
	`null`,
	`[1,2]`,
	`"text"`,
	`{"ch":"trades","update":null}`,
	`{"ch":"trades","update":{"X":null}}`,
	`{"ch":"trades","update":{"X":[null]}}`,
	`{"ch":"trades","update":[]}`,
	`{"ch":"trades","Update":{"X":[{"t":1,"i":2}]}}`,
	`{"ch":"trades","UPDATE":{"X":[{"t":1,"i":2}]}}`,
	`{"ch":"trades","upd\u0061te":{"X":[{"t":1,"i":2}]}}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":2}]},"update":{"Y":[{"t":3,"i":4}]}}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":2}],"X":[{"t":3,"i":4}]}}`,
	`{"ch":"trades","update":{"X":[],"X":[{"t":3,"i":4}]}}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":2}],"X":[]}}`,
	`{"ch":"trades","update":{"\u0058":[{"t":1,"i":2}]}}`,
	`{"ch":"trades","update":{"X":[{"T":1,"I":2}]}}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":"2"}]}}`,
	`{"ch":"trades","update":{"X":[{"t":1.5,"i":2}]}}`,
	`{"ch":"trades","update":{"X":[{"t":1e3,"i":2}]}}`,
	`{"ch":"trades","update":{"X":[{"t":null,"i":2}]}}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":99999999999999999999}]}}`,
	`{"ch":"trades","update":{"X":[{"t":-9223372036854775808,"i":9223372036854775807}]}}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":9223372036854775808}]}}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":2,"t":3}]}}`,
	`{"ch":"trades","snapshot":{"X":[{"t":1,"i":2}]}}`,
	`{"ch":"trades","snapshot":{"X":"no"},"update":{"X":[{"t":1,"i":2}]}}`,
	`{"ch":"trades","update":{"\xff":[{"t":1,"i":2}]}}`,
	// Not JSON.
	``,
	`{`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":2}]}}x`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":2}]}}{}`,
	`{"ch":"trades","update":{"X":[{"t":01,"i":2}]}}`,
	`{"ch":"trades","update":{"X":[{"t":-,"i":2}]}}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":2,}]}}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":2}],}}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":2}]},"x":tru}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":2}]},"x":"a` + "\x01" + `"}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":2}]},"x":"\q"}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":2}]},"x":"\u12"}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":2}]},"x":1.}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":2}]},"x":1e}`,
	`{"ch":"trades","update":{"X":[{"t":1,"i":2}]},"x":[1 2]}`,
	`{"ch" "trades"}`,
}

func TestScanTradesAsUnmarshal(t *testing.T) {
	for _, c := range scanCases {
		sameAsUnmarshal(t, []byte(c))
	}
}

// TestScanTradesMutated compares the two readings on random edits of the
// cases: bytes changed, removed or doubled.
func TestScanTradesMutated(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 5000))
	alphabet := []byte(`{}[]":,.-+eE0123456789tinulfasrTI \\u`)
	for n := 0; n < 20000; n++ {
		b := []byte(scanCases[rng.IntN(len(scanCases))])
		for k := rng.IntN(3) + 1; k > 0 && len(b) > 0; k-- {
			p := rng.IntN(len(b))
			switch rng.IntN(3) {
			case 0:
				b[p] = alphabet[rng.IntN(len(alphabet))]
			case 1:
				b = append(b[:p], b[p+1:]...)
			default:
				b = append(b[:p+1], b[p:]...)
			}
		}
		sameAsUnmarshal(t, b)
	}
}

func FuzzScanTrades(f *testing.F) {
	for _, c := range scanCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) { sameAsUnmarshal(t, b) })
}

func TestScanTradesAllocs(t *testing.T) {
	b := []byte(scanCases[1])
	out := make([]tradeSeen, 0, 8)
	var msg tradesMsg
	if n := testing.AllocsPerRun(100, func() { out, _ = decodeTrades(b, out[:0], &msg) }); n != 0 {
		t.Errorf("%v allocations per message, want 0", n)
	}
}

// TestTradeUnionConcurrent adds the same ids from many subscribers at
// once, with ids that share slots of the recent table.
func TestTradeUnionConcurrent(t *testing.T) {
	u := newTradeUnion()
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := int64(-300); id < 3000; id += 7 {
				u.add(fmt.Sprint("S", id%3), id)
			}
			u.add("S0", 0)
		}()
	}
	wg.Wait()
	got := u.sorted()
	want := map[string][]int64{}
	for id := int64(-300); id < 3000; id += 7 {
		sym := fmt.Sprint("S", id%3)
		want[sym] = append(want[sym], id)
	}
	if !slices.Contains(want["S0"], 0) {
		want["S0"] = append(want["S0"], 0)
		slices.Sort(want["S0"])
	}
	for sym, ids := range want {
		if !slices.Equal(got[sym], ids) {
			t.Errorf("%s: %v, want %v", sym, got[sym], ids)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d symbols, want %d", len(got), len(want))
	}
}
