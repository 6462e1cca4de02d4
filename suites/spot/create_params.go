package spot

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/suites/trading"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Create order parameters (POST /spot/order): each spec sends an otherwise
// valid order that rests without trading, changed in one parameter.
var _ = framework.AreaDescribe("Create order parameters", func() {
	var (
		t *trading.Trader
		s trading.Symbol
	)
	restingSetup(&t, &s)
	refuse10001 := []int{10001}

	framework.ConformanceContext("V3-SPOT-CLOID-LEN", func() {
		DescribeTable("client_order_id by length",
			func(ctx SpecContext, n int, accepted bool, en trading.Encoding) {
				p := restingBuy(s, 3).With("client_order_id", cloids.OfLen(n))
				if accepted {
					o := t.PlaceOK(ctx, p, en)
					Expect(o["client_order_id"]).To(Equal(p["client_order_id"]), "an accepted client_order_id of %d characters is kept", n)
					return
				}
				t.PlaceRefused(ctx, p, http.StatusBadRequest, refuse10001, "client_order_id of "+strconv.Itoa(n)+" characters", en)
			},
			Entry("7 characters are refused", 7, false, trading.FormBody),
			Entry("8 characters are accepted", 8, true, trading.FormBody),
			Entry("32 characters are accepted", 32, true, trading.FormBody),
			Entry("33 characters are refused", 33, false, trading.FormBody),
			Entry("7 characters are refused (JSON body)", 7, false, trading.JSONBody),
			Entry("33 characters are refused (JSON body)", 33, false, trading.JSONBody),
		)
	})

	framework.ConformanceContext("V3-SPOT-CLOID-CHARSET", func() {
		It("accepts Latin letters of both cases, digits, underscore and hyphen", func(ctx SpecContext) {
			id := string(cloids) + "_AZ-az-09_" + cloids.OfLen(12)[len(string(cloids)):]
			o := t.PlaceOK(ctx, restingBuy(s, 3).With("client_order_id", id))
			Expect(o["client_order_id"]).To(Equal(id), "an accepted client_order_id is kept")
		})
		DescribeTable("refuses any other character",
			func(ctx SpecContext, bad string) {
				id := cloids.OfLen(10) + bad + cloids.OfLen(10)[len(string(cloids)):]
				t.PlaceRefused(ctx, restingBuy(s, 3).With("client_order_id", id), http.StatusBadRequest, refuse10001,
					"client_order_id "+id+" holds "+bad)
			},
			Entry("a dot", "."), Entry("a space", " "), Entry("an at sign", "@"), Entry("a plus", "+"),
			Entry("an asterisk", "*"), Entry("a colon", ":"), Entry("a non-Latin letter", "ж"),
		)
	})

	framework.ConformanceIt("V3-SPOT-CLOID-GENERATED", func(ctx SpecContext) {
		o := t.PlaceOK(ctx, restingBuy(s, 3).Without("client_order_id"))
		id, ok := o["client_order_id"].(string)
		Expect(ok && id != "").To(BeTrue(), "the server generates client_order_id when omitted\norder: %v", o)
		got := t.GetOK(ctx, id)
		Expect(got["id"]).To(Equal(o["id"]), "GET /spot/order/%s answers the created order", id)
	})

	// placeDuplicate rests an order and sends another one with its
	// client_order_id (a different price and quantity), returning both.
	placeDuplicate := func(ctx SpecContext) (order, params, *client.Exchange) {
		first := restingBuy(s, 3)
		o := t.PlaceOK(ctx, first)
		second := restingBuy(s, 4).With("client_order_id", first["client_order_id"], "quantity", s.Qty(20).String())
		return o, second, t.Place(ctx, second)
	}

	framework.ConformanceIt("V3-SPOT-CLOID-DUPLICATE", func(ctx SpecContext) {
		before, second, ex := placeDuplicate(ctx)
		trading.ExpectRefusal(ex, "an order reusing the client_order_id of an active order")
		after := t.GetOK(ctx, second["client_order_id"])
		for _, k := range []string{"id", "price", "quantity", "side", "status"} {
			Expect(after[k]).To(Equal(before[k]), "field %s of the existing order is unchanged by the refused duplicate", k)
		}
	})

	framework.ConformanceIt("V3-SPOT-CLOID-DUPLICATE-CODE", func(ctx SpecContext) {
		_, _, ex := placeDuplicate(ctx)
		framework.Observe("V3-SPOT-CLOID-DUPLICATE-CODE", "a duplicate client_order_id was answered %s", trading.Outcome(ex))
	})

	framework.ConformanceIt("V3-SPOT-CLOID-REUSE", func(ctx SpecContext) {
		first := restingBuy(s, 3)
		t.Finished(ctx, first)
		second := restingBuy(s, 4).With("client_order_id", first["client_order_id"])
		ex := t.Place(ctx, second)
		recs := t.History(ctx, url.Values{"client_order_id": {first["client_order_id"]}})
		framework.Observe("V3-SPOT-CLOID-REUSE", "a new order with the client_order_id of a canceled order was answered %s; the history then holds %d records with it",
			trading.Outcome(ex), len(recs))
	})
})

