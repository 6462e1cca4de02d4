package v2

import (
	"time"

	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/buycrypto"
	"github.com/conform-harness/conform/fixtures"
)

// The v2 buy-crypto records: the v3 content with the camelCase names of
// the v2 document (providerID, logoURL and checkoutURL as it spells them).
type (
	currencyV2 struct {
		Code        string `json:"code"`
		DisplayName string `json:"displayName"`
		NetworkCode string `json:"networkCode,omitempty"`
	}
	limitV2 struct {
		CurrencyCode string `json:"currencyCode"`
		TargetCode   string `json:"targetCode"`
		SourceMin    string `json:"sourceMin"`
		SourceMax    string `json:"sourceMax"`
		NetworkCode  string `json:"networkCode,omitempty"`
	}
	methodV2 struct {
		ID                int64        `json:"id"`
		Name              string       `json:"name"`
		Description       string       `json:"description"`
		LogoURL           string       `json:"logoURL"`
		Status            string       `json:"status"`
		Type              string       `json:"type"`
		SupportedSource   []currencyV2 `json:"supportedSource"`
		SupportedTarget   []currencyV2 `json:"supportedTarget"`
		TransactionLimits []any        `json:"transactionLimits"`
	}
	providerV2 struct {
		ProviderID   int64      `json:"providerID"`
		ProviderName string     `json:"providerName"`
		Methods      []methodV2 `json:"methods"`
	}
	priceV2 struct {
		PaymentMethodID int64  `json:"paymentMethodId"`
		Type            string `json:"type"`
		TargetCode      string `json:"targetCode"`
		SourceCode      string `json:"sourceCode"`
		TargetAmount    string `json:"targetAmount"`
		SourceAmount    string `json:"sourceAmount"`
	}
	orderV2 struct {
		ID            int64  `json:"id"`
		ProviderID    int64  `json:"providerId"`
		OrderType     string `json:"orderType"`
		SourceCode    string `json:"sourceCode"`
		TargetCode    string `json:"targetCode"`
		WalletAddress string `json:"walletAddress"`
		CheckoutURL   string `json:"checkoutURL"`
		Status        string `json:"status"`
		CreatedAt     string `json:"createdAt"`
	}
)

func currenciesV2(cs []fixtures.CryptoCurrency) []currencyV2 {
	out := make([]currencyV2, 0, len(cs))
	for _, c := range cs {
		out = append(out, currencyV2{Code: c.Code, DisplayName: c.DisplayName, NetworkCode: c.NetworkCode})
	}
	return out
}

func (a Accounts) providerV2(p fixtures.Provider) any {
	out := providerV2{ProviderID: p.ProviderID, ProviderName: p.ProviderName, Methods: []methodV2{}}
	for _, m := range p.Methods {
		mv := methodV2{ID: m.ID, Name: m.Name, Description: m.Description, LogoURL: m.LogoURL, Status: m.Status, Type: m.Type,
			SupportedSource: currenciesV2(m.SupportedSource), SupportedTarget: currenciesV2(m.SupportedTarget), TransactionLimits: []any{}}
		for _, l := range m.TransactionLimits {
			lo, hi := l.SourceMin, l.SourceMax
			if a.Faults.On("V2-BUY-LIMIT-MINMAX") {
				lo, hi = hi, lo
			}
			var lv any = limitV2{CurrencyCode: l.CurrencyCode, TargetCode: l.TargetCode, SourceMin: lo, SourceMax: hi, NetworkCode: l.NetworkCode}
			if a.Faults.On("V2-BUY-LIMIT-FIELDS") {
				lv = map[string]string{"currencyCode": l.CurrencyCode, "targetCode": l.TargetCode, "source_min": l.SourceMin, "sourceMax": l.SourceMax}
			}
			mv.TransactionLimits = append(mv.TransactionLimits, lv)
		}
		out.Methods = append(out.Methods, mv)
	}
	if a.Faults.On("V2-BUY-PROVIDERS") {
		return map[string]any{"provider_id": out.ProviderID, "providerName": out.ProviderName, "methods": out.Methods}
	}
	return out
}

func (a Accounts) orderV2(o buycrypto.Order) orderV2 {
	v := orderV2{ID: o.ID, ProviderID: o.ProviderID, OrderType: "buy", SourceCode: o.SourceCode, TargetCode: o.TargetCode,
		WalletAddress: o.WalletAddress, CheckoutURL: o.CheckoutURL, Status: o.Status, CreatedAt: o.CreatedAt.UTC().Format(time.RFC3339Nano)}
	if a.Faults.On("V2-BUY-ORDER-FIELDS") {
		v.CheckoutURL = ""
	}
	return v
}

