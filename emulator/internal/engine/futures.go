package engine

import (
	"fmt"
	"strings"

	"github.com/conform-harness/conform/emulator/internal/margin"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/shopspring/decimal"
)

// Futures trading (spec: Endpoints, Other endpoint families: "parameters and
// responses not shown beyond path names"). The real service's futures API
// mirrors its margin API, and so does the engine: a futures contract is a
// book of its own (only futures orders trade it), a futures account is a
// margin account (isolated per contract, cross per currency) funded from
// the trader's futures balance instead of the spot balance, and a position
// is the account's signed holding of the contract. The contract is its own
// unit in the ledger (Symbol.Base is its code), so every futures trade
// conserves both the contracts and the quote currency, like a margin trade.
// Futures accounts may choose their leverage, up to the contract's
// max_initial_leverage.

// futuresSuffix marks the engine account that keeps a trader's futures
// orders (own client_order_id namespace, active set, history and trades).
const futuresSuffix = "|futures"

// FuturesKey is the account key under which the engine keeps a trader's
// futures orders: pass it to Active, Get, Cancel, CancelAll, Replace and
// History to work on futures orders.
func FuturesKey(account string) string { return account + futuresSuffix }

// FuturesBalanceKey is the ledger account of a trader's futures balance
// (GET /futures/balance; the wallet transfer's "derivatives" account),
// which futures accounts are funded from.
func FuturesBalanceKey(account string) string { return account + "|derivatives" }

// userOf is the trader an engine account key belongs to.
func userOf(id string) string {
	if u, ok := strings.CutSuffix(id, marginSuffix); ok {
		return u
	}
	return strings.TrimSuffix(id, futuresSuffix)
}

// acctLedgerID names the ledger account of a margin or futures account.
func acctLedgerID(user string, fut bool, mode margin.Mode, instr string) string {
	if fut {
		return user + "|futures-" + string(mode) + "|" + instr
	}
	return marginLedgerID(user, mode, instr)
}

// family is the path family of an account kind, for messages.
func family(fut bool) string {
	if fut {
		return "futures"
	}
	return "margin"
}

// srcName names where an account kind's collateral comes from, for messages.
func srcName(fut bool) string {
	if fut {
		return "futures"
	}
	return "spot"
}

// FuturesSymbolsFrom converts the futures contracts of a market catalogue;
// each is its own base unit. A contract whose numbers do not parse (a
// market-data fault may alter them) is left out.
func FuturesSymbolsFrom(m *market.Catalogue) []Symbol {
	var out []Symbol
	for _, code := range m.SymbolCodes() {
		ms, ok := m.Symbol(code)
		if !ok || ms.Type != market.TypeFutures {
			continue
		}
		s := Symbol{Code: code, Base: code, Quote: ms.QuoteCurrency, FeeCurrency: ms.FeeCurrency, Status: ms.Status, Futures: true}
		var err error
		for _, f := range []struct {
			src string
			dst *decimal.Decimal
		}{{ms.TickSize, &s.TickSize}, {ms.QuantityIncrement, &s.QuantityStep}, {ms.TakeRate, &s.TakeRate}, {ms.MakeRate, &s.MakeRate}} {
			if *f.dst, err = decimal.NewFromString(f.src); err != nil {
				break
			}
		}
		if err != nil {
			continue
		}
		if _, err := newBook(s, 0); err != nil {
			continue
		}
		out = append(out, s)
	}
	return out
}