var _ = framework.AreaDescribe("Create order parameters", func() {
	var (
		t *trading.Trader
		s trading.Symbol
	)
	restingSetup(&t, &s)
	refuse10001 := []int{10001}

	framework.ConformanceContext("V3-SPOT-REQUIRED", func() {
		DescribeTable("refuses an order without a required parameter",
			func(ctx SpecContext, missing string, en trading.Encoding) {
				t.PlaceRefused(ctx, restingBuy(s, 3).Without(missing), http.StatusBadRequest, refuse10001, "an order without "+missing, en)
			},
			Entry("without symbol", "symbol", trading.FormBody),
			Entry("without side", "side", trading.FormBody),
			Entry("without quantity", "quantity", trading.FormBody),
			Entry("without symbol (JSON body)", "symbol", trading.JSONBody),
			Entry("without side (JSON body)", "side", trading.JSONBody),
			Entry("without quantity (JSON body)", "quantity", trading.JSONBody),
		)
	})

	framework.ConformanceContext("V3-SPOT-SIDE", func() {
		DescribeTable("refuses a side other than sell or buy",
			func(ctx SpecContext, side string) {
				t.PlaceRefused(ctx, restingBuy(s, 3).With("side", side), http.StatusBadRequest, refuse10001, "side "+side)
			},
			Entry(nil, "hold"), Entry(nil, "bid"), Entry(nil, "ask"), Entry(nil, "long"), Entry("upper case", "SELL"),
		)
		It("accepts sell and buy", func(ctx SpecContext) {
			Expect(t.PlaceOK(ctx, restingBuy(s, 3))["side"]).To(Equal("buy"), "a buy order")
			Expect(t.PlaceOK(ctx, restingSell(s))["side"]).To(Equal("sell"), "a sell order")
		})
	})

	// The documented values are those of the type and time_in_force rows;
	// each refused value is one an independent reader would try (another
	// case, another exchange's name, a v2-era spelling).
	framework.ConformanceContext("V3-SPOT-TYPE-VALUES", func() {
		DescribeTable("refuses a type outside limit, market, stopLimit, stopMarket, takeProfitLimit and takeProfitMarket",
			func(ctx SpecContext, typ string) {
				t.PlaceRefused(ctx, restingBuy(s, 3).With("type", typ), http.StatusBadRequest, refuse10001, "type "+typ)
			},
			Entry("upper case", "LIMIT"), Entry(nil, "stop"), Entry(nil, "stopLoss"), Entry(nil, "trailingStop"),
			Entry(nil, "takeProfit"), Entry(nil, "iceberg"), Entry("snake case", "stop_limit"),
		)
	})

	framework.ConformanceContext("V3-SPOT-TIF-VALUES", func() {
		DescribeTable("refuses a time_in_force outside GTC, IOC, FOK, Day and GTD",
			func(ctx SpecContext, tif string) {
				t.PlaceRefused(ctx, restingBuy(s, 3).With("time_in_force", tif), http.StatusBadRequest, refuse10001, "time_in_force "+tif)
			},
			Entry("lower case", "gtc"), Entry("Day in upper case", "DAY"), Entry(nil, "GTT"), Entry(nil, "GTX"),
			Entry(nil, "FAK"), Entry(nil, "forever"),
		)
		DescribeTable("accepts each documented time_in_force on a resting limit order",
			func(ctx SpecContext, tif string) {
				p := restingBuy(s, 3).With("time_in_force", tif)
				if tif == "GTD" {
					p = p.With("expire_time", trading.TargetNow(ctx).Add(30*24*time.Hour).Truncate(time.Second).Format(time.RFC3339))
				}
				Expect(t.PlaceOK(ctx, p)["time_in_force"]).To(Equal(tif), "an order sent with time_in_force %s", tif)
			},
			Entry(nil, "GTC"), Entry(nil, "Day"), Entry(nil, "GTD"),
		)
	})

	framework.ConformanceIt("V3-SPOT-UNKNOWN-SYMBOL", func(ctx SpecContext) {
		for _, en := range []trading.Encoding{trading.FormBody, trading.JSONBody} {
			t.PlaceRefused(ctx, restingBuy(s, 3).With("symbol", "CONFORMNOSUCH"), http.StatusBadRequest, []int{2001}, "an order for an unlisted symbol", en)
		}
	})

	framework.ConformanceIt("V3-SPOT-TYPE-DEFAULT", func(ctx SpecContext) {
		p := restingBuy(s, 3).Without("type")
		o := t.PlaceOK(ctx, p)
		Expect(o["type"]).To(Equal("limit"), "an order sent without type\norder: %v", o)
		Expect(t.GetOK(ctx, p["client_order_id"])["type"]).To(Equal("limit"), "the stored order sent without type")
	})
})

