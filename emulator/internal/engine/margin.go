package engine

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/margin"
	"github.com/shopspring/decimal"
)

// Margin trading (spec: Endpoints, Margin trading; Resources, Margin
// account). The model and its formulas are documented in emulator/internal/margin;
// this file keeps the state: accounts, positions, and the margin side of
// orders, all under the engine's lock, with every amount in the ledger.
//
// A margin account is a ledger account of its own (see marginLedgerID),
// holding the collateral currency and, for each open position, the base
// currency of its symbol; both may go below zero, which is the borrowed
// part. A margin order reserves margin in the collateral currency; its
// trades settle into the margin account like a spot trade into a spot
// balance. So Ledger.Total of every currency is unchanged by margin
// trading, as by spot trading.

// MarginAccount is a margin account as the API answers it (spec:
// Resources, Margin account).
type MarginAccount struct {
	// Symbol is the symbol of an isolated account and the currency of a
	// cross account (the spec's field is "symbol"; a cross account has none).
	Symbol string
	Type   string
	// Leverage is the isolated symbol's max_initial_leverage, which every
	// order and position of the account is margined at; nil for cross
	// accounts, whose symbols each have their own.
	Leverage             *decimal.Decimal
	CreatedAt, UpdatedAt time.Time
	Currencies           []MarginCurrency
	Positions            []Position // nil when there is none
}

// MarginCurrency is one currency of a margin account.
type MarginCurrency struct {
	Code string
	// MarginBalance is the collateral plus realized profit and loss, less
	// fees: the account's quote cash plus the cost bases of its positions.
	MarginBalance decimal.Decimal
	// ReservedOrders is what active orders hold.
	ReservedOrders decimal.Decimal
	// ReservedPositions is the initial margin of the open positions:
	// |cost basis| / leverage.
	ReservedPositions decimal.Decimal
}

// Position is an open margin position (spec: Resources, Margin account).
type Position struct {
	ID       int64
	Symbol   string
	Quantity decimal.Decimal // negative when short
	Leverage decimal.Decimal
	// MarginMode is isolated or cross.
	MarginMode string
	// PnL is unrealized: at the symbol's last trade price (zero before the
	// first trade).
	PnL, PriceEntry                   decimal.Decimal
	PriceMarginCall, PriceLiquidation decimal.Decimal
	FeeCumulative                     decimal.Decimal
	CreatedAt, UpdatedAt              time.Time
}

// MarginFunds is what a trader holds in margin accounts in one currency:
// the margin_balance of isolated accounts and of the cross account funded
// in it (spot balance: reserved_margin and cross_margin_reserved).
type MarginFunds struct {
	Isolated, Cross decimal.Decimal
}

// marginSym is one symbol's margin configuration, per mode (nil: none).
type marginSym struct {
	iso, cross *margin.Params
}

func (ms *marginSym) params(mode margin.Mode) *margin.Params {
	if ms == nil {
		return nil
	}
	if mode == margin.Cross {
		return ms.cross
	}
	return ms.iso
}

func (e *Engine) addMarginParams(p margin.Params) error {
	bk := e.books[p.Symbol]
	switch {
	case bk == nil:
		return fmt.Errorf("margin symbol %s is not traded", p.Symbol)
	case !bk.feeInQuote:
		return fmt.Errorf("margin symbol %s charges fees in its base currency", p.Symbol)
	case p.MaxLeverage.LessThan(decimal.New(1, 0)):
		return fmt.Errorf("margin symbol %s leverage %s below 1", p.Symbol, p.MaxLeverage)
	}
	ms := e.marginCfg[p.Symbol]
	if ms == nil {
		ms = &marginSym{}
		e.marginCfg[p.Symbol] = ms
		bk.margin = ms
	}
	slot := &ms.iso
	switch p.Mode {
	case margin.Isolated:
	case margin.Cross:
		slot = &ms.cross
	default:
		return fmt.Errorf("margin symbol %s mode %q", p.Symbol, p.Mode)
	}
	if *slot != nil {
		return fmt.Errorf("margin symbol %s %s given twice", p.Symbol, p.Mode)
	}
	*slot = &p
	return nil
}

// marginAcct is an open margin account.
type marginAcct struct {
	user  string
	mode  margin.Mode
	instr string // the symbol (isolated) or the currency (cross)
	// ledgerID is its ledger account; cur its collateral currency; src
	// the ledger account its collateral comes from and returns to (the
	// spot balance, or the futures balance of a futures account).
	ledgerID, cur, src string
	pos                map[int]*position // open positions by book index
	created, updated   int64
	// fut marks a futures account; lev its chosen leverage (zero: the
	// configuration's max_initial_leverage, as every margin account).
	fut bool
	lev decimal.Decimal
}

