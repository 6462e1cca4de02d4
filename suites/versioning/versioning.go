// Package versioning holds the specs of the v3 Versioning section: the
// version in the paths of the streaming interfaces. (The REST address is
// V3-CONV-ADDRESS, in the conventions suite.)
package versioning

import (
	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = framework.AreaDescribe("Versioning", func() {
	// DialStream fails the spec when the handshake is refused. A stream
	// answers a request with its id, a result or an error ("Streaming
	// errors use the error object with the request id"), whatever the
	// method: an unknown one is asked, which no stream can take for a trade.
	DescribeTable("serves each stream under /api/3/ws",
		framework.Checks("V3-VERSION-WS-PATHS"),
		func(ctx SpecContext, path string) {
			c := framework.Current().DialStream(ctx, path)
			_, err := c.Request(ctx, framework.Timeouts.Request, "conform-version-1", "conform_no_such_method", nil)
			Expect(err).NotTo(HaveOccurred(), "a request on %s is answered", path)
		},
		Entry(nil, "/api/3/ws/public"), Entry(nil, "/api/3/ws/trading"), Entry(nil, "/api/3/ws/wallet"),
	)

	framework.ConformanceIt("V3-VERSION-V2-AVAILABLE", func(ctx SpecContext) {
		c := framework.Current().Public()
		for _, path := range []string{"/api/3/public/symbol", "/api/2/public/symbol", "/api/2/public/currency"} {
			ex, _ := c.Do(ctx, client.Request{Path: path, Absolute: true})
			Expect(ex).To(framework.BeOK(), "GET {base_url}%s", path)
		}
	})
})
