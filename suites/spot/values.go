package spot

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/shopspring/decimal"
)

// decoded returns an exchange's JSON body, or nil.
func decoded(ex *client.Exchange) any {
	v, err := ex.JSON()
	if err != nil {
		return nil
	}
	return v
}

// objects decodes a JSON array of objects.
func objects(ex *client.Exchange) []order {
	GinkgoHelper()
	var out []order
	for i, v := range framework.ArrayOf(ex) {
		o, ok := v.(map[string]any)
		Expect(ok).To(BeTrue(), "element %d is not a JSON object\nexchange: %s", i, ex)
		out = append(out, o)
	}
	return out
}

// findOrder returns the order with the client_order_id, or nil.
func findOrder(os []order, cloid string) order {
	for _, o := range os {
		if o["client_order_id"] == cloid {
			return o
		}
	}
	return nil
}

// cloidsOf lists the client_order_ids of orders, in order.
func cloidsOf(os []order) []string {
	out := make([]string, 0, len(os))
	for _, o := range os {
		s, _ := o["client_order_id"].(string)
		out = append(out, s)
	}
	return out
}

// newest returns the record with the greatest id (history may hold several
// records of one client_order_id).
func newest(recs []order) order {
	sorted := append([]order(nil), recs...)
	sort.SliceStable(sorted, func(i, j int) bool { return idOf(sorted[i]).GreaterThan(idOf(sorted[j])) })
	return sorted[0]
}

// idOf returns an order's id as a decimal (zero when it is not a number).
func idOf(o order) decimal.Decimal {
	d, err := decimal.NewFromString(fmt.Sprint(o["id"]))
	if err != nil {
		return decimal.Zero
	}
	return d
}

// strField returns a string field, failing the spec when it is not one.
func strField(o order, k string) string {
	GinkgoHelper()
	s, ok := o[k].(string)
	Expect(ok).To(BeTrue(), "field %s is not a string in %v", k, o)
	return s
}

// decField returns a decimal string field, failing the spec when it is not one.
func decField(o map[string]any, k string) decimal.Decimal {
	GinkgoHelper()
	v, ok := o[k]
	Expect(ok).To(BeTrue(), "field %s is missing from %v", k, o)
	Expect(v).To(framework.BeDecimalString(), "field %s of %v", k, o)
	d, err := decimal.NewFromString(v.(string))
	Expect(err).NotTo(HaveOccurred(), "field %s of %v", k, o)
	return d
}

// cloidChars are the characters client_order_id may use.
const cloidChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// cloidPrefix makes the suite's orders recognisable on a shared target.
const cloidPrefix = "cfs"

// newCloid returns a fresh client_order_id of the suite.
func newCloid() string { return cloidOfLen(24) }

// cloidOfLen returns a fresh client_order_id of exactly n characters (n of at
// least 4 keeps the prefix and some randomness).
func cloidOfLen(n int) string {
	var b strings.Builder
	b.WriteString(cloidPrefix)
	for b.Len() < n {
		b.WriteByte(cloidChars[rand.IntN(len(cloidChars))])
	}
	return b.String()[:n]
}

// outcome renders what the target answered, for informational specs.
func outcome(ex *client.Exchange) string {
	if ex.Err != nil {
		return "transport error: " + ex.Err.Error()
	}
	if e, ok := ex.APIError(); ok {
		return fmt.Sprintf("HTTP %d, error.code %d (%q)", ex.Status, e.Code, e.Message)
	}
	return fmt.Sprintf("HTTP %d", ex.Status)
}

// expectRefusal asserts what the spec leaves certain about a refusal whose
// code or status it does not give: an HTTP 4xx answer with the error body.
func expectRefusal(ex *client.Exchange, why string) {
	GinkgoHelper()
	Expect(ex.Err).NotTo(HaveOccurred(), "%s\nexchange: %s", why, ex)
	Expect(ex.Status).To(SatisfyAll(BeNumerically(">=", 400), BeNumerically("<", 500)), "%s: a refusal is a 4xx answer\nexchange: %s", why, ex)
	_, ok := ex.APIError()
	Expect(ok).To(BeTrue(), "%s: an error answer carries {error: {code, message}} (Errors)\nexchange: %s", why, ex)
}
