package marketdata

import (
	"context"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// record is one decoded resource (a Currency, a Network, a Symbol, a candle).
type record = map[string]any

// getOK performs a GET and expects HTTP 200 with a JSON body. The error of
// the client is not looked at: BeOK prints the whole exchange on failure.
func getOK(ctx context.Context, c *client.Client, path string, q url.Values) *client.Exchange {
	GinkgoHelper()
	ex, _ := c.Get(ctx, path, q)
	Expect(ex).To(framework.BeOK())
	return ex
}

// get performs a GET whose outcome the spec judges itself (error cases).
func get(ctx context.Context, c *client.Client, path string, q url.Values) *client.Exchange {
	GinkgoHelper()
	ex, _ := c.Get(ctx, path, q)
	Expect(ex).NotTo(BeNil(), "GET %s: no exchange", path)
	return ex
}

// recordsOf decodes an answer that is a JSON object whose values are all
// JSON objects (the currency and symbol maps).
func recordsOf(ex *client.Exchange) map[string]record {
	GinkgoHelper()
	out := map[string]record{}
	for k, v := range framework.ObjectOf(ex) {
		r, ok := v.(map[string]any)
		Expect(ok).To(BeTrue(), "value of key %q is not a JSON object but %#v\nexchange: %s", k, v, ex)
		out[k] = r
	}
	return out
}

// sortedKeys returns the keys of m in order, so that choices are stable.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// spread picks n codes spread over the sorted list, so that a filter names
// codes from both ends of the listing rather than neighbours.
func spread(codes []string, n int) []string {
	if n == 1 {
		return []string{codes[0]}
	}
	out := make([]string, 0, n)
	for i := range n {
		out = append(out, codes[i*(len(codes)-1)/(n-1)])
	}
	return out
}

// unknownCode returns a code that is not a key of known.
func unknownCode[V any](known map[string]V) string {
	for i := 0; ; i++ {
		c := fmt.Sprintf("CONFORMNOSUCH%d", i)
		if _, ok := known[c]; !ok {
			return c
		}
	}
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

// expectConformingAnswer asserts what the spec leaves unambiguous about any
// answer, even where it does not say which answer is right: no transport
// failure, no server error, and an error answer carries the documented
// error body.
func expectConformingAnswer(ex *client.Exchange) {
	GinkgoHelper()
	Expect(ex.Err).NotTo(HaveOccurred(), "exchange: %s", ex)
	Expect(ex.Status).To(BeNumerically("<", 500), "a server error is no answer to a client's request\nexchange: %s", ex)
	if ex.Status >= 400 {
		_, ok := ex.APIError()
		Expect(ok).To(BeTrue(), "an error answer carries {error: {code, message}} (Errors)\nexchange: %s", ex)
	}
}

// fmtAny renders a decoded JSON value for a message.
func fmtAny(v any) string { return fmt.Sprint(v) }

// equalJSON reports whether two decoded JSON values are the same.
func equalJSON(a, b any) bool { return reflect.DeepEqual(a, b) }

// allIn reports whether every element of xs is in set.
func allIn(xs, set []string) bool {
	for _, x := range xs {
		if !slices.Contains(set, x) {
			return false
		}
	}
	return true
}

// observeUnknownInFilter records how a list filter (currencies, symbols)
// naming an unknown code, alone or beside a known one, is answered: the
// spec does not say, so only a conforming answer is asserted.
func observeUnknownInFilter(ctx context.Context, c *client.Client, rule, path, param string, all map[string]record, withKnown bool) {
	GinkgoHelper()
	codes := []string{unknownCode(all)}
	if withKnown {
		codes = append([]string{sortedKeys(all)[0]}, codes...)
	}
	ex := get(ctx, c, path, url.Values{param: {strings.Join(codes, ",")}})
	expectConformingAnswer(ex)
	detail := ""
	if ex.Status == 200 {
		detail = ", keys [" + strings.Join(sortedKeys(recordsOf(ex)), ",") + "]"
	}
	framework.Observe(rule, "%s=%s: %s%s", param, strings.Join(codes, ","), outcome(ex), detail)
}

// expectKeysAnswerByCode checks that a sample of a map's keys are codes the
// by-code endpoint (path + "/" + code) answers to.
func expectKeysAnswerByCode(ctx context.Context, c *client.Client, path string, all map[string]record, what string) {
	GinkgoHelper()
	Expect(all).NotTo(BeEmpty(), "the %s map lists no %s", what, what)
	keys := sortedKeys(all)
	for _, code := range spread(keys, min(2, len(keys))) {
		getOK(ctx, c, path+"/"+url.PathEscape(code), nil)
	}
}
