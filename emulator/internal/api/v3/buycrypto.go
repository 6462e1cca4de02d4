package v3

import (
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

// buyNames spells the buy-crypto parameters as the v3 document does.
var buyNames = buycrypto.Names{ProviderPath: "provider_id", ProviderID: "provider_id", SourceAmount: "source_amount",
	TargetAmount: "target_amount", MethodID: "payment_method_id", Network: "target_network_code", UserAgent: "user_agent",
	SourceCode: "source_code", TargetCode: "target_code", Wallet: "wallet_address"}

func buyCryptoRoutes(d Deps) []api.Route {
	right := auth.RightPayment
	listRight := right
	if d.Faults.On("V3-BUY-RIGHTS") {
		listRight = ""
	}
	return []api.Route{
		{Method: "GET", Path: "/buy-crypto/provider", Right: listRight, Handle: d.getBuyProviders},
		{Method: "GET", Path: "/buy-crypto/provider/{provider_id}/rate", Right: right, Handle: d.getBuyRate},
		{Method: "GET", Path: "/buy-crypto/provider/{provider_id}/order", Right: right, Handle: d.getBuyOrders},
		{Method: "POST", Path: "/buy-crypto/provider/{provider_id}/order", Right: right, Handle: d.placeBuyOrder},
	}
}

// orderQuery reads an order list query; order_by and sort are v3 only.
func (d Deps) orderQuery(r *api.Request) (buycrypto.Query, *api.Error) {
	id, perr := buyNames.PathProvider(r)
	if perr != nil {
		return buycrypto.Query{}, perr
	}
	if d.Faults.On("V3-BUY-ORDERS-OPTIONAL") && !r.Params.Has("from") {
		return buycrypto.Query{}, api.Validation("from is required")
	}
	q, perr := buyNames.Orders(r, id)
	if perr != nil {
		return q, perr
	}
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

func (d Deps) getBuyProviders(r *api.Request) (any, *api.Error) {
	svc := d.BuyCrypto
	id, source, target, perr := buyNames.ProviderFilter(r)
	if perr != nil {
		return nil, perr
	}
	out := []providerView{}
	for _, p := range svc.Providers(id, source, target) {
		out = append(out, d.providerView(p))
	}
	return out, nil
}

func (d Deps) getBuyRate(r *api.Request) (any, *api.Error) {
	svc := d.BuyCrypto
	q, perr := buyNames.Rate(r, d.Faults.On("V3-BUY-RATE-REQUIRED"))
	if perr != nil {
		return nil, perr
	}
	rate, err := svc.Rate(q)
	if err != nil {
		return nil, buycrypto.APIError(err)
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
}

func (d Deps) getBuyOrders(r *api.Request) (any, *api.Error) {
	svc := d.BuyCrypto
	q, perr := d.orderQuery(r)
	if perr != nil {
		return nil, perr
	}
	out := []buyOrderView{}
	for _, o := range svc.Orders(q) {
		out = append(out, d.buyOrderView(o))
	}
	return out, nil
}

func (d Deps) placeBuyOrder(r *api.Request) (any, *api.Error) {
	svc := d.BuyCrypto
	req, perr := buyNames.Order(r, d.Faults.On("V3-BUY-ORDER-REQUIRED"))
	if perr != nil {
		return nil, perr
	}
	o, err := svc.Place(req)
	if err != nil {
		return nil, buycrypto.APIError(err)
	}
	return d.buyOrderView(o), nil
}
