package tape

import (
	"strings"
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/shopspring/decimal"
)

func TestBucketStart(t *testing.T) {
	at := time.Date(2026, 3, 4, 13, 47, 31, 0, time.UTC) // a Wednesday
	cases := map[market.Period]time.Time{
		market.M1:    time.Date(2026, 3, 4, 13, 47, 0, 0, time.UTC),
		market.M3:    time.Date(2026, 3, 4, 13, 45, 0, 0, time.UTC),
		market.M15:   time.Date(2026, 3, 4, 13, 45, 0, 0, time.UTC),
		market.M30:   time.Date(2026, 3, 4, 13, 30, 0, 0, time.UTC),
		market.H4:    time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC),
		market.D1:    time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC),
		market.D7:    time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC),
		market.Month: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
	}
	for p, want := range cases {
		if got := BucketStart(p, at); !got.Equal(want) {
			t.Errorf("%s: %s, want %s", p, got, want)
		}
	}
}

func print(sym string, id int64, p, q string, at time.Time) engine.Event {
	return engine.Event{Kind: engine.TradeEvent, Print: engine.PublicTrade{Symbol: sym, ID: id, Price: decimal.RequireFromString(p),
		Quantity: decimal.RequireFromString(q), TakerSide: engine.Buy, Timestamp: at}}
}

func TestTapeCandlesRateAndListeners(t *testing.T) {
	tp := New([]Pair{{"ETHBTC", "ETH", "BTC"}, {"BTCUSDT", "BTC", "USDT"}})
	l := tp.Listen()
	at := time.Date(2026, 3, 4, 13, 47, 1, 0, time.UTC)
	tp.Observe(print("ETHBTC", 1, "0.05", "2", at))
	tp.Observe(print("ETHBTC", 2, "0.07", "1", at.Add(10*time.Second)))
	tp.Observe(print("ETHBTC", 3, "0.04", "1", at.Add(70*time.Second)))
	cs := tp.Candles("ETHBTC", market.M1, 10)
	if len(cs) != 2 || cs[0].High.String() != "0.07" || cs[0].Close.String() != "0.07" || cs[0].Volume.String() != "3" || cs[0].VolumeQuote.String() != "0.17" {
		t.Fatalf("M1 candles %+v", cs)
	}
	if h := tp.Candles("ETHBTC", market.H1, 10); len(h) != 1 || h[0].Low.String() != "0.04" || h[0].Open.String() != "0.05" {
		t.Fatalf("H1 candles %+v", h)
	}
	if tr := tp.Trades("ETHBTC", 2); len(tr) != 2 || tr[1].ID != 3 {
		t.Fatalf("trades %+v", tr)
	}
	if r, ok := tp.Rate("ETH", "BTC"); !ok || r.String() != "0.04" {
		t.Fatalf("rate ETH/BTC %s %v", r, ok)
	}
	if r, ok := tp.Rate("BTC", "ETH"); !ok || r.String() != "25" {
		t.Fatalf("rate BTC/ETH %s %v", r, ok)
	}
	if _, ok := tp.Rate("BTC", "USDT"); ok {
		t.Fatal("a rate without trades")
	}
	for want := uint64(1); want <= 3; want++ {
		if u := <-l.C(); u.Seq != want {
			t.Fatalf("update %+v", u)
		}
	}
	if c, ok := tp.CandleOf("ETHBTC", market.M1, at.Add(70*time.Second)); !ok || c.Volume.String() != "1" {
		t.Fatalf("candle of trade 3: %+v %v", c, ok)
	}
	st := tp.Stats("ETHBTC", at.Add(time.Hour))
	if !st.Traded || st.Open.String() != "0.05" || st.Last.String() != "0.04" || st.Volume.String() != "4" {
		t.Fatalf("stats %+v", st)
	}
	tp.Observe(engine.Event{Kind: engine.ResetEvent})
	if u := <-l.C(); !u.Reset || len(tp.Trades("ETHBTC", 10)) != 0 {
		t.Fatal("reset kept trades")
	}
	l.Close()
	l.Close()
}

