// Package buycrypto is the emulator's crypto purchase through external
// providers: the provider catalogue with methods, limits and currencies,
// rates, and purchase orders whose status follows the emulator clock. Both
// API versions serve it.
package buycrypto

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/fixtures"
	"github.com/shopspring/decimal"
)

// Order statuses (v3 States and transitions: buy-crypto order states).
const (
	Initial    = "initial"
	InProgress = "in_progress"
	Completed  = "completed"
	Failed     = "failed"
	Expired    = "expired"
)

// Status timing (beyond the contract): an order is initial for a minute,
// in progress until five minutes, then completed or failed as its method
// settles; a method that expires leaves it initial for 30 minutes, then
// expired.
const (
	startAfter  = time.Minute
	settleAfter = 5 * time.Minute
	expireAfter = 30 * time.Minute
)

// Error is a refused request (10001 in both versions).
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func invalid(format string, args ...any) *Error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// Service holds providers and purchase orders; safe for concurrent use.
type Service struct {
	providers []fixtures.Provider
	clock     clock.Clock
	faults    *faults.Set

	mu     sync.Mutex
	seq    int64
	orders map[string][]*Order // by account
}

// New builds the service over the providers.
func New(providers []fixtures.Provider, clk clock.Clock, fs *faults.Set) *Service {
	return &Service{providers: providers, clock: clk, faults: fs, orders: map[string][]*Order{}}
}

// Reset drops every purchase order.
func (s *Service) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.orders, s.seq = map[string][]*Order{}, 0
}

