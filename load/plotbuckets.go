package load

import (
	"cmp"
	"slices"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// plotBuckets thins the latency plot's points as they are recorded:
// Vegeta's plot takes every result (a map insert and delete per point to
// put them in order, then a compressed series), a twentieth of the
// generator's CPU at max rate, only to keep a few thousand of them in the
// end. Per attack, time is cut in buckets; each keeps its lowest and
// highest latency, successes and failures apart (the plot's two series),
// so that spikes and floors stay visible. When an attack has more buckets
// than its limit, they are merged in pairs (the width doubles). The plot
// gets the kept points at the end, in time order.
type plotBuckets struct {
	limit   int // buckets per attack
	attacks map[string]*attackBuckets
	order   []string
	last    *attackBuckets // the previous result's attack: most often this one's
}

// attackBuckets are one attack's buckets: bucket k holds the results sent
// in [origin+k*width, origin+(k+1)*width).
type attackBuckets struct {
	name    string
	origin  int64 // ns since the epoch, of the first result seen
	width   int64 // ns
	buckets map[int64]*plotBucket
	cur     *plotBucket // buckets[curKey], the last one used
	curKey  int64
	first   plotPoint // the earliest result: where the plot's time starts
}

// plotBucket keeps the extreme points of a bucket: lowest and highest
// latency of successes ([0]) and failures ([1]).
type plotBucket struct {
	lo, hi [2]plotPoint
}

type plotPoint struct {
	t      time.Time
	lat    time.Duration
	failed bool
	set    bool
}

// plotBucketWidth is the first width of an attack's buckets: the plot's
// own resolution.
const plotBucketWidth = int64(time.Millisecond)

func newPlotBuckets(limit int) *plotBuckets {
	return &plotBuckets{limit: max(limit, 1), attacks: map[string]*attackBuckets{}}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// add takes one result.
func (p *plotBuckets) add(r *vegeta.Result) {
	a := p.last
	if a == nil || a.name != r.Attack {
		if a = p.attacks[r.Attack]; a == nil {
			a = &attackBuckets{name: r.Attack, origin: r.Timestamp.UnixNano(), width: plotBucketWidth, buckets: map[int64]*plotBucket{}}
			p.attacks[r.Attack] = a
			p.order = append(p.order, r.Attack)
		}
		p.last = a
	}
	pt := plotPoint{t: r.Timestamp, lat: r.Latency, failed: r.Error != "", set: true}
	if !a.first.set || pt.t.Before(a.first.t) {
		a.first = pt
	}
	k := floorDiv(r.Timestamp.UnixNano()-a.origin, a.width)
	b := a.cur
	if b == nil || k != a.curKey {
		if b = a.buckets[k]; b == nil {
			b = &plotBucket{}
			a.buckets[k] = b
			if len(a.buckets) > p.limit {
				a.halve()
				p.add(r) // into the wider bucket
				return
			}
		}
		a.cur, a.curKey = b, k
	}
	b.keep(pt)
}

// keep counts pt in the bucket.
func (b *plotBucket) keep(pt plotPoint) {
	i := 0
	if pt.failed {
		i = 1
	}
	if !b.lo[i].set || pt.lat < b.lo[i].lat {
		b.lo[i] = pt
	}
	if !b.hi[i].set || pt.lat > b.hi[i].lat {
		b.hi[i] = pt
	}
}

// halve merges the buckets in pairs.
func (a *attackBuckets) halve() {
	a.width *= 2
	merged := make(map[int64]*plotBucket, len(a.buckets)/2+1)
	for k, b := range a.buckets {
		nk := floorDiv(k, 2)
		m := merged[nk]
		if m == nil {
			merged[nk] = b
			continue
		}
		for i := range 2 {
			if b.lo[i].set {
				m.keep(b.lo[i])
				m.keep(b.hi[i])
			}
		}
	}
	a.buckets, a.cur = merged, nil
}

// each gives add (the plot's Add) the kept points, attack by attack, in
// time order (numbered as the plot wants them: from 0, without gaps).
func (p *plotBuckets) each(add func(*vegeta.Result) error) error {
	for _, name := range p.order {
		a := p.attacks[name]
		pts := make([]plotPoint, 0, 4*len(a.buckets)+1)
		pts = append(pts, a.first)
		for _, b := range a.buckets {
			for i := range 2 {
				if b.lo[i].set {
					pts = append(pts, b.lo[i], b.hi[i])
				}
			}
		}
		slices.SortFunc(pts, func(x, y plotPoint) int {
			if c := x.t.Compare(y.t); c != 0 {
				return c
			}
			if c := cmp.Compare(x.lat, y.lat); c != 0 {
				return c
			}
			return cmp.Compare(b2i(x.failed), b2i(y.failed))
		})
		pts = slices.CompactFunc(pts, func(x, y plotPoint) bool { return x.t.Equal(y.t) && x.lat == y.lat && x.failed == y.failed })
		for i, pt := range pts {
			r := vegeta.Result{Attack: name, Seq: uint64(i), Timestamp: pt.t, Latency: pt.lat}
			if pt.failed {
				r.Error = "failed" // the plot's ERROR series
			}
			if err := add(&r); err != nil {
				return err
			}
		}
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
