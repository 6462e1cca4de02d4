package trading

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// Balance is one currency of the spot balance, every amount of the table
// (the margin reservations included: the table gives them on every target).
type Balance struct{ Avail, Reserved, ReservedMargin, CrossReserved decimal.Decimal }

// Total is what the account holds of the currency outside margin accounts:
// available plus reserved.
func (b Balance) Total() decimal.Decimal { return b.Avail.Add(b.Reserved) }

// Equal reports whether every amount of b equals o's.
func (b Balance) Equal(o Balance) bool {
	return b.Avail.Equal(o.Avail) && b.Reserved.Equal(o.Reserved) && b.ReservedMargin.Equal(o.ReservedMargin) && b.CrossReserved.Equal(o.CrossReserved)
}

func (b Balance) String() string {
	return fmt.Sprintf("available %s, reserved %s, reserved_margin %s, cross_margin_reserved %s", b.Avail, b.Reserved, b.ReservedMargin, b.CrossReserved)
}

// BalanceOf reads a balance object, failing the spec when an amount is
// missing or not a decimal string.
func BalanceOf(o map[string]any) Balance {
	GinkgoHelper()
	return Balance{Avail: DecField(o, "available"), Reserved: DecField(o, "reserved"),
		ReservedMargin: DecField(o, "reserved_margin"), CrossReserved: DecField(o, "cross_margin_reserved")}
}

// Balances reads GET /spot/balance into a map by currency.
func (t *Trader) Balances(ctx context.Context) map[string]Balance {
	GinkgoHelper()
	ex := t.Do(ctx, http.MethodGet, "/spot/balance", nil)
	Expect(ex).To(framework.BeOK(), "reading the spot balances of %s", t.Role)
	out := map[string]Balance{}
	for _, o := range Objects(ex) {
		cur, _ := o["currency"].(string)
		out[cur] = BalanceOf(o)
	}
	return out
}

// choiceAge is how long ChoiceBalances answers from what it read: within
// it the balances a spec chooses symbols by hardly move (parked orders cost
// a few ticks, fills a hundred steps), and over a path tens of
// milliseconds away the read each spec made was a round trip of its own.
const choiceAge = 10 * time.Second

// choiceCache is this process's last read of each role's balances.
var choiceCache = struct {
	mu   sync.Mutex
	read map[string]choiceRead
}{read: map[string]choiceRead{}}

type choiceRead struct {
	at   time.Time
	bals map[string]Balance
}

// ChoiceBalances is Balances read at most choiceAge ago: for choosing where
// to place orders (which currencies the account holds enough of), never
// for judging what a spec changed (Balances and Snapshot read afresh).
func (t *Trader) ChoiceBalances(ctx context.Context) map[string]Balance {
	GinkgoHelper()
	choiceCache.mu.Lock()
	r, ok := choiceCache.read[t.Role]
	choiceCache.mu.Unlock()
	if ok && time.Since(r.at) < choiceAge {
		return maps.Clone(r.bals)
	}
	bals := t.Balances(ctx)
	choiceCache.mu.Lock()
	choiceCache.read[t.Role] = choiceRead{at: time.Now(), bals: maps.Clone(bals)}
	choiceCache.mu.Unlock()
	return bals
}

// Balance reads GET /spot/balance/{currency}.
func (t *Trader) Balance(ctx context.Context, cur string) Balance {
	GinkgoHelper()
	ex := t.Do(ctx, http.MethodGet, "/spot/balance/"+cur, nil)
	Expect(ex).To(framework.BeOK(), "reading the %s spot balance of %s", cur, t.Role)
	return BalanceOf(framework.ObjectOf(ex))
}

// Snapshot reads several currencies at once, each once (side by side).
func (t *Trader) Snapshot(ctx context.Context, curs ...string) map[string]Balance {
	GinkgoHelper()
	curs = slices.Compact(slices.Sorted(slices.Values(curs)))
	got := make([]Balance, len(curs))
	Each(len(curs), func(i int) { got[i] = t.Balance(ctx, curs[i]) })
	out := make(map[string]Balance, len(curs))
	for i, c := range curs {
		out[c] = got[i]
	}
	return out
}

// MarginCollateral is what a spec puts on a margin account in cur: a
// twentieth of t's available balance, enough for the orders specs place
// and far from all of it, within TransferPlaces so that strict validation
// accepts it. The spec skips when that leaves nothing. A twentieth of a
// balance read seconds ago (ChoiceBalances) serves as well as of a fresh one.
func (t *Trader) MarginCollateral(ctx context.Context, cur string) decimal.Decimal {
	GinkgoHelper()
	amount := t.ChoiceBalances(ctx)[cur].Avail.Div(decimal.NewFromInt(20)).Truncate(TransferPlaces(ctx, cur))
	if !amount.IsPositive() {
		Skip(fmt.Sprintf("the %s account holds too little %s to fund a margin account", t.Role, cur))
	}
	return amount
}

// precisionCache holds the currencies' precision_transfer: a process reads
// each once, since real targets rate-limit public calls.
var (
	precisionMu    sync.Mutex
	precisionCache = map[string]decimal.Decimal{}
)

// TransferPrecision reads a currency's precision_transfer, the only
// precision the Currency table gives.
func TransferPrecision(ctx context.Context, code string) decimal.Decimal {
	GinkgoHelper()
	precisionMu.Lock()
	p, ok := precisionCache[code]
	precisionMu.Unlock()
	if ok {
		return p
	}
	ex, _ := framework.Current().Public().Get(ctx, "/public/currency/"+code, nil)
	Expect(ex).To(framework.BeOK(), "reading the currency %s", code)
	p = DecField(framework.ObjectOf(ex), "precision_transfer")
	precisionMu.Lock()
	precisionCache[code] = p
	precisionMu.Unlock()
	return p
}

// TransferPlaces is how many decimal places an amount of cur that specs
// move may have: those of its precision_transfer, at most 4 (an amount any
// target accepts).
func TransferPlaces(ctx context.Context, cur string) int32 {
	GinkgoHelper()
	return min(int32(4), max(0, -TransferPrecision(ctx, cur).Exponent()))
}