// BenchmarkObserve is what the tape adds to each trade the engine makes.
func BenchmarkObserve(b *testing.B) {
	tp := New([]Pair{{"ETHBTC", "ETH", "BTC"}})
	at := time.Date(2026, 3, 4, 13, 47, 1, 0, time.UTC)
	ev := print("ETHBTC", 1, "0.05", "2", at)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		ev.Print.ID = int64(i)
		ev.Print.Timestamp = at.Add(time.Duration(i) * time.Millisecond)
		tp.Observe(ev)
	}
}

func TestFigures(t *testing.T) {
	d := decimal.RequireFromString
	str := func(f *string) string {
		if f == nil {
			return "null"
		}
		return *f
	}
	cases := []struct {
		name                  string
		st                    Stats
		last, open, low, high string
		volume, volumeQuote   string
	}{
		{"never traded", Stats{}, "null", "null", "null", "null", "0", "0"},
		{"traded before the window", Stats{Last: d("1.5"), HasLast: true}, "1.5", "null", "null", "null", "0", "0"},
		{"traded in the window", Stats{Open: d("1"), High: d("2"), Low: d("0.5"), Last: d("1.5"), Volume: d("3"), VolumeQuote: d("4.5"), Traded: true, HasLast: true},
			"1.5", "1", "0.5", "2", "3", "4.5"},
	}
	for _, c := range cases {
		f := c.st.Figures()
		got := []string{str(f.Last), str(f.Open), str(f.Low), str(f.High), f.Volume, f.VolumeQuote}
		want := []string{c.last, c.open, c.low, c.high, c.volume, c.volumeQuote}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: figure %d = %s, want %s", c.name, i, got[i], want[i])
			}
		}
	}
}

// TestListenerOnly checks the listeners' index: a listener gets its
// symbols' trades and every reset, follows a change of its symbols, and
// one dropped for falling behind is gone from the index.
func TestListenerOnly(t *testing.T) {
	tp := New([]Pair{{"ETHBTC", "ETH", "BTC"}, {"BTCUSDT", "BTC", "USDT"}})
	at := time.Date(2026, 3, 4, 13, 47, 1, 0, time.UTC)
	all, eth, none := tp.Listen(), tp.Listen(), tp.Listen()
	eth.Only(map[string]bool{"ETHBTC": true, "BTCUSDT": false})
	none.Only(map[string]bool{})
	drain := func(l *Listener) (syms []string) {
		for {
			select {
			case u := <-l.C():
				if u.Reset {
					syms = append(syms, "reset")
				} else {
					syms = append(syms, u.Symbol)
				}
			default:
				return syms
			}
		}
	}
	tp.Observe(print("ETHBTC", 1, "0.05", "1", at))
	tp.Observe(print("BTCUSDT", 2, "30000", "1", at))
	tp.Observe(engine.Event{Kind: engine.ResetEvent})
	for _, c := range []struct {
		name string
		l    *Listener
		want string
	}{{"every symbol", all, "ETHBTC BTCUSDT reset"}, {"ETHBTC only", eth, "ETHBTC reset"}, {"none", none, "reset"}} {
		if got := strings.Join(drain(c.l), " "); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	eth.Only(map[string]bool{"BTCUSDT": true})
	none.Only(nil)
	tp.Observe(print("ETHBTC", 3, "0.05", "1", at))
	tp.Observe(print("BTCUSDT", 4, "30000", "1", at))
	if got := strings.Join(drain(eth), " "); got != "BTCUSDT" {
		t.Errorf("moved to BTCUSDT: %s", got)
	}
	if got := strings.Join(drain(none), " "); got != "ETHBTC BTCUSDT" {
		t.Errorf("every symbol again: %s", got)
	}
	for i := 0; i <= ListenQueue; i++ {
		tp.Observe(print("BTCUSDT", int64(10+i), "30000", "1", at))
	}
	if !eth.Dropped() || !all.Dropped() || !none.Dropped() {
		t.Fatalf("listeners behind by more than the queue are dropped")
	}
	if n := len(tp.listeners.all) + len(tp.listeners.every) + len(tp.listeners.bySymbol); n != 0 {
		t.Errorf("dropped listeners left %d entries in the index", n)
	}
	eth.Close() // after a drop: nothing left to do
	eth.Only(map[string]bool{"ETHBTC": true})
	if len(tp.listeners.bySymbol) != 0 {
		t.Errorf("Only on a dropped listener indexed it again")
	}
}