// Providers answers the providers, filtered by id (0: any) and by a method
// taking source and delivering target ("" : any).
func (s *Service) Providers(id int64, source, target string) []fixtures.Provider {
	out := []fixtures.Provider{}
	for _, p := range s.providers {
		if id != 0 && p.ProviderID != id && !s.faults.On("V3-BUY-PROVIDER-FILTER") {
			continue
		}
		if s.faults.On("V3-BUY-PROVIDER-SOURCE-TARGET") {
			target = ""
		}
		for _, m := range p.Methods {
			if supports(m, source, target) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// Provider answers one provider.
func (s *Service) Provider(id int64) (fixtures.Provider, bool) {
	for _, p := range s.providers {
		if p.ProviderID == id {
			return p, true
		}
	}
	return fixtures.Provider{}, false
}

func has(cs []fixtures.CryptoCurrency, code string) bool {
	for _, c := range cs {
		if strings.EqualFold(c.Code, code) {
			return true
		}
	}
	return false
}

func supports(m fixtures.Method, source, target string) bool {
	return (source == "" || has(m.SupportedSource, source)) && (target == "" || has(m.SupportedTarget, target))
}

// limit finds the method's limit for a pair.
func limit(m fixtures.Method, source, target string) (fixtures.Limit, bool) {
	for _, l := range m.TransactionLimits {
		if strings.EqualFold(l.CurrencyCode, source) && strings.EqualFold(l.TargetCode, target) {
			return l, true
		}
	}
	return fixtures.Limit{}, false
}

func within(l fixtures.Limit, amt decimal.Decimal) bool {
	lo, err1 := decimal.NewFromString(l.SourceMin)
	hi, err2 := decimal.NewFromString(l.SourceMax)
	return err1 == nil && err2 == nil && !amt.LessThan(lo) && !amt.GreaterThan(hi)
}

// RateRequest is a rate query: SourceAmount or TargetAmount (nil: the
// smallest amount the method takes), MethodID 0 for every method.
type RateRequest struct {
	ProviderID                 int64
	Source, Target             string
	SourceAmount, TargetAmount *decimal.Decimal
	MethodID                   int64
}

// Price is one method's quote.
type Price struct {
	MethodID                   int64
	Type, TargetCode, SrcCode  string
	TargetAmount, SourceAmount decimal.Decimal
}

// Rate is the rate response.
type Rate struct {
	SpotPrice decimal.Decimal
	Prices    []Price
}

// targetScale is the precision of quoted target amounts.
const targetScale = 8

// Rate quotes the provider's methods for a pair within their limits.
func (s *Service) Rate(q RateRequest) (Rate, error) {
	p, ok := s.Provider(q.ProviderID)
	if !ok {
		return Rate{}, invalid("provider %d not found", q.ProviderID)
	}
	if q.Source == "" || q.Target == "" {
		return Rate{}, invalid("source and target are required")
	}
	spot, err := decimal.NewFromString(p.SpotPrices[strings.ToUpper(q.Source)+"/"+strings.ToUpper(q.Target)])
	if err != nil || !spot.IsPositive() {
		return Rate{}, invalid("provider %d does not sell %s for %s", q.ProviderID, q.Target, q.Source)
	}
	out := Rate{SpotPrice: spot, Prices: []Price{}}
	for _, m := range p.Methods {
		if q.MethodID != 0 && m.ID != q.MethodID && !s.faults.On("V3-BUY-RATE-METHOD") {
			continue
		}
		l, ok := limit(m, q.Source, q.Target)
		if !ok || !supports(m, q.Source, q.Target) {
			continue
		}
		var src, dst decimal.Decimal
		switch {
		case q.SourceAmount != nil && !s.faults.On("V3-BUY-RATE-SOURCE-AMOUNT"):
			src = *q.SourceAmount
			dst = src.DivRound(spot, targetScale)
		case q.TargetAmount != nil && !s.faults.On("V3-BUY-RATE-TARGET-AMOUNT"):
			dst = *q.TargetAmount
			src = dst.Mul(spot).RoundCeil(2)
		default:
			src, _ = decimal.NewFromString(l.SourceMin)
			dst = src.DivRound(spot, targetScale)
		}
		if !within(l, src) && !s.faults.On("V3-BUY-RATE-LIMITS") {
			continue
		}
		out.Prices = append(out.Prices, Price{MethodID: m.ID, Type: m.Type, TargetCode: strings.ToUpper(q.Target), SrcCode: strings.ToUpper(q.Source), TargetAmount: dst, SourceAmount: src})
	}
	if len(out.Prices) == 0 {
		return Rate{}, invalid("no method of provider %d takes this amount of %s for %s within its limits", q.ProviderID, q.Source, q.Target)
	}
	return out, nil
}

// OrderRequest is a purchase.
type OrderRequest struct {
	Account, Source, Target, Network, IP, UserAgent string
	ProviderID, MethodID                            int64
	SourceAmount                                    decimal.Decimal
	TargetAmount                                    *decimal.Decimal
}

// Order is a purchase order; Status is computed at reading time.
type Order struct {
	ID                           int64
	ProviderID                   int64
	SourceCode, TargetCode       string
	TargetNetwork, WalletAddress string
	CheckoutURL, OperationID     string
	SourceAmount                 decimal.Decimal
	CreatedAt                    time.Time
	Status                       string
	final                        string
}

// Place creates a purchase order through a method of the provider.
func (s *Service) Place(req OrderRequest) (Order, error) {
	p, ok := s.Provider(req.ProviderID)
	if !ok {
		return Order{}, invalid("provider %d not found", req.ProviderID)
	}
	var m *fixtures.Method
	for i := range p.Methods {
		// MethodID zero (only a fault lets a request leave it out) takes
		// the first method of the pair.
		if p.Methods[i].ID == req.MethodID || (req.MethodID == 0 && m == nil && supports(p.Methods[i], req.Source, req.Target)) {
			m = &p.Methods[i]
		}
	}
	if m == nil {
		return Order{}, invalid("provider %d has no payment method %d", req.ProviderID, req.MethodID)
	}
	if !supports(*m, req.Source, req.Target) {
		return Order{}, invalid("method %d does not sell %s for %s", m.ID, req.Target, req.Source)
	}
	l, ok := limit(*m, req.Source, req.Target)
	if !ok || !within(l, req.SourceAmount) {
		return Order{}, invalid("source_amount %s is beyond the method's limits", req.SourceAmount)
	}
	network := req.Network
	if network == "" {
		for _, c := range m.SupportedTarget {
			if strings.EqualFold(c.Code, req.Target) {
				network = c.NetworkCode
			}
		}
	} else if l.NetworkCode != "" && !strings.EqualFold(l.NetworkCode, network) {
		return Order{}, invalid("method %d delivers %s on %s, not %s", m.ID, req.Target, l.NetworkCode, network)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	now := s.clock.Now().UTC().Truncate(time.Millisecond)
	o := &Order{ID: 1000 + s.seq, ProviderID: p.ProviderID, SourceCode: strings.ToUpper(req.Source), TargetCode: strings.ToUpper(req.Target),
		TargetNetwork: strings.ToUpper(network), WalletAddress: walletAddress(req.Account, req.Target, network),
		OperationID: fmt.Sprintf("op-%08x-%04x", now.UnixMilli()&0xffffffff, s.seq), SourceAmount: req.SourceAmount, CreatedAt: now, final: m.FinalStatus}
	o.CheckoutURL = fmt.Sprintf("https://checkout.example.com/provider/%d/order/%d", p.ProviderID, o.ID)
	s.orders[req.Account] = append(s.orders[req.Account], o)
	return s.view(o, now), nil
}

func walletAddress(account, currency, network string) string {
	h := uint64(1469598103934665603)
	for _, c := range account + "/" + currency + "/" + network {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return fmt.Sprintf("%s-%016x", strings.ToLower(currency), h)
}

// view is the order as of now.
func (s *Service) view(o *Order, now time.Time) Order {
	out := *o
	age := now.Sub(o.CreatedAt)
	switch {
	case o.final == Expired && age >= expireAfter:
		out.Status = Expired
	case o.final == Expired, age < startAfter:
		out.Status = Initial
	case age < settleAfter:
		out.Status = InProgress
	case o.final == Failed:
		out.Status = Failed
	default:
		out.Status = Completed
	}
	return out
}

// Query selects purchase orders of one account and provider.
type Query struct {
	Account                                 string
	ProviderID                              int64
	From, Till                              *time.Time
	Limit, Offset                           int
	SourceCode, TargetCode, Wallet, Network string
	Asc                                     bool
}

// Orders lists purchase orders by creation time.
func (s *Service) Orders(q Query) []Order {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now().UTC()
	f := s.faults
	var out []Order
	for _, o := range s.orders[q.Account] {
		switch {
		case o.ProviderID != q.ProviderID && !f.On("V3-BUY-ORDERS-PROVIDER"),
			q.From != nil && o.CreatedAt.Before(*q.From),
			q.Till != nil && o.CreatedAt.After(*q.Till) && !f.On("V3-BUY-ORDERS-FROM-TILL"),
			q.SourceCode != "" && !strings.EqualFold(o.SourceCode, q.SourceCode),
			q.TargetCode != "" && !strings.EqualFold(o.TargetCode, q.TargetCode) && !f.On("V3-BUY-ORDERS-CODES"),
			q.Wallet != "" && o.WalletAddress != q.Wallet && !f.On("V3-BUY-ORDERS-WALLET"),
			q.Network != "" && !strings.EqualFold(o.TargetNetwork, q.Network) && !f.On("V3-BUY-ORDERS-NETWORK"):
			continue
		}
		out = append(out, s.view(o, now))
	}
	if f.On("V3-BUY-ORDERS-LIST") {
		return []Order{}
	}
	asc := q.Asc && !f.On("V3-BUY-ORDERS-SORT")
	sort.SliceStable(out, func(i, j int) bool {
		if asc {
			return out[i].ID < out[j].ID
		}
		return out[i].ID > out[j].ID
	})
	if !f.On("V3-BUY-ORDERS-LIMIT-OFFSET") {
		out = out[min(q.Offset, len(out)):]
	}
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	if out == nil {
		out = []Order{}
	}
	return out
}
