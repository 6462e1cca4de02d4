// Package v2shape renders the emulator's records in the camelCase shapes of
// API v2 (Resources: Currency, Symbol, Ticker, Balance and the streaming
// order report), for the v2 REST resources and the v2 streams alike, so
// that both show one reading of the v2 document; PlaceRequest reads the
// order parameters both take.
package v2shape

import (
	"encoding/json"
	"time"

	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/conform-harness/conform/emulator/internal/tape"
	"github.com/shopspring/decimal"
)

// Time writes a v2 DateTime: ISO 8601 UTC with milliseconds.
func Time(t time.Time) string { return market.FormatTime(t) }

// Currency is the v2 Currency resource; the Extended part is what the
// streams add when asked for extended records.
type Currency struct {
	ID                  string   `json:"id"`
	FullName            string   `json:"fullName"`
	Crypto              bool     `json:"crypto"`
	PayinEnabled        bool     `json:"payinEnabled"`
	PayinPaymentID      bool     `json:"payinPaymentId"`
	PayinConfirmations  int64    `json:"payinConfirmations"`
	PayoutEnabled       bool     `json:"payoutEnabled"`
	PayoutIsPaymentID   bool     `json:"payoutIsPaymentId"`
	TransferEnabled     bool     `json:"transferEnabled"`
	Delisted            bool     `json:"delisted"`
	PayoutFee           string   `json:"payoutFee"`
	PayoutMinimalAmount string   `json:"payoutMinimalAmount"`
	PrecisionPayout     int32    `json:"precisionPayout"`
	PrecisionTransfer   int32    `json:"precisionTransfer"`
	LowProcessingTime   *float64 `json:"lowProcessingTime,omitempty"`
	HighProcessingTime  *float64 `json:"highProcessingTime,omitempty"`
	AvgProcessingTime   *float64 `json:"avgProcessingTime,omitempty"`
	*Extended
}

// Extended is the part of a Currency the extended form adds.
type Extended struct {
	Sign                string `json:"sign"`
	CryptoPaymentIDName string `json:"cryptoPaymentIdName"`
	CryptoType          string `json:"cryptoType"`
	QRPrefix            string `json:"qrPrefix"`
	CryptoExplorer      string `json:"cryptoExplorer"`
	IsInstrumentsStable bool   `json:"isInstrumentsStable"`
}

// digits is the number of digits after the point of a step such as
// "0.00000001" (8); 0 for a malformed or whole step.
func digits(step string) int32 {
	d, err := decimal.NewFromString(step)
	if err != nil || d.Exponent() >= 0 {
		return 0
	}
	return -d.Exponent()
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// NewCurrency renders the v3 currency record c of code in the v2 shape.
// v2 has one network per currency: the default one of v3 (else the first)
// gives the payin and payout fields; the minimal payout is the payout fee
// (less would pay nothing). The processing times keep v3's JSON numbers.
func NewCurrency(code string, c market.Currency, extended bool) Currency {
	out := Currency{ID: code, FullName: c.FullName, Crypto: c.Crypto, PayinEnabled: c.PayinEnabled,
		PayoutEnabled: c.PayoutEnabled, TransferEnabled: c.TransferEnabled, Delisted: c.Delisted,
		PayoutFee: "0", PayoutMinimalAmount: "0", PrecisionPayout: digits(c.PrecisionTransfer), PrecisionTransfer: digits(c.PrecisionTransfer)}
	var net *market.Network
	for i := range c.Networks {
		if net == nil || c.Networks[i].Default {
			net = &c.Networks[i]
		}
	}
	if net != nil {
		out.PayinPaymentID, out.PayinConfirmations, out.PayoutIsPaymentID = net.PayinPaymentID, net.PayinConfirmations, net.PayoutIsPaymentID
		out.PrecisionPayout = digits(net.PrecisionPayout)
		if net.PayoutFee != nil {
			out.PayoutFee, out.PayoutMinimalAmount = *net.PayoutFee, *net.PayoutFee
		}
		out.LowProcessingTime, out.HighProcessingTime, out.AvgProcessingTime = net.LowProcessingTime, net.HighProcessingTime, net.AvgProcessingTime
	}
	if extended {
		x := &Extended{Sign: c.Sign, CryptoPaymentIDName: deref(c.CryptoPaymentIDName), QRPrefix: deref(c.QRPrefix),
			CryptoExplorer: deref(c.CryptoExplorer), IsInstrumentsStable: c.Stable != nil && *c.Stable}
		if net != nil && net.Protocol != nil {
			x.CryptoType = *net.Protocol
		}
		out.Extended = x
	}
	return out
}

// Symbol is the v2 Symbol resource.
type Symbol struct {
	ID                   string  `json:"id"`
	BaseCurrency         string  `json:"baseCurrency"`
	QuoteCurrency        string  `json:"quoteCurrency"`
	QuantityIncrement    string  `json:"quantityIncrement"`
	TickSize             string  `json:"tickSize"`
	TakeLiquidityRate    string  `json:"takeLiquidityRate"`
	ProvideLiquidityRate string  `json:"provideLiquidityRate"`
	FeeCurrency          string  `json:"feeCurrency"`
	MarginTrading        bool    `json:"marginTrading"`
	MaxInitialLeverage   *string `json:"maxInitialLeverage,omitempty"`
}

// NewSymbol renders the v3 spot symbol s of code in the v2 shape.
func NewSymbol(code string, s market.Symbol) Symbol {
	return Symbol{ID: code, BaseCurrency: deref(s.BaseCurrency), QuoteCurrency: s.QuoteCurrency,
		QuantityIncrement: s.QuantityIncrement, TickSize: s.TickSize, TakeLiquidityRate: s.TakeRate,
		ProvideLiquidityRate: s.MakeRate, FeeCurrency: s.FeeCurrency, MarginTrading: s.MarginTrading,
		MaxInitialLeverage: s.MaxInitialLeverage}
}

// Ticker is the v2 Ticker resource: ask, bid and last are null when there
// is no data.
type Ticker struct {
	Ask         *string `json:"ask"`
	Bid         *string `json:"bid"`
	Last        *string `json:"last"`
	Open        *string `json:"open"`
	Low         *string `json:"low"`
	High        *string `json:"high"`
	Volume      string  `json:"volume"`
	VolumeQuote string  `json:"volumeQuote"`
	Timestamp   string  `json:"timestamp"`
	Symbol      string  `json:"symbol"`
}

// NewTicker renders a symbol's Ticker at now from the best bid and ask
// (nil: that side of the book is empty) and the tape's 24-hour statistics:
// last, open, low and high are null without trades, as ask and bid are.
func NewTicker(symbol string, now time.Time, bid, ask *decimal.Decimal, st tape.Stats) Ticker {
	f := st.Figures()
	return Ticker{Bid: decPtr(bid), Ask: decPtr(ask), Last: f.Last, Open: f.Open, Low: f.Low, High: f.High,
		Volume: f.Volume, VolumeQuote: f.VolumeQuote, Timestamp: Time(now), Symbol: symbol}
}

// Candle is a v2 candle (REST candles and the candles stream).
type Candle struct {
	Timestamp   string `json:"timestamp"`
	Open        string `json:"open"`
	Close       string `json:"close"`
	Min         string `json:"min"`
	Max         string `json:"max"`
	Volume      string `json:"volume"`
	VolumeQuote string `json:"volumeQuote"`
}

// NewCandle renders a tape candle.
func NewCandle(c tape.Candle) Candle {
	return Candle{Timestamp: Time(c.Start), Open: c.Open.String(), Close: c.Close.String(), Min: c.Low.String(),
		Max: c.High.String(), Volume: c.Volume.String(), VolumeQuote: c.VolumeQuote.String()}
}

// Without renders v as a JSON object and drops keys: the faults that leave
// a field out apply it on top of a rendering.
func Without(v any, keys ...string) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return v
	}
	for _, k := range keys {
		delete(m, k)
	}
	return m
}

