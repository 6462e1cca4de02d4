package v2

import (
	"github.com/conform-harness/conform/emulator/internal/v2shape"
	"strconv"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/engine"
)

// Documented maxima of the history endpoints (v2 Limits, item 6).
const (
	maxHistoryLimit  = 1000
	maxHistoryOffset = 100000
	defaultLimit     = 100
)

// userTradeJSON is the v2 User trade resource.
type userTradeJSON struct {
	ID            int64  `json:"id"`
	OrderID       int64  `json:"orderId"`
	ClientOrderID string `json:"clientOrderId"`
	Symbol        string `json:"symbol"`
	Side          string `json:"side"`
	Quantity      string `json:"quantity"`
	Price         string `json:"price"`
	Fee           string `json:"fee"`
	Liquidation   *bool  `json:"liquidation,omitempty"`
	Timestamp     string `json:"timestamp"`
	Taker         *bool  `json:"taker,omitempty"`
}

func newUserTrade(t engine.MarginTrade, d Deps) userTradeJSON {
	taker := t.Taker || d.Faults.On("V2-TRADE-TAKER")
	out := userTradeJSON{ID: t.ID, OrderID: t.OrderID, ClientOrderID: t.ClientOrderID, Symbol: t.Symbol, Side: string(t.Side),
		Quantity: t.Quantity.String(), Price: t.Price.String(), Fee: t.Fee.String(), Timestamp: v2shape.Time(t.Timestamp), Taker: &taker}
	if t.Margin {
		liq := false // the emulator never liquidates a position
		out.Liquidation = &liq
	}
	if d.Faults.On("V2-TRADE-FIELDS") {
		out.Taker = nil
	}
	if d.Faults.On("V2-V3-TRADE-SAME") {
		out.Fee = t.Fee.Neg().String()
	}
	return out
}

// tradeQuery reads the /history/trades parameters.
func tradeQuery(r *api.Request, d Deps) (engine.MarginTradeQuery, string, *api.Error) {
	p := r.Params
	q := engine.MarginTradeQuery{Account: r.Principal.Account}
	if s, ok := p.String("symbol"); ok && s != "" && !d.Faults.On("V2-HISTORY-SYMBOL") {
		q.Symbols = []string{s}
	}
	sort, err := p.Enum("sort", "DESC", "ASC", "DESC")
	if err != nil {
		return q, "", err
	}
	q.SortAsc = sort == "ASC" || (d.Faults.On("V2-HISTORY-SORT") && !p.Has("sort"))
	by, err := p.Enum("by", "id", "timestamp", "id")
	if err != nil {
		return q, "", err
	}
	q.ByTimestamp = by == "timestamp"
	if d.Faults.On("V2-HISTORY-BY") {
		q.ByTimestamp = !q.ByTimestamp
	}
	if q.ByTimestamp {
		if q.From, q.Till, err = timeBounds(p); err != nil {
			return q, "", err
		}
	} else {
		if q.FromID, err = idBound(p, "from"); err != nil {
			return q, "", err
		}
		if q.TillID, err = idBound(p, "till"); err != nil {
			return q, "", err
		}
	}
	limit, offset, err := paging(p, d, historyFaults)
	if err != nil {
		return q, "", err
	}
	q.Limit, q.Offset = limit, offset
	margin, err := p.Enum("margin", engine.MarginInclude, engine.MarginInclude, engine.MarginOnly, engine.MarginIgnore)
	if err != nil {
		return q, "", err
	}
	if d.Faults.On("V2-HISTORY-MARGIN") && margin == engine.MarginOnly {
		margin = engine.MarginInclude
	}
	return q, margin, nil
}

// idBound reads from or till as an object id (by=id).
func idBound(p api.Params, name string) (*int64, *api.Error) {
	v, ok := p.String(name)
	if !ok {
		return nil, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, api.Validation("%s must be an id when by is id, got %q", name, v)
	}
	return &n, nil
}

// pagingFaults names the faults of one endpoint's paging rules.
type pagingFaults struct{ limit, offset, def string }

var (
	historyFaults = pagingFaults{"V2-HISTORY-LIMIT", "V2-HISTORY-OFFSET", "V2-HISTORY-LIMIT-DEFAULT"}
	txFaults      = pagingFaults{"V2-TX-PAGING", "V2-TX-PAGING", ""}
)

// paging reads limit (0 to 1000, default 100) and offset (0 to 100000).
// A limit of 0 answers nothing: the document's range starts at 0. A value
// beyond the range is refused with 10001 (the document gives the maxima,
// not what exceeding them does).
func paging(p api.Params, d Deps, f pagingFaults) (limit, offset int, err *api.Error) {
	def := int64(defaultLimit)
	if d.Faults.On(f.def) {
		def = 50
	}
	lowest := int64(0)
	if d.Faults.On("V2-PAGING-LIMIT-RANGE") {
		lowest = 1
	}
	l, err := p.Int("limit", def, lowest, maxHistoryLimit)
	if err != nil {
		return 0, 0, err
	}
	o, err := p.Int("offset", 0, 0, maxHistoryOffset)
	if err != nil {
		return 0, 0, err
	}
	if d.Faults.On(f.offset) {
		o = 0
	}
	if d.Faults.On(f.limit) && l > 0 {
		l++
	}
	if l == 0 {
		l = -1 // engine: <= 0 means the default; -1 selects nothing below
	}
	return int(l), int(o), nil
}

func historyRoutes(d Deps) []api.Route {
	list := func(ts []engine.MarginTrade, limit int) []userTradeJSON {
		out := []userTradeJSON{}
		if limit < 0 {
			return out
		}
		for _, t := range ts {
			out = append(out, newUserTrade(t, d))
		}
		return out
	}
	return []api.Route{
		{Method: "GET", Path: "/history/trades", Right: auth.RightOrderbook, Handle: func(r *api.Request) (any, *api.Error) {
			q, margin, err := tradeQuery(r, d)
			if err != nil {
				return nil, err
			}
			return list(d.Engine.UserTrades(q, margin), q.Limit), nil
		}},
		{Method: "GET", Path: "/history/order/{orderId}/trades", Right: auth.RightOrderbook, Handle: func(r *api.Request) (any, *api.Error) {
			id, perr := strconv.ParseInt(r.PathValue("orderId"), 10, 64)
			if perr != nil || id <= 0 {
				return nil, api.Validation("orderId must be an order id, got %q", r.PathValue("orderId"))
			}
			q := engine.MarginTradeQuery{Account: r.Principal.Account, OrderID: id, SortAsc: true, Limit: maxHistoryLimit}
			if d.Faults.On("V2-HISTORY-ORDER-TRADES") {
				q.OrderID = 0
			}
			return list(d.Engine.UserTrades(q, engine.MarginInclude), q.Limit), nil
		}},
	}
}
