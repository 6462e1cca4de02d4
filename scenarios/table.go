package scenarios

import (
	"fmt"

	"github.com/conform-harness/conform/rules"
)

// Kind says what a row counts.
type Kind int

// Kinds of rows.
const (
	REST   Kind = iota // REST requests
	Stream             // messages on a WebSocket stream
)

// Scope says whom a row counts.
type Scope int

// Scopes of the limit tables.
const (
	PerIP      Scope = iota // per source address, whatever the credentials
	PerAccount              // per account, whatever the key or address
)

func (s Scope) String() string { return [...]string{"per IP", "per account"}[s] }

// Target is one request (or stream message) a row sends.
type Target struct {
	// Method and Path (relative to /api/3; {symbol} is replaced by a
	// listed spot symbol) of a REST request, or the stream path.
	Method string
	Path   string
	// Message is a stream message, with %q for its id.
	Message string
}

func (t Target) String() string {
	if t.Message != "" {
		return t.Path
	}
	return t.Method + " " + t.Path
}

// Row is one row of the spec's limit tables, as a scenario. The first
// target is checked in full (exactly rate plus burst accepted, recovery
// after the window, the window sliding) from Addresses source addresses,
// each with a budget of its own; each further target of the row (the other
// paths named on the same row) is checked for exactness from one address
// of its own, so that the row holds for every path whether or not the
// paths share a budget (V3-LIMIT-ROW-SHARED).
type Row struct {
	Rule        string
	Kind        Kind
	Scope       Scope
	Rate, Burst int
	Targets     []Target
	// Addresses is how many source addresses the first target is offered
	// from. A per-account row spreads its requests over them (and over two
	// keys of the account), keeping each address within IPBudget.
	Addresses int
	// IPBudget is the per-IP budget of the row's path, which a per-account
	// row must stay under on every address.
	IPBudget int
	// Workers is the concurrency of each address's offers.
	Workers int
	// Logins says that the row's method group counts logins (a stream
	// row per account), so no other row may log in during its offers.
	Logins bool
}

// Budget is rate plus burst: what one window holds.
func (r Row) Budget() int { return r.Rate + r.Burst }

// Extra is how many requests beyond the budget a scenario offers: enough
// to show refusals, few enough to stay fast.
func (r Row) Extra() int { return max(5, r.Budget()/10) }

func (r Row) String() string {
	return fmt.Sprintf("%s: %s %d+%d %s", r.Rule, r.Targets[0], r.Rate, r.Burst, r.Scope)
}

// Requests the rows send. Per-IP rows send no credentials: the limit is
// per IP whatever the identity, and anonymous requests cannot spend a
// per-account budget that another row is measuring. The answer (200, 401,
// 404) does not matter, only whether the request was refused. Paths are
// below the row's prefix (/x/* rows get /x/something) so that no reading of
// "/x/*" leaves them out.
const (
	probeID = "conformlimitprobe"

	msgPublic  = `{"method":"subscriptions","ch":"trades","id":%q}`
	msgTrading = `{"method":"spot_balances","params":{},"id":%q}`
	msgWallet  = `{"method":"wallet_balances","params":{},"id":%q}`
)

// Table is the declarative table of the limit scenarios: one row per limit
// rule of the v3 Limits section. The numbers (rate, burst, scope, kind) come
// from the harness's one reading of the document, rules.Limits (not from
// the emulator, so that a misreading there cannot hide here); this table
// adds how each row is offered.
func Table() []Row {
	rows := offers()
	for i := range rows {
		l, ok := rules.LimitOf(rows[i].Rule)
		if !ok {
			panic(fmt.Sprintf("scenarios: %s has no row in rules.Limits", rows[i].Rule)) // caught by the package's tests
		}
		rows[i].Rate, rows[i].Burst = l.Rate, l.Burst
		rows[i].Kind, rows[i].Scope = REST, PerIP
		if l.Stream {
			rows[i].Kind = Stream
		}
		if l.PerAccount {
			rows[i].Scope = PerAccount
		}
	}
	return rows
}

