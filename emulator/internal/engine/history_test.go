package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/conform-harness/conform/internal/race"
)

// TestHistoryRing runs random pushes, deletions, front pops and compactions
// on the ring and on a plain slice, and requires the same entries in the
// same order, every held record's position leading back to its entry, and
// the ring to keep working across the wrap of positions at 2^32.
func TestHistoryRing(t *testing.T) {
	t.Parallel() // long under -race; each builds its own engines
	for _, start := range []uint32{0, 1<<32 - 100} {
		r := rand.New(rand.NewPCG(uint64(start), 7))
		h := history{popped: start}
		var model []histEntry
		var id int64
		for step := 0; step < race.Depth(20000); step++ {
			switch k := r.IntN(10); {
			case k < 4:
				id++
				o := &order{id: id}
				if r.IntN(3) == 0 {
					o = nil // a compact entry: no record held
				}
				e := histEntry{o: o, id: id}
				p := h.push(e)
				if o != nil {
					o.histAt = p
				}
				model = append(model, e)
			case k < 8 && len(model) > 0:
				// Delete an entry, mostly near the front as retention does.
				i := min(len(model)-1, r.IntN(8))
				if r.IntN(4) == 0 {
					i = r.IntN(len(model))
				}
				model[i].deleted = true
				h.at(i).deleted = true
				if i == 0 {
					h.popDeleted()
					for len(model) > 0 && model[0].deleted {
						model = model[1:]
					}
				}
			case k == 8:
				h.compact()
				kept := model[:0:0]
				for _, e := range model {
					if !e.deleted {
						kept = append(kept, e)
					}
				}
				model = kept
			}
			if step%20 != 0 {
				continue
			}
			if h.len() != len(model) {
				t.Fatalf("start %d step %d: %d entries, want %d", start, step, h.len(), len(model))
			}
			for i := range model {
				e := h.at(i)
				if e.id != model[i].id || e.deleted != model[i].deleted {
					t.Fatalf("start %d step %d: entry %d is %d (deleted %v), want %d (%v)", start, step, i, e.id, e.deleted, model[i].id, model[i].deleted)
				}
				if e.o != nil && (h.index(e.o.histAt) != i || e.o.id != e.id) {
					t.Fatalf("start %d step %d: entry %d's record has position %d, which leads to %d", start, step, i, e.o.histAt, h.index(e.o.histAt))
				}
			}
			if got := h.search(func(e *histEntry) bool { return e.id >= id/2 }); got < len(model) && model[got].id < id/2 {
				t.Fatalf("search stopped at %d (id %d) below %d", got, model[got].id, id/2)
			}
		}
		if h.popped-start < uint32(race.Depth(1000)) {
			t.Fatalf("start %d: only %d entries left at the front: the test reaches little", start, h.popped-start)
		}
	}
}
