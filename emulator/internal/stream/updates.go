package stream

import (
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/feed"
)

// HubUpdates delivers order updates from the engine's event hub.
type HubUpdates struct{ Hub *feed.Hub }

// reportTypes maps the engine's reports to the real service's report_type.
var reportTypes = map[engine.ReportType]string{
	engine.ReportNew:       "new",
	engine.ReportSuspended: "suspended",
	engine.ReportTriggered: "new",
	engine.ReportActivated: "new",
	engine.ReportTrade:     "trade",
	engine.ReportCanceled:  "canceled",
	engine.ReportExpired:   "expired",
	engine.ReportReplaced:  "replaced",
}

// SubscribeOrders implements Updates: one hub subscription per caller, read
// by a goroutine of its own, so fn runs outside the engine's lock. A
// subscriber the hub dropped for falling behind gets no more updates.
func (h HubUpdates) SubscribeOrders(account string, fn func(OrderUpdate)) (cancel func()) {
	sub := h.Hub.Subscribe(engine.OrderEvent, 0)
	go func() {
		for ev := range sub.Events() {
			if ev.Account != account {
				continue
			}
			r, ok := reportTypes[ev.Report]
			if !ok {
				r = string(ev.Report)
			}
			fn(OrderUpdate{Account: ev.Account, Margin: ev.Margin, Futures: ev.Futures, Report: r, Order: ev.Order, Trade: ev.Trade})
		}
	}()
	return sub.Close
}
