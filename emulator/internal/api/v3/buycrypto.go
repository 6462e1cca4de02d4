package v3

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/buycrypto"
	"github.com/conform-harness/conform/fixtures"
	"github.com/shopspring/decimal"
)

type cryptoCurrencyView struct {
	Code        string `json:"code"`
	DisplayName string `json:"display_name,omitempty"`
	NetworkCode string `json:"network_code,omitempty"`
}

type limitView struct {
	CurrencyCode string `json:"currency_code"`
	TargetCode   string `json:"target_code"`
	SourceMin    any    `json:"source_min"`
	SourceMax    string `json:"source_max"`
	NetworkCode  string `json:"network_code,omitempty"`
}

type methodView struct {
	ID                any                  `json:"id"`
	Name              string               `json:"name"`
	Description       string               `json:"description"`
	MethodType        string               `json:"method_type"`
	LogoURL           string               `json:"logo_url"`
	Status            string               `json:"status"`
	Type              string               `json:"type"`
	SupportedSource   []cryptoCurrencyView `json:"supported_source"`
	SupportedTarget   []cryptoCurrencyView `json:"supported_target"`
	TransactionLimits []limitView          `json:"transaction_limits"`
}

type providerView struct {
	ProviderID   any          `json:"provider_id"`
	ProviderName string       `json:"provider_name"`
	Methods      []methodView `json:"methods"`
}

func (d Deps) currencies(cs []fixtures.CryptoCurrency) []cryptoCurrencyView {
	out := make([]cryptoCurrencyView, 0, len(cs))
	for _, c := range cs {
		v := cryptoCurrencyView{Code: c.Code, DisplayName: c.DisplayName, NetworkCode: c.NetworkCode}
		if d.Faults.On("V3-BUY-CURRENCY-FIELDS") {
			v.DisplayName = ""
		}
		out = append(out, v)
	}
	return out
}

func (d Deps) providerView(p fixtures.Provider) providerView {
	f := d.Faults
	out := providerView{ProviderID: p.ProviderID, ProviderName: p.ProviderName, Methods: []methodView{}}
	if f.On("V3-BUY-PROVIDERS") {
		out.ProviderID = strconv.FormatInt(p.ProviderID, 10)
	}
	for _, m := range p.Methods {
		mv := methodView{ID: m.ID, Name: m.Name, Description: m.Description, MethodType: m.MethodType, LogoURL: m.LogoURL, Status: m.Status, Type: m.Type,
			SupportedSource: d.currencies(m.SupportedSource), SupportedTarget: d.currencies(m.SupportedTarget), TransactionLimits: []limitView{}}
		if f.On("V3-BUY-METHOD-FIELDS") {
			mv.ID = strconv.FormatInt(m.ID, 10)
		}
		if f.On("V3-BUY-METHOD-STATUS") && strings.EqualFold(m.Status, "active") {
			mv.Status = "Active"
		}
		for _, l := range m.TransactionLimits {
			lv := limitView{CurrencyCode: l.CurrencyCode, TargetCode: l.TargetCode, SourceMin: l.SourceMin, SourceMax: l.SourceMax, NetworkCode: l.NetworkCode}
			if f.On("V3-BUY-LIMIT-FIELDS") {
				lv.SourceMin = asNumber(l.SourceMin)
			}
			mv.TransactionLimits = append(mv.TransactionLimits, lv)
		}
		out.Methods = append(out.Methods, mv)
	}
	return out
}

// asNumber writes a decimal string as a JSON number (a fault's wrong type).
func asNumber(s string) any {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return s
	}
	f, _ := d.Float64()
	return f
}

type priceView struct {
	PaymentMethodID any    `json:"payment_method_id"`
	Type            string `json:"type"`
	TargetCode      string `json:"target_code"`
	SourceCode      string `json:"source_code"`
	TargetAmount    string `json:"target_amount"`
	SourceAmount    string `json:"source_amount"`
}

type buyOrderView struct {
	ID            int64  `json:"id"`
	ProviderID    int64  `json:"provider_id"`
	OrderType     string `json:"order_type"`
	SourceCode    string `json:"source_code"`
	TargetCode    string `json:"target_code"`
	WalletAddress string `json:"wallet_address"`
	CheckoutURL   string `json:"checkout_url"`
	Status        string `json:"status"`
	CreatedAt     string `json:"created_at"`
	OperationID   string `json:"operation_id,omitempty"`
}

