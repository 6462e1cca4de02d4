package load

import "github.com/conform-harness/conform/client"

// v2Trading is the v2 trading stream (/api/2/ws/trading). The document
// gives login (algo BASIC with pKey and sKey) and subscribeReports, whose
// report notifications carry an order's clientOrderId and status; it does
// not show order placement over the stream (V2-OOS-STREAM-TRADING): newOrder
// and cancelOrder follow the real service's v2 socket API. Latency ends at
// the order's first report, which the document promises after
// subscribeReports, whether it comes before or after the answer.
var v2Trading = tradingProto{
	login: func(k client.Credential) map[string]any {
		return map[string]any{"algo": "BASIC", "pKey": k.Key, "sKey": k.Secret}
	},
	subscribe: "subscribeReports",
	newOrder: func(id string, t TradeSpec, side string) (string, map[string]any) {
		return "newOrder", map[string]any{"clientOrderId": id, "symbol": t.Symbol, "side": side, "type": "limit",
			"quantity": t.Quantity, "price": t.Price, "timeInForce": "GTC"}
	},
	cancel: func(id string) (string, map[string]any) {
		return "cancelOrder", map[string]any{"clientOrderId": id}
	},
	report: "report",
}
