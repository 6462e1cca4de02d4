package v3

import (
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/shopspring/decimal"
)

// Futures trading, beyond the contract: the document names the family
// ("parameters and responses not shown beyond path names"), so the
// emulator serves the real service's shapes, which mirror its margin API
// (/margin/* <-> /futures/*), as HitBTC's API reference and ccxt's hitbtc
// class show them. No spec asserts them; emulator tests cover them.
//
//   - GET /futures/balance[/{currency}]: the futures balance, the trader's
//     funds for futures accounts: [{currency, available, reserved,
//     reserved_margin, cross_margin_reserved}] (one without currency). It is
//     funded by POST /wallet/transfer with source or destination
//     "derivatives".
//   - GET /futures/account, /futures/account/isolated/{symbol},
//     /futures/account/cross/{currency}: margin accounts (symbol, type,
//     leverage, created_at, updated_at, currencies, positions); one not
//     open is answered empty at the contract's leverage.
//   - PUT /futures/account/{margin_mode}/{instrument}: margin_balance
//     (required; "0" closes the account), leverage (optional, 1 to the
//     contract's max_initial_leverage; the account keeps it), strict_validate.
//   - Orders: GET/POST/DELETE /futures/order, GET/PATCH/DELETE
//     /futures/order/{client_order_id}, POST /futures/order/list, as margin
//     orders (margin_mode default isolated; reduce_only, close_position).
//   - DELETE /futures/position (every position, the list as it stood) and
//     /futures/position/{margin_mode}/{symbol} (price optional: the
//     position as it stood, one object; no position: 10001).
//   - GET /futures/config {config: [...]}, /futures/fee[/{symbol}],
//     /futures/history/order, /futures/history/trade.
//   - Public /public/futures/info[/{symbol}] and
//     /public/futures/history/funding[/{symbol}]: the emulator charges no
//     funding, so the rates are zero and the history is empty.
//
// The margin faults do not apply here: they break documented margin rules
// only.

// futuresBalance is a futures balance row.
type futuresBalance struct {
	Currency            string `json:"currency,omitempty"`
	Available           string `json:"available"`
	Reserved            string `json:"reserved"`
	ReservedMargin      string `json:"reserved_margin"`
	CrossMarginReserved string `json:"cross_margin_reserved"`
}

// futuresInfo is a contract's /public/futures/info record.
type futuresInfo struct {
	ContractType          string `json:"contract_type"`
	MarkPrice             string `json:"mark_price"`
	IndexPrice            string `json:"index_price"`
	FundingRate           string `json:"funding_rate"`
	OpenInterest          string `json:"open_interest"`
	NextFundingTime       string `json:"next_funding_time"`
	IndicativeFundingRate string `json:"indicative_funding_rate"`
	PremiumIndex          string `json:"premium_index"`
	AvgPremiumIndex       string `json:"avg_premium_index"`
	InterestRate          string `json:"interest_rate"`
	Timestamp             string `json:"timestamp"`
}

// futuresRoutes serves the futures venue (venue.go) and the endpoints only
// futures have: the futures balance, fees, contract info and funding.
func futuresRoutes(d Deps) []api.Route {
	read := auth.RightOrderbook
	return append(futuresVenue(d).routes(),
		api.Route{Method: "GET", Path: "/futures/balance", Right: read, Handle: d.getFuturesBalances},
		api.Route{Method: "GET", Path: "/futures/balance/{currency}", Right: read, Handle: d.getFuturesBalance},
		api.Route{Method: "GET", Path: "/futures/fee", Right: read, Handle: d.getFuturesFees},
		api.Route{Method: "GET", Path: "/futures/fee/{symbol}", Right: read, Handle: d.getFuturesFee},
		api.Route{Method: "GET", Path: "/public/futures/info", Public: true, Handle: d.getFuturesInfos},
		api.Route{Method: "GET", Path: "/public/futures/info/{symbol}", Public: true, Handle: d.getFuturesInfo},
		api.Route{Method: "GET", Path: "/public/futures/history/funding", Public: true, Handle: d.getFundingHistories},
		api.Route{Method: "GET", Path: "/public/futures/history/funding/{symbol}", Public: true, Handle: d.getFundingHistory},
	)
}

func (d Deps) getFuturesBalances(r *api.Request) (any, *api.Error) {
	return d.futuresBalances(r.Principal.Account, ""), nil
}