func (d Deps) buyOrderView(o buycrypto.Order) buyOrderView {
	v := buyOrderView{ID: o.ID, ProviderID: o.ProviderID, OrderType: "buy", SourceCode: o.SourceCode, TargetCode: o.TargetCode,
		WalletAddress: o.WalletAddress, CheckoutURL: o.CheckoutURL, Status: o.Status, CreatedAt: o.CreatedAt.Format(time.RFC3339Nano), OperationID: o.OperationID}
	if d.Faults.On("V3-BUY-ORDER-FIELDS") {
		v.OperationID = ""
	}
	if d.Faults.On("V3-BUY-ORDER-VALUES") {
		v.TargetCode = o.SourceCode
	}
	if d.Faults.On("V3-BUY-ORDER-STATUS") && v.Status == buycrypto.Initial {
		v.Status = "new"
	}
	return v
}

func buyError(err error) *api.Error {
	var be *buycrypto.Error
	if errors.As(err, &be) {
		return api.Validation("%s", be.Msg)
	}
	return api.Internal("%v", err)
}

// optionalDecimal reads an optional plain decimal parameter.
func optionalDecimal(p api.Params, name string) (*decimal.Decimal, *api.Error) {
	v, ok, err := p.Decimal(name)
	if err != nil || !ok {
		return nil, err
	}
	if !v.IsPositive() {
		return nil, api.Validation("%s must be positive", name)
	}
	return &v, nil
}

func providerID(r *api.Request, name string) (int64, *api.Error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil {
		return 0, api.Validation("provider id %q is not a number", r.PathValue(name))
	}
	return id, nil
}

func buyCryptoRoutes(d Deps) []api.Route {
	svc := d.BuyCrypto
	right := auth.RightPayment
	listRight := right
	if d.Faults.On("V3-BUY-RIGHTS") {
		listRight = ""
	}
	return []api.Route{
		{Method: "GET", Path: "/buy-crypto/provider", Right: listRight, Handle: func(r *api.Request) (any, *api.Error) {
			id, err := r.Params.Int("provider_id", 0, 1, 1<<53)
			if err != nil {
				return nil, err
			}
			source, _ := r.Params.String("source")
			target, _ := r.Params.String("target")
			out := []providerView{}
			for _, p := range svc.Providers(id, source, target) {
				out = append(out, d.providerView(p))
			}
			return out, nil
		}},
		{Method: "GET", Path: "/buy-crypto/provider/{provider_id}/rate", Right: right, Handle: func(r *api.Request) (any, *api.Error) {
			q, perr := rateRequest(r, "provider_id", "source_amount", "target_amount", "payment_method_id")
			if perr != nil {
				return nil, perr
			}
			rate, err := svc.Rate(q)
			if err != nil {
				return nil, buyError(err)
			}
			prices := make([]priceView, 0, len(rate.Prices))
			for _, p := range rate.Prices {
				pv := priceView{PaymentMethodID: p.MethodID, Type: p.Type, TargetCode: p.TargetCode, SourceCode: p.SrcCode,
					TargetAmount: p.TargetAmount.String(), SourceAmount: p.SourceAmount.String()}
				if d.Faults.On("V3-BUY-RATE-FIELDS") {
					pv.PaymentMethodID = strconv.FormatInt(p.MethodID, 10)
				}
				prices = append(prices, pv)
			}
			return struct {
				SpotPrice string      `json:"spot_price"`
				Prices    []priceView `json:"prices"`
			}{rate.SpotPrice.String(), prices}, nil
		}},
		{Method: "GET", Path: "/buy-crypto/provider/{provider_id}/order", Right: right, Handle: func(r *api.Request) (any, *api.Error) {
			q, perr := d.orderQuery(r)
			if perr != nil {
				return nil, perr
			}
			out := []buyOrderView{}
			for _, o := range svc.Orders(q) {
				out = append(out, d.buyOrderView(o))
			}
			return out, nil
		}},
		{Method: "POST", Path: "/buy-crypto/provider/{provider_id}/order", Right: right, Handle: func(r *api.Request) (any, *api.Error) {
			req, perr := orderRequest(r, [5]string{"source_amount", "target_amount", "payment_method_id", "target_network_code", "user_agent"})
			if perr != nil {
				return nil, perr
			}
			o, err := svc.Place(req)
			if err != nil {
				return nil, buyError(err)
			}
			return d.buyOrderView(o), nil
		}},
	}
}

