package v3

import (
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/margin"
	"github.com/shopspring/decimal"
)

// venue is where margin-style trading happens: /margin (the document's
// margin trading, its faults apply) or /futures (beyond the contract: the
// same machinery and shapes on the futures contracts, without the margin
// faults, which break documented margin rules only). One handler set serves
// both; the few differences are marked where they are.
type venue struct {
	d       Deps // d.Faults is an empty set on futures
	futures bool
	prefix  string
	config  []margin.Record
}

func marginVenue(d Deps) venue {
	return venue{d: d, prefix: "/margin", config: d.MarginConfig}
}

func futuresVenue(d Deps) venue {
	nf, _ := faults.New()
	d.Faults = nf
	return venue{d: d, futures: true, prefix: "/futures", config: d.FuturesConfig}
}

// routes serves a venue's endpoints: reads need Orderbook, History,
// Trading balance; changes need Place/cancel orders.
func (v venue) routes() []api.Route {
	read, trade := auth.RightOrderbook, auth.RightTrading
	if v.d.Faults.On("V3-MARGIN-RIGHTS") {
		read, trade = "", ""
	}
	p := v.prefix
	return []api.Route{
		{Method: "GET", Path: p + "/account", Right: read, Handle: v.getAccounts},
		{Method: "GET", Path: p + "/account/isolated/{symbol}", Right: read, Handle: v.getIsolatedAccount},
		{Method: "GET", Path: p + "/account/cross/{currency}", Right: read, Handle: v.getCrossAccount},
		{Method: "PUT", Path: p + "/account/{margin_mode}/{instrument}", Right: trade, Handle: v.putAccount},
		{Method: "DELETE", Path: p + "/position", Right: trade, Handle: v.closePositions},
		{Method: "DELETE", Path: p + "/position/{margin_mode}/{symbol}", Right: trade, Handle: v.closePosition},
		{Method: "GET", Path: p + "/order", Right: read, Handle: v.getOrders},
		{Method: "GET", Path: p + "/order/{client_order_id}", Right: read, Handle: v.getOrder},
		{Method: "POST", Path: p + "/order", Right: trade, Handle: v.placeOrder},
		{Method: "POST", Path: p + "/order/list", Right: trade, Handle: v.placeOrderList},
		{Method: "PATCH", Path: p + "/order/{client_order_id}", Right: trade, Handle: v.replaceOrder},
		{Method: "DELETE", Path: p + "/order", Right: trade, Handle: v.cancelOrders},
		{Method: "DELETE", Path: p + "/order/{client_order_id}", Right: trade, Handle: v.cancelOrder},
		{Method: "GET", Path: p + "/config", Right: read, Handle: v.getConfig},
		{Method: "GET", Path: p + "/history/order", Right: read, Handle: v.orderHistory},
		{Method: "GET", Path: p + "/history/trade", Right: read, Handle: v.tradeHistory},
	}
}

// key is the engine account of the caller's orders on this venue.
func (v venue) key(r *api.Request) string {
	if v.futures {
		return engine.FuturesKey(r.Principal.Account)
	}
	return engine.MarginKey(r.Principal.Account)
}

func (v venue) orders(os []engine.Order, err error) (any, *api.Error) {
	if err != nil {
		return nil, engineError(err)
	}
	return fullOrdersJSON(os, v.d.Faults, true), nil
}

func (v venue) one(o engine.Order, err error) (any, *api.Error) {
	if err != nil {
		e := engineError(err)
		if e.Code == 20002 && v.d.Faults.On("V3-MARGIN-NOT-FOUND") {
			e = api.Validation("%s", e.Description)
		}
		return nil, e
	}
	return newFullOrderJSON(o, v.d.Faults, true), nil
}

func (v venue) account(a engine.MarginAccount, err error) (any, *api.Error) {
	if err != nil {
		return nil, engineError(err)
	}
	return v.d.marginAccountJSON(a), nil
}

