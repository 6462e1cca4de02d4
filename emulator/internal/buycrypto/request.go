package buycrypto

import (
	"errors"
	"strconv"

	"github.com/conform-harness/conform/emulator/internal/call"
	"github.com/shopspring/decimal"
)

// Names spells the buy-crypto parameters in one API version (v3 snake_case,
// v2 camelCase); the reading and checking is the same in both.
type Names struct {
	ProviderPath string // the path value holding the provider id
	ProviderID   string // the provider filter of the provider list
	SourceAmount string
	TargetAmount string
	MethodID     string
	Network      string // the target network code
	UserAgent    string
	SourceCode   string
	TargetCode   string
	Wallet       string
	// OrderMissing, when set, is the one message for any missing required
	// purchase parameter (v2 words it so); otherwise each is named.
	OrderMissing string
}

// APIError renders a service error as the API's error.
func APIError(err error) *call.Error {
	var be *Error
	if errors.As(err, &be) {
		return call.Validation("%s", be.Msg)
	}
	return call.Internal("%v", err)
}

// positive reads an optional decimal parameter that must be above zero.
func positive(p call.Params, name string) (*decimal.Decimal, *call.Error) {
	v, ok, err := p.Decimal(name)
	if err != nil || !ok {
		return nil, err
	}
	if !v.IsPositive() {
		return nil, call.Validation("%s must be positive", name)
	}
	return &v, nil
}

// PathProvider reads the provider id of the request path.
func (n Names) PathProvider(r *call.Request) (int64, *call.Error) {
	id, err := strconv.ParseInt(r.PathValue(n.ProviderPath), 10, 64)
	if err != nil {
		return 0, call.Validation("provider id %q is not a number", r.PathValue(n.ProviderPath))
	}
	return id, nil
}

// ProviderFilter reads the provider list's filters: provider id, source and
// target.
func (n Names) ProviderFilter(r *call.Request) (id int64, source, target string, err *call.Error) {
	if id, err = r.Params.Int(n.ProviderID, 0, 1, 1<<53); err != nil {
		return 0, "", "", err
	}
	source, _ = r.Params.String("source")
	target, _ = r.Params.String("target")
	return id, source, target, nil
}

// Rate reads a rate query. Source and target are required unless lax (a
// fault), which then falls back to EUR and BTC.
func (n Names) Rate(r *call.Request, lax bool) (RateRequest, *call.Error) {
	id, perr := n.PathProvider(r)
	if perr != nil {
		return RateRequest{}, perr
	}
	q := RateRequest{ProviderID: id}
	q.Source, _ = r.Params.String("source")
	q.Target, _ = r.Params.String("target")
	if (q.Source == "" || q.Target == "") && !lax {
		return q, call.Validation("source and target are required")
	}
	if q.Source == "" {
		q.Source = "EUR"
	}
	if q.Target == "" {
		q.Target = "BTC"
	}
	if q.SourceAmount, perr = positive(r.Params, n.SourceAmount); perr != nil {
		return q, perr
	}
	if q.TargetAmount, perr = positive(r.Params, n.TargetAmount); perr != nil {
		return q, perr
	}
	q.MethodID, perr = r.Params.Int(n.MethodID, 0, 1, 1<<53)
	return q, perr
}

// Order reads a purchase. The payment method is required unless anyMethod
// (a fault), which then leaves MethodID zero: any method of the pair.
func (n Names) Order(r *call.Request, anyMethod bool) (OrderRequest, *call.Error) {
	id, perr := n.PathProvider(r)
	if perr != nil {
		return OrderRequest{}, perr
	}
	req := OrderRequest{Account: r.Principal.Account, ProviderID: id}
	req.Source, _ = r.Params.String("source")
	req.Target, _ = r.Params.String("target")
	if n.OrderMissing == "" && (req.Source == "" || req.Target == "") {
		return req, call.Validation("source and target are required")
	}
	amt, perr := positive(r.Params, n.SourceAmount)
	if perr != nil {
		return req, perr
	}
	if n.OrderMissing != "" && (req.Source == "" || req.Target == "" || amt == nil || (!r.Params.Has(n.MethodID) && !anyMethod)) {
		return req, call.Validation("%s", n.OrderMissing)
	}
	if amt == nil {
		return req, call.Validation("%s is required", n.SourceAmount)
	}
	req.SourceAmount = *amt
	if req.TargetAmount, perr = positive(r.Params, n.TargetAmount); perr != nil {
		return req, perr
	}
	if !r.Params.Has(n.MethodID) && !anyMethod {
		return req, call.Validation("%s is required", n.MethodID)
	}
	if req.MethodID, perr = r.Params.Int(n.MethodID, 0, 1, 1<<53); perr != nil {
		return req, perr
	}
	req.Network, _ = r.Params.String(n.Network)
	req.UserAgent, _ = r.Params.String(n.UserAgent)
	req.IP, _ = r.Params.String("ip")
	return req, nil
}

// Orders reads an order list query for provider id: the time window (Unix
// milliseconds or ISO 8601), limit, offset and the filters.
func (n Names) Orders(r *call.Request, id int64) (Query, *call.Error) {
	q := Query{Account: r.Principal.Account, ProviderID: id}
	for _, name := range []string{"from", "till"} {
		t, ok, err := r.Params.Time(name)
		if err != nil {
			return q, err
		}
		if ok && name == "from" {
			q.From = &t
		} else if ok {
			q.Till = &t
		}
	}
	limit, perr := r.Params.Int("limit", 100, 0, 1000)
	if perr != nil {
		return q, perr
	}
	offset, perr := r.Params.Int("offset", 0, 0, 100000)
	if perr != nil {
		return q, perr
	}
	q.Limit, q.Offset = int(limit), int(offset)
	q.SourceCode, _ = r.Params.String(n.SourceCode)
	q.TargetCode, _ = r.Params.String(n.TargetCode)
	q.Wallet, _ = r.Params.String(n.Wallet)
	q.Network, _ = r.Params.String(n.Network)
	return q, nil
}
