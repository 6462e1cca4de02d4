package v3

import (
	"strconv"
	"time"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/margin"
	"github.com/shopspring/decimal"
)

// Margin trading (spec: Endpoints, Margin trading). Choices where the spec
// is silent, besides the model documented in emulator/internal/margin:
//
//   - An isolated account is funded in its symbol's quote currency; a cross
//     account is per currency and backs the cross positions of every symbol
//     quoted in it. A cross account's "symbol" field carries its currency.
//   - GET of an account that is not open answers 10001 (HTTP 400).
//   - A margin order without the margin account it needs (isolated: its
//     symbol's; cross: its quote currency's) is refused with 20001: it has
//     no margin to trade on. One for a symbol that does not trade on margin
//     in that mode gets 10001.
//   - margin_balance "0" cancels the account's active orders and returns
//     everything to the spot balance; with an open position it is refused
//     with 20001. Without strict_validate a margin_balance may use an
//     exponent and more decimals than the currency's precision_transfer; it
//     is rounded down to that precision.
//   - A reduce_only order executes only while it reduces the position; the
//     part that would open or increase one expires (at placement, or when
//     the order is reached in the book).
//   - close_position takes any order type; its quantity is the position's
//     size when it starts executing, and it is canceled when there is no
//     position on its other side.
//   - DELETE /margin/position{,/...} closes with reduce-only orders: market
//     IOC, or limit GTC at price; it answers the positions as they stood.
//   - Margin orders have their own client_order_id namespace, active set
//     and history, apart from spot orders; they share the books.
//   - /margin/history/trade: by=id takes from and till as trade IDs (an ISO
//     timestamp there still filters by time); by=timestamp as DateTime.

type marginCurrencyJSON struct {
	Code              string  `json:"code"`
	MarginBalance     string  `json:"margin_balance"`
	ReservedOrders    string  `json:"reserved_orders"`
	ReservedPositions *string `json:"reserved_positions,omitempty"`
}

type positionJSON struct {
	ID               int64   `json:"id"`
	Symbol           string  `json:"symbol"`
	Quantity         string  `json:"quantity"`
	Leverage         string  `json:"leverage,omitempty"`
	MarginMode       string  `json:"margin_mode"`
	PnL              string  `json:"pnl"`
	PriceEntry       string  `json:"price_entry"`
	PriceMarginCall  string  `json:"price_margin_call"`
	PriceLiquidation *string `json:"price_liquidation,omitempty"`
	FeeCumulative    string  `json:"fee_cumulative"`
	CreatedAt        string  `json:"created_at"`
	UpdatedAt        string  `json:"updated_at"`
}

// marginAccountJSON is the Margin account resource; positions is null when
// there is none.
type marginAccountJSON struct {
	Symbol     string               `json:"symbol"`
	Type       string               `json:"type"`
	Leverage   string               `json:"leverage,omitempty"`
	CreatedAt  string               `json:"created_at"`
	UpdatedAt  string               `json:"updated_at"`
	Currencies []marginCurrencyJSON `json:"currencies"`
	Positions  []positionJSON       `json:"positions"`
}

func (d Deps) positionJSON(p engine.Position) positionJSON {
	out := positionJSON{ID: p.ID, Symbol: p.Symbol, Quantity: p.Quantity.String(), Leverage: p.Leverage.String(),
		MarginMode: p.MarginMode, PnL: p.PnL.String(), PriceEntry: p.PriceEntry.String(),
		PriceMarginCall: p.PriceMarginCall.String(), FeeCumulative: p.FeeCumulative.String(),
		CreatedAt: wireTime(p.CreatedAt), UpdatedAt: wireTime(p.UpdatedAt)}
	if !d.Faults.On("V3-MARGIN-POSITION-FIELDS") {
		liq := p.PriceLiquidation.String()
		out.PriceLiquidation = &liq
	}
	if d.Faults.On("V3-MARGIN-POSITION-TIMES") {
		out.UpdatedAt = wireTime(p.CreatedAt.Add(-time.Second))
	}
	return out
}

func (d Deps) positionsJSON(ps []engine.Position) []positionJSON {
	out := make([]positionJSON, 0, len(ps))
	for _, p := range ps {
		out = append(out, d.positionJSON(p))
	}
	return out
}

