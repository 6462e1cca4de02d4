package jsonrpc

import (
	"time"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/v2shape"
	"github.com/shopspring/decimal"
)

// reportTypes maps the engine's report types to the v2 stream's: the real
// service's values (new, suspended, trade, canceled, expired, replaced,
// status); a stop order's trigger and a list secondary's activation are
// status reports.
var reportTypes = map[engine.ReportType]string{
	engine.ReportNew: "new", engine.ReportSuspended: "suspended", engine.ReportTriggered: "status",
	engine.ReportActivated: "status", engine.ReportTrade: "trade", engine.ReportCanceled: "canceled",
	engine.ReportExpired: "expired", engine.ReportReplaced: "replaced",
}

// report renders an order report, with the report faults.
func (s *Server) report(o engine.Order, reportType string, tr *engine.Trade) any {
	f := s.opts.Faults
	switch {
	case o.Status == engine.StatusNew && f.On("V2-WS-REPORT-NEW"):
		o.Status = "active"
	case o.Status == engine.Canceled && f.On("V2-WS-REPORT-CANCELED"):
		o.Status = "cancelled"
	case o.Status == engine.Expired && f.On("V2-WS-REPORT-EXPIRED"):
		o.Status = engine.Canceled
	case o.Status == engine.Suspended && f.On("V2-WS-REPORT-SUSPENDED"):
		o.Status = engine.StatusNew
	}
	r := v2shape.NewReport(o, reportType, tr)
	if f.On("V2-WS-REPORT-ORDER-TYPE") {
		// The snake_case spelling instead of the document's camelCase:
		// limit and market read the same in both, so only stop orders'
		// reports change.
		switch o.Type {
		case engine.StopLimit:
			r.Type = "stop_limit"
		case engine.StopMarket:
			r.Type = "stop_market"
		}
	}
	var drop []string
	if f.On("V2-WS-REPORT-FIELDS") {
		drop = append(drop, "postOnly")
	}
	if tr != nil && f.On("V2-WS-REPORT-TRADE") {
		drop = append(drop, "tradeFee")
	}
	if len(drop) > 0 {
		return v2shape.Without(r, drop...)
	}
	return r
}

// order sends an order event to the connections following the account's
// reports (spot orders only: v2 has no margin here).
func (st *state) order(ev engine.Event) {
	if ev.Margin {
		return
	}
	var r any
	for c, acct := range st.reports {
		if acct != ev.Account {
			continue
		}
		if r == nil {
			r = st.srv.report(ev.Order, reportTypes[ev.Report], ev.Trade)
		}
		c.notify("report", r)
		if st.srv.opts.Faults.On("V2-WS-REPORT-ONE") {
			c.notify("report", r)
		}
	}
	key := orderKey{ev.Account, ev.Order.ClientOrderID()}
	for _, done := range st.awaited[key] {
		close(done)
	}
	delete(st.awaited, key)
}

// orderKey names an order by account and client order id.
type orderKey struct{ account, cloid string }

// reportWait bounds how long an answer waits for its order's report (which
// comes within microseconds unless the follower was just renewed).
const reportWait = time.Second

// awaitReport registers a wait for the next event of the order key; the
// returned function waits for it (or gives up) and forgets the wait. The
// real service sends an order's report before the answer to the request
// that changed it ("Notification report will arrive before request
// result"), so the trading methods answer only after it.
func (st *state) awaitReport(key orderKey) (wait func(ok bool)) {
	done := make(chan struct{})
	st.mu.Lock()
	st.awaited[key] = append(st.awaited[key], done)
	st.mu.Unlock()
	return func(ok bool) {
		if ok {
			t := time.NewTimer(reportWait)
			select {
			case <-done:
			case <-t.C:
			}
			t.Stop()
		}
		st.mu.Lock()
		defer st.mu.Unlock()
		ws := st.awaited[key]
		for i, w := range ws {
			if w == done {
				st.awaited[key] = append(ws[:i:i], ws[i+1:]...)
				break
			}
		}
		if len(st.awaited[key]) == 0 {
			delete(st.awaited, key)
		}
	}
}

// user is the logged-in caller holding right, or the documented refusal.
func (s *Server) user(c *conn, right string) (*api.Principal, *api.Error) {
	u := c.principal()
	if u == nil {
		return nil, loginRequired()
	}
	if !u.Rights[right] {
		return nil, api.Forbidden(right)
	}
	return u, nil
}