// rateRequest reads a rate query; the parameter names differ by version.
func rateRequest(r *api.Request, idPath, srcAmt, dstAmt, method string) (buycrypto.RateRequest, *api.Error) {
	id, perr := providerID(r, idPath)
	if perr != nil {
		return buycrypto.RateRequest{}, perr
	}
	q := buycrypto.RateRequest{ProviderID: id}
	q.Source, _ = r.Params.String("source")
	q.Target, _ = r.Params.String("target")
	if q.Source == "" || q.Target == "" {
		return q, api.Validation("source and target are required")
	}
	if q.SourceAmount, perr = optionalDecimal(r.Params, srcAmt); perr != nil {
		return q, perr
	}
	if q.TargetAmount, perr = optionalDecimal(r.Params, dstAmt); perr != nil {
		return q, perr
	}
	q.MethodID, perr = r.Params.Int(method, 0, 1, 1<<53)
	return q, perr
}

// orderRequest reads a purchase; names are source_amount, target_amount,
// payment_method_id, target_network_code and user_agent in the version's
// spelling.
func orderRequest(r *api.Request, names [5]string) (buycrypto.OrderRequest, *api.Error) {
	id, perr := providerID(r, "provider_id")
	if perr != nil {
		return buycrypto.OrderRequest{}, perr
	}
	req := buycrypto.OrderRequest{Account: r.Principal.Account, ProviderID: id}
	req.Source, _ = r.Params.String("source")
	req.Target, _ = r.Params.String("target")
	if req.Source == "" || req.Target == "" {
		return req, api.Validation("source and target are required")
	}
	amt, perr := optionalDecimal(r.Params, names[0])
	if perr != nil {
		return req, perr
	}
	if amt == nil {
		return req, api.Validation("%s is required", names[0])
	}
	req.SourceAmount = *amt
	if req.TargetAmount, perr = optionalDecimal(r.Params, names[1]); perr != nil {
		return req, perr
	}
	if !r.Params.Has(names[2]) {
		return req, api.Validation("%s is required", names[2])
	}
	if req.MethodID, perr = r.Params.Int(names[2], 0, 1, 1<<53); perr != nil {
		return req, perr
	}
	req.Network, _ = r.Params.String(names[3])
	req.UserAgent, _ = r.Params.String(names[4])
	req.IP, _ = r.Params.String("ip")
	return req, nil
}

func (d Deps) orderQuery(r *api.Request) (buycrypto.Query, *api.Error) {
	id, perr := providerID(r, "provider_id")
	if perr != nil {
		return buycrypto.Query{}, perr
	}
	if d.Faults.On("V3-BUY-ORDERS-OPTIONAL") && !r.Params.Has("from") {
		return buycrypto.Query{}, api.Validation("from is required")
	}
	q := buycrypto.Query{Account: r.Principal.Account, ProviderID: id}
	if q, perr = timeWindow(r.Params, q); perr != nil {
		return q, perr
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
	q.SourceCode, _ = r.Params.String("source_code")
	q.TargetCode, _ = r.Params.String("target_code")
	q.Wallet, _ = r.Params.String("wallet_address")
	q.Network, _ = r.Params.String("target_network_code")
	if _, perr = r.Params.Enum("order_by", "created_at", "created_at"); perr != nil {
		return q, perr
	}
	sort, _ := r.Params.String("sort")
	switch strings.ToLower(sort) {
	case "", "desc":
	case "asc":
		q.Asc = true
	default:
		return q, api.Validation("sort must be desc or asc, got %q", sort)
	}
	return q, nil
}

// timeWindow reads from and till (Unix milliseconds, or ISO 8601).
func timeWindow(p api.Params, q buycrypto.Query) (buycrypto.Query, *api.Error) {
	for _, name := range []string{"from", "till"} {
		t, ok, err := p.Time(name)
		if err != nil {
			return q, err
		}
		if ok {
			if name == "from" {
				q.From = &t
			} else {
				q.Till = &t
			}
		}
	}
	return q, nil
}