func (v venue) accountOf(account, mode, instrument string) (engine.MarginAccount, error) {
	if v.futures {
		return v.d.Engine.FuturesAccountOf(account, mode, instrument)
	}
	return v.d.Engine.MarginAccountOf(account, mode, instrument)
}

func (v venue) getAccounts(r *api.Request) (any, *api.Error) {
	out := []marginAccountJSON{}
	if v.d.Faults.On("V3-MARGIN-ACCOUNTS") {
		return out, nil
	}
	as := v.d.Engine.MarginAccounts
	if v.futures {
		as = v.d.Engine.FuturesAccounts
	}
	for _, a := range as(r.Principal.Account) {
		out = append(out, v.d.marginAccountJSON(a))
	}
	return out, nil
}

func (v venue) getIsolatedAccount(r *api.Request) (any, *api.Error) {
	return v.account(v.accountOf(r.Principal.Account, string(margin.Isolated), r.PathValue("symbol")))
}

func (v venue) getCrossAccount(r *api.Request) (any, *api.Error) {
	c := r.PathValue("currency")
	if !v.d.Market.HasCurrency(c) {
		return nil, api.CurrencyNotFound(c)
	}
	return v.account(v.accountOf(r.Principal.Account, string(margin.Cross), c))
}

// putAccount answers PUT {venue}/account/{margin_mode}/{instrument}; on
// futures an isolated account's instrument must be a contract, and the
// account takes an optional leverage.
func (v venue) putAccount(r *api.Request) (any, *api.Error) {
	mode, instr := r.PathValue("margin_mode"), r.PathValue("instrument")
	if v.futures && mode == string(margin.Isolated) && !v.d.Market.IsFutures(instr) {
		return nil, api.SymbolNotFound(instr)
	}
	_, precision, perr := v.d.collateral(mode, instr)
	if perr != nil {
		return nil, perr
	}
	raw, ok := r.Params.String("margin_balance")
	if !ok && v.d.Faults.On("V3-MARGIN-ACCOUNT-REQUIRED") {
		raw, ok = "0", true // the fault: a missing margin_balance reads as zero, closing the account
	}
	if !ok {
		return nil, api.Validation("margin_balance is required")
	}
	strict, perr := r.Params.Bool("strict_validate", false)
	if perr != nil {
		return nil, perr
	}
	if v.d.Faults.On("V3-MARGIN-PUT-STRICT") {
		strict = false
	}
	var lev *decimal.Decimal
	if v.futures {
		if lev, perr = optDecimal(r.Params, "leverage"); perr != nil {
			return nil, perr
		}
	}
	amt, err := margin.ParseBalance(raw, precision, strict)
	if err != nil {
		return nil, api.Validation("%v", err)
	}
	if v.futures {
		return v.account(v.d.Engine.SetFuturesAccount(r.Principal.Account, mode, instr, amt, lev))
	}
	return v.account(v.d.Engine.SetMarginBalance(r.Principal.Account, mode, instr, amt))
}

func (v venue) closePositions(r *api.Request) (any, *api.Error) {
	if v.futures {
		return v.d.positionsJSON(v.d.Engine.CloseAllFuturesPositions(r.Principal.Account)), nil
	}
	return v.d.positionsJSON(v.d.Engine.CloseAllPositions(r.Principal.Account)), nil
}

// closePosition answers the positions as they stood on margin; on futures
// the one position, and 10001 when there is none.
func (v venue) closePosition(r *api.Request) (any, *api.Error) {
	price, perr := optDecimal(r.Params, "price")
	if perr != nil {
		return nil, perr
	}
	strict, perr := r.Params.Bool("strict_validate", false)
	if perr != nil {
		return nil, perr
	}
	if v.d.Faults.On("V3-MARGIN-POSITION-CLOSE-STRICT") {
		strict = false
	}
	mode, sym := r.PathValue("margin_mode"), r.PathValue("symbol")
	if !v.futures {
		ps, err := v.d.Engine.ClosePosition(r.Principal.Account, mode, sym, price, strict)
		if err != nil {
			return nil, engineError(err)
		}
		return v.d.positionsJSON(ps), nil
	}
	ps, err := v.d.Engine.CloseFuturesPosition(r.Principal.Account, mode, sym, price, strict)
	if err != nil {
		return nil, engineError(err)
	}
	if len(ps) == 0 {
		return nil, api.Validation("no open %s position in %s", mode, sym)
	}
	return v.d.positionJSON(ps[0]), nil
}

