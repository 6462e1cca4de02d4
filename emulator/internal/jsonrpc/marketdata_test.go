package jsonrpc

import (
	"testing"
	"time"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/tape"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestTradeFilter(t *testing.T) {
	tr := tape.Trade{ID: 5, At: at("2026-03-02T12:00:00Z")}
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
