package market

import (
	"encoding/json"
	"errors"
	"reflect"
	"regexp"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

var testNow = time.Date(2026, time.November, 22, 7, 55, 30, 0, time.UTC)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func candles(t *testing.T, c *Catalogue, contract string, kind Kind, q CandleQuery) []Candle {
	t.Helper()
	if q.Now.IsZero() {
		q.Now = testNow
	}
	cs, err := c.Candles(contract, kind, q)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func timestamps(cs []Candle) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Timestamp.Format(TimeLayout)
	}
	return out
}

func TestCandleBuckets(t *testing.T) {
	c := mustLoad(t)
	for _, tc := range []struct {
		period Period
		newest string // the bucket holding testNow
		next   func(time.Time) time.Time
	}{
		{M1, "2026-11-22T07:55:00Z", func(t time.Time) time.Time { return t.Add(time.Minute) }},
		{M3, "2026-11-22T07:54:00Z", func(t time.Time) time.Time { return t.Add(3 * time.Minute) }},
		{M5, "2026-11-22T07:55:00Z", func(t time.Time) time.Time { return t.Add(5 * time.Minute) }},
		{M15, "2026-11-22T07:45:00Z", func(t time.Time) time.Time { return t.Add(15 * time.Minute) }},
		{M30, "2026-11-22T07:30:00Z", func(t time.Time) time.Time { return t.Add(30 * time.Minute) }},
		{H1, "2026-11-22T07:00:00Z", func(t time.Time) time.Time { return t.Add(time.Hour) }},
		{H4, "2026-11-22T04:00:00Z", func(t time.Time) time.Time { return t.Add(4 * time.Hour) }},
		{D1, "2026-11-22T00:00:00Z", func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }},
		{D7, "2026-11-16T00:00:00Z", func(t time.Time) time.Time { return t.AddDate(0, 0, 7) }}, // a Monday
		{Month, "2026-11-01T00:00:00Z", func(t time.Time) time.Time { return t.AddDate(0, 1, 0) }},
	} {
		t.Run(string(tc.period), func(t *testing.T) {
			desc := candles(t, c, "BTCUSDT_PERP", OpenInterest, CandleQuery{Period: tc.period, Desc: true, Limit: 5})
			if len(desc) != 5 || !desc[0].Timestamp.Equal(at(tc.newest)) {
				t.Fatalf("newest %v, want %s", timestamps(desc), tc.newest)
			}
			for i := 1; i < len(desc); i++ {
				if !tc.next(desc[i].Timestamp).Equal(desc[i-1].Timestamp) {
					t.Errorf("DESC steps %v", timestamps(desc))
				}
			}
			asc := candles(t, c, "BTCUSDT_PERP", OpenInterest, CandleQuery{Period: tc.period, Limit: 3})
			if len(asc) != 3 || !asc[0].Timestamp.Equal(Listing()) || !tc.next(asc[0].Timestamp).Equal(asc[1].Timestamp) {
				t.Errorf("ASC from listing %v", timestamps(asc))
			}
		})
	}
}

var plain = regexp.MustCompile(`^-?[0-9]+\.[0-9]+$`)

func TestCandleValues(t *testing.T) {
	c := mustLoad(t)
	for _, contract := range c.FuturesCodes() {
		for _, kind := range []Kind{OpenInterest, PremiumIndex} {
			for _, period := range Periods() {
				cs := candles(t, c, contract, kind, CandleQuery{Period: period, Desc: true, Limit: 200, Offset: 7})
				if len(cs) == 0 {
					t.Fatalf("%s %s %s: no candles", contract, kind, period)
				}
				for i, cd := range cs {
					v := map[string]decimal.Decimal{}
					for name, s := range map[string]string{"open": cd.Open, "close": cd.Close, "min": cd.Min, "max": cd.Max} {
						if !plain.MatchString(s) {
							t.Fatalf("%s %s: %s %q is not a plain decimal", contract, kind, name, s)
						}
						v[name] = decimal.RequireFromString(s)
					}
					if v["min"].GreaterThan(decimal.Min(v["open"], v["close"])) || v["max"].LessThan(decimal.Max(v["open"], v["close"])) {
						t.Errorf("%s %s %s %s: bounds broken %+v", contract, kind, period, cd.Timestamp, cd)
					}
					if kind == OpenInterest && !v["min"].IsPositive() {
						t.Errorf("%s: open interest not positive: %+v", contract, cd)
					}
					// Candles are contiguous: a close is the next bucket's open.
					if i > 0 && cd.Close != cs[i-1].Open {
						t.Errorf("%s %s %s: close %s then open %s", contract, kind, period, cd.Close, cs[i-1].Open)
					}
				}
			}
		}
	}
}

