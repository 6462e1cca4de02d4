package target

import "fmt"

// ParallelAccounts is how many parallel processes may run specs that read
// and change account-wide state (balances, open orders, positions) on this
// target without racing each other: one per account set on a target that
// may trade with configured accounts, and no bound (0) otherwise (nothing
// changes an account there, or the emulator hands each process fixture
// accounts of its own).
func (c *Config) ParallelAccounts() int {
	if len(c.Accounts) == 0 {
		return 0
	}
	okREST, _ := c.MayTrade()
	if okStream, _ := c.MayTradeStream(); !okREST && !okStream {
		return 0
	}
	return 1 + len(c.AccountSets)
}

// ForProcess returns the config as Ginkgo process p (from 1) of n sees it:
// its own account set in Accounts. It fails when p has no set of its own on
// a target where processes would share an account's state.
func (c Config) ForProcess(p, n int) (Config, error) {
	limit := c.ParallelAccounts()
	if limit == 0 || p == 1 {
		return c, nil
	}
	if p > limit {
		return c, fmt.Errorf("process %d of %d has no account of its own on %s: parallel processes would race on one account's balances and orders; "+
			"run with --procs %d or give more account_sets in the target config", p, n, c.REST, limit)
	}
	c.Accounts = c.AccountSets[p-2]
	return c, nil
}
