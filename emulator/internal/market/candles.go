package market

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"time"

	"github.com/shopspring/decimal"
)

// Kind names a futures candle series.
type Kind string

// The two futures candle series of the spec.
const (
	OpenInterest Kind = "open_interest"
	PremiumIndex Kind = "premium_index"
)

// Period is a futures candle period.
type Period string

// The documented periods; Month is "1M", a calendar month.
const (
	M1    Period = "M1"
	M3    Period = "M3"
	M5    Period = "M5"
	M15   Period = "M15"
	M30   Period = "M30"
	H1    Period = "H1"
	H4    Period = "H4"
	D1    Period = "D1"
	D7    Period = "D7"
	Month Period = "1M"
)

// Periods lists every documented period in the spec's order.
func Periods() []Period { return []Period{M1, M3, M5, M15, M30, H1, H4, D1, D7, Month} }

// TimeLayout is how candle timestamps are written: ISO 8601 UTC with
// milliseconds.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// FormatTime writes t as a DateTime of either API version: TimeLayout in
// UTC.
func FormatTime(t time.Time) string {
	var buf [len(TimeLayout)]byte
	return string(AppendTime(buf[:0], t))
}

// AppendTime appends FormatTime(t) to b. Years 0 to 9999 are written by
// hand: time.Format reads its layout on every call, and every order answer
// holds two or more DateTimes.
func AppendTime(b []byte, t time.Time) []byte {
	t = t.UTC()
	y, mo, d := t.Date()
	if y < 0 || y > 9999 {
		return t.AppendFormat(b, TimeLayout)
	}
	h, mi, s := t.Clock()
	ms := t.Nanosecond() / 1e6
	b = append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-')
	b = append(b, byte('0'+int(mo)/10), byte('0'+int(mo)%10), '-', byte('0'+d/10), byte('0'+d%10), 'T')
	b = append(b, byte('0'+h/10), byte('0'+h%10), ':', byte('0'+mi/10), byte('0'+mi%10), ':', byte('0'+s/10), byte('0'+s%10), '.')
	return append(b, byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10), 'Z')
}

// Listing is when every contract's candle series starts. It is a Monday and
// the first of a month at midnight UTC, so that every period's buckets,
// D7 (Monday to Monday) and 1M (calendar months) included, start there.
func Listing() time.Time { return time.Date(2024, time.January, 1, 0, 0, 0, 0, time.UTC) }

// Candle is a futures candle (spec: Resources, Futures candle).
type Candle struct {
	// Timestamp is the start of the candle's bucket.
	Timestamp time.Time
	// Open, Close, Min and Max are decimal strings with Min <= Open, Close <= Max.
	Open, Close, Min, Max string
}

type candleJSON struct {
	Timestamp string `json:"timestamp"`
	Open      string `json:"open"`
	Close     string `json:"close"`
	Min       string `json:"min"`
	Max       string `json:"max"`
}

// MarshalJSON writes {timestamp, open, close, min, max}.
func (c Candle) MarshalJSON() ([]byte, error) {
	return json.Marshal(candleJSON{Timestamp: FormatTime(c.Timestamp),
		Open: c.Open, Close: c.Close, Min: c.Min, Max: c.Max})
}

// CandleQuery selects candles of one series. The zero From and Till leave
// that side unbounded (the listing and Now bound the series anyway).
type CandleQuery struct {
	Period Period
	// From and Till bound the bucket starts, both inclusive.
	From, Till time.Time
	// Desc returns newest first.
	Desc bool
	// Offset skips that many candles in the chosen order; Limit caps the
	// number returned.
	Offset, Limit int
	// Now is the emulator's clock: its bucket is the newest one.
	Now time.Time
}

// Candles returns the candles of one contract's series selected by q. Only
// the candles returned are generated: each is a pure function of contract,
// kind, period and bucket, so years of M1 buckets cost nothing.
func (c *Catalogue) Candles(contract string, kind Kind, q CandleQuery) ([]Candle, error) {
	if !c.IsFutures(contract) {
		return nil, fmt.Errorf("%w: %q", ErrUnknownContract, contract)
	}
	if kind != OpenInterest && kind != PremiumIndex {
		return nil, fmt.Errorf("market: unknown candle kind %q", kind)
	}
	b, ok := bucketsOf(q.Period)
	if !ok {
		return nil, fmt.Errorf("market: unknown candle period %q", q.Period)
	}
	hi := b.floor(q.Now)
	if !q.Till.IsZero() {
		hi = min(hi, b.floor(q.Till))
	}
	lo := int64(0)
	if !q.From.IsZero() {
		lo = max(lo, b.ceil(q.From))
	}
	n, off := hi-lo+1, max(int64(q.Offset), 0)
	if n <= 0 || off >= n || q.Limit <= 0 {
		return []Candle{}, nil
	}
	count := min(int64(q.Limit), n-off)
	s := newSeries(contract, kind, q.Period)
	out := make([]Candle, 0, count)
	for k := range count {
		i := lo + off + k
		if q.Desc {
			i = hi - off - k
		}
		out = append(out, s.candle(b, i))
	}
	return out, nil
}

