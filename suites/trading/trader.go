package trading

import (
	"context"
	"net/http"
	"net/url"
	"sync"

	"github.com/conform-harness/conform/client"
	"github.com/conform-harness/conform/suites/framework"
	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Venue is spot, margin or futures trading: the same order endpoints under
// another path prefix.
type Venue struct{ Name, Prefix string }

// The venues of v3 trading. The document names the futures endpoints but
// shows no shapes; specs use Futures only to cancel what they may have
// created.
var (
	Spot    = Venue{"spot", "/spot"}
	Margin  = Venue{"margin", "/margin"}
	Futures = Venue{"futures", "/futures"}
)

// String is the venue's name; table entries that take a venue are named
// with it.
func (v Venue) String() string { return v.Name }

// Trader is one account of the target, seen through one key, trading on one
// venue: its order methods use the venue's {prefix}/order endpoints.
type Trader struct {
	Role   string
	Client *client.Client
	Acct   target.Account
	Venue  Venue
}

// NewTrader returns a Basic-authenticated trader for role on v (skipping the
// spec when the target config has no key for it). Call it in the spec body,
// never in a goroutine or a cleanup: it registers cleanups of its own.
func NewTrader(role string, v Venue) *Trader {
	GinkgoHelper()
	e := framework.Current()
	return &Trader{Role: role, Client: e.Signed(role, framework.Basic), Acct: e.Account(role), Venue: v}
}

// On returns the same account and client trading on v.
func (t *Trader) On(v Venue) *Trader {
	o := *t
	o.Venue = v
	return &o
}

// orders is the path of the venue's order endpoints.
func (t *Trader) orders() string { return t.Venue.Prefix + "/order" }

// Do sends a request with p as its query (GET) or form body (nil for none).
func (t *Trader) Do(ctx context.Context, method, path string, p Params) *client.Exchange {
	GinkgoHelper()
	req := client.Request{Method: method, Path: path}
	if p != nil {
		if method == http.MethodGet {
			req.Query = p.Form()
		} else {
			req.Form = p.Form()
		}
	}
	ex, _ := t.Client.Do(ctx, req)
	Expect(ex).NotTo(BeNil(), "%s %s: no exchange", method, path)
	return ex
}

// Place sends POST {venue}/order (form-encoded unless en says JSON). The
// cancel of the request's client_order_id is registered before sending, so
// that even an order the spec expects to be refused is not left behind when
// the target accepts it; a server-generated client_order_id is registered
// once it is known.
func (t *Trader) Place(ctx context.Context, p Params, en ...Encoding) *client.Exchange {
	GinkgoHelper()
	if id := p["client_order_id"]; id != "" {
		t.CancelAtEnd(id)
	}
	req := client.Request{Method: http.MethodPost, Path: t.orders()}
	if len(en) > 0 && en[0] == JSONBody {
		req.JSON = p.JSON()
	} else {
		req.Form = p.Form()
	}
	ex, _ := t.Client.Do(ctx, req)
	Expect(ex).NotTo(BeNil(), "POST %s: no exchange", t.orders())
	if _, sent := p["client_order_id"]; !sent && ex.Status == http.StatusOK {
		if o, ok := Decoded(ex).(map[string]any); ok {
			if id, ok := o["client_order_id"].(string); ok && id != "" {
				t.CancelAtEnd(id)
			}
		}
	}
	return ex
}

// PlaceOK places an order that the spec expects to be accepted.
func (t *Trader) PlaceOK(ctx context.Context, p Params, en ...Encoding) Order {
	GinkgoHelper()
	return objectOK(t.Place(ctx, p, en...), "placing the %s order %s", t.Venue, p)
}

// PlaceRefused places an order that the spec expects to be refused with
// HTTP status and one of codes, and checks that no order was created.
func (t *Trader) PlaceRefused(ctx context.Context, p Params, status int, codes []int, why string, en ...Encoding) *client.Exchange {
	GinkgoHelper()
	ex := t.Place(ctx, p, en...)
	Expect(ex).To(framework.BeAPIError(status, codes...), "%s\nrequest: %s", why, p)
	if id := p["client_order_id"]; id != "" {
		Expect(t.IsActive(ctx, id)).To(BeFalse(), "a refused request creates no order, yet %s is active", id)
	}
	return ex
}

// CancelAtEnd registers the cancel of an order for when the spec ends. An
// order already final (or never created) is fine; one that stays active
// fails the spec, since it would disturb later specs. Outside Ordered
// containers the spec's cancels go out side by side, when the first of
// them runs (see endCancels).
func (t *Trader) CancelAtEnd(cloid string) {
	if CurrentSpecReport().IsInOrderedContainer {
		// A BeforeAll's orders serve the container's later specs: each
		// goes when its own cleanup runs.
		DeferCleanup(func(ctx SpecContext) { t.checkCanceled(ctx, cloid, t.cancelNow(ctx, cloid)) })
		return
	}
	c := endCancels.add(t, cloid)
	DeferCleanup(func(ctx SpecContext) {
		endCancels.run(ctx)
		t.checkCanceled(ctx, cloid, c.res)
	})
}

// cancelResult is the answer to one cleanup cancel.
type cancelResult struct {
	ex  *client.Exchange
	err error
}

func (t *Trader) cancelNow(ctx context.Context, cloid string) cancelResult {
	ex, err := t.Client.Do(ctx, client.Request{Method: http.MethodDelete, Path: t.orders() + "/" + cloid})
	return cancelResult{ex, err}
}

// checkCanceled judges a cleanup cancel: done, or the order final already.
func (t *Trader) checkCanceled(ctx context.Context, cloid string, r cancelResult) {
	GinkgoHelper()
	if r.ex != nil && r.ex.Status == http.StatusOK {
		return
	}
	if a, ok := client.IsAPIError(r.err); ok && a.Code == 20002 {
		return
	}
	Expect(t.IsActive(ctx, cloid)).To(BeFalse(), "cleanup: %s order %s could not be canceled (%s) and is still active", t.Venue, cloid, Outcome(r.ex))
}

// endCancels are the cleanup cancels a spec registered and has not sent.
// The first cleanup of them to run sends them all at once: over a path tens of milliseconds away, a spec's three or four
// cancels one after the other were a round trip each. Sending a cancel
// earlier than its own cleanup's turn is harmless: no cleanup needs an
// order of the spec to stay active, and none is canceled later than before.
// A process runs one spec at a time, so one list serves the process.
var endCancels = &cancelBatch{}

type cancelBatch struct {
	mu      sync.Mutex
	pending []*pendingCancel
}

type pendingCancel struct {
	t     *Trader
	cloid string
	res   cancelResult
}

func (b *cancelBatch) add(t *Trader, cloid string) *pendingCancel {
	b.mu.Lock()
	defer b.mu.Unlock()
	c := &pendingCancel{t: t, cloid: cloid}
	b.pending = append(b.pending, c)
	return c
}

// run sends every pending cancel (Workers at a time, see Each) and waits
// for their answers.
func (b *cancelBatch) run(ctx context.Context) {
	b.mu.Lock()
	todo := b.pending
	b.pending = nil
	b.mu.Unlock()
	Each(len(todo), func(i int) { todo[i].res = todo[i].t.cancelNow(ctx, todo[i].cloid) })
}

// Cancel sends DELETE {venue}/order/{client_order_id}.
func (t *Trader) Cancel(ctx context.Context, cloid string) *client.Exchange {
	GinkgoHelper()
	return t.Do(ctx, http.MethodDelete, t.orders()+"/"+cloid, nil)
}

// CancelOK cancels an order the spec expects to be active.
func (t *Trader) CancelOK(ctx context.Context, cloid string) Order {
	GinkgoHelper()
	return objectOK(t.Cancel(ctx, cloid), "canceling active %s order %s", t.Venue, cloid)
}

// Get sends GET {venue}/order/{client_order_id}.
func (t *Trader) Get(ctx context.Context, cloid string) *client.Exchange {
	GinkgoHelper()
	return t.Do(ctx, http.MethodGet, t.orders()+"/"+cloid, nil)
}

// GetOK reads an order the spec expects to be active.
func (t *Trader) GetOK(ctx context.Context, cloid string) Order {
	GinkgoHelper()
	return objectOK(t.Get(ctx, cloid), "reading active %s order %s", t.Venue, cloid)
}

// objectOK asserts an answer of HTTP 200 with a JSON object, the failure
// saying what was asked (format and args), and returns the object.
func objectOK(ex *client.Exchange, format string, args ...any) Order {
	GinkgoHelper()
	Expect(ex).To(framework.BeOK(), append([]any{format}, args...)...)
	return framework.ObjectOf(ex)
}

// Active lists the active orders of the venue (of symbol, when not empty).
func (t *Trader) Active(ctx context.Context, symbol string) []Order {
	GinkgoHelper()
	var q url.Values
	if symbol != "" {
		q = url.Values{"symbol": {symbol}}
	}
	ex, _ := t.Client.Get(ctx, t.orders(), q)
	Expect(ex).To(framework.BeOK(), "listing the active %s orders of %s", t.Venue, t.Role)
	return Objects(ex)
}

// IsActive reports whether GET {venue}/order lists the client_order_id.
func (t *Trader) IsActive(ctx context.Context, cloid string) bool {
	GinkgoHelper()
	return FindOrder(t.Active(ctx, ""), cloid) != nil
}
