package engine

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/conform-harness/conform/internal/race"
)

// TestRecycledHistory runs one random stream on two engines, one reusing
// the records of final orders (history keeping them compact) and one
// keeping every record, and requires the same answers from both: history
// by ID and by time, both directions, paged and filtered, lookups by
// client_order_id, active orders and trades. A small retention makes
// compact entries leave history too.
func TestRecycledHistory(t *testing.T) {
	t.Parallel() // long under -race; each builds its own engines
	for seed := uint64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			t.Parallel()
			opts := Options{Retention: Retention{Orders: 60, Trades: 80}}
			if seed%2 == 0 {
				opts = Options{}
			}
			rv, kv := newEnv(t, opts), newEnv(t, opts)
			kv.e.keepRecords = true
			rs, ks := newStream(rv, seed), newStream(kv, seed)
			rs.spotOnly, ks.spotOnly = seed > 2, seed > 2
			compact := 0
			for i := 0; i < race.Depth(1500); i++ { // full depth in make unit-deep, without -race
				rs.step()
				ks.step()
				if i%50 == 49 {
					compareEngines(t, rv, kv, rs.accts, i)
					for _, a := range rv.e.accounts {
						for i := range a.hist.len() {
							if h := a.hist.at(i); h.o == nil && !h.deleted {
								compact++
							}
						}
					}
				}
			}
			if compact == 0 {
				t.Fatal("no history entry was compact: the test reaches nothing")
			}
			t.Logf("%d compact entries seen, %v", compact, rs.stats)
		})
	}
}

// compareEngines fails unless both engines answer the same queries alike.
func compareEngines(t *testing.T, rv, kv *env, accts []string, step int) {
	t.Helper()
	from := t0.Add(30 * time.Minute)
	for _, a := range accts {
		qs := []HistoryQuery{
			{Account: a, DefaultSort: true, DefaultLimit: true},
			{Account: a, SortAsc: true, Limit: 1000},
			{Account: a, Limit: 7, Offset: 3},
			{Account: a, ByTimestamp: true, Limit: 1000},
			{Account: a, ByTimestamp: true, SortAsc: true, Limit: 5, Offset: 2},
			{Account: a, Symbols: []string{"ETHBTC"}, Statuses: []Status{Filled, Canceled}, Limit: 1000},
			{Account: a, From: &from, Limit: 1000},
		}
		var all []Order
		for i, q := range qs {
			got, err1 := rv.e.History(q)
			want, err2 := kv.e.History(q)
			if !reflect.DeepEqual(got, want) || (err1 == nil) != (err2 == nil) {
				t.Fatalf("step %d, %s, query %d: history differs:\nreused %+v\nkept   %+v", step, a, i, got, want)
			}
			if i == 1 {
				all = got
			}
		}
		for _, o := range all {
			q := HistoryQuery{Account: a, ClientOrderID: o.ClientOrderID()}
			got, _ := rv.e.History(q)
			want, _ := kv.e.History(q)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("step %d, %s: history of %s differs:\nreused %+v\nkept   %+v", step, a, o.ClientOrderID(), got, want)
			}
			g1, e1 := rv.e.Get(a, o.ClientOrderID())
			g2, e2 := kv.e.Get(a, o.ClientOrderID())
			if !reflect.DeepEqual(g1, g2) || fmt.Sprint(e1) != fmt.Sprint(e2) {
				t.Fatalf("step %d, %s: Get %s differs: %+v %v / %+v %v", step, a, o.ClientOrderID(), g1, e1, g2, e2)
			}
		}
		if got, want := rv.e.Trades(a, "", 1000), kv.e.Trades(a, "", 1000); !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d, %s: trades differ", step, a)
		}
		got, _ := rv.e.Active(a, "")
		want, _ := kv.e.Active(a, "")
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d, %s: active orders differ", step, a)
		}
	}
}
