package load

import (
	"testing"
	"time"
)

func TestParseThreshold(t *testing.T) {
	cases := []struct {
		in     string
		metric string
		op     string
		limit  float64
		ok     bool
	}{
		{"p99<50ms", "p99", "<", 0.05, true},
		{"p50 <= 1ms", "p50", "<=", 0.001, true},
		{"max<2s", "max", "<", 2, true},
		{"p90<500us", "p90", "<", 0.0005, true},
		{"success>0.99", "success", ">", 0.99, true},
		{"success>=99.5%", "success", ">=", 0.995, true},
		{"rate>1000", "rate", ">", 1000, true},
		{"rate>=1000/s", "rate", ">=", 1000, true},
		{"p99<fast", "", "", 0, false},
		{"success>1.5", "", "", 0, false},
		{"p42<1ms", "", "", 0, false},
		{"p99=1ms", "", "", 0, false},
		{"<1ms", "", "", 0, false},
		{"gaps==0", "gaps", "==", 0, true},
		{"disconnects == 3", "disconnects", "==", 3, true},
		{"disconnects<=5", "disconnects", "<=", 5, true},
		{"messages>1000/s", "messages", ">", 1000, true},
		{"gaps==-1", "", "", 0, false},
		{"gaps==0.5", "", "", 0, false},
		{"p99==50ms", "", "", 0, false},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			th, err := ParseThreshold(c.in)
			if (err == nil) != c.ok {
				t.Fatalf("err %v, want ok %v", err, c.ok)
			}
			if c.ok && (th.Metric != c.metric || th.Op != c.op || th.Limit != c.limit) {
				t.Errorf("got %+v", th)
			}
		})
	}
}

func TestThresholdEvaluate(t *testing.T) {
	var h Histogram
	for i := 1; i <= 100; i++ {
		h.Record(time.Duration(i) * time.Millisecond)
	}
	s := &Summary{Requests: 100, Success: 0.98, AchievedRate: 990, Latency: latencyFigures(&h)}
	cases := []struct {
		expr string
		pass bool
	}{
		{"p99<100ms", true},
		{"p99<99ms", false},
		{"p99<=99.1ms", true}, // the HDR value is the highest equivalent: 99ms reads as at most 0.1% more
		{"max<100ms", false},
		{"p50<51ms", true},
		{"success>0.97", true},
		{"success>0.98", false},
		{"success>=0.98", true},
		{"rate>1000", false},
		{"rate>=990", true},
	}
	for _, c := range cases {
		th, err := ParseThreshold(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		if r := th.Evaluate(s); r.Pass != c.pass {
			t.Errorf("%s: pass %v (actual %s), want %v", c.expr, r.Pass, r.Actual, c.pass)
		}
	}
	th, _ := ParseThreshold("success>0")
	if r := th.Evaluate(&Summary{}); r.Pass {
		t.Error("a threshold holds on a run without results")
	}
}
