// Package v3 is the emulator's API version 3: its route table and handlers.
package v3

import (
	"github.com/conform-harness/conform/emulator/clock"
	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/auth"
	"github.com/conform-harness/conform/emulator/internal/buycrypto"
	"github.com/conform-harness/conform/emulator/internal/engine"
	"github.com/conform-harness/conform/emulator/internal/ledger"
	"github.com/conform-harness/conform/emulator/internal/margin"
	"github.com/conform-harness/conform/emulator/internal/market"
	"github.com/conform-harness/conform/emulator/internal/subaccount"
	"github.com/conform-harness/conform/emulator/internal/tape"
	"github.com/conform-harness/conform/emulator/internal/wallet"
)

// Prefix is where version 3 is served ({base_url}/api/3).
const Prefix = "/api/3"

// Deps are what the handlers work on.
type Deps struct {
	Market *market.Catalogue
	Ledger *ledger.Ledger
	Engine *engine.Engine
	Faults *faults.Set
	Clock  clock.Clock
	// MarginConfig is what GET /margin/config answers.
	MarginConfig []margin.Record
	// FuturesConfig is what GET /futures/config answers.
	FuturesConfig []margin.Record
	// SubAccounts is every account's sub-accounts.
	SubAccounts *subaccount.Registry
	// BuyCrypto is the crypto purchase through providers.
	BuyCrypto *buycrypto.Service
	// Tape is the record of public trades behind the ticker, trades and
	// candles endpoints (beyond the contract); nil serves none of them.
	Tape *tape.Tape
	// Wallet is the main (wallet) account behind the wallet endpoints
	// (beyond the contract); nil serves none of them.
	Wallet *wallet.Wallet
}

// Routes is the v3 route table.
func Routes(d Deps) []api.Route {
	routes := marketRoutes(d.Market, d.Faults, d.Clock)
	routes = append(routes, spotRoutes(d)...)
	routes = append(routes, spotOrderRoutes(d)...)
	routes = append(routes, listRoutes(d)...)
	routes = append(routes, marginVenue(d).routes()...)
	routes = append(routes, futuresRoutes(d)...)
	routes = append(routes, publicRoutes(d)...)
	routes = append(routes, walletRoutes(d)...)
	routes = append(routes, subAccountRoutes(d)...)
	return append(routes, buyCryptoRoutes(d)...)
}

func spotRoutes(d Deps) []api.Route {
	feeRight := auth.RightTrading
	if d.Faults.On("V3-AUTH-RIGHTS") {
		feeRight = auth.RightOrderbook
	}
	return []api.Route{
		{Method: "GET", Path: "/spot/balance", Right: auth.RightOrderbook, Handle: d.getSpotBalances},
		{Method: "GET", Path: "/spot/balance/{currency}", Right: auth.RightOrderbook, Handle: d.getSpotBalance},
		{Method: "GET", Path: "/spot/fee", Right: auth.RightOrderbook, Handle: d.getSpotFees},
		{Method: "GET", Path: "/spot/fee/{symbol}", Right: feeRight, Handle: d.getSpotFee},
	}
}

// spotBalance is the Spot balance resource; Currency is omitted when a
// single currency is requested.
type spotBalance struct {
	Currency            string `json:"currency,omitempty"`
	Available           string `json:"available"`
	Reserved            string `json:"reserved"`
	ReservedMargin      string `json:"reserved_margin"`
	CrossMarginReserved string `json:"cross_margin_reserved"`
}

func newSpotBalance(b ledger.Balance, withCurrency bool) spotBalance {
	out := spotBalance{Available: b.Available.String(), Reserved: b.Reserved.String(), ReservedMargin: "0", CrossMarginReserved: "0"}
	if withCurrency {
		out.Currency = b.Currency
	}
	return out
}

// withMargin fills in what the trader moved to isolated (reserved_margin)
// and cross (cross_margin_reserved) margin accounts in the currency.
func (d Deps) withMargin(b spotBalance, mf engine.MarginFunds) spotBalance {
	if !d.Faults.On("V3-MARGIN-SPOT-RESERVED") {
		b.ReservedMargin, b.CrossMarginReserved = mf.Isolated.String(), mf.Cross.String()
	}
	return b
}

type symbolFee struct {
	Symbol   string `json:"symbol,omitempty"`
	TakeRate string `json:"take_rate"`
	MakeRate string `json:"make_rate"`
}

func (d Deps) getSpotBalances(r *api.Request) (any, *api.Error) {
	bs := d.Ledger.Balances(r.Principal.Account)
	mf := d.Engine.MarginFundsOf(r.Principal.Account)
	out := make([]spotBalance, 0, len(bs))
	for _, b := range bs {
		out = append(out, d.withMargin(newSpotBalance(b, true), mf[b.Currency]))
	}
	return out, nil
}

func (d Deps) getSpotBalance(r *api.Request) (any, *api.Error) {
	c := r.PathValue("currency")
	if !d.Market.HasCurrency(c) {
		return nil, api.CurrencyNotFound(c)
	}
	b := newSpotBalance(d.Ledger.Balance(r.Principal.Account, c), d.Faults.On("V3-SPOT-BALANCE"))
	return d.withMargin(b, d.Engine.MarginFundsOf(r.Principal.Account)[c]), nil
}

func (d Deps) getSpotFees(*api.Request) (any, *api.Error) {
	fees := d.Market.SpotFees()
	out := make([]symbolFee, 0, len(fees))
	for _, f := range fees {
		out = append(out, symbolFee{Symbol: f.Symbol, TakeRate: f.TakeRate, MakeRate: f.MakeRate})
	}
	return out, nil
}

func (d Deps) getSpotFee(r *api.Request) (any, *api.Error) {
	s := r.PathValue("symbol")
	f, ok := d.Market.Fee(s)
	if !ok {
		return nil, api.SymbolNotFound(s)
	}
	out := symbolFee{TakeRate: f.TakeRate, MakeRate: f.MakeRate}
	if d.Faults.On("V3-SPOT-FEE") {
		out.Symbol = f.Symbol
	}
	return out, nil
}