// leverage is what the account's orders and positions in a symbol
// configured by cfg are margined at: its chosen leverage, never above the
// symbol's maximum (a cross account backs symbols of several maxima).
func (ma *marginAcct) leverage(cfg *margin.Params) decimal.Decimal {
	if ma.lev.IsPositive() && ma.lev.LessThan(cfg.MaxLeverage) {
		return ma.lev
	}
	return cfg.MaxLeverage
}

// position is an open position: the account's signed holding of a
// symbol's base currency, in quantity increments, and its cost basis.
type position struct {
	id               int64
	bk               *book
	cfg              *margin.Params
	lots             int64
	cost, fee        decimal.Decimal
	created, updated int64
}

// marginLedgerID names a margin account's ledger account. Fixture account
// IDs hold no "|".
func marginLedgerID(user string, mode margin.Mode, instr string) string {
	return user + "|" + string(mode) + "|" + instr
}

// IsMarginLedgerAccount reports whether a ledger account is a margin
// account, whose balances may be below zero (the borrowed part).
func IsMarginLedgerAccount(id string) bool { return strings.Count(id, "|") == 2 }

// parseMargin reads the margin fields of an order request.
func (e *Engine) parseMargin(req PlaceRequest) (*marginOrder, *Error) {
	mg := &marginOrder{reduceOnly: req.Margin.ReduceOnly, closePos: req.Margin.ClosePosition, fut: req.Margin.Futures}
	switch m := req.Margin.Mode; m {
	case "":
		mg.mode = margin.Isolated
		if e.faults.On("V3-MARGIN-ORDER-MODE") && !mg.fut {
			mg.mode = margin.Cross
		}
	case string(margin.Isolated), string(margin.Cross):
		mg.mode = margin.Mode(m)
	default:
		return nil, errorf(ErrValidation, "margin_mode %q must be isolated or cross", m)
	}
	if mg.closePos && req.Quantity != nil && (mg.fut || !e.faults.On("V3-MARGIN-CLOSE-POSITION")) {
		return nil, errorf(ErrValidation, "close_position requires quantity to be omitted: the position's size is the quantity")
	}
	return mg, nil
}

// marginInstrument is the account an order of symbol bk in mode trades
// on: the symbol itself (isolated) or its quote currency (cross).
func marginInstrument(bk *book, mode margin.Mode) string {
	if mode == margin.Cross {
		return bk.sym.Quote
	}
	return bk.sym.Code
}

// bindMargin attaches a parsed margin order to its margin account, which
// must exist (spec: "Creating a margin order requires a margin account for
// the order symbol"). An order without one is refused as insufficient
// funds (20001): it has no margin to trade on.
func (e *Engine) bindMargin(o *order, user string, now int64) *Error {
	mode := o.mg.mode
	p := e.marginCfg[o.bk.sym.Code].params(mode)
	if p == nil || !p.Enabled {
		return errorf(ErrValidation, "symbol %s does not trade on %s margin", o.bk.sym.Code, mode)
	}
	instr := marginInstrument(o.bk, mode)
	ma := e.margin[acctLedgerID(user, o.mg.fut, mode, instr)]
	if ma == nil {
		if !e.faults.On("V3-MARGIN-ORDER-NEEDS-ACCOUNT") || o.mg.fut {
			return errorf(ErrInsufficientFunds, "no %s margin account for %s: fund one with PUT /%s/account/%s/%s first", mode, instr, family(o.mg.fut), mode, instr)
		}
		ma = e.openMargin(user, mode, instr, o.bk.sym.Quote, now)
		o.mg.force = true
	}
	o.mg.acct = ma
	if o.mg.closePos {
		o.setQty(e.closeSize(o))
	}
	return nil
}

func (e *Engine) openMargin(user string, mode margin.Mode, instr, cur string, now int64) *marginAcct {
	ma := &marginAcct{user: user, mode: mode, instr: instr, ledgerID: marginLedgerID(user, mode, instr), cur: cur, src: user,
		pos: map[int]*position{}, created: now, updated: now}
	e.margin[ma.ledgerID] = ma
	return ma
}

