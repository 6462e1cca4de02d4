package load

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestHistogramIndexBounds(t *testing.T) {
	// Every value falls within its bucket's bounds, and a bucket is never
	// wider than a thousandth of its values.
	for _, v := range []uint64{0, 1, 2047, 2048, 2049, 4095, 4096, 1e6, 123456789, uint64(time.Minute), uint64(hdrMax)} {
		i := hdrIndex(v)
		lo, hi := hdrBounds(i)
		if v < lo || v > hi {
			t.Errorf("value %d in bucket %d [%d, %d]", v, i, lo, hi)
		}
		if w := hi - lo; float64(w) > float64(lo)/1000+1 {
			t.Errorf("bucket %d [%d, %d] wider than 0.1%%", i, lo, hi)
		}
		if i >= hdrBuckets {
			t.Errorf("value %d: bucket %d beyond %d", v, i, hdrBuckets)
		}
	}
}

func TestHistogramQuantiles(t *testing.T) {
	cases := []struct {
		name   string
		values []time.Duration
		q      float64
		want   time.Duration
	}{
		{"empty", nil, 0.99, 0},
		{"one value", []time.Duration{3 * time.Millisecond}, 0.5, 3 * time.Millisecond},
		{"max is exact", []time.Duration{time.Millisecond, 7777777 * time.Nanosecond}, 1, 7777777 * time.Nanosecond},
		{"min is exact", []time.Duration{1234567 * time.Nanosecond, time.Second}, 0, 1234567 * time.Nanosecond},
		{"p50 of 1..100ms", seq(100, time.Millisecond), 0.5, 50 * time.Millisecond},
		{"p99 of 1..100ms", seq(100, time.Millisecond), 0.99, 99 * time.Millisecond},
		{"p90 of 1..10µs", seq(10, time.Microsecond), 0.9, 9 * time.Microsecond},
		{"above the range clamps but max stays exact", []time.Duration{2 * time.Hour}, 1, 2 * time.Hour},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var h Histogram
			for _, v := range c.values {
				h.Record(v)
			}
			got := h.Quantile(c.q)
			if diff := got - c.want; diff < 0 || float64(diff) > float64(c.want)/1000 {
				t.Errorf("quantile %g = %s, want %s (within +0.1%%)", c.q, got, c.want)
			}
		})
	}
}

func seq(n int, unit time.Duration) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = time.Duration(i+1) * unit
	}
	return out
}

// TestHistogramPrecision compares quantiles with exact order statistics
// of a skewed random sample: within 0.1%.
func TestHistogramPrecision(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var h Histogram
	vals := make([]time.Duration, 50000)
	for i := range vals {
		vals[i] = time.Duration(r.ExpFloat64()*float64(800*time.Microsecond)) + 50*time.Microsecond
		h.Record(vals[i])
	}
	slices.Sort(vals)
	for _, q := range []float64{0.5, 0.9, 0.95, 0.99, 0.999} {
		exact := vals[int(q*float64(len(vals)))-1]
		got := h.Quantile(q)
		if rel := float64(got-exact) / float64(exact); rel < 0 || rel > 0.001 {
			t.Errorf("q%g: %s, exact %s (relative error %g)", q, got, exact, rel)
		}
	}
	if h.Mean() <= 0 || h.Count() != uint64(len(vals)) {
		t.Errorf("mean %s count %d", h.Mean(), h.Count())
	}
}

func TestHistogramMergeAndBuckets(t *testing.T) {
	var a, b, all Histogram
	for i := 1; i <= 1000; i++ {
		d := time.Duration(i) * 10 * time.Microsecond
		all.Record(d)
		if i%2 == 0 {
			a.Record(d)
		} else {
			b.Record(d)
		}
	}
	a.Merge(&b)
	a.Merge(&Histogram{}) // an empty histogram changes nothing
	for _, q := range []float64{0, 0.5, 0.99, 1} {
		if a.Quantile(q) != all.Quantile(q) {
			t.Errorf("merged q%g %s, want %s", q, a.Quantile(q), all.Quantile(q))
		}
	}
	var n uint64
	bs := a.Buckets(20)
	for _, bk := range bs {
		n += bk.Count
	}
	if len(bs) != 20 || n != 1000 {
		t.Errorf("%d buckets holding %d values, want 20 holding 1000", len(bs), n)
	}
	if (&Histogram{}).Buckets(10) != nil {
		t.Error("an empty histogram has buckets")
	}
}
