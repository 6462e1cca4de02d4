package v2streams

import (
	"fmt"
	"net/url"

	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The v2 REST ticker read beside the v2 order book, which the v2 document
// shows on the market data stream only.
var _ = framework.AreaDescribe("v2 ticker beside the stream order book", func() {
	framework.ConformanceIt("V2-TICKER-NULL", func(ctx SpecContext) {
		pub := framework.Current().V2Public()
		syms, _ := framework.GetObjects(ctx, pub, "/public/symbol", nil)
		s := open(ctx, pathPublic)
		checked := 0
		for i, sym := range syms {
			if i == 6 {
				break // a few symbols tell; every one would slow the run
			}
			code := fmt.Sprint(sym["id"])
			s.ok(ctx, "subscribeOrderbook", frame{"symbol": code})
			snap := s.notification(ctx, "snapshotOrderbook", func(p any) bool { return object(p, "snapshotOrderbook")["symbol"] == code })
			tickers, _ := framework.GetObjects(ctx, pub, "/public/ticker", url.Values{"symbols": {code}})
			s.barrier(ctx, "unsubscribeOrderbook", frame{"symbol": code})
			moved := false
			for _, f := range s.pending() {
				p, _ := f["params"].(map[string]any)
				moved = moved || f["method"] == "updateOrderbook" && p["symbol"] == code
			}
			if moved || len(tickers) != 1 {
				continue // the book changed while the ticker was read
			}
			checked++
			for _, side := range []string{"ask", "bid"} {
				if len(levelsOf(snap, side)) == 0 {
					Expect(tickers[0][side]).To(BeNil(), "%s: no %s in the order book, so the ticker's %s is null", code, side, side)
				} else {
					Expect(tickers[0][side]).To(framework.BeDecimalString(), "%s: the order book has %s levels, so the ticker's %s is a decimal", code, side, side)
				}
			}
		}
		Expect(checked).To(BeNumerically(">", 0), "a symbol whose book stood still while its ticker was read")
	})
})
