package load

import "testing"

func TestCountGaps(t *testing.T) {
	union := []int64{10, 12, 13, 20, 21, 30}
	track := func(ids ...int64) tradeTrack {
		var tr tradeTrack
		for _, id := range ids {
			tr.see(id)
		}
		return tr
	}
	// snap is a v2 order book subscriber's track: the snapshot's sequence
	// (that of the following update), then the updates.
	snap := func(first int64, ids ...int64) tradeTrack {
		var tr tradeTrack
		tr.expect(first)
		for _, id := range ids {
			tr.see(id)
		}
		return tr
	}
	for _, tc := range []struct {
		name                  string
		tr                    tradeTrack
		open                  bool
		gaps, undelivered, oo uint64
	}{
		{"everything", track(10, 12, 13, 20, 21, 30), true, 0, 0, 0},
		{"joined late, all since", track(20, 21, 30), true, 0, 0, 0},
		{"one missing in the middle", track(10, 12, 20, 21, 30), true, 1, 0, 0},
		{"two missing, ids not consecutive", track(10, 21, 30), true, 3, 0, 0},
		{"tail missing while open", track(10, 12, 13), true, 0, 3, 0},
		{"tail missing after a disconnect", track(10, 12, 13), false, 0, 0, 0},
		{"repeat and reorder are not received", track(10, 13, 12, 13, 20, 21, 30), true, 1, 0, 2},
		{"nothing received", track(), true, 0, 0, 0},
		{"snapshot, then every update", snap(12, 12, 13, 20, 21, 30), true, 0, 0, 0},
		{"snapshot, its following update missed", snap(12, 13, 20, 21, 30), true, 1, 0, 0},
		{"snapshot, nothing after while open", snap(20), true, 0, 3, 0},
		{"snapshot, nothing after, then lost", snap(20), false, 0, 0, 0},
		{"snapshot sequence below the union", snap(11, 12, 13, 20, 21, 30), true, 0, 0, 0},
		{"update at the snapshot's sequence minus one", snap(12, 10, 12, 13, 20, 21, 30), true, 0, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, u := countGaps(union, tc.tr, tc.open)
			if g != tc.gaps || u != tc.undelivered || tc.tr.outOfOrder != tc.oo {
				t.Errorf("gaps %d undelivered %d out of order %d, want %d %d %d", g, u, tc.tr.outOfOrder, tc.gaps, tc.undelivered, tc.oo)
			}
		})
	}
}

func TestSecondQuantile(t *testing.T) {
	for _, tc := range []struct {
		lat  map[int]uint64
		q    float64
		want int
		ok   bool
	}{
		{nil, 0.99, 0, false},
		{map[int]uint64{3: 99, 40: 1}, 0.99, 3, true},
		{map[int]uint64{3: 98, 40: 2}, 0.99, 40, true},
		{map[int]uint64{1: 1}, 0.5, 1, true},
	} {
		got, ok := secondQuantile(tc.lat, tc.q)
		if got != tc.want || ok != tc.ok {
			t.Errorf("secondQuantile(%v, %v) = %d %v, want %d %v", tc.lat, tc.q, got, ok, tc.want, tc.ok)
		}
	}
}