func TestCandleDeterminism(t *testing.T) {
	c := mustLoad(t)
	q := CandleQuery{Period: M1, Desc: true, Limit: 50, Now: testNow}
	a := candles(t, c, "ETHUSDT_PERP", PremiumIndex, q)
	b := candles(t, mustLoad(t), "ETHUSDT_PERP", PremiumIndex, q)
	if !reflect.DeepEqual(a, b) {
		t.Error("same query, different candles")
	}
	// The same bucket seen from a later clock is the same candle.
	later := q
	later.Now = testNow.Add(10 * time.Minute)
	later.Offset = 10
	if l := candles(t, c, "ETHUSDT_PERP", PremiumIndex, later); !reflect.DeepEqual(l[:40], a[:40]) {
		t.Error("a later clock changed past candles")
	}
	if reflect.DeepEqual(a, candles(t, c, "BTCUSDT_PERP", PremiumIndex, q)) {
		t.Error("two contracts share a series")
	}
	if reflect.DeepEqual(a, candles(t, c, "ETHUSDT_PERP", OpenInterest, q)) {
		t.Error("two kinds share a series")
	}
	// Periods agree at shared instants: the H1 candle opens where M30 does.
	h1 := candles(t, c, "ETHUSDT_PERP", OpenInterest, CandleQuery{Period: H1, Desc: true, Limit: 1})
	m30 := candles(t, c, "ETHUSDT_PERP", OpenInterest, CandleQuery{Period: M30, Desc: true, Limit: 2})
	if h1[0].Open != m30[1].Open {
		t.Errorf("H1 open %s, M30 open %s at %s", h1[0].Open, m30[1].Open, h1[0].Timestamp)
	}
}