// resolveMargin checks a margin mode and instrument: an isolated account
// is for a symbol that trades on isolated margin (unknown: 2001), a cross
// account for a currency that some symbol trading on cross margin is
// quoted in (the API answers an unlisted currency with 2002 first). It
// answers the collateral currency.
func (e *Engine) resolveMargin(mode, instr string, fut bool) (margin.Mode, string, *Error) {
	switch margin.Mode(mode) {
	case margin.Isolated:
		bk := e.books[instr]
		if bk == nil || bk.sym.Futures != fut {
			return "", "", errorf(ErrSymbolNotFound, "symbol %q not found", instr)
		}
		if p := e.marginCfg[instr].params(margin.Isolated); p == nil || !p.Enabled {
			return "", "", errorf(ErrValidation, "symbol %s does not trade on isolated margin", instr)
		}
		return margin.Isolated, bk.sym.Quote, nil
	case margin.Cross:
		for _, bk := range e.bookList {
			if p := bk.margin.params(margin.Cross); p != nil && p.Enabled && bk.sym.Quote == instr && bk.sym.Futures == fut {
				return margin.Cross, instr, nil
			}
		}
		return "", "", errorf(ErrValidation, "no symbol quoted in %q trades on cross margin", instr)
	}
	return "", "", errorf(ErrValidation, "margin_mode %q must be isolated or cross", mode)
}

// SetMarginBalance sets a margin account's margin_balance (PUT
// /margin/account/{margin_mode}/{instrument}), opening the account when
// needed: the difference moves between the trader's spot balance (its
// available part) and the account in one ledger step. Raising it needs as
// much available in the spot balance, lowering it as much free margin
// (20001 otherwise). Zero closes the account: its active orders are
// canceled and everything it holds goes back to the spot balance; an open
// position must be closed first (20001). The answer is the account after
// the change (closed: zero balances, no positions).
func (e *Engine) SetMarginBalance(account, mode, instrument string, amount decimal.Decimal) (MarginAccount, error) {
	e.lock()
	defer e.unlock()
	now := e.now()
	m, cur, err := e.resolveMargin(mode, instrument, false)
	if err != nil {
		return MarginAccount{}, err
	}
	if amount.IsNegative() {
		return MarginAccount{}, errorf(ErrValidation, "margin_balance %s is negative", amount)
	}
	id := marginLedgerID(account, m, instrument)
	ma := e.margin[id]
	var before MarginAccount
	if ma != nil {
		before = e.accountView(ma)
	} else {
		before = e.closedView(m, instrument, cur, now, now)
	}
	out, err := e.setMarginBalance(account, acctSpec{mode: m, instr: instrument, cur: cur, src: account}, ma, amount, now)
	if err != nil {
		return MarginAccount{}, err
	}
	if e.faults.On("V3-MARGIN-PUT") {
		return before, nil
	}
	return out, nil
}

// acctSpec names a margin account to open: its mode, instrument,
// collateral currency and where the collateral comes from; fut and lev as
// in marginAcct.
type acctSpec struct {
	mode            margin.Mode
	instr, cur, src string
	fut             bool
	lev             decimal.Decimal
}

func (e *Engine) setMarginBalance(account string, sp acctSpec, ma *marginAcct, amount decimal.Decimal, now int64) (MarginAccount, *Error) {
	m, instr, cur := sp.mode, sp.instr, sp.cur
	if amount.IsZero() {
		if ma == nil {
			return e.closedView(m, instr, cur, now, now), nil
		}
		if e.faults.On("V3-MARGIN-CLOSE") && !ma.fut {
			return e.accountView(ma), nil
		}
		if len(ma.pos) > 0 {
			return MarginAccount{}, errorf(ErrInsufficientFunds, "the %s margin account of %s holds open positions: close them before closing the account", m, instr)
		}
		cash := e.lh.Balance(ma.ledgerID, cur)
		total := cash.Available.Add(cash.Reserved)
		if total.IsNegative() {
			if avail := e.lh.Balance(ma.src, cur).Available; avail.LessThan(total.Neg()) {
				return MarginAccount{}, errorf(ErrInsufficientFunds, "the account owes %s %s and the %s balance has %s available", total.Neg(), cur, srcName(ma.fut), avail)
			}
		}
		for _, o := range e.ordersOf(ma) {
			e.unlink(o)
			e.finalize(o, cCanceled, now, true)
		}
		// Every order released its hold, so the cash is all available.
		cash = e.lh.Balance(ma.ledgerID, cur)
		if err := e.lh.Apply(
			ledger.Delta{Account: ma.ledgerID, Currency: cur, Available: cash.Available.Neg(), MayOverdraw: true},
			ledger.Delta{Account: ma.src, Currency: cur, Available: cash.Available},
		); err != nil {
			return MarginAccount{}, errorf(ErrInsufficientFunds, "closing the margin account: %v", err)
		}
		delete(e.margin, ma.ledgerID)
		created := ma.created
		e.drain(now)
		return e.closedView(m, instr, cur, created, now), nil
	}
	opened := ma == nil
	if opened {
		ma = &marginAcct{user: account, mode: m, instr: instr, ledgerID: acctLedgerID(account, sp.fut, m, instr), cur: cur, src: sp.src,
			pos: map[int]*position{}, created: now, fut: sp.fut}
	}
	oldLev := ma.lev
	if sp.lev.IsPositive() {
		ma.lev = sp.lev
	}
	delta := amount.Sub(e.marginBalance(ma))
	// The account must keep free margin at zero or more after the change
	// (a lower leverage holds more for the positions).
	var refusal *Error
	avail, free := e.lh.Balance(ma.src, cur).Available, e.freeMargin(ma)
	switch {
	case delta.IsPositive() && avail.LessThan(delta) && e.faults.On("V3-MARGIN-PUT-FUNDS"):
		refusal = errorf(ErrValidation, "margin_balance %s needs %s %s, the %s balance has %s available", amount, delta, cur, srcName(ma.fut), avail)
	case delta.IsPositive() && avail.LessThan(delta):
		refusal = errorf(ErrInsufficientFunds, "insufficient funds: raising the margin balance to %s needs %s %s, the %s balance has %s available", amount, delta, cur, srcName(ma.fut), avail)
	case free.Add(delta).IsNegative():
		refusal = errorf(ErrInsufficientFunds, "insufficient margin: a margin balance of %s leaves %s %s free", amount, free.Add(delta), cur)
	}
	if refusal != nil {
		ma.lev = oldLev
		return MarginAccount{}, refusal
	}
	if err := e.lh.Apply(
		ledger.Delta{Account: ma.src, Currency: cur, Available: delta.Neg()},
		ledger.Delta{Account: ma.ledgerID, Currency: cur, Available: delta, MayOverdraw: true},
	); err != nil {
		ma.lev = oldLev
		return MarginAccount{}, errorf(ErrInsufficientFunds, "insufficient funds: %v", err)
	}
	ma.updated = now
	if opened {
		e.margin[ma.ledgerID] = ma
	}
	return e.accountView(ma), nil
}