// Balance is a v2 Balance record.
type Balance struct {
	Currency  string `json:"currency"`
	Available string `json:"available"`
	Reserved  string `json:"reserved"`
}

// NewBalance renders a ledger balance.
func NewBalance(b ledger.Balance) Balance {
	return Balance{Currency: b.Currency, Available: b.Available.String(), Reserved: b.Reserved.String()}
}

// NewBalances renders ledger balances, never null.
func NewBalances(bs []ledger.Balance) []Balance {
	out := make([]Balance, 0, len(bs))
	for _, b := range bs {
		out = append(out, NewBalance(b))
	}
	return out
}

// Report is the streaming order report (and, beyond the contract, the
// order record of the v2 trading stream's answers). The trade fields are
// set on trade reports only.
type Report struct {
	ID                           string  `json:"id"`
	ClientOrderID                string  `json:"clientOrderId"`
	Symbol                       string  `json:"symbol"`
	Side                         string  `json:"side"`
	Status                       string  `json:"status"`
	Type                         string  `json:"type"`
	TimeInForce                  string  `json:"timeInForce"`
	Quantity                     string  `json:"quantity"`
	Price                        *string `json:"price,omitempty"`
	CumQuantity                  string  `json:"cumQuantity"`
	PostOnly                     bool    `json:"postOnly"`
	CreatedAt                    string  `json:"createdAt"`
	UpdatedAt                    string  `json:"updatedAt"`
	StopPrice                    *string `json:"stopPrice,omitempty"`
	ExpireTime                   *string `json:"expireTime,omitempty"`
	ReportType                   string  `json:"reportType"`
	OriginalRequestClientOrderID string  `json:"originalRequestClientOrderId,omitempty"`
	TradeQuantity                *string `json:"tradeQuantity,omitempty"`
	TradePrice                   *string `json:"tradePrice,omitempty"`
	TradeID                      *int64  `json:"tradeId,omitempty"`
	TradeFee                     *string `json:"tradeFee,omitempty"`
}

var decPtr = tape.DecimalString

// NewReport renders an engine order with its report type; tr is the order's
// side of a trade for trade reports (nil otherwise).
func NewReport(o engine.Order, reportType string, tr *engine.Trade) Report {
	r := Report{ID: decimal.NewFromInt(o.ID).String(), ClientOrderID: o.ClientOrderID(), Symbol: o.Symbol, Side: string(o.Side),
		Status: string(o.Status), Type: string(o.Type), TimeInForce: string(o.TimeInForce), Quantity: o.Quantity.String(),
		Price: decPtr(o.Price), CumQuantity: o.QuantityCumulative.String(), PostOnly: o.PostOnly,
		CreatedAt: Time(o.CreatedAt), UpdatedAt: Time(o.UpdatedAt), StopPrice: decPtr(o.StopPrice), ReportType: reportType,
		OriginalRequestClientOrderID: o.OriginalClientOrderID}
	if o.ExpireTime != nil {
		t := Time(*o.ExpireTime)
		r.ExpireTime = &t
	}
	if tr != nil {
		q, p, f := tr.Quantity.String(), tr.Price.String(), tr.Fee.String()
		id := tr.ID
		r.TradeQuantity, r.TradePrice, r.TradeID, r.TradeFee = &q, &p, &id, &f
	}
	return r
}