// offers says how each limit row is offered: its requests, addresses and
// workers.
func offers() []Row {
	get := func(p string) Target { return Target{Method: "GET", Path: p} }
	return []Row{
		// Per IP address, REST.
		{Rule: "V3-LIMIT-IP-DEFAULT",
			Targets: []Target{get("/spot/balance")}, Addresses: 3, Workers: 4},
		{Rule: "V3-LIMIT-IP-PUBLIC",
			Targets: []Target{get("/public/symbol/{symbol}")}, Addresses: 3, Workers: 4},
		{Rule: "V3-LIMIT-IP-WALLET",
			Targets: []Target{get("/wallet/balance")}, Addresses: 3, Workers: 4},
		{Rule: "V3-LIMIT-IP-BUYCRYPTO-PROVIDER",
			Targets: []Target{get("/buy-crypto/provider/1/rate")}, Addresses: 3, Workers: 4},
		// The spec names no endpoint under /buy-crypto/fiat2crypto/.
		{Rule: "V3-LIMIT-IP-BUYCRYPTO-FIAT2CRYPTO",
			Targets: []Target{get("/buy-crypto/fiat2crypto/provider")}, Addresses: 3, Workers: 4},
		{Rule: "V3-LIMIT-IP-SPOT-ORDER",
			Targets: []Target{get("/spot/order/" + probeID)}, Addresses: 2, Workers: 8},
		{Rule: "V3-LIMIT-IP-MARGIN",
			Targets: []Target{get("/margin/order/" + probeID), get("/margin/account/isolated/{symbol}"),
				{Method: "DELETE", Path: "/margin/position/isolated/{symbol}"}}, Addresses: 2, Workers: 8},
		// Futures paths are not shown beyond their names.
		{Rule: "V3-LIMIT-IP-FUTURES",
			Targets: []Target{get("/futures/order/" + probeID), get("/futures/account/" + probeID),
				get("/futures/position/" + probeID)}, Addresses: 2, Workers: 8},
		{Rule: "V3-LIMIT-IP-TRANSFER-CONVERT",
			Targets: []Target{get("/transfer-convert/config")}, Addresses: 3, Workers: 4},

		// Per IP address, streams: two connections per address share its budget.
		{Rule: "V3-LIMIT-WS-PUBLIC-MSG",
			Targets: []Target{{Path: "/ws/public", Message: msgPublic}}, Addresses: 2},
		{Rule: "V3-LIMIT-WS-TRADING-MSG",
			Targets: []Target{{Path: "/ws/trading", Message: msgTrading}}, Addresses: 2},
		{Rule: "V3-LIMIT-WS-WALLET-MSG",
			Targets: []Target{{Path: "/ws/wallet", Message: msgWallet}}, Addresses: 2},

		// Per account, REST: spread over three addresses so that no address
		// reaches its own per-IP budget first.
		{Rule: "V3-LIMIT-ACCT-WALLET",
			Targets: []Target{get("/wallet/balance")}, Addresses: 3, IPBudget: 20, Workers: 4},
		{Rule: "V3-LIMIT-ACCT-BUYCRYPTO",
			Targets: []Target{get("/buy-crypto/provider")}, Addresses: 3, IPBudget: 20, Workers: 4},
		{Rule: "V3-LIMIT-ACCT-SUBACCOUNT",
			Targets: []Target{get("/sub-account")}, Addresses: 3, IPBudget: 50, Workers: 4},

		// Per account, stream methods: each address within its per-IP
		// stream budget (10 and 10) at every phase of the slide.
		{Rule: "V3-LIMIT-ACCT-WS-TRADING-SUBSCRIBE", Logins: true,
			Targets: []Target{{Path: "/ws/trading", Message: msgAcctSubscribe}}, Addresses: 2, IPBudget: 20},
		{Rule: "V3-LIMIT-ACCT-WS-TRADING-QUERY",
			Targets: []Target{{Path: "/ws/trading", Message: msgAcctQuery}}, Addresses: 4, IPBudget: 20},
		{Rule: "V3-LIMIT-ACCT-WS-TRADING-ORDER",
			Targets: []Target{{Path: "/ws/trading", Message: msgAcctOrder}}, Addresses: 36, IPBudget: 20},
		{Rule: "V3-LIMIT-ACCT-WS-WALLET-LOGIN", Logins: true,
			Targets: []Target{{Path: "/ws/wallet", Message: msgAcctLogin}}, Addresses: 2, IPBudget: 20},
		{Rule: "V3-LIMIT-ACCT-WS-WALLET",
			Targets: []Target{{Path: "/ws/wallet", Message: msgAcctWallet}}, Addresses: 2, IPBudget: 20},

		// The v2 Limits section (paths under /api/2): rates without a burst,
		// which conform reads as none (V2-LIMIT-BURST). v2 market data has
		// no per-user row and the other requests no per-IP one.
		{Rule: "V2-LIMIT-MARKETDATA",
			Targets: []Target{get("/api/2/public/symbol/{symbol}")}, Addresses: 3, Workers: 4},
		// A window of 10 is small: the two keys' senders each send in turn
		// (one address, one worker), so that both learn what an accepted
		// answer is from a request the budget still holds.
		{Rule: "V2-LIMIT-OTHER",
			Targets: []Target{get("/api/2/history/trades")}, Addresses: 1, IPBudget: 1000, Workers: 1},
	}
}

// ConnCap is the documented number of WebSocket connections per IP address.
const ConnCap = 100