var _ = framework.AreaDescribe("Create order parameters", func() {
	var (
		t *trading.Trader
		s trading.Symbol
	)
	restingSetup(&t, &s)
	refuse10001 := []int{10001}

	framework.ConformanceContext("V3-SPOT-PRICE-REQUIRED", func() {
		DescribeTable("refuses an order of a priced type without price",
			func(ctx SpecContext, typ string) {
				p := restingSell(s).Without("price")
				switch typ {
				case "":
					p = p.Without("type")
				case "stopLimit":
					p = p.With("type", typ, "stop_price", s.Low(5).String())
				case "takeProfitLimit":
					p = p.With("type", typ, "stop_price", s.High().String())
				default:
					p = p.With("type", typ)
				}
				t.PlaceRefused(ctx, p, http.StatusBadRequest, refuse10001, "type "+typ+" without price")
			},
			Entry("limit", "limit"), Entry("type omitted (limit by default)", ""),
			Entry("stopLimit", "stopLimit"), Entry("takeProfitLimit", "takeProfitLimit"),
		)
	})

	framework.ConformanceContext("V3-SPOT-STOP-PRICE-REQUIRED", func() {
		DescribeTable("refuses a stop or take-profit order without stop_price",
			func(ctx SpecContext, typ string) {
				t.PlaceRefused(ctx, parkedStops(s)[typ].Without("stop_price"), http.StatusBadRequest, refuse10001, typ+" without stop_price")
			},
			Entry(nil, "stopLimit"), Entry(nil, "stopMarket"), Entry(nil, "takeProfitLimit"), Entry(nil, "takeProfitMarket"),
		)
	})

	framework.ConformanceContext("V3-SPOT-TIF-DEFAULT", func() {
		DescribeTable("defaults time_in_force by type",
			func(ctx SpecContext, typ, want string) {
				var p params
				if typ == "limit" {
					p = restingBuy(s, 3)
				} else {
					p = parkedStops(s)[typ]
				}
				o := t.PlaceOK(ctx, p.Without("time_in_force"))
				Expect(o["time_in_force"]).To(Equal(want), "a %s order sent without time_in_force\norder: %v", typ, o)
			},
			Entry(nil, "limit", "GTC"), Entry(nil, "stopLimit", "GTC"), Entry(nil, "takeProfitLimit", "GTC"),
			Entry(nil, "stopMarket", "FOK"), Entry(nil, "takeProfitMarket", "FOK"),
		)
		// A market order trades at once: Serial, so that no other process's
		// buy parked at a few ticks is there to meet. Elsewhere than on the
		// emulator a symbol whose ticker shows no bid is preferred; a sell
		// that meets a third party's bid still answers its time_in_force.
		It("defaults time_in_force of a market order to FOK", Serial, func(ctx SpecContext) {
			sym := s
			if !framework.Current().Config.Emulator {
				for _, c := range restable(ctx, t) {
					if b, why := trading.ReadBook(ctx, c); why == "" && b.Bid.IsZero() {
						sym = c
						break
					}
				}
			}
			p := params{"client_order_id": cloids.New(), "symbol": sym.Code, "side": "sell", "type": "market", "quantity": sym.Qty(10).String()}
			o := t.PlaceOK(ctx, p)
			Expect(o["time_in_force"]).To(Equal("FOK"), "a market order sent without time_in_force\norder: %v", o)
		})
	})

	framework.ConformanceContext("V3-SPOT-EXPIRE-REQUIRED", func() {
		It("refuses GTD without expire_time", func(ctx SpecContext) {
			t.PlaceRefused(ctx, restingBuy(s, 3).With("time_in_force", "GTD"), http.StatusBadRequest, refuse10001, "GTD without expire_time")
		})
		It("accepts GTD with expire_time", func(ctx SpecContext) {
			exp := trading.TargetNow(ctx).Add(30 * 24 * time.Hour).Truncate(time.Second)
			o := t.PlaceOK(ctx, restingBuy(s, 3).With("time_in_force", "GTD", "expire_time", exp.Format(time.RFC3339)))
			Expect(o["time_in_force"]).To(Equal("GTD"), "the order sent as GTD\norder: %v", o)
			Expect(trading.TimeField(o, "expire_time").Equal(exp)).To(BeTrue(), "expire_time %v is the one sent, %v", o["expire_time"], exp)
		})
	})

	framework.ConformanceContext("V3-SPOT-DISPLAY-QTY", func() {
		It("accepts the string zero", func(ctx SpecContext) {
			o := t.PlaceOK(ctx, restingBuy(s, 3).With("display_quantity", "0"))
			if dq, ok := o["display_quantity"]; ok {
				Expect(dq).To(Equal("0"), "display_quantity of a hidden order")
			}
		})
		DescribeTable("refuses any other value",
			func(ctx SpecContext, v func(trading.Symbol) string) {
				t.PlaceRefused(ctx, restingBuy(s, 3).With("display_quantity", v(s)), http.StatusBadRequest, refuse10001, "display_quantity "+v(s))
			},
			Entry("one", func(trading.Symbol) string { return "1" }),
			Entry("a quantity step", func(s trading.Symbol) string { return s.Step.String() }),
			Entry("the order quantity", func(s trading.Symbol) string { return s.Qty(10).String() }),
			Entry("minus one", func(trading.Symbol) string { return "-1" }),
			Entry("a word", func(trading.Symbol) string { return "zero" }),
		)
	})
})
