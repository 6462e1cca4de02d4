package trading

import (
	"context"
	"net/http"

	"github.com/conform-harness/conform/client"
)

// ReplaceUnknown sends a well-formed replace (PATCH <venue>/order/{id}) of
// a client_order_id never used, with new_client_order_id newID, quantity
// and price: an order the target cannot hold, so the request runs on any
// target that takes orders. The cancel of newID is registered first, so
// that a target wrongly creating it leaves nothing behind.
func (t *Trader) ReplaceUnknown(ctx context.Context, unknown, newID string) *client.Exchange {
	t.CancelAtEnd(newID)
	ex, _ := t.Client.Do(ctx, client.Request{Method: http.MethodPatch, Path: t.orders() + "/" + unknown,
		Form: Params{"new_client_order_id": newID, "quantity": "1", "price": "1"}.Form()})
	return ex
}
