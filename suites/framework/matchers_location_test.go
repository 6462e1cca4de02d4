package framework

import (
	"fmt"
	"runtime"

	"github.com/conform-harness/conform/client"
	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"
)

// A body the framework cannot decode fails the spec at the spec's own line
// (GinkgoHelper), not at a line of the framework's helpers: through
// JSONOf, ObjectOf and ArrayOf alike. Runs in this package's own Ginkgo
// suite (interference_test.go).
var _ = Describe("decoding failures", Label("framework-self-test"), func() {
	It("point at the spec's line", func() {
		var got []types.CodeLocation
		RegisterFailHandler(func(_ string, skip ...int) {
			got = append(got, types.NewCodeLocation(skip[0]+1)) // as Ginkgo's Fail does
		})
		defer RegisterFailHandler(Fail)
		bad := &client.Exchange{Method: "GET", URL: "http://h/x", Body: []byte("not json")}
		_, file, line, _ := runtime.Caller(0)
		_ = JSONOf(bad)   // line+1
		_ = ObjectOf(bad) // line+2: two failures, the body and its type
		_ = ArrayOf(bad)  // line+3
		want := []int{line + 1, line + 2, line + 2, line + 3, line + 3}
		RegisterFailHandler(Fail)
		if len(got) != len(want) {
			Fail(fmt.Sprintf("%d failures, want %d: %v", len(got), len(want), got))
		}
		for i, cl := range got {
			if cl.FileName != file || cl.LineNumber != want[i] {
				Fail(fmt.Sprintf("failure %d at %s:%d, want %s:%d", i+1, cl.FileName, cl.LineNumber, file, want[i]))
			}
		}
	})
})
