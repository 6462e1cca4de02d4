package load

import (
	"math"
	"math/bits"
	"time"
)

// HDR histogram layout: values below hdrSubCount nanoseconds are counted
// exactly; above, each power of two is split into hdrHalf linear
// sub-buckets, so a recorded value is off by less than 1/hdrHalf (0.1%, three
// significant digits) of itself. Values above hdrMax share the top bucket
// (the exact maximum is kept apart).
const (
	hdrSubBits  = 11
	hdrSubCount = 1 << hdrSubBits // 2048
	hdrHalf     = hdrSubCount / 2 // 1024
	hdrMax      = time.Hour
)

// hdrBuckets is the number of buckets needed up to hdrMax.
var hdrBuckets = hdrIndex(uint64(hdrMax)) + 1

// Histogram is a high-dynamic-range latency histogram (in the manner of
// HdrHistogram) with three significant digits from 1ns to one hour. The
// zero value is ready to use; it is not safe for concurrent use.
type Histogram struct {
	counts   []uint64
	total    uint64
	sum      time.Duration
	min, max time.Duration
}

// hdrIndex returns the bucket of a value in nanoseconds.
func hdrIndex(v uint64) int {
	if v < hdrSubCount {
		return int(v)
	}
	shift := bits.Len64(v) - hdrSubBits
	sub := v >> uint(shift) // in [hdrHalf, hdrSubCount)
	return hdrSubCount + (shift-1)*hdrHalf + int(sub-hdrHalf)
}

// hdrBounds returns the lowest and highest value counted in bucket i.
func hdrBounds(i int) (lo, hi uint64) {
	if i < hdrSubCount {
		return uint64(i), uint64(i)
	}
	j := i - hdrSubCount
	shift := j/hdrHalf + 1
	sub := uint64(j%hdrHalf + hdrHalf)
	return sub << uint(shift), (sub+1)<<uint(shift) - 1
}

// Record adds one latency.
func (h *Histogram) Record(d time.Duration) {
	if d < 0 {
		d = 0
	}
	if h.counts == nil {
		h.counts = make([]uint64, hdrBuckets)
	}
	v := uint64(d)
	if d > hdrMax {
		v = uint64(hdrMax)
	}
	h.counts[hdrIndex(v)]++
	if h.total == 0 || d < h.min {
		h.min = d
	}
	if d > h.max {
		h.max = d
	}
	h.total++
	h.sum += d
}

// Merge adds every value recorded in o.
func (h *Histogram) Merge(o *Histogram) {
	if o.total == 0 {
		return
	}
	if h.counts == nil {
		h.counts = make([]uint64, hdrBuckets)
	}
	for i, c := range o.counts {
		h.counts[i] += c
	}
	if h.total == 0 || o.min < h.min {
		h.min = o.min
	}
	if o.max > h.max {
		h.max = o.max
	}
	h.total += o.total
	h.sum += o.sum
}

// Count is the number of recorded values.
func (h *Histogram) Count() uint64 { return h.total }

// Min is the smallest recorded value (exact).
func (h *Histogram) Min() time.Duration { return h.min }

// Max is the largest recorded value (exact).
func (h *Histogram) Max() time.Duration { return h.max }

// Mean is the arithmetic mean of the recorded values (exact).
func (h *Histogram) Mean() time.Duration {
	if h.total == 0 {
		return 0
	}
	return h.sum / time.Duration(h.total)
}

// Quantile returns the value at quantile q in [0, 1]: the highest value
// equivalent (within the histogram's precision) to the smallest recorded
// value that at least q of all values do not exceed, and never more than
// the exact maximum. It is 0 for an empty histogram.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.total == 0 {
		return 0
	}
	switch {
	case q <= 0:
		return h.min
	case q >= 1:
		return h.max
	}
	// The rank is ceil(q*total); the small slack keeps 0.99*100 at 99.
	rank := max(uint64(math.Ceil(q*float64(h.total)-1e-9)), 1)
	var seen uint64
	for i, c := range h.counts {
		if seen += c; seen >= rank {
			_, hi := hdrBounds(i)
			return min(time.Duration(hi), h.max)
		}
	}
	return h.max
}

// Bucket is a range of latencies and how many values fell in it.
type Bucket struct {
	Low, High time.Duration
	Count     uint64
}

// Buckets groups the recorded values into n ranges of equal width on a
// logarithmic scale between Min and Max, for plotting.
func (h *Histogram) Buckets(n int) []Bucket {
	if h.total == 0 || n < 1 {
		return nil
	}
	lo, hi := float64(max(h.min, time.Microsecond)), float64(max(h.max, time.Microsecond))
	if hi <= lo {
		return []Bucket{{Low: h.min, High: h.max, Count: h.total}}
	}
	out := make([]Bucket, n)
	ratio := math.Pow(hi/lo, 1/float64(n))
	edge := lo
	for i := range out {
		out[i].Low = time.Duration(edge)
		edge *= ratio
		out[i].High = time.Duration(edge)
	}
	out[n-1].High = h.max
	for i, c := range h.counts {
		if c == 0 {
			continue
		}
		l, u := hdrBounds(i)
		mid := float64(l+u) / 2
		k := 0
		if mid > lo {
			k = int(math.Log(mid/lo) / math.Log(ratio))
		}
		out[min(max(k, 0), n-1)].Count += c
	}
	return out
}
