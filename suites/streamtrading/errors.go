package streamtrading

import (
	"bytes"
	"encoding/json"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// expectErrorWithID asserts that m is the streaming error object carrying
// the id sent.
func expectErrorWithID(m client.WSMessage, id, what string) {
	GinkgoHelper()
	Expect(m.Error).NotTo(BeNil(), "%s is an error: got %s\nframe: %s", what, m.Describe(), m.Raw)
	var body map[string]any
	dec := json.NewDecoder(bytes.NewReader(m.Raw))
	dec.UseNumber()
	Expect(dec.Decode(&body)).To(Succeed(), "frame: %s", m.Raw)
	Expect(body["error"]).To(framework.MatchSchema(framework.Schema{
		"code":        {Kind: framework.Number},
		"message":     {Kind: framework.String},
		"description": {Kind: framework.String, Optional: true},
	}), "%s: the error object\nframe: %s", what, m.Raw)
	Expect(m.HasID).To(BeTrue(), "%s: the error carries the request id %q\nframe: %s", what, id, m.Raw)
	Expect(m.ID).To(Equal(id), "%s: the error carries the request id\nframe: %s", what, m.Raw)
}

var _ = framework.AreaDescribe("Trading stream: errors", func() {
	framework.ConformanceIt("V3-WST-UNKNOWN-METHOD", func(ctx SpecContext) {
		s := trading.NewStreamSession(ctx, target.RoleFull, trading.TradingStream)
		id := s.NextID()
		s.Pace(ctx, noSuchMethod)
		m, err := s.WS.Request(ctx, framework.Timeouts.Request, id, noSuchMethod, map[string]any{"params": map[string]any{}})
		Expect(err).NotTo(HaveOccurred(), "a request naming no method of the stream is answered")
		expectErrorWithID(m, id, "the answer to the unknown method "+noSuchMethod)
		Expect(s.WS.IsClosed()).To(BeFalse(), "the connection stays open after an unknown method: %s", s.WS.CloseReason())
		after := s.Request(ctx, "spot_balances", map[string]any{})
		Expect(after.Error).To(BeNil(), "the connection still serves requests after an unknown method: %s", after.Describe())
	})

	framework.ConformanceIt("V3-WST-ERROR-ID", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		framework.Current().RequireStreamTrading()
		s := trading.NewStreamSession(ctx, target.RoleFull, trading.TradingStream)
		sym := trading.WorkingSymbols(ctx)[0]
		missing, repl := cloids.New(), cloids.New()
		s.CancelAtEnd(repl)
		id := s.NextID()
		s.Pace(ctx, "spot_replace_order")
		m, err := s.WS.Request(ctx, framework.Timeouts.Request, id, "spot_replace_order", map[string]any{"params": map[string]any{
			"client_order_id": missing, "new_client_order_id": repl, "quantity": sym.Qty(10).String(), "price": sym.Low(3).String()}})
		Expect(err).NotTo(HaveOccurred(), "spot_replace_order of an order that does not exist is answered")
		expectErrorWithID(m, id, "the answer to spot_replace_order of the order "+missing+" that does not exist")
	})
})

var _ = framework.AreaDescribe("Trading stream: malformed frames", func() {
	framework.ConformanceIt("V3-WST-MALFORMED", func(ctx SpecContext) {
		s := trading.NewStreamSession(ctx, target.RoleFull, trading.TradingStream)
		framework.Observe("V3-WST-MALFORMED", "a frame that is not JSON was %s", s.AnswerToMalformed(ctx))
	})
})
