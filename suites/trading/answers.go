package trading

import (
	"fmt"

	"github.com/conform-harness/conform/client"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Outcome renders what the target answered, for failure messages and for
// what informational specs record.
func Outcome(ex *client.Exchange) string {
	if ex == nil {
		return "no exchange"
	}
	if ex.Err != nil {
		return "transport error: " + ex.Err.Error()
	}
	if e, ok := ex.APIError(); ok {
		return fmt.Sprintf("HTTP %d, error.code %d (%q)", ex.Status, e.Code, e.Message)
	}
	return fmt.Sprintf("HTTP %d", ex.Status)
}

// ExpectRefusal asserts what the spec leaves certain about a refusal whose
// code or status it does not give: an HTTP 4xx answer with the documented
// error body.
func ExpectRefusal(ex *client.Exchange, why string) {
	GinkgoHelper()
	Expect(ex).NotTo(BeNil(), why)
	Expect(ex.Err).NotTo(HaveOccurred(), "%s\nexchange: %s", why, ex)
	Expect(ex.Status).To(SatisfyAll(BeNumerically(">=", 400), BeNumerically("<", 500)), "%s: a refusal is a 4xx answer\nexchange: %s", why, ex)
	_, ok := ex.APIError()
	Expect(ok).To(BeTrue(), "%s: an error answer carries {error: {code, message}} (Errors)\nexchange: %s", why, ex)
}
