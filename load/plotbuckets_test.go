package load

import (
	"fmt"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// The plot's points are thinned per attack to the extremes of each time
// bucket: the earliest result, the lowest and highest latency of successes
// and of failures stay; points come out in time order, numbered from 0.
func TestPlotBuckets(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	res := func(attack string, at, lat time.Duration, failed bool) vegeta.Result {
		r := vegeta.Result{Attack: attack, Timestamp: t0.Add(at), Latency: lat}
		if failed {
			r.Error = "boom"
		}
		return r
	}
	var many []vegeta.Result
	for i := range 10000 {
		// 10 s of results, a spike at 5 s, a failure at 7 s; out of
		// order by up to 3 ms (results come in batches per worker).
		at := time.Duration(i)*time.Millisecond + time.Duration(i%4)*time.Millisecond - 3*time.Millisecond
		lat := time.Millisecond + time.Duration(i%5)*time.Microsecond
		if i == 5000 {
			lat = time.Second
		}
		many = append(many, res("a", at, lat, i == 7000))
	}
	tests := []struct {
		name      string
		limit     int
		in        []vegeta.Result
		maxPoints map[string]int
		want      []vegeta.Result // must be among the points (Seq aside)
	}{
		{"one point", 10, []vegeta.Result{res("a", 0, time.Millisecond, false)},
			map[string]int{"a": 1}, []vegeta.Result{res("a", 0, time.Millisecond, false)}},
		{"same bucket: extremes", 10, []vegeta.Result{
			res("a", 0, 5*time.Millisecond, false), res("a", 100*time.Microsecond, 2*time.Millisecond, false),
			res("a", 200*time.Microsecond, 9*time.Millisecond, false), res("a", 300*time.Microsecond, 4*time.Millisecond, false),
			res("a", 400*time.Microsecond, 7*time.Millisecond, true)},
			map[string]int{"a": 4}, []vegeta.Result{
				res("a", 0, 5*time.Millisecond, false), res("a", 100*time.Microsecond, 2*time.Millisecond, false),
				res("a", 200*time.Microsecond, 9*time.Millisecond, false), res("a", 400*time.Microsecond, 7*time.Millisecond, true)}},
		{"two attacks", 10, []vegeta.Result{res("a", 0, time.Millisecond, false), res("b", time.Second, 2*time.Millisecond, false)},
			map[string]int{"a": 1, "b": 1}, []vegeta.Result{res("a", 0, time.Millisecond, false), res("b", time.Second, 2*time.Millisecond, false)}},
		{"merged buckets", 100, many, map[string]int{"a": 4*100 + 1}, []vegeta.Result{
			many[0], many[5000], many[7000]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPlotBuckets(tt.limit)
			for i := range tt.in {
				p.add(&tt.in[i])
			}
			got := map[string][]vegeta.Result{}
			if err := p.each(func(r *vegeta.Result) error {
				if want := uint64(len(got[r.Attack])); r.Seq != want {
					return fmt.Errorf("seq %d, want %d", r.Seq, want)
				}
				if prev := got[r.Attack]; len(prev) > 0 && r.Timestamp.Before(prev[len(prev)-1].Timestamp) {
					return fmt.Errorf("point %d before the previous one", r.Seq)
				}
				got[r.Attack] = append(got[r.Attack], *r)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			for attack, n := range tt.maxPoints {
				if len(got[attack]) == 0 || len(got[attack]) > n {
					t.Errorf("attack %s: %d points, want 1 to %d", attack, len(got[attack]), n)
				}
			}
			for _, w := range tt.want {
				found := false
				for _, r := range got[w.Attack] {
					found = found || (r.Timestamp.Equal(w.Timestamp) && r.Latency == w.Latency && (r.Error != "") == (w.Error != ""))
				}
				if !found {
					t.Errorf("attack %s: no point at %s of %s (failed %v)", w.Attack, w.Timestamp.Sub(t0), w.Latency, w.Error != "")
				}
			}
		})
	}
}
