package streampublic

import (
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Market data stream: notifications", func() {
	framework.ConformanceIt("V3-WS-PUB-NOTIFY-SHAPE", func(ctx SpecContext) {
		a, _ := twoSymbols(ctx)
		s := open(ctx)
		s.subscribe(ctx, "candles/M1", map[string]any{"symbols": []string{a.Code}, "limit": 1})
		n := s.next("candles/M1")
		Expect(n.member).To(Equal("snapshot"), "with limit 1 the notification after the answer is {ch, snapshot: {...}}: %s", n.text)
		Expect(string(n.raw["ch"])).To(Equal(`"candles/M1"`), "ch names the channel: %s", n.text)
		Expect(n.symbols).To(HaveKey(a.Code), "the snapshot is keyed by symbol: %s", n.text)
	})

	framework.ConformanceIt("V3-WS-PUB-NOTIFY-NO-ID", func(ctx SpecContext) {
		a, _ := twoSymbols(ctx)
		s := open(ctx)
		s.subscribe(ctx, "trades", map[string]any{"symbols": []string{a.Code}, "limit": 1})
		n := s.next("trades")
		Expect(n.raw).NotTo(HaveKey("id"), "a notification has no id: %s", n.text)
	})

	framework.ConformanceIt("V3-WS-PUB-ONE-SYMBOL", func(ctx SpecContext) {
		a, b := twoSymbols(ctx)
		s := open(ctx)
		s.subscribe(ctx, "trades", map[string]any{"symbols": []string{a.Code, b.Code}, "limit": 1})
		seen := map[string]bool{}
		for len(seen) < 2 {
			n := s.next("trades")
			Expect(n.symbols).To(HaveLen(1), "one notification carries one symbol on trades: %s", n.text)
			for sym := range n.symbols {
				Expect(seen).NotTo(HaveKey(sym), "one snapshot per symbol: %s", n.text)
				seen[sym] = true
			}
		}
		Expect(seen).To(HaveKey(a.Code))
		Expect(seen).To(HaveKey(b.Code))
	})
})
