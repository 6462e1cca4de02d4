package load

import (
	"reflect"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// figures must agree with Vegeta's Metrics on everything a summary takes.
func TestFiguresAsVegetaMetrics(t *testing.T) {
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	cases := map[string][]vegeta.Result{
		"none": nil,
		"one":  {{Code: 200, Timestamp: at, Latency: time.Millisecond, BytesOut: 10}},
		"same instant": {{Code: 200, Timestamp: at, Latency: time.Millisecond},
			{Code: 500, Timestamp: at, Latency: 3 * time.Millisecond, Error: "500"}},
		"beyond three digits": {{Code: 999, Timestamp: at, Latency: time.Millisecond},
			{Code: 1234, Timestamp: at.Add(time.Second), Latency: time.Millisecond}, {Code: 1234, Timestamp: at.Add(time.Second)}},
		"out of order, mixed": {
			{Code: 200, Timestamp: at.Add(2 * time.Second), Latency: time.Millisecond, BytesOut: 5},
			{Code: 0, Timestamp: at, Latency: 10 * time.Second, Error: "timeout"},
			{Code: 429, Timestamp: at.Add(time.Second), Latency: 2 * time.Millisecond},
			{Code: 302, Timestamp: at.Add(1500 * time.Millisecond), Latency: time.Millisecond, BytesOut: 7},
			{Code: 200, Timestamp: at.Add(3 * time.Second), Latency: 0},
		},
	}
	for name, rs := range cases {
		var want vegeta.Metrics
		var got figures
		for i := range rs {
			want.Add(&rs[i])
			got.add(&rs[i])
		}
		want.Close()
		got.close()
		codes := map[string]uint64{}
		for c, n := range want.StatusCodes {
			codes[c] = uint64(n)
		}
		if got.Requests != want.Requests || !reflect.DeepEqual(got.StatusCodes(), codes) || got.BytesOut != want.BytesOut.Total ||
			!got.Earliest.Equal(want.Earliest) || !got.Latest.Equal(want.Latest) || got.Duration != want.Duration ||
			got.Rate != want.Rate || got.Throughput != want.Throughput || got.Success != want.Success {
			t.Errorf("%s: figures %+v, Metrics %+v", name, got, want)
		}
	}
}

// The total's figures are merged from the runs': merging the figures of
// parts gives those of the whole.
func TestFiguresMerge(t *testing.T) {
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	all := []vegeta.Result{
		{Code: 200, Timestamp: at.Add(2 * time.Second), Latency: time.Millisecond, BytesOut: 5},
		{Code: 0, Timestamp: at, Latency: 10 * time.Second, Error: "timeout"},
		{Code: 429, Timestamp: at.Add(time.Second), Latency: 2 * time.Millisecond},
		{Code: 1234, Timestamp: at.Add(1500 * time.Millisecond), Latency: time.Millisecond, BytesOut: 7},
		{Code: 200, Timestamp: at.Add(3 * time.Second), Latency: 0},
	}
	for _, split := range []int{0, 1, 2, 4, 5} {
		var whole, a, b, merged figures
		for i := range all {
			whole.add(&all[i])
			if i < split {
				a.add(&all[i])
			} else {
				b.add(&all[i])
			}
		}
		merged.merge(&a)
		merged.merge(&b)
		whole.close()
		merged.close()
		if !reflect.DeepEqual(whole.StatusCodes(), merged.StatusCodes()) || whole.Requests != merged.Requests ||
			whole.BytesOut != merged.BytesOut || !whole.Earliest.Equal(merged.Earliest) || !whole.Latest.Equal(merged.Latest) ||
			whole.Rate != merged.Rate || whole.Throughput != merged.Throughput || whole.Success != merged.Success {
			t.Errorf("split at %d: merged %+v, whole %+v", split, merged, whole)
		}
	}
}
