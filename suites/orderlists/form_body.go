package orderlists

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

// formOf encodes a list the way form bodies carry nested arrays
// (orders[0][symbol]=...), the only form encoding of a list a client could
// try.
func formOf(l list) url.Values {
	f := url.Values{"contingency_type": {l.typ}}
	if l.id != "" {
		f.Set("order_list_id", l.id)
	}
	for i, o := range l.orders {
		for k, v := range o {
			f.Set(fmt.Sprintf("orders[%d][%s]", i, k), v)
		}
	}
	return f
}

var _ = framework.AreaDescribe("Order lists: a form-encoded body", func() {
	framework.ConformanceIt("V3-LIST-FORM-BODY", func(ctx SpecContext) {
		framework.Current().RequireTrading()
		t := newTrader(target.RoleFull)
		d := openDesk(ctx, t, trading.Spot)
		l := parkedList(ctx, t, d, oco, 2)
		ids := l.cloids()
		for i := len(ids) - 1; i >= 0; i-- {
			t.On(trading.Spot).CancelAtEnd(ids[i])
		}
		ex, _ := t.Client.Do(ctx, client.Request{Method: http.MethodPost, Path: "/spot/order/list", Form: formOf(l)})
		framework.Observe("V3-LIST-FORM-BODY", "a oneCancelOther list sent form-encoded (orders[i][field]) was answered %s", trading.Outcome(ex))
	})
})