func (v venue) getOrders(r *api.Request) (any, *api.Error) {
	sym, _ := r.Params.String("symbol")
	return v.orders(v.d.Engine.Active(v.key(r), sym))
}

func (v venue) getOrder(r *api.Request) (any, *api.Error) {
	return v.one(v.d.Engine.Get(v.key(r), r.PathValue("client_order_id")))
}

func (v venue) placeOrder(r *api.Request) (any, *api.Error) {
	req, perr := marginPlaceRequest(r)
	if perr != nil {
		return nil, perr
	}
	req.Margin.Futures = v.futures
	if v.d.Faults.On("V3-MARGIN-ORDER-PARAMS") && req.Type != nil && !contains(orderTypes, string(*req.Type)) {
		t := engine.Limit
		req.Type = &t
	}
	return v.one(v.d.Engine.Place(req))
}

func (v venue) placeOrderList(r *api.Request) (any, *api.Error) {
	return placeList(v.d, r, true, v.futures)
}

func (v venue) replaceOrder(r *api.Request) (any, *api.Error) {
	req, perr := replaceRequest(r)
	if perr != nil {
		return nil, perr
	}
	if v.d.Faults.On("V3-MARGIN-REPLACE-STRICT") {
		req.StrictValidate = false
	}
	req.Account = v.key(r)
	return v.one(v.d.Engine.Replace(req))
}

func (v venue) cancelOrders(r *api.Request) (any, *api.Error) {
	sym, _ := r.Params.String("symbol")
	return v.orders(v.d.Engine.CancelAll(v.key(r), sym))
}

func (v venue) cancelOrder(r *api.Request) (any, *api.Error) {
	return v.one(v.d.Engine.Cancel(v.key(r), r.PathValue("client_order_id")))
}

func (v venue) getConfig(*api.Request) (any, *api.Error) {
	out := make([]any, 0, len(v.config))
	for _, c := range v.config {
		if v.d.Faults.On("V3-MARGIN-CONFIG") {
			out = append(out, configWithoutActive{Record: c})
			continue
		}
		out = append(out, c)
	}
	return map[string]any{"config": out}, nil
}

// orderHistory answers GET {venue}/history/order: as the spot history
// without statuses, limit 1 to 1000 (default 100), offset 0 to 100000.
func (v venue) orderHistory(r *api.Request) (any, *api.Error) {
	maxLimit, maxOffset := int64(1000), int64(100000)
	if v.d.Faults.On("V3-MARGIN-HISTORY-ORDER") {
		maxLimit, maxOffset = 1_000_000, 1_000_000_000
	}
	q, perr := historyQuery(r.Params, v.key(r), false, maxLimit, maxOffset, v.d.Faults.On("V3-MARGIN-HISTORY-VALUES"))
	if perr != nil {
		return nil, perr
	}
	return v.orders(v.d.Engine.History(q))
}

func (v venue) tradeHistory(r *api.Request) (any, *api.Error) {
	q, perr := marginTradeQuery(r, v.d.Faults.On("V3-MARGIN-HISTORY-TRADE-PAGING"))
	if perr != nil {
		return nil, perr
	}
	q.Futures = v.futures
	out := []marginTradeJSON{}
	for _, t := range v.d.Engine.MarginTrades(q) {
		out = append(out, v.d.marginTradeJSON(t))
	}
	return out, nil
}
