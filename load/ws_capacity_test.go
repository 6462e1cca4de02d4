package load

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/fixtures"
)

// wsKeys are the full keys of the first two fixture accounts.
func wsKeys(t *testing.T) (maker, taker client.Credential) {
	t.Helper()
	accts, err := fixtures.Accounts()
	if err != nil || len(accts) < 2 {
		t.Fatalf("fixture accounts: %v", err)
	}
	full := func(i int) client.Credential {
		for _, k := range accts[i].Keys {
			if k.Role == "full" {
				return client.Credential{Key: k.APIKey, Secret: k.Secret}
			}
		}
		t.Fatalf("account %d has no full key", i)
		return client.Credential{}
	}
	return full(0), full(1)
}

// envInt reads a positive integer from the environment, or def.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// TestWSMarketCapacity measures the emulator's fan-out: WS_SUBSCRIBERS
// (default 2000) subscribers, WS_RATE (100) trades/s for WS_SECONDS (10),
// channels WS_CHANNELS (comma-separated, default DefaultChannels), scenario
// WS_SCENARIO (ws-market or ws2-market). Set CONFORM_PRECISION=1 to run it.
func TestWSMarketCapacity(t *testing.T) {
	precisionOnly(t)
	emu := startEmulator(t, false)
	base, err := ParseBase(emu.URL())
	if err != nil {
		t.Fatal(err)
	}
	maker, taker := wsKeys(t)
	subs := envInt("WS_SUBSCRIBERS", 2000)
	scenario := ScenarioWSMarket
	if sc := os.Getenv("WS_SCENARIO"); sc != "" {
		scenario = sc
	}
	cfg := StreamConfig{Scenario: scenario, Base: base, Subscribers: subs, Rate: float64(envInt("WS_RATE", 100)),
		Duration: time.Duration(envInt("WS_SECONDS", 10)) * time.Second, Maker: maker, Taker: taker,
		SourceAddrs: LoopbackSources((subs + 19) / 20), ConnectRate: 50, Progress: os.Stderr}
	if ch := os.Getenv("WS_CHANNELS"); ch != "" {
		cfg.Channels = splitComma(ch)
	}
	rec, err := RunStream(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	a := AnalyzeStream([]StreamRecord{rec}, "capacity", nil)
	_ = a.Summary.WriteText(os.Stderr)
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}
