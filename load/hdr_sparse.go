package load

import "time"

// SparseHistogram is a Histogram as written to a stream run's results
// file: the non-empty buckets only, so that workers' files merge exactly.
type SparseHistogram struct {
	Buckets [][2]uint64   `json:"buckets"` // [bucket index, count]
	Total   uint64        `json:"total"`
	SumNS   time.Duration `json:"sum_ns"`
	MinNS   time.Duration `json:"min_ns"`
	MaxNS   time.Duration `json:"max_ns"`
}

// Sparse returns the histogram's non-empty buckets.
func (h *Histogram) Sparse() SparseHistogram {
	s := SparseHistogram{Buckets: [][2]uint64{}, Total: h.total, SumNS: h.sum, MinNS: h.min, MaxNS: h.max}
	for i, c := range h.counts {
		if c > 0 {
			s.Buckets = append(s.Buckets, [2]uint64{uint64(i), c})
		}
	}
	return s
}

// Histogram rebuilds the histogram; buckets out of range are ignored.
func (s SparseHistogram) Histogram() *Histogram {
	h := &Histogram{}
	if s.Total == 0 {
		return h
	}
	h.counts = make([]uint64, hdrBuckets)
	for _, b := range s.Buckets {
		if b[0] < uint64(len(h.counts)) {
			h.counts[b[0]] += b[1]
		}
	}
	h.total, h.sum, h.min, h.max = s.Total, s.SumNS, s.MinNS, s.MaxNS
	return h
}

// figures are the latency statistics of a histogram in milliseconds.
func (h *Histogram) figures() LatencyFigures {
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	return LatencyFigures{MinMS: ms(h.Min()), MeanMS: ms(h.Mean()), P50MS: ms(h.Quantile(0.5)), P90MS: ms(h.Quantile(0.9)),
		P95MS: ms(h.Quantile(0.95)), P99MS: ms(h.Quantile(0.99)), MaxMS: ms(h.Max())}
}
