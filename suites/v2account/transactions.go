package v2account

import (
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var txSchema = framework.Schema{
	"id":            {Kind: framework.String},
	"index":         {Kind: framework.Number},
	"currency":      {Kind: framework.String},
	"amount":        {Kind: framework.Decimal},
	"fee":           {Kind: framework.Decimal},
	"address":       {Kind: framework.String, Optional: true},
	"paymentId":     {Kind: framework.String, Optional: true},
	"hash":          {Kind: framework.String, Optional: true},
	"status":        {Kind: framework.String},
	"type":          {Kind: framework.String},
	"subType":       {Kind: framework.String, Optional: true},
	"senders":       {Kind: framework.Array, Optional: true},
	"offchainId":    {Kind: framework.Array, Optional: true},
	"confirmations": {Kind: framework.Number, Optional: true},
	"publicComment": {Kind: framework.String, Optional: true},
	"errorCode":     {Kind: framework.String, Optional: true},
	"createdAt":     {Kind: framework.DateTime},
	"updatedAt":     {Kind: framework.DateTime},
	"commitRisk":    {Kind: framework.Object, Optional: true},
}

// transactions reads GET /account/transactions.
func transactions(ctx SpecContext, c *client.Client, q url.Values) []map[string]any {
	GinkgoHelper()
	objs, _ := framework.GetObjects(ctx, c, "/account/transactions", q)
	return objs
}

// enough makes sure the account has at least n transactions in at least two
// currencies, moving a little between main and trading balances (there and
// back) when it has not.
func enough(ctx SpecContext, c *client.Client, n int) []map[string]any {
	GinkgoHelper()
	all := transactions(ctx, c, url.Values{"limit": {"1000"}})
	curs := map[any]bool{}
	for _, t := range all {
		curs[t["currency"]] = true
	}
	if len(all) >= n && len(curs) >= 2 {
		return all
	}
	cur, amt := transferAmount(ctx, c)
	for len(all) < n {
		transfer(ctx, c, cur, amt, "bankToExchange")
		transfer(ctx, c, cur, amt, "exchangeToBank")
		all = transactions(ctx, c, url.Values{"limit": {"1000"}})
	}
	if len(curs) < 2 {
		Skip(fmt.Sprintf("the account's transactions are all in one currency: %v", curs))
	}
	return all
}

func indexOf(t map[string]any) string { return fmt.Sprint(t["index"]) }

func createdAt(t map[string]any) time.Time {
	GinkgoHelper()
	at, err := time.Parse(time.RFC3339Nano, fmt.Sprint(t["createdAt"]))
	Expect(err).NotTo(HaveOccurred(), "createdAt of %v", t["id"])
	return at
}

var _ = framework.AreaDescribe("v2 account: transactions", func() {
	var c *client.Client
	BeforeEach(func() { c = framework.Current().V2Signed(target.RoleFull) })

	framework.ConformanceIt("V2-TX-FIELDS", func(ctx SpecContext) {
		for _, t := range enough(ctx, c, 3) {
			Expect(t).To(framework.MatchSchema(txSchema), "transaction %v", t["id"])
			// The optional parts, when present, as the document types them.
			for _, k := range []string{"senders", "offchainId"} {
				a, _ := t[k].([]any)
				for _, v := range a {
					Expect(v).To(BeAssignableToTypeOf(""), "%s of %v is an array of String", k, t["id"])
				}
			}
			if code, ok := t["errorCode"]; ok && code != nil {
				Expect(code).To(BeElementOf("INVALID_ADDRESS", "INVALID_PAYMENT_ID", "BAD_PRECISION"), "errorCode of %v", t["id"])
			}
			if r, ok := t["commitRisk"].(map[string]any); ok {
				Expect(r).To(HaveKeyWithValue("score", BeAssignableToTypeOf(float64(0))), "commitRisk of %v carries score Number", t["id"])
			}
		}
	})

	framework.ConformanceIt("V2-TX-STATUS-VALUES", func(ctx SpecContext) {
		for _, t := range enough(ctx, c, 3) {
			Expect(t["status"]).To(BeElementOf("created", "pending", "failed", "success"), "status of %v", t["id"])
			Expect(t["type"]).To(BeElementOf("payout", "payin", "deposit", "withdraw", "bankToExchange", "exchangeToBank"), "type of %v", t["id"])
		}
	})

	framework.ConformanceIt("V2-TX-FILTER", func(ctx SpecContext) {
		all := enough(ctx, c, 3)
		cur := fmt.Sprint(all[0]["currency"])
		got := transactions(ctx, c, url.Values{"currency": {cur}, "limit": {"1000"}})
		Expect(got).NotTo(BeEmpty(), "currency=%s: the account has %s transactions", cur, cur)
		Expect(framework.IDsOf(got, "currency")).To(HaveEach(cur), "currency=%s", cur)
	})

	framework.ConformanceIt("V2-TX-SORT", func(ctx SpecContext) {
		enough(ctx, c, 3)
		desc := transactions(ctx, c, nil)
		Expect(slices.IsSortedFunc(desc, func(a, b map[string]any) int { return createdAt(b).Compare(createdAt(a)) })).To(BeTrue(), "default: newest first")
		asc := transactions(ctx, c, url.Values{"sort": {"ASC"}})
		Expect(slices.IsSortedFunc(asc, func(a, b map[string]any) int { return createdAt(a).Compare(createdAt(b)) })).To(BeTrue(), "sort=ASC: oldest first")
		explicit := transactions(ctx, c, url.Values{"sort": {"DESC"}})
		Expect(framework.IDsOf(desc, "id")).To(Equal(framework.IDsOf(explicit, "id")), "the default is sort=DESC")
		Expect(desc[0]["id"]).NotTo(Equal(asc[0]["id"]), "DESC and ASC start at opposite ends of %d transactions", len(desc))
	})

	framework.ConformanceIt("V2-TX-BY-INDEX", func(ctx SpecContext) {
		all := enough(ctx, c, 3)
		// Bounds at the second and the second-to-last index of the list.
		var nums []int64
		for _, t := range all {
			var n int64
			fmt.Sscan(indexOf(t), &n)
			nums = append(nums, n)
		}
		slices.Sort(nums)
		lo, hi := nums[1], nums[len(nums)-2]
		if lo >= hi {
			hi = nums[len(nums)-1]
		}
		got := transactions(ctx, c, url.Values{"by": {"index"}, "from": {fmt.Sprint(lo)}, "till": {fmt.Sprint(hi)}, "limit": {"1000"}})
		var gotNums []int64
		for _, t := range got {
			var n int64
			fmt.Sscan(indexOf(t), &n)
			Expect(n).To(BeNumerically(">=", lo), "by=index from=%d", lo)
			Expect(n).To(BeNumerically("<=", hi), "by=index till=%d", hi)
			gotNums = append(gotNums, n)
		}
		Expect(gotNums).To(ContainElements(lo, hi), "the transactions at the bounds (inclusive)")
		Expect(len(got)).To(BeNumerically("<", len(all)), "bounds leave transactions out")
	})

	framework.ConformanceIt("V2-TX-BY-TIMESTAMP", func(ctx SpecContext) {
		all := enough(ctx, c, 3)
		oldest, newest := createdAt(all[len(all)-1]), createdAt(all[0])
		for _, t := range all {
			if at := createdAt(t); at.Before(oldest) {
				oldest = at
			} else if at.After(newest) {
				newest = at
			}
		}
		iso := func(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
		mid := all[len(all)/2]
		got := transactions(ctx, c, url.Values{"from": {iso(createdAt(mid))}, "till": {iso(createdAt(mid))}, "limit": {"1000"}})
		Expect(framework.IDsOf(got, "id")).To(ContainElement(mid["id"]), "from=till=%s keeps the transaction made then", mid["createdAt"])
		for _, t := range got {
			Expect(createdAt(t).Truncate(time.Millisecond).Equal(createdAt(mid).Truncate(time.Millisecond))).To(BeTrue(),
				"from=till=%s answered %v of %v", mid["createdAt"], t["id"], t["createdAt"])
		}
		Expect(transactions(ctx, c, url.Values{"till": {iso(oldest.Add(-time.Second))}})).To(BeEmpty(), "till before the oldest transaction")
		Expect(transactions(ctx, c, url.Values{"from": {iso(newest.Add(time.Second))}})).To(BeEmpty(), "from after the newest transaction")
	})

	framework.ConformanceIt("V2-TX-PAGING", func(ctx SpecContext) {
		enough(ctx, c, 4)
		full := transactions(ctx, c, url.Values{"sort": {"ASC"}, "by": {"index"}, "limit": {"3"}})
		Expect(full).To(HaveLen(3), "limit=3")
		page := transactions(ctx, c, url.Values{"sort": {"ASC"}, "by": {"index"}, "limit": {"2"}, "offset": {"1"}})
		Expect(framework.IDsOf(page, "id")).To(Equal(framework.IDsOf(full[1:], "id")), "limit=2 offset=1 are the second and third")
	})

	framework.ConformanceIt("V2-TX-SHOW-SENDERS", func(ctx SpecContext) {
		plain := transactions(ctx, c, url.Values{"limit": {"1000"}})
		for _, t := range plain {
			Expect(t).NotTo(HaveKey("senders"), "transaction %v without showSenders", t["id"])
		}
		shown := transactions(ctx, c, url.Values{"limit": {"1000"}, "showSenders": {"true"}})
		payins := 0
		for _, t := range shown {
			if t["type"] != "payin" {
				Expect(t).NotTo(HaveKey("senders"), "%v transaction %v: senders only for payins", t["type"], t["id"])
				continue
			}
			payins++
			Expect(t).To(HaveKeyWithValue("senders", BeAssignableToTypeOf([]any{})), "payin %v with showSenders=true", t["id"])
		}
		if payins == 0 {
			Skip("the account has no payin to show senders of")
		}
	})

	framework.ConformanceIt("V2-TX-ONE", func(ctx SpecContext) {
		all := enough(ctx, c, 3)
		for _, t := range []map[string]any{all[1], all[len(all)-1]} {
			id := fmt.Sprint(t["id"])
			one, _ := framework.GetObject(ctx, c, "/account/transactions/"+url.PathEscape(id), nil)
			Expect(one["id"]).To(Equal(id), "GET /account/transactions/%s", id)
			Expect(indexOf(one)).To(Equal(indexOf(t)), "index of %s", id)
		}
	})
})
