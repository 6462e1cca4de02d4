package target

import (
	"strings"
	"testing"
)

func TestParallelAccountsAndForProcess(t *testing.T) {
	one := map[string]Account{RoleFull: {APIKey: "k1", Secret: "s1"}}
	two := map[string]Account{RoleFull: {APIKey: "k2", Secret: "s2"}}
	for _, tc := range []struct {
		name  string
		cfg   Config
		limit int
	}{
		{"not trading: no bound", Config{REST: "http://x", Accounts: one}, 0},
		{"sandbox, no accounts (emulator fixtures): no bound", Config{REST: "http://x", Sandbox: true}, 0},
		{"sandbox, one account: serial", Config{REST: "http://x", Sandbox: true, Accounts: one}, 1},
		{"live trading allowed, one account: serial", Config{REST: "http://x", AllowLiveTrading: true, Accounts: one}, 1},
		{"sandbox, two sets", Config{REST: "http://x", Sandbox: true, Accounts: one, AccountSets: []map[string]Account{two}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.cfg.ParallelAccounts(); got != tc.limit {
				t.Fatalf("ParallelAccounts = %d, want %d", got, tc.limit)
			}
			if tc.limit == 0 {
				return
			}
			if c, err := tc.cfg.ForProcess(tc.limit, tc.limit); err != nil || (tc.limit > 1 && c.Accounts[RoleFull].APIKey != "k2") {
				t.Errorf("ForProcess(%d): %v %v", tc.limit, c.Accounts, err)
			}
			if _, err := tc.cfg.ForProcess(tc.limit+1, tc.limit+1); err == nil || !strings.Contains(err.Error(), "--procs") {
				t.Errorf("ForProcess beyond the sets: %v", err)
			}
		})
	}
}
