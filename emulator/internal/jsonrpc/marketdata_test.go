package jsonrpc

import (
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/shopspring/decimal"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestBucketOf(t *testing.T) {
	for _, tc := range []struct{ period, at, want string }{
		{"M1", "2026-03-02T12:34:56Z", "2026-03-02T12:34:00Z"},
		{"M30", "2026-03-02T12:34:56Z", "2026-03-02T12:30:00Z"},
		{"H4", "2026-03-02T13:34:56Z", "2026-03-02T12:00:00Z"},
		{"D1", "2026-03-02T13:34:56Z", "2026-03-02T00:00:00Z"},
		{"1M", "2026-03-02T13:34:56Z", "2026-03-01T00:00:00Z"},
	} {
		if got := bucketOf(tc.period, at(tc.at)); !got.Equal(at(tc.want)) {
			t.Errorf("%s of %s: %s, want %s", tc.period, tc.at, got, tc.want)
		}
	}
}

func TestCandlesOf(t *testing.T) {
	d := decimal.RequireFromString
	trades := []engine.PublicTrade{
		{ID: 1, Price: d("10"), Quantity: d("1"), Timestamp: at("2026-03-02T12:00:10Z")},
		{ID: 2, Price: d("12"), Quantity: d("2"), Timestamp: at("2026-03-02T12:00:20Z")},
		{ID: 3, Price: d("9"), Quantity: d("1"), Timestamp: at("2026-03-02T12:00:30Z")},
		{ID: 4, Price: d("11"), Quantity: d("3"), Timestamp: at("2026-03-02T12:02:00Z")},
	}
	cs := candlesOf(trades, "M1", 0, time.Time{})
	want := []candle{
		{Timestamp: "2026-03-02T12:00:00.000Z", Open: "10", Close: "9", Min: "9", Max: "12", Volume: "4", VolumeQuote: "43"},
		{Timestamp: "2026-03-02T12:02:00.000Z", Open: "11", Close: "11", Min: "11", Max: "11", Volume: "3", VolumeQuote: "33"},
	}
	if len(cs) != len(want) || cs[0] != want[0] || cs[1] != want[1] {
		t.Fatalf("candles %+v, want %+v", cs, want)
	}
	if cs := candlesOf(trades, "M1", 1, time.Time{}); len(cs) != 1 || cs[0] != want[1] {
		t.Fatalf("limit 1: %+v", cs)
	}
	if cs := candlesOf(trades, "M1", 0, at("2026-03-02T12:00:00Z")); len(cs) != 1 || cs[0] != want[0] {
		t.Fatalf("until the first bucket: %+v", cs)
	}
}

func TestTradeFilter(t *testing.T) {
	tr := engine.PublicTrade{ID: 5, Timestamp: at("2026-03-02T12:00:00Z")}
	for _, tc := range []struct {
		params string
		by     string
		keep   bool
		err    bool
	}{
		{`{}`, "id", true, false},
		{`{"from":5,"till":5}`, "id", true, false},
		{`{"from":6}`, "id", false, false},
		{`{"till":"4"}`, "id", false, false},
		{`{"from":"x"}`, "id", false, true},
		{`{"from":"2026-03-02T12:00:00Z"}`, "timestamp", true, false},
		{`{"till":"2026-03-02T11:59:59Z"}`, "timestamp", false, false},
	} {
		p, perr := api.JSONParams([]byte(tc.params))
		if perr != nil {
			t.Fatal(perr)
		}
		keep, err := tradeFilter(p, tc.by)
		if (err != nil) != tc.err {
			t.Errorf("%s by %s: error %v", tc.params, tc.by, err)
			continue
		}
		if err == nil && keep(tr) != tc.keep {
			t.Errorf("%s by %s: keep %v, want %v", tc.params, tc.by, keep(tr), tc.keep)
		}
	}
}

func TestCheckBearer(t *testing.T) {
	k := auth.Key{APIKey: "key-1", Secret: "secret-1"}
	now := time.Unix(1_800_000_000, 0)
	good := BearerToken(k.APIKey, k.Secret, now.Add(time.Hour))
	for _, tc := range []struct {
		name, jwt string
		ok        bool
	}{
		{"issued for the key", good, true},
		{"not a JWT", "abc", false},
		{"another secret", BearerToken(k.APIKey, "other", now.Add(time.Hour)), false},
		{"another key", BearerToken("key-2", k.Secret, now.Add(time.Hour)), false},
		{"expired", BearerToken(k.APIKey, k.Secret, now.Add(-time.Second)), false},
		{"tampered", good[:len(good)-2] + "AA", false},
	} {
		if got := checkBearer(tc.jwt, k, now) == ""; got != tc.ok {
			t.Errorf("%s: accepted %v, want %v (%s)", tc.name, got, tc.ok, checkBearer(tc.jwt, k, now))
		}
	}
}