func (d Deps) marginAccountJSON(a engine.MarginAccount) marginAccountJSON {
	out := marginAccountJSON{Symbol: a.Symbol, Type: a.Type, CreatedAt: wireTime(a.CreatedAt), UpdatedAt: wireTime(a.UpdatedAt),
		Currencies: []marginCurrencyJSON{}}
	if d.Faults.On("V3-MARGIN-ACCOUNT-TIMES") {
		out.UpdatedAt = wireTime(a.CreatedAt.Add(-time.Second))
	}
	if a.Leverage != nil {
		out.Leverage = a.Leverage.String()
	}
	for _, c := range a.Currencies {
		mc := marginCurrencyJSON{Code: c.Code, MarginBalance: c.MarginBalance.String(), ReservedOrders: c.ReservedOrders.String()}
		if !d.Faults.On("V3-MARGIN-ACCOUNT-FIELDS") {
			rp := c.ReservedPositions.String()
			mc.ReservedPositions = &rp
		}
		out.Currencies = append(out.Currencies, mc)
	}
	if len(a.Positions) > 0 {
		out.Positions = d.positionsJSON(a.Positions)
	}
	return out
}

// configWithoutActive is a margin configuration record with active left
// out, for the V3-MARGIN-CONFIG fault: the shallower nil field shadows the
// embedded one.
type configWithoutActive struct {
	margin.Record
	Active *bool `json:"active,omitempty"`
}

// marginTradeJSON is the Margin trade history record; id and order_id are
// strings (any, so that their fault can write numbers).
type marginTradeJSON struct {
	ID            any     `json:"id"`
	OrderID       any     `json:"order_id"`
	ClientOrderID string  `json:"client_order_id"`
	Symbol        string  `json:"symbol"`
	Side          string  `json:"side"`
	Quantity      string  `json:"quantity"`
	Price         string  `json:"price"`
	Fee           string  `json:"fee"`
	Timestamp     string  `json:"timestamp"`
	Taker         bool    `json:"taker"`
	PositionID    *int64  `json:"position_id,omitempty"`
	PnL           *string `json:"pnl,omitempty"`
}

// collateral is the currency an account is funded in, and its precision
// (precision_transfer): the quote of an isolated account's symbol, or a
// cross account's currency.
func (d Deps) collateral(mode, instrument string) (string, decimal.Decimal, *api.Error) {
	cur := instrument
	switch mode {
	case string(margin.Isolated):
		s, ok := d.Market.Symbol(instrument)
		if !ok {
			return "", decimal.Decimal{}, api.SymbolNotFound(instrument)
		}
		cur = s.QuoteCurrency
	case string(margin.Cross):
	default:
		return "", decimal.Decimal{}, api.Validation("margin_mode %q must be isolated or cross", mode)
	}
	c, ok := d.Market.Currency(cur)
	if !ok {
		return "", decimal.Decimal{}, api.CurrencyNotFound(cur)
	}
	p, err := decimal.NewFromString(c.PrecisionTransfer)
	if err != nil {
		return "", decimal.Decimal{}, api.Internal("currency %s precision_transfer %q: %v", cur, c.PrecisionTransfer, err)
	}
	return cur, p, nil
}

// marginPlaceRequest decodes POST /margin/order: the spot order's fields
// plus reduce_only, close_position and margin_mode.
func marginPlaceRequest(r *api.Request) (engine.PlaceRequest, *api.Error) {
	req, err := placeRequest(r, nil) // the spot-only faults stay off for margin orders
	if err != nil {
		return req, err
	}
	mp := &engine.MarginParams{}
	if mp.ReduceOnly, err = r.Params.Bool("reduce_only", false); err != nil {
		return req, err
	}
	if mp.ClosePosition, err = r.Params.Bool("close_position", false); err != nil {
		return req, err
	}
	mp.Mode, _ = r.Params.String("margin_mode")
	req.Margin = mp
	return req, nil
}

// marginHistoryQuery decodes GET /margin/history/order: as the spot
// history without statuses, limit 1 to 1000 (default 100), offset 0 to 100000.
func (d Deps) marginHistoryQuery(r *api.Request) (engine.HistoryQuery, *api.Error) {
	maxLimit, maxOffset := int64(1000), int64(100000)
	if d.Faults.On("V3-MARGIN-HISTORY-ORDER") {
		maxLimit, maxOffset = 1_000_000, 1_000_000_000
	}
	return historyQuery(r.Params, engine.MarginKey(r.Principal.Account), false, maxLimit, maxOffset, d.Faults.On("V3-MARGIN-HISTORY-VALUES"))
}

