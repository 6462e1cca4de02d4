package stream

import (
	"encoding/json"

	"github.com/conform-harness/conform/emulator/internal/api"
)

// subscribe switches a feed of the trading stream on or off and answers
// result true; switching on sends the feed's snapshot first (active
// orders with report_type "status", or the balances), as the real service
// does.
func (s *session) subscribe(req request, feed string, on bool) []byte {
	s.mu.Lock()
	s.subs[feed] = on
	s.mu.Unlock()
	if on {
		s.startUpdates()
		switch feed {
		case "spot", "margin", "futures":
			path, method := "/"+feed+"/order", feed+"_orders"
			s.push(func() []byte {
				v, e := s.acc.Call("GET", path, s.principal(), nil)
				if e != nil {
					return nil
				}
				return rpcNotification(method, withReportType(v, "status"))
			})
		case "spot_balance":
			s.push(s.spotBalance)
		case "futures_balance":
			s.push(s.futuresBalance)
		}
	}
	return s.result(true, req.ID)
}

// spotBalance builds the spot_balance notification: the balances REST
// shows.
func (s *session) spotBalance() []byte {
	v, e := s.acc.Call("GET", "/spot/balance", s.principal(), nil)
	if e != nil {
		return nil
	}
	return rpcNotification("spot_balance", v)
}

// futuresBalance builds the futures_balance notification: the futures
// balance REST shows.
func (s *session) futuresBalance() []byte {
	v, e := s.acc.Call("GET", "/futures/balance", s.principal(), nil)
	if e != nil {
		return nil
	}
	return rpcNotification("futures_balance", v)
}

func (s *session) startUpdates() {
	if s.acc.Updates == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		return
	}
	s.cancel = s.acc.Updates.SubscribeOrders(s.prin.Account, s.onUpdate)
}

func (s *session) principal() *api.Principal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.prin
}

// dropFault names the fault that drops the notifications of each report
// type.
var dropFault = map[string]string{
	"new":       "V3-WST-NOTIFY-NEW",
	"suspended": "V3-WST-NOTIFY-NEW",
	"trade":     "V3-WST-NOTIFY-FILL",
	"canceled":  "V3-WST-NOTIFY-CANCEL",
	"replaced":  "V3-WST-NOTIFY-REPLACE",
	"expired":   "V3-WST-NOTIFY-EXPIRE",
}

// onUpdate runs under the engine's lock: it only shapes the report and
// queues it.
func (s *session) onUpdate(u OrderUpdate) {
	feed, method := "spot", "spot_order"
	switch {
	case u.Futures:
		feed, method = "futures", "futures_order"
	case u.Margin:
		feed, method = "margin", "margin_order"
	}
	s.mu.Lock()
	orders, balances, futBalances, wallet := s.subs[feed], s.subs["spot_balance"], s.subs["futures_balance"], s.subs["wallet_balances"]
	if (feed == "spot" || feed == "margin") && s.c.srv.opts.Faults.On("V3-WST-SUBSCRIBE-SEPARATE") {
		orders = s.subs["spot"] || s.subs["margin"] // the fault: either subscription gets both venues' updates
	}
	s.mu.Unlock()
	// V3-WST-NOTIFY-MARGIN drops every margin order update, whatever its
	// report type, and only those: the spot and futures feeds are other
	// rules'.
	dropMargin := feed == "margin" && s.c.srv.opts.Faults.On("V3-WST-NOTIFY-MARGIN")
	if orders && !dropMargin && !s.c.srv.opts.Faults.On(dropFault[u.Report]) {
		if b := rpcNotification(method, s.report(u)); b != nil {
			s.push(func() []byte { return b })
		}
	}
	if balances {
		s.push(s.spotBalance)
	}
	if futBalances && u.Futures {
		s.push(s.futuresBalance)
	}
	if wallet {
		s.push(s.walletChanges)
	}
}

// report is an order report: the order as REST shows it, its report_type
// and, for a trade, the trade_ fields (the real service's shape).
func (s *session) report(u OrderUpdate) any {
	b, err := json.Marshal(s.acc.Report(u.Order, u.Margin))
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	delete(m, "trades")
	m["report_type"] = u.Report
	if t := u.Trade; t != nil {
		m["trade_id"] = t.ID
		m["trade_quantity"] = t.Quantity.String()
		m["trade_price"] = t.Price.String()
		m["trade_fee"] = t.Fee.String()
		m["trade_taker"] = t.Taker
	}
	return m
}