// buckets maps bucket indexes (0 at Listing) to start times. A zero step
// means calendar months.
type buckets struct{ step time.Duration }

func bucketsOf(p Period) (buckets, bool) {
	switch p {
	case M1:
		return buckets{time.Minute}, true
	case M3:
		return buckets{3 * time.Minute}, true
	case M5:
		return buckets{5 * time.Minute}, true
	case M15:
		return buckets{15 * time.Minute}, true
	case M30:
		return buckets{30 * time.Minute}, true
	case H1:
		return buckets{time.Hour}, true
	case H4:
		return buckets{4 * time.Hour}, true
	case D1:
		return buckets{24 * time.Hour}, true
	case D7:
		return buckets{7 * 24 * time.Hour}, true
	case Month:
		return buckets{0}, true
	}
	return buckets{}, false
}

func (b buckets) start(i int64) time.Time {
	if b.step == 0 {
		return Listing().AddDate(0, int(i), 0)
	}
	return Listing().Add(time.Duration(i) * b.step)
}

// floor is the index of the bucket holding t, -1 before the listing. Far
// future times saturate (time.Sub does), which is harmless: the result is
// only ever compared with the bucket of Now.
func (b buckets) floor(t time.Time) int64 {
	t = t.UTC()
	l := Listing()
	if t.Before(l) {
		return -1
	}
	if b.step == 0 {
		return int64(t.Year()-l.Year())*12 + int64(t.Month()-l.Month())
	}
	return int64(t.Sub(l) / b.step)
}

// ceil is the index of the first bucket starting at or after t.
func (b buckets) ceil(t time.Time) int64 {
	f := b.floor(t)
	if f < 0 {
		return 0
	}
	if b.start(f).Equal(t) {
		return f
	}
	return f + 1
}

// series generates one contract's candles of one kind and period.
type series struct {
	contract string
	kind     Kind
	period   Period
	base     float64    // open interest magnitude
	phase    [3]float64 // of the slow, medium and fast waves
	places   int32
	spread   float64 // how far min and max may reach beyond open and close
}

func newSeries(contract string, kind Kind, period Period) series {
	s := series{contract: contract, kind: kind, period: period}
	for i := range s.phase {
		s.phase[i] = 2 * math.Pi * unit(seed(contract, kind, "", 0, byte('a'+i)))
	}
	// Longer buckets move further between open and close, so widen min/max.
	widen := 1 + math.Log(period.minutes())
	if kind == OpenInterest {
		s.base = 5000 + 45000*unit(seed(contract, kind, "", 0, 'b'))
		s.places = 2
		s.spread = s.base * 0.001 * widen
	} else {
		s.places = 8
		s.spread = 0.00002 * widen
	}
	return s
}

func (p Period) minutes() float64 {
	b, _ := bucketsOf(p)
	if b.step == 0 {
		return 30 * 24 * 60
	}
	return b.step.Minutes()
}

// level is the series' value at instant t. It does not depend on the period,
// so candles of every period agree on open and close at shared instants.
func (s series) level(t time.Time) float64 {
	days := float64(t.Unix()) / 86400
	wave := func(periodDays float64, i int) float64 { return math.Sin(2*math.Pi*days/periodDays + s.phase[i]) }
	noise := 2*unit(seed(s.contract, s.kind, "", t.Unix(), 'n')) - 1
	if s.kind == OpenInterest {
		// The amplitudes sum to well under 1, so the level stays positive.
		return s.base * (1 + 0.25*wave(97, 0) + 0.1*wave(13, 1) + 0.02*wave(7.0/24, 2) + 0.005*noise)
	}
	return 0.0004*wave(11, 0) + 0.0002*wave(5.0/24, 1) + 0.00015*noise
}

func (s series) candle(b buckets, i int64) Candle {
	start, end := b.start(i), b.start(i+1)
	round := func(v float64) decimal.Decimal { return decimal.NewFromFloat(v).Round(s.places) }
	open, closing := round(s.level(start)), round(s.level(end))
	up := round(s.spread * unit(seed(s.contract, s.kind, s.period, start.Unix(), 'h')))
	down := round(s.spread * unit(seed(s.contract, s.kind, s.period, start.Unix(), 'l')))
	return Candle{
		Timestamp: start,
		Open:      open.StringFixed(s.places),
		Close:     closing.StringFixed(s.places),
		Min:       decimal.Min(open, closing).Sub(down).StringFixed(s.places),
		Max:       decimal.Max(open, closing).Add(up).StringFixed(s.places),
	}
}

// seed hashes its inputs with FNV-1a and then a splitmix64 finaliser, since
// FNV alone leaves the high bits of nearby inputs correlated.
func seed(contract string, kind Kind, period Period, unixSec int64, salt byte) uint64 {
	h := fnv.New64a()
	var ts [8]byte
	binary.BigEndian.PutUint64(ts[:], uint64(unixSec))
	for _, part := range [][]byte{[]byte(contract), {0}, []byte(kind), {0}, []byte(period), {0, salt}, ts[:]} {
		_, _ = h.Write(part) // a hash.Hash never fails to write
	}
	x := h.Sum64()
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// unit maps a hash to [0, 1).
func unit(h uint64) float64 { return float64(h>>11) / (1 << 53) }