// marginTradeQuery decodes GET /margin/history/trade.
// faulty is the fault V3-MARGIN-HISTORY-TRADE-PAGING: offset is ignored.
func marginTradeQuery(r *api.Request, faulty bool) (engine.MarginTradeQuery, *api.Error) {
	p := r.Params
	q := engine.MarginTradeQuery{Account: r.Principal.Account, Symbols: p.List("symbol")}
	if v, ok := p.String("order_id"); ok {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id <= 0 {
			return q, api.Validation("order_id must be a positive integer, got %q", v)
		}
		q.OrderID = id
	}
	sort, err := p.Enum("sort", "DESC", "ASC", "DESC")
	if err != nil {
		return q, err
	}
	q.SortAsc = sort == "ASC"
	by, err := p.Enum("by", "id", "id", "timestamp")
	if err != nil {
		return q, err
	}
	q.ByTimestamp = by == "timestamp"
	for _, f := range []struct {
		name string
		t    **time.Time
		id   **int64
	}{{"from", &q.From, &q.FromID}, {"till", &q.Till, &q.TillID}} {
		v, ok := p.String(f.name)
		if !ok {
			continue
		}
		if !q.ByTimestamp {
			// Pagination: a Number unless by is timestamp.
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				*f.id = &n
				continue
			}
		}
		t, _, terr := p.Time(f.name)
		if terr != nil {
			return q, terr
		}
		*f.t = &t
	}
	limit, err := p.Int("limit", 100, 1, 1000)
	if err != nil {
		return q, err
	}
	offset, err := p.Int("offset", 0, 0, 100000)
	if err != nil {
		return q, err
	}
	q.Limit, q.Offset = int(limit), int(offset)
	if faulty {
		q.Offset = 0
	}
	return q, nil
}

func (d Deps) marginTradeJSON(t engine.MarginTrade) marginTradeJSON {
	out := marginTradeJSON{ID: strconv.FormatInt(t.ID, 10), OrderID: strconv.FormatInt(t.OrderID, 10),
		ClientOrderID: t.ClientOrderID, Symbol: t.Symbol, Side: string(t.Side), Quantity: t.Quantity.String(),
		Price: t.Price.String(), Fee: t.Fee.String(), Timestamp: wireTime(t.Timestamp), Taker: t.Taker}
	if d.Faults.On("V3-MARGIN-HISTORY-TRADE") {
		out.ID, out.OrderID = t.ID, t.OrderID
	}
	if t.PositionID != 0 {
		id := t.PositionID
		out.PositionID = &id
	}
	if t.PnL != nil {
		s := t.PnL.String()
		out.PnL = &s
	}
	return out
}

