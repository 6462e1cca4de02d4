package v2buycrypto

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The order listing's from and till: outside "orders", whose specs all
// need a purchase (the window spec makes one and says so itself).
var _ = framework.AreaDescribe("v2 buy crypto", func() {
	framework.ConformanceIt("V2-BUY-ORDERS-FROM-TILL", func(ctx SpecContext) {
		o := offers(ctx)[0]
		path := fmt.Sprintf("/buy-crypto/provider/%d/order", o.provider)
		c := v2(target.RoleFull)
		w := window(trading.TargetNow(ctx))
		Expect(get(ctx, c, path, url.Values{"till": w["till"]})).To(framework.BeAPIError(http.StatusBadRequest, 10001), "the listing without from")
		Expect(get(ctx, c, path, url.Values{"from": w["from"]})).To(framework.BeAPIError(http.StatusBadRequest, 10001), "the listing without till")
		Expect(get(ctx, c, path, w)).To(framework.BeOK(), "the listing with from and till")
	})

	// It creates an order, so it skips where the target may not trade;
	// it stands by V2-BUY-ORDERS-FROM-TILL, the other rule of from and till.
	framework.ConformanceIt("V2-BUY-ORDERS-WINDOW", func(ctx SpecContext) {
		mayBuy()
		o := offers(ctx)[0]
		ord := place(ctx, o)
		id, at := num(ord, "id"), createdAt(ord)
		c := v2(target.RoleFull)
		path := fmt.Sprintf("/buy-crypto/provider/%d/order", o.provider)
		// list reads the listing with from and till as given; ok is
		// false when the target does not answer it with an array.
		list := func(from, till int64) (ex *client.Exchange, listed []map[string]any, ok bool) {
			GinkgoHelper()
			ex = get(ctx, c, path, url.Values{"from": {fmt.Sprint(from)}, "till": {fmt.Sprint(till)}, "limit": {"1000"}})
			if ok, _ = framework.BeOK().Match(ex); !ok {
				return ex, nil, false
			}
			v, err := ex.JSON()
			if _, isArray := v.([]any); err != nil || !isArray {
				return ex, nil, false
			}
			return ex, objects(v), true
		}
		// The row says "Unix timestamps" and no unit: the v2 document's
		// own timestamps are ISO 8601 strings, and only version 3's
		// conventions count Unix time in milliseconds. So the spec takes
		// the unit from the target: the window of one unit either side of
		// the order's creation, in milliseconds and then in seconds. The
		// two readings of one number lie a thousandfold apart (now in
		// milliseconds read as seconds is some 50,000 years ahead, now in
		// seconds read as milliseconds is January 1970), so at most one
		// of them holds the order, and a target that reads neither fails.
		var unit time.Duration
		var tried []string
		for _, u := range []time.Duration{time.Millisecond, time.Second} {
			n := at.UnixNano() / int64(u)
			ex, listed, ok := list(n-1, n+1)
			if ok && containsID(listed, id) {
				unit = u
				break
			}
			tried = append(tried, fmt.Sprintf("in %v units: %s", u, ex))
		}
		if unit == 0 {
			Fail(fmt.Sprintf("V2-BUY-ORDERS-WINDOW: the order %d created at %s is listed within one unit either side of it neither in milliseconds nor in seconds:\n%s",
				id, at.Format(time.RFC3339Nano), strings.Join(tried, "\n")))
		}
		n := at.UnixNano() / int64(unit)
		hour := int64(time.Hour / unit)
		// Each window is one unit clear of the creation instant, so that
		// neither an inclusive nor an exclusive reading of its bounds, nor
		// a creation time finer than the unit, moves the order across it.
		for _, w := range []struct {
			from, till int64
			inside     bool
			what       string
		}{
			{n - 1, n + 1, true, "the window around its creation"},
			{n - hour, n - 1, false, "a window ending before its creation"},
			{n + 1, n + hour, false, "a window starting after its creation"},
		} {
			ex, listed, ok := list(w.from, w.till)
			Expect(ok).To(BeTrue(), "the v2 order listing with from=%d&till=%d (%v units)\nexchange: %s", w.from, w.till, unit, ex)
			if w.inside {
				Expect(containsID(listed, id)).To(BeTrue(), "the order %d created at %s is listed by %s, from=%d&till=%d (%v units)", id, at.Format(time.RFC3339Nano), w.what, w.from, w.till, unit)
			} else {
				Expect(containsID(listed, id)).To(BeFalse(), "the order %d created at %s is not listed by %s, from=%d&till=%d (%v units)", id, at.Format(time.RFC3339Nano), w.what, w.from, w.till, unit)
			}
			// Every listed order is created inside the window; till covers
			// its whole unit, the inclusive reading.
			lo, hi := time.Unix(0, w.from*int64(unit)), time.Unix(0, (w.till+1)*int64(unit))
			for _, l := range listed {
				t := createdAt(l)
				Expect(!t.Before(lo) && t.Before(hi)).To(BeTrue(), "order %v created at %s is listed by from=%d&till=%d (%v units), outside the window", l["id"], t.Format(time.RFC3339Nano), w.from, w.till, unit)
			}
		}
	})
})
