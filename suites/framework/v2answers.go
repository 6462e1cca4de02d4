package framework

import (
	"context"
	"net/url"

	"github.com/conform-harness/conform/client"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// GetObjects sends GET path with query q and expects HTTP 200 with a JSON
// array of objects, which it returns with the exchange.
func GetObjects(ctx context.Context, c *client.Client, path string, q url.Values) ([]map[string]any, *client.Exchange) {
	GinkgoHelper()
	ex, _ := c.Get(ctx, path, q)
	Expect(ex).To(BeOK(), "GET %s", path)
	items := ArrayOf(ex)
	out := make([]map[string]any, 0, len(items))
	for i, it := range items {
		m, ok := it.(map[string]any)
		Expect(ok).To(BeTrue(), "GET %s: item %d is not an object but %#v\nexchange: %s", path, i, it, ex)
		out = append(out, m)
	}
	return out, ex
}

// GetObject sends GET path with query q and expects HTTP 200 with a JSON
// object.
func GetObject(ctx context.Context, c *client.Client, path string, q url.Values) (map[string]any, *client.Exchange) {
	GinkgoHelper()
	ex, _ := c.Get(ctx, path, q)
	Expect(ex).To(BeOK(), "GET %s", path)
	return ObjectOf(ex), ex
}

// IDsOf lists the string field k of each object.
func IDsOf(objs []map[string]any, k string) []string {
	out := make([]string, 0, len(objs))
	for _, o := range objs {
		s, _ := o[k].(string)
		out = append(out, s)
	}
	return out
}
