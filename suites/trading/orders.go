package trading

import (
	"fmt"
	"time"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// Order is one decoded JSON object of an answer: an Order resource, an
// order history record, a margin account, a trade.
type Order = map[string]any

// Decoded returns an exchange's JSON body, or nil (no exchange, or no JSON),
// for code that inspects an answer without asserting on it.
func Decoded(ex *client.Exchange) any {
	if ex == nil {
		return nil
	}
	v, err := ex.JSON()
	if err != nil {
		return nil
	}
	return v
}

// Objects decodes a JSON array of objects, failing the spec when the body is
// anything else.
func Objects(ex *client.Exchange) []Order {
	GinkgoHelper()
	var out []Order
	for i, v := range framework.ArrayOf(ex) {
		o, ok := v.(map[string]any)
		Expect(ok).To(BeTrue(), "element %d is not a JSON object\nexchange: %s", i, ex)
		out = append(out, o)
	}
	return out
}

// FindBy returns the first object whose field k equals v, or nil.
func FindBy(os []Order, k string, v any) Order {
	for _, o := range os {
		if o[k] == v {
			return o
		}
	}
	return nil
}

// FindOrder returns the order with the client_order_id, or nil.
func FindOrder(os []Order, cloid string) Order { return FindBy(os, "client_order_id", cloid) }

// CloidsOf lists the client_order_ids of orders, in order.
func CloidsOf(os []Order) []string {
	out := make([]string, 0, len(os))
	for _, o := range os {
		s, _ := o["client_order_id"].(string)
		out = append(out, s)
	}
	return out
}

// IDOf returns an order's id as a decimal (zero when it is not a number).
func IDOf(o Order) decimal.Decimal {
	d, err := decimal.NewFromString(fmt.Sprint(o["id"]))
	if err != nil {
		return decimal.Zero
	}
	return d
}

// IDsOf lists the ids of records, in order, for comparing pages.
func IDsOf(recs []Order) []string {
	out := make([]string, 0, len(recs))
	for _, r := range recs {
		out = append(out, IDOf(r).String())
	}
	return out
}

// Newest returns the record with the greatest id, the first of them on a
// tie (history may hold several records of one client_order_id), or nil.
func Newest(recs []Order) Order {
	var newest Order
	for _, r := range recs {
		if newest == nil || IDOf(r).GreaterThan(IDOf(newest)) {
			newest = r
		}
	}
	return newest
}

// StrField returns a string field, failing the spec when it is not one.
func StrField(o Order, k string) string {
	GinkgoHelper()
	s, ok := o[k].(string)
	Expect(ok).To(BeTrue(), "field %s is not a string in %v", k, o)
	return s
}

// TimeField parses a DateTime field, failing the spec when it is not an ISO
// 8601 string.
func TimeField(o Order, k string) time.Time {
	GinkgoHelper()
	s := StrField(o, k)
	t, err := time.Parse(time.RFC3339Nano, s)
	Expect(err).NotTo(HaveOccurred(), "field %s of %v is not an ISO 8601 timestamp", k, o)
	return t.UTC()
}

// ExpectIDsOrdered checks that records are sorted by id, descending unless
// asc.
func ExpectIDsOrdered(recs []Order, asc bool, why string) {
	GinkgoHelper()
	for i := 1; i < len(recs); i++ {
		prev, cur := IDOf(recs[i-1]), IDOf(recs[i])
		if asc {
			Expect(cur.GreaterThanOrEqual(prev)).To(BeTrue(), "%s: record %d (id %s) follows id %s, out of ascending order", why, i, cur, prev)
		} else {
			Expect(cur.LessThanOrEqual(prev)).To(BeTrue(), "%s: record %d (id %s) follows id %s, out of descending order", why, i, cur, prev)
		}
	}
}