func TestCandleSelection(t *testing.T) {
	c := mustLoad(t)
	for _, tc := range []struct {
		name string
		q    CandleQuery
		want []string
	}{
		{"from and till inclusive ASC", CandleQuery{Period: H1, From: at("2025-03-01T10:00:00Z"), Till: at("2025-03-01T12:00:00Z"), Limit: 10},
			[]string{"2025-03-01T10:00:00.000Z", "2025-03-01T11:00:00.000Z", "2025-03-01T12:00:00.000Z"}},
		{"from and till inclusive DESC", CandleQuery{Period: H1, From: at("2025-03-01T10:00:00Z"), Till: at("2025-03-01T12:00:00Z"), Limit: 10, Desc: true},
			[]string{"2025-03-01T12:00:00.000Z", "2025-03-01T11:00:00.000Z", "2025-03-01T10:00:00.000Z"}},
		{"from inside a bucket starts at the next", CandleQuery{Period: H1, From: at("2025-03-01T10:00:01Z"), Till: at("2025-03-01T11:59:59Z"), Limit: 10},
			[]string{"2025-03-01T11:00:00.000Z"}},
		{"limit caps", CandleQuery{Period: D1, From: at("2025-03-01T00:00:00Z"), Limit: 2},
			[]string{"2025-03-01T00:00:00.000Z", "2025-03-02T00:00:00.000Z"}},
		{"offset skips", CandleQuery{Period: D1, From: at("2025-03-01T00:00:00Z"), Offset: 2, Limit: 2},
			[]string{"2025-03-03T00:00:00.000Z", "2025-03-04T00:00:00.000Z"}},
		{"offset DESC skips newest", CandleQuery{Period: D1, Till: at("2025-03-05T00:00:00Z"), Offset: 1, Limit: 2, Desc: true},
			[]string{"2025-03-04T00:00:00.000Z", "2025-03-03T00:00:00.000Z"}},
		{"offset past the end", CandleQuery{Period: Month, Offset: 100000, Limit: 10}, []string{}},
		{"months", CandleQuery{Period: Month, From: at("2024-11-15T00:00:00Z"), Limit: 3},
			[]string{"2024-12-01T00:00:00.000Z", "2025-01-01T00:00:00.000Z", "2025-02-01T00:00:00.000Z"}},
		{"till before listing", CandleQuery{Period: D1, Till: at("2023-12-31T23:59:59Z"), Limit: 10}, []string{}},
		{"from after now", CandleQuery{Period: D1, From: at("2026-11-23T00:00:00Z"), Limit: 10}, []string{}},
		{"from far past", CandleQuery{Period: D7, From: at("0001-01-02T00:00:00Z"), Limit: 1}, []string{"2024-01-01T00:00:00.000Z"}},
		{"from far future", CandleQuery{Period: M1, From: at("9999-12-31T23:59:59Z"), Limit: 10}, []string{}},
		{"till far future", CandleQuery{Period: M1, Till: at("9999-12-31T23:59:59Z"), Limit: 1, Desc: true}, []string{"2026-11-22T07:55:00.000Z"}},
		{"zero limit", CandleQuery{Period: M1, Limit: 0}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := timestamps(candles(t, c, "BTCUSDT_270326", OpenInterest, tc.q))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCandleHugeRangeIsCheap(t *testing.T) {
	c := mustLoad(t)
	// The fastest of three: on a busy machine (make test runs this at the
	// lowest CPU priority) one query's wall time is mostly waiting.
	fastest := time.Duration(1<<63 - 1)
	for range 3 {
		start := time.Now()
		// Deep into roughly 1.5 million M1 buckets.
		cs := candles(t, c, "BTCUSDT_PERP", OpenInterest, CandleQuery{Period: M1, Offset: 100000, Limit: 1000, Desc: true})
		if len(cs) != 1000 || !cs[0].Timestamp.Equal(at("2026-11-22T07:55:00Z").Add(-100000*time.Minute)) {
			t.Fatalf("got %d candles from %v", len(cs), cs[0].Timestamp)
		}
		fastest = min(fastest, time.Since(start))
	}
	if fastest > time.Second {
		t.Errorf("took %v (the fastest of three)", fastest)
	}
}

func TestCandleErrors(t *testing.T) {
	c := mustLoad(t)
	for _, tc := range []struct {
		contract string
		kind     Kind
		period   Period
		notFound bool
	}{
		{"BTCUSDT", OpenInterest, M1, true}, // spot
		{"NOPE", OpenInterest, M1, true},
		{"BTCUSDT_PERP", "funding", M1, false},
		{"BTCUSDT_PERP", OpenInterest, "M2", false},
	} {
		_, err := c.Candles(tc.contract, tc.kind, CandleQuery{Period: tc.period, Limit: 1, Now: testNow})
		if err == nil || errors.Is(err, ErrUnknownContract) != tc.notFound {
			t.Errorf("%+v: err %v", tc, err)
		}
	}
}

func TestCandleJSON(t *testing.T) {
	b, err := json.Marshal(Candle{Timestamp: at("2025-01-02T03:04:05Z"), Open: "1.5", Close: "2.5", Min: "1.00", Max: "3"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"timestamp":"2025-01-02T03:04:05.000Z","open":"1.5","close":"2.5","min":"1.00","max":"3"}`
	if string(b) != want {
		t.Errorf("got %s, want %s", b, want)
	}
}