// ordersOf lists the active orders trading on a margin account, by ID.
func (e *Engine) ordersOf(ma *marginAcct) []*order {
	var out []*order
	key := MarginKey(ma.user)
	if ma.fut {
		key = FuturesKey(ma.user)
	}
	if a := e.accounts[key]; a != nil {
		for _, o := range a.active {
			if o.mg != nil && o.mg.acct == ma {
				out = append(out, o)
			}
		}
	}
	slices.SortFunc(out, func(x, y *order) int { return int(x.id - y.id) })
	return out
}

// userMargins lists a trader's open margin accounts: isolated by symbol,
// then cross by currency.
func (e *Engine) userMargins(account string, fut bool) []*marginAcct {
	var out []*marginAcct
	for _, ma := range e.margin {
		if ma.user == account && ma.fut == fut {
			out = append(out, ma)
		}
	}
	slices.SortFunc(out, func(a, b *marginAcct) int {
		if a.mode != b.mode {
			return strings.Compare(string(b.mode), string(a.mode)) // isolated before cross
		}
		return strings.Compare(a.instr, b.instr)
	})
	return out
}

// MarginAccounts answers a trader's open margin accounts (GET
// /margin/account): isolated by symbol, then cross by currency.
func (e *Engine) MarginAccounts(account string) []MarginAccount {
	e.lock()
	defer e.unlock()
	e.now()
	out := []MarginAccount{}
	for _, ma := range e.userMargins(account, false) {
		out = append(out, e.accountView(ma))
	}
	return out
}

// MarginAccountOf answers one margin account (GET
// /margin/account/isolated/{symbol}, /margin/account/cross/{currency});
// one that is not open is a validation error (10001): the spec gives no
// code for it.
func (e *Engine) MarginAccountOf(account, mode, instrument string) (MarginAccount, error) {
	e.lock()
	defer e.unlock()
	e.now()
	m, _, err := e.resolveMargin(mode, instrument, false)
	if err != nil {
		return MarginAccount{}, err
	}
	ma := e.margin[marginLedgerID(account, m, instrument)]
	if ma == nil {
		return MarginAccount{}, errorf(ErrValidation, "no %s margin account for %s", m, instrument)
	}
	return e.accountView(ma), nil
}

// MarginFundsOf answers, by currency, what a trader holds in margin
// accounts (spot balance: reserved_margin and cross_margin_reserved).
func (e *Engine) MarginFundsOf(account string) map[string]MarginFunds {
	e.lock()
	defer e.unlock()
	return e.fundsOf(account, false)
}

func (e *Engine) fundsOf(account string, fut bool) map[string]MarginFunds {
	out := map[string]MarginFunds{}
	for _, ma := range e.userMargins(account, fut) {
		f := out[ma.cur]
		if ma.mode == margin.Cross {
			f.Cross = f.Cross.Add(e.marginBalance(ma))
		} else {
			f.Isolated = f.Isolated.Add(e.marginBalance(ma))
		}
		out[ma.cur] = f
	}
	return out
}