// subscribeReports answers true, then activeOrders (the active orders as
// status reports), then a report per order update.
func (s *Server) subscribeReports(c *conn, req *request, _ api.Params) (any, *api.Error) {
	f := s.opts.Faults
	u := c.principal()
	switch {
	case u == nil && f.On("V2-WS-LOGIN-REQUIRED"):
		u = &api.Principal{Account: "__nobody__"}
	case u == nil:
		return nil, loginRequired()
	case !u.Rights[auth.RightOrderbook] && !f.On("V2-WS-REPORTS-RIGHTS") &&
		!(u.Rights[auth.RightPayment] && f.On("V2-WS-REPORTS-RIGHT-ALONE")): // the fault: Payment information stands in
		return nil, api.Forbidden(auth.RightOrderbook)
	}
	st := s.state
	st.mu.Lock()
	defer st.mu.Unlock()
	// Registered before the listing, so that no update is lost between
	// them (one may come twice, which a report stream allows).
	st.reports[c] = u.Account
	os, err := s.opts.Engine.Active(u.Account, "")
	if err != nil {
		delete(st.reports, c)
		return nil, api.EngineError(err)
	}
	if f.On("V2-WS-ACTIVE-ORDERS") && len(os) > 0 {
		os = os[:len(os)-1]
	}
	c.result(req, true)
	c.notify("activeOrders", s.reports(os))
	return answered, nil
}

func (s *Server) reports(os []engine.Order) []any {
	out := make([]any, len(os))
	for i, o := range os {
		out[i] = s.report(o, "status", nil)
	}
	return out
}

// Beyond the contract (V2-OOS-STREAM-TRADING): the trading methods of the
// real service's v2 socket API, with its parameter names, answering order
// reports. Every rule is the engine's, as for v3 orders.

func (s *Server) newOrder(c *conn, _ *request, p api.Params) (any, *api.Error) {
	u, err := s.user(c, auth.RightTrading)
	if err != nil {
		return nil, err
	}
	// Required by the real service ("Uniqueness must be guaranteed within a
	// single trading day"); its rules are the engine's.
	cloid, ok := p.String("clientOrderId")
	if !ok || cloid == "" {
		return nil, api.Validation("clientOrderId is required")
	}
	req, err := v2shape.PlaceRequest(p, u.Account, &cloid)
	if err != nil {
		return nil, err
	}
	wait := s.state.awaitReport(orderKey{u.Account, cloid})
	o, perr := s.opts.Engine.Place(req)
	wait(perr == nil)
	if perr != nil {
		return nil, api.EngineError(perr)
	}
	return s.report(o, "new", nil), nil
}

func optDecimal(p api.Params, name string) (*decimal.Decimal, *api.Error) {
	d, ok, err := p.Decimal(name)
	if err != nil || !ok {
		return nil, err
	}
	return &d, nil
}

func (s *Server) cancelOrder(c *conn, _ *request, p api.Params) (any, *api.Error) {
	u, err := s.user(c, auth.RightTrading)
	if err != nil {
		return nil, err
	}
	id, _ := p.String("clientOrderId")
	if id == "" {
		return nil, api.Validation("clientOrderId is required")
	}
	wait := s.state.awaitReport(orderKey{u.Account, id})
	o, cerr := s.opts.Engine.Cancel(u.Account, id)
	wait(cerr == nil)
	if cerr != nil {
		return nil, api.EngineError(cerr)
	}
	return s.report(o, "canceled", nil), nil
}

func (s *Server) cancelReplaceOrder(c *conn, _ *request, p api.Params) (any, *api.Error) {
	u, err := s.user(c, auth.RightTrading)
	if err != nil {
		return nil, err
	}
	req := engine.ReplaceRequest{Account: u.Account}
	req.ClientOrderID, _ = p.String("clientOrderId")
	if req.ClientOrderID == "" {
		return nil, api.Validation("clientOrderId is required")
	}
	newID, _ := p.String("requestClientId")
	if newID == "" {
		return nil, api.Validation("requestClientId is required")
	}
	req.NewClientOrderID = &newID
	if req.Quantity, err = optDecimal(p, "quantity"); err != nil {
		return nil, err
	}
	if req.Price, err = optDecimal(p, "price"); err != nil {
		return nil, err
	}
	if req.StopPrice, err = optDecimal(p, "stopPrice"); err != nil {
		return nil, err
	}
	if req.StrictValidate, err = p.Bool("strictValidate", false); err != nil {
		return nil, err
	}
	wait := s.state.awaitReport(orderKey{u.Account, newID})
	o, rerr := s.opts.Engine.Replace(req)
	wait(rerr == nil)
	if rerr != nil {
		return nil, api.EngineError(rerr)
	}
	return s.report(o, "replaced", nil), nil
}

func (s *Server) getOrders(c *conn, _ *request, _ api.Params) (any, *api.Error) {
	u, err := s.user(c, auth.RightOrderbook)
	if err != nil {
		return nil, err
	}
	os, aerr := s.opts.Engine.Active(u.Account, "")
	if aerr != nil {
		return nil, api.EngineError(aerr)
	}
	return s.reports(os), nil
}

func (s *Server) getTradingBalance(c *conn, _ *request, _ api.Params) (any, *api.Error) {
	u, err := s.user(c, auth.RightOrderbook)
	if err != nil {
		return nil, err
	}
	bs := s.opts.Ledger.Balances(u.Account)
	return v2shape.NewBalances(bs), nil
}

// loginRequired is 1001 Authorization required, said for a stream.
func loginRequired() *api.Error {
	return &api.Error{Status: 401, Code: 1001, Message: "Authorization required", Description: "log in first (method login)"}
}