// marginRoutes serves the margin endpoints: reads need Orderbook, History,
// Trading balance; changes need Place/cancel orders.
func marginRoutes(d Deps) []api.Route {
	eng, f := d.Engine, d.Faults
	read, trade := auth.RightOrderbook, auth.RightTrading
	if f.On("V3-MARGIN-RIGHTS") {
		read, trade = "", ""
	}
	key := func(r *api.Request) string { return engine.MarginKey(r.Principal.Account) }
	orders := func(os []engine.Order, err error) (any, *api.Error) {
		if err != nil {
			return nil, engineError(err)
		}
		return fullOrdersJSON(os, f, true), nil
	}
	one := func(o engine.Order, err error) (any, *api.Error) {
		if err != nil {
			e := engineError(err)
			if e.Code == 20002 && f.On("V3-MARGIN-NOT-FOUND") {
				e = api.Validation("%s", e.Description)
			}
			return nil, e
		}
		return newFullOrderJSON(o, f, true), nil
	}
	return []api.Route{
		{Method: "GET", Path: "/margin/account", Right: read, Handle: func(r *api.Request) (any, *api.Error) {
			out := []marginAccountJSON{}
			if f.On("V3-MARGIN-ACCOUNTS") {
				return out, nil
			}
			for _, a := range eng.MarginAccounts(r.Principal.Account) {
				out = append(out, d.marginAccountJSON(a))
			}
			return out, nil
		}},
		{Method: "GET", Path: "/margin/account/isolated/{symbol}", Right: read, Handle: func(r *api.Request) (any, *api.Error) {
			a, err := eng.MarginAccountOf(r.Principal.Account, string(margin.Isolated), r.PathValue("symbol"))
			if err != nil {
				return nil, engineError(err)
			}
			return d.marginAccountJSON(a), nil
		}},
		{Method: "GET", Path: "/margin/account/cross/{currency}", Right: read, Handle: func(r *api.Request) (any, *api.Error) {
			c := r.PathValue("currency")
			if !d.Market.HasCurrency(c) {
				return nil, api.CurrencyNotFound(c)
			}
			a, err := eng.MarginAccountOf(r.Principal.Account, string(margin.Cross), c)
			if err != nil {
				return nil, engineError(err)
			}
			return d.marginAccountJSON(a), nil
		}},
		{Method: "PUT", Path: "/margin/account/{margin_mode}/{instrument}", Right: trade, Handle: func(r *api.Request) (any, *api.Error) {
			mode, instr := r.PathValue("margin_mode"), r.PathValue("instrument")
			_, precision, perr := d.collateral(mode, instr)
			if perr != nil {
				return nil, perr
			}
			raw, ok := r.Params.String("margin_balance")
			if !ok && f.On("V3-MARGIN-ACCOUNT-REQUIRED") {
				raw, ok = "0", true // the fault: a missing margin_balance reads as zero, closing the account
			}
			if !ok {
				return nil, api.Validation("margin_balance is required")
			}
			strict, perr := r.Params.Bool("strict_validate", false)
			if perr != nil {
				return nil, perr
			}
			if f.On("V3-MARGIN-PUT-STRICT") {
				strict = false
			}
			amt, err := margin.ParseBalance(raw, precision, strict)
			if err != nil {
				return nil, api.Validation("%v", err)
			}
			a, err := eng.SetMarginBalance(r.Principal.Account, mode, instr, amt)
			if err != nil {
				return nil, engineError(err)
			}
			return d.marginAccountJSON(a), nil
		}},
		{Method: "DELETE", Path: "/margin/position", Right: trade, Handle: func(r *api.Request) (any, *api.Error) {
			return d.positionsJSON(eng.CloseAllPositions(r.Principal.Account)), nil
		}},
		{Method: "DELETE", Path: "/margin/position/{margin_mode}/{symbol}", Right: trade, Handle: func(r *api.Request) (any, *api.Error) {
			price, perr := optDecimal(r.Params, "price")
			if perr != nil {
				return nil, perr
			}
			strict, perr := r.Params.Bool("strict_validate", false)
			if perr != nil {
				return nil, perr
			}
			if d.Faults.On("V3-MARGIN-POSITION-CLOSE-STRICT") {
				strict = false
			}
			ps, err := eng.ClosePosition(r.Principal.Account, r.PathValue("margin_mode"), r.PathValue("symbol"), price, strict)
			if err != nil {
				return nil, engineError(err)
			}
			return d.positionsJSON(ps), nil
		}},
		{Method: "GET", Path: "/margin/order", Right: read, Handle: func(r *api.Request) (any, *api.Error) {
			sym, _ := r.Params.String("symbol")
			return orders(eng.Active(key(r), sym))
		}},
		{Method: "GET", Path: "/margin/order/{client_order_id}", Right: read, Handle: func(r *api.Request) (any, *api.Error) {
			return one(eng.Get(key(r), r.PathValue("client_order_id")))
		}},
		{Method: "POST", Path: "/margin/order", Right: trade, Handle: func(r *api.Request) (any, *api.Error) {
			req, perr := marginPlaceRequest(r)
			if perr != nil {
				return nil, perr
			}
			if f.On("V3-MARGIN-ORDER-PARAMS") && req.Type != nil && !contains(orderTypes, string(*req.Type)) {
				t := engine.Limit
				req.Type = &t
			}
			return one(eng.Place(req))
		}},
		{Method: "POST", Path: "/margin/order/list", Right: trade, Handle: func(r *api.Request) (any, *api.Error) {
			return placeList(d, r, true)
		}},
		{Method: "PATCH", Path: "/margin/order/{client_order_id}", Right: trade, Handle: func(r *api.Request) (any, *api.Error) {
			req, perr := replaceRequest(r)
			if perr != nil {
				return nil, perr
			}
			if f.On("V3-MARGIN-REPLACE-STRICT") {
				req.StrictValidate = false
			}
			req.Account = key(r)
			return one(eng.Replace(req))
		}},
		{Method: "DELETE", Path: "/margin/order", Right: trade, Handle: func(r *api.Request) (any, *api.Error) {
			sym, _ := r.Params.String("symbol")
			return orders(eng.CancelAll(key(r), sym))
		}},
		{Method: "DELETE", Path: "/margin/order/{client_order_id}", Right: trade, Handle: func(r *api.Request) (any, *api.Error) {
			return one(eng.Cancel(key(r), r.PathValue("client_order_id")))
		}},
		{Method: "GET", Path: "/margin/config", Right: read, Handle: func(*api.Request) (any, *api.Error) {
			out := make([]any, 0, len(d.MarginConfig))
			for _, c := range d.MarginConfig {
				if f.On("V3-MARGIN-CONFIG") {
					out = append(out, configWithoutActive{Record: c})
					continue
				}
				out = append(out, c)
			}
			return map[string]any{"config": out}, nil
		}},
		{Method: "GET", Path: "/margin/history/order", Right: read, Handle: func(r *api.Request) (any, *api.Error) {
			q, perr := d.marginHistoryQuery(r)
			if perr != nil {
				return nil, perr
			}
			return orders(eng.History(q))
		}},
		{Method: "GET", Path: "/margin/history/trade", Right: read, Handle: func(r *api.Request) (any, *api.Error) {
			q, perr := marginTradeQuery(r, f.On("V3-MARGIN-HISTORY-TRADE-PAGING"))
			if perr != nil {
				return nil, perr
			}
			out := []marginTradeJSON{}
			for _, t := range eng.MarginTrades(q) {
				out = append(out, d.marginTradeJSON(t))
			}
			return out, nil
		}},
	}
}