func (d Deps) getFuturesBalance(r *api.Request) (any, *api.Error) {
	c := r.PathValue("currency")
	if !d.Market.HasCurrency(c) {
		return nil, api.CurrencyNotFound(c)
	}
	return d.futuresBalances(r.Principal.Account, c)[0], nil
}

func (d Deps) getFuturesFees(*api.Request) (any, *api.Error) {
	out := []symbolFee{}
	for _, code := range d.Market.FuturesCodes() {
		s, _ := d.Market.Symbol(code)
		out = append(out, symbolFee{Symbol: code, TakeRate: s.TakeRate, MakeRate: s.MakeRate})
	}
	return out, nil
}

func (d Deps) getFuturesFee(r *api.Request) (any, *api.Error) {
	code := r.PathValue("symbol")
	s, ok := d.Market.Symbol(code)
	if !ok || s.Type != market.TypeFutures {
		return nil, api.SymbolNotFound(code)
	}
	return symbolFee{TakeRate: s.TakeRate, MakeRate: s.MakeRate}, nil
}

func (d Deps) getFuturesInfos(r *api.Request) (any, *api.Error) {
	codes := d.Market.FuturesCodes()
	if sel := r.Params.List("symbols"); len(sel) > 0 {
		codes = sel
	}
	out := map[string]futuresInfo{}
	for _, code := range codes {
		if info, ok := d.futuresInfo(code); ok {
			out[code] = info
		}
	}
	return out, nil
}

func (d Deps) getFuturesInfo(r *api.Request) (any, *api.Error) {
	info, ok := d.futuresInfo(r.PathValue("symbol"))
	if !ok {
		return nil, api.SymbolNotFound(r.PathValue("symbol"))
	}
	return info, nil
}

func (d Deps) getFundingHistories(r *api.Request) (any, *api.Error) {
	out := map[string][]futuresInfo{}
	for _, code := range d.Market.FuturesCodes() {
		if sel := r.Params.List("symbols"); len(sel) == 0 || contains(sel, code) {
			out[code] = []futuresInfo{}
		}
	}
	return out, nil
}

func (d Deps) getFundingHistory(r *api.Request) (any, *api.Error) {
	if !d.Market.IsFutures(r.PathValue("symbol")) {
		return nil, api.SymbolNotFound(r.PathValue("symbol"))
	}
	return []futuresInfo{}, nil
}

// futuresBalances is the futures balance: every currency it holds, or
// one (cur) always answered, without its currency field.
func (d Deps) futuresBalances(account, cur string) []futuresBalance {
	funds := d.Engine.FuturesFundsOf(account)
	row := func(b ledgerBalance, withCurrency bool) futuresBalance {
		f := funds[b.currency]
		out := futuresBalance{Available: b.available.String(), Reserved: b.reserved.String(),
			ReservedMargin: f.Isolated.String(), CrossMarginReserved: f.Cross.String()}
		if withCurrency {
			out.Currency = b.currency
		}
		return out
	}
	key := engine.FuturesBalanceKey(account)
	if cur != "" {
		b := d.Ledger.Balance(key, cur)
		return []futuresBalance{row(ledgerBalance{cur, b.Available, b.Reserved}, false)}
	}
	out := []futuresBalance{}
	for _, b := range d.Ledger.Balances(key) {
		out = append(out, row(ledgerBalance{b.Currency, b.Available, b.Reserved}, true))
	}
	return out
}

type ledgerBalance struct {
	currency            string
	available, reserved decimal.Decimal
}

// futuresInfo is a contract's info: the last trade price as mark and index
// price (zero before the first trade), its open interest, no funding.
func (d Deps) futuresInfo(code string) (futuresInfo, bool) {
	s, ok := d.Market.Symbol(code)
	if !ok || s.Type != market.TypeFutures {
		return futuresInfo{}, false
	}
	last, _, oi, ok := d.Engine.ContractStats(code)
	if !ok {
		return futuresInfo{}, false
	}
	var clk clock.Clock = clock.Real{}
	if d.Clock != nil {
		clk = d.Clock
	}
	now := clk.Now().UTC()
	next := now.Truncate(8 * time.Hour).Add(8 * time.Hour) // funding every 8 hours from midnight UTC
	return futuresInfo{ContractType: s.ContractType, MarkPrice: last.String(), IndexPrice: last.String(), FundingRate: "0",
		OpenInterest: oi.String(), NextFundingTime: wireTime(next), IndicativeFundingRate: "0", PremiumIndex: "0",
		AvgPremiumIndex: "0", InterestRate: "0", Timestamp: wireTime(now)}, true
}
