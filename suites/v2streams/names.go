package v2streams

import (
	"strconv"

	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The other version's names: version 3's subscribe on version 2.
var _ = framework.AreaDescribe("v2 streams: version 3's methods", func() {
	framework.ConformanceIt("V2-WS-V3-METHODS", func(ctx SpecContext) {
		s := open(ctx, pathPublic)
		sym := anySymbol(ctx)
		id := s.nextID()
		ch := s.c.Expect(strconv.Itoa(id))
		s.send(frame{"method": "subscribe", "ch": "trades", "params": frame{"symbols": []string{sym.Code}}, "id": id})
		m, err := s.c.Await(ctx, ch, framework.Timeouts.Eventually)
		Expect(err).NotTo(HaveOccurred(), "subscribe (version 3's method) on %s: the answer with id %d", pathPublic, id)
		errorOf(decode(m), "subscribe, version 3's method, on the v2 market data stream")
	})
})