// SetFuturesAccount sets a futures account's margin_balance and, when lev
// is given, its leverage (PUT /futures/account/{margin_mode}/{instrument}),
// opening the account when needed; the difference moves between the
// futures balance and the account. As SetMarginBalance otherwise. The
// leverage is from 1 to the contract's max_initial_leverage (isolated) or
// at least 1 (cross: each contract is margined at no more than its own).
func (e *Engine) SetFuturesAccount(account, mode, instrument string, amount decimal.Decimal, lev *decimal.Decimal) (MarginAccount, error) {
	e.lock()
	defer e.unlock()
	now := e.now()
	m, cur, err := e.resolveMargin(mode, instrument, true)
	if err != nil {
		return MarginAccount{}, err
	}
	if amount.IsNegative() {
		return MarginAccount{}, errorf(ErrValidation, "margin_balance %s is negative", amount)
	}
	sp := acctSpec{mode: m, instr: instrument, cur: cur, src: FuturesBalanceKey(account), fut: true}
	if lev != nil {
		if lev.LessThan(decimal.New(1, 0)) {
			return MarginAccount{}, errorf(ErrValidation, "leverage %s is below 1", lev)
		}
		if p := e.marginCfg[instrument].params(m); m == margin.Isolated && p != nil && lev.GreaterThan(p.MaxLeverage) {
			return MarginAccount{}, errorf(ErrValidation, "leverage %s is above %s, the max_initial_leverage of %s", lev, p.MaxLeverage, instrument)
		}
		sp.lev = *lev
	}
	ma := e.margin[acctLedgerID(account, true, m, instrument)]
	out, rerr := e.setMarginBalance(account, sp, ma, amount, now)
	if rerr != nil {
		return MarginAccount{}, rerr
	}
	return out, nil
}

// FuturesAccounts answers a trader's open futures accounts (GET
// /futures/account): isolated by contract, then cross by currency.
func (e *Engine) FuturesAccounts(account string) []MarginAccount {
	e.lock()
	defer e.unlock()
	e.now()
	out := []MarginAccount{}
	for _, ma := range e.userMargins(account, true) {
		out = append(out, e.accountView(ma))
	}
	return out
}

// FuturesAccountOf answers one futures account (GET
// /futures/account/isolated/{symbol}, /futures/account/cross/{currency});
// one that is not open is answered empty, at the contract's leverage, so
// that a client can read the leverage before it funds the account.
func (e *Engine) FuturesAccountOf(account, mode, instrument string) (MarginAccount, error) {
	e.lock()
	defer e.unlock()
	now := e.now()
	m, cur, err := e.resolveMargin(mode, instrument, true)
	if err != nil {
		return MarginAccount{}, err
	}
	if ma := e.margin[acctLedgerID(account, true, m, instrument)]; ma != nil {
		return e.accountView(ma), nil
	}
	return e.closedView(m, instrument, cur, now, now), nil
}

// FuturesFundsOf answers, by currency, what a trader holds in futures
// accounts (the futures balance's reserved_margin and cross_margin_reserved).
func (e *Engine) FuturesFundsOf(account string) map[string]MarginFunds {
	e.lock()
	defer e.unlock()
	return e.fundsOf(account, true)
}

// CloseFuturesPosition closes a futures position (DELETE
// /futures/position/{margin_mode}/{symbol}) as ClosePosition does a margin
// one.
func (e *Engine) CloseFuturesPosition(account, mode, symbol string, price *decimal.Decimal, strict bool) ([]Position, error) {
	return e.closePosition(account, mode, symbol, price, strict, true)
}

// CloseAllFuturesPositions closes every open futures position of the
// trader (DELETE /futures/position) with market IOC orders.
func (e *Engine) CloseAllFuturesPositions(account string) []Position {
	return e.closeAllPositions(account, true)
}

// checkFuturesSymbol refuses a futures contract that is not its own base
// unit (positions in it are held in that unit).
func checkFuturesSymbol(s Symbol) error {
	if s.Futures && s.Base != s.Code {
		return fmt.Errorf("futures symbol %s must be its own base, not %s", s.Code, s.Base)
	}
	return nil
}

// ContractStats answers what /public/futures/info shows of a futures
// contract: its last trade price (hasLast false before the first trade)
// and its open interest, the total size of the long positions held in it.
// ok is false for a symbol that is not a futures contract.
func (e *Engine) ContractStats(symbol string) (last decimal.Decimal, hasLast bool, openInterest decimal.Decimal, ok bool) {
	e.lock()
	defer e.unlock()
	bk := e.books[symbol]
	if bk == nil || !bk.sym.Futures {
		return last, false, openInterest, false
	}
	if bk.hasLast {
		last, hasLast = bk.tick.decimal(bk.last), true
	}
	var lots int64
	for _, ma := range e.margin {
		if p := ma.pos[bk.idx]; ma.fut && p != nil && p.lots > 0 {
			lots += p.lots
		}
	}
	return last, hasLast, bk.step.decimal(lots), true
}