// names spells the buy-crypto parameters as the v2 document does.
var names = buycrypto.Names{ProviderPath: "providerID", ProviderID: "providerId", SourceAmount: "sourceAmount",
	TargetAmount: "targetAmount", MethodID: "paymentMethodId", Network: "targetNetworkCode", UserAgent: "userAgent",
	SourceCode: "sourceCode", TargetCode: "targetCode", Wallet: "walletAddress",
	OrderMissing: "target, source, sourceAmount and paymentMethodId are required"}

// BuyCryptoRoutes are the v2 Buy crypto endpoints, all with Payment
// information.
func BuyCryptoRoutes(a Accounts) []api.Route {
	svc, f := a.BuyCrypto, a.Faults
	right := auth.RightPayment
	if f.On("V2-BUY-RIGHTS") {
		right = ""
	}
	return []api.Route{
		{Method: "GET", Path: "/buy-crypto/provider", Right: right, Handle: func(r *api.Request) (any, *api.Error) {
			id, source, target, perr := names.ProviderFilter(r)
			if perr != nil {
				return nil, perr
			}
			if f.On("V2-BUY-PROVIDER-FILTER") {
				id = 0
			}
			out := []any{}
			for _, p := range svc.Providers(id, source, target) {
				out = append(out, a.providerV2(p))
			}
			return out, nil
		}},
		{Method: "GET", Path: "/buy-crypto/provider/{providerID}/rate", Right: auth.RightPayment, Handle: func(r *api.Request) (any, *api.Error) {
			q, perr := names.Rate(r, f.On("V2-BUY-RATE-REQUIRED"))
			if perr != nil {
				return nil, perr
			}
			if f.On("V2-BUY-RATE-PARAMS") {
				q.MethodID = 0
			}
			rate, err := svc.Rate(q)
			if err != nil {
				return nil, buycrypto.APIError(err)
			}
			prices := make([]priceV2, 0, len(rate.Prices))
			for _, p := range rate.Prices {
				prices = append(prices, priceV2{PaymentMethodID: p.MethodID, Type: p.Type, TargetCode: p.TargetCode, SourceCode: p.SrcCode,
					TargetAmount: p.TargetAmount.String(), SourceAmount: p.SourceAmount.String()})
			}
			out := map[string]any{"spotPrice": rate.SpotPrice.String(), "prices": prices}
			if f.On("V2-BUY-RATE-FIELDS") {
				out["spot_price"] = out["spotPrice"]
				delete(out, "spotPrice")
			}
			return out, nil
		}},
		{Method: "GET", Path: "/buy-crypto/provider/{providerID}/order", Right: auth.RightPayment, Handle: func(r *api.Request) (any, *api.Error) {
			id, perr := names.PathProvider(r)
			if perr != nil {
				return nil, perr
			}
			if (!r.Params.Has("from") || !r.Params.Has("till")) && !f.On("V2-BUY-ORDERS-FROM-TILL") {
				return nil, api.Validation("from and till are required")
			}
			q, perr := names.Orders(r, id)
			if perr != nil {
				return nil, perr
			}
			if f.On("V2-BUY-ORDERS-WINDOW") {
				q.Till = nil
			}
			if f.On("V2-BUY-ORDERS-FILTERS") {
				q.TargetCode = ""
			}
			if f.On("V2-BUY-ORDERS-LIMIT-OFFSET") {
				q.Offset = 0
			}
			if f.On("V2-BUY-ORDERS-NETWORK") {
				q.Network = ""
			}
			out := []orderV2{}
			for _, o := range svc.Orders(q) {
				out = append(out, a.orderV2(o))
			}
			return out, nil
		}},
		{Method: "POST", Path: "/buy-crypto/provider/{providerID}/order", Right: auth.RightPayment, Handle: func(r *api.Request) (any, *api.Error) {
			req, perr := names.Order(r, f.On("V2-BUY-ORDER-REQUIRED"))
			if perr != nil {
				return nil, perr
			}
			// Ignoring targetNetworkCode would go unseen (the order falls
			// back to the network the method lists for the target, the one
			// a client names), so the fault refuses it: a gateway that
			// missed the multichain change.
			if req.Network != "" && f.On("V2-BUY-ORDER-NETWORK") {
				return nil, api.Validation("unknown field targetNetworkCode")
			}
			o, err := svc.Place(req)
			if err != nil {
				return nil, buycrypto.APIError(err)
			}
			if f.On("V2-BUY-V3-SAME") {
				o.ID += 1 << 20
			}
			return a.orderV2(o), nil
		}},
	}
}
