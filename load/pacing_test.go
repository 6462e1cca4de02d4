package load

import (
	"math"
	"testing"
	"time"
)

func TestParseRate(t *testing.T) {
	cases := []struct {
		in      string
		want    string // String() of the result, "" for an error
		mean    float64
		expect  uint64 // in 10s
		unlimit bool
	}{
		{"1000", "1000/s", 1000, 10000, false},
		{"1000/s", "1000/s", 1000, 10000, false},
		{"1000/1s", "1000/s", 1000, 10000, false},
		{"60/m", "60/1m0s", 1, 10, false},
		{"5/100ms", "5/100ms", 50, 500, false},
		{"max", "max", 0, 0, true},
		{"0", "", 0, 0, false},
		{"-5/s", "", 0, 0, false},
		{"ten/s", "", 0, 0, false},
		{"10/0s", "", 0, 0, false},
		{"10/x", "", 0, 0, false},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			p, err := ParseRate(c.in)
			if c.want == "" {
				if err == nil {
					t.Fatalf("accepted as %s", p)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.String() != c.want || p.Mean() != c.mean || p.Expected(10*time.Second) != c.expect || p.IsUnlimited() != c.unlimit {
				t.Errorf("%s mean %g expected %d unlimited %v", p, p.Mean(), p.Expected(10*time.Second), p.IsUnlimited())
			}
		})
	}
}

func TestParseRamp(t *testing.T) {
	cases := []struct {
		in   string
		ok   bool
		mean float64
		peak float64
	}{
		{"100:1000", true, 550, 1000},
		{"100/s:300/s", true, 200, 300},
		{"500:100", true, 300, 500},
		{"0:100", false, 0, 0},
		{"100", false, 0, 0},
		{"a:b", false, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			p, err := ParseRamp(c.in)
			if (err == nil) != c.ok {
				t.Fatalf("err %v, want ok %v", err, c.ok)
			}
			if c.ok && (p.Mean() != c.mean || p.Peak() != c.peak || !p.IsRamp()) {
				t.Errorf("%s: mean %g peak %g", p, p.Mean(), p.Peak())
			}
		})
	}
}

func TestPacingSchedule(t *testing.T) {
	d := 10 * time.Second
	constant, _ := ParseRate("100/s")
	ramp, _ := ParseRamp("100:300")
	down, _ := ParseRamp("300:100")
	cases := []struct {
		name string
		p    Pacing
		k    uint64
		want time.Duration
	}{
		{"constant first", constant, 0, 10 * time.Millisecond},
		{"constant 250th", constant, 249, 2500 * time.Millisecond},
		{"ramp first", ramp, 0, 0},
		// hits(t) = 10t² + 100t: 2000 hits at t = 10s, sent as the 2000th
		// (k = 1999), Vegeta's ramp sending request k when k+1 are due.
		{"ramp last", ramp, 1999, 10 * time.Second},
		{"ramp middle", ramp, 749, 5 * time.Second},
		{"down ramp middle", down, 1249, 5 * time.Second},
		{"unlimited", Unlimited, 99, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.p.ScheduledAt(c.k, d)
			if math.Abs(float64(got-c.want)) > float64(time.Microsecond) {
				t.Errorf("request %d at %s, want %s", c.k, got, c.want)
			}
		})
	}
	if ramp.Expected(d) != 2000 || down.Expected(d) != 2000 {
		t.Errorf("expected ramp %d, down %d, want 2000", ramp.Expected(d), down.Expected(d))
	}
}
