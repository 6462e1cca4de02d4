package jsonrpc

import (
	"strings"

	"github.com/conform-harness/conform/emulator/faults"
	"github.com/conform-harness/conform/emulator/internal/api"
	"github.com/conform-harness/conform/emulator/internal/v2shape"
)

// group says on which streams a method is served.
type group int

const (
	groupPublic  group = iota // market data: /public and the single location
	groupTrading              // reports and trading: /trading and the single location
	groupLogin                // login: every stream but /public
)

type method struct {
	fn    func(c *conn, req *request, p api.Params) (any, *api.Error)
	group group
}

func (m method) servedOn(stream string, f *faults.Set) bool {
	if stream == streamAll {
		return m.group == groupPublic || !f.On("V2-WS-UNION")
	}
	switch m.group {
	case groupPublic:
		return stream == streamPublic
	case groupTrading:
		return stream == streamTrading
	default:
		return stream != streamPublic
	}
}

func (s *Server) methodTable() map[string]method {
	pub := func(fn func(c *conn, req *request, p api.Params) (any, *api.Error)) method {
		return method{fn: fn, group: groupPublic}
	}
	trd := func(fn func(c *conn, req *request, p api.Params) (any, *api.Error)) method {
		return method{fn: fn, group: groupTrading}
	}
	table := map[string]method{
		"getCurrencies":        pub(s.getCurrencies),
		"getCurrency":          pub(s.getCurrency),
		"getSymbols":           pub(s.getSymbols),
		"getSymbol":            pub(s.getSymbol),
		"getTrades":            pub(s.getTrades),
		"subscribeTicker":      pub(s.subscribe(chanTicker)),
		"unsubscribeTicker":    pub(s.unsubscribe(chanTicker)),
		"subscribeOrderbook":   pub(s.subscribe(chanBook)),
		"unsubscribeOrderbook": pub(s.unsubscribe(chanBook)),
		"subscribeTrades":      pub(s.subscribe(chanTrades)),
		"unsubscribeTrades":    pub(s.unsubscribe(chanTrades)),
		"subscribeCandles":     pub(s.subscribe(chanCandles)),
		"unsubscribeCandles":   pub(s.unsubscribe(chanCandles)),
		"login":                {fn: s.login, group: groupLogin},
		"subscribeReports":     trd(s.subscribeReports),
		"newOrder":             trd(s.newOrder),
		"cancelOrder":          trd(s.cancelOrder),
		"cancelReplaceOrder":   trd(s.cancelReplaceOrder),
		"getOrders":            trd(s.getOrders),
		"getTradingBalance":    trd(s.getTradingBalance),
	}
	if s.opts.Faults.On("V2-WS-V3-METHODS") { // the fault: version 3's subscribe answered true
		table["subscribe"] = pub(func(*conn, *request, api.Params) (any, *api.Error) { return true, nil })
	}
	return table
}

func (s *Server) currency(code string, extended bool) any {
	c, _ := s.opts.Market.Currency(code)
	f := s.opts.Faults
	out := v2shape.NewCurrency(code, c, extended && !f.On("V2-WS-CURRENCY-EXTENDED"))
	if f.On("V2-WS-CURRENCY") {
		return v2shape.Without(out, "payoutEnabled")
	}
	return out
}

func (s *Server) getCurrencies(_ *conn, _ *request, p api.Params) (any, *api.Error) {
	ext, err := p.Bool("extended", false)
	if err != nil {
		return nil, err
	}
	codes := p.List("currency")
	if len(codes) == 0 {
		codes = p.List("currencies") // the REST name, accepted too
	}
	if len(codes) == 0 {
		codes = s.opts.Market.CurrencyCodes()
	}
	if len(codes) > 1 && s.opts.Faults.On("V2-WS-CURRENCIES") {
		codes = codes[:1]
	}
	out := make([]any, 0, len(codes))
	for _, code := range codes {
		code = strings.ToUpper(code)
		if !s.opts.Market.HasCurrency(code) {
			return nil, api.CurrencyNotFound(code)
		}
		out = append(out, s.currency(code, ext))
	}
	return out, nil
}

func (s *Server) getCurrency(_ *conn, _ *request, p api.Params) (any, *api.Error) {
	ext, err := p.Bool("extended", false)
	if err != nil {
		return nil, err
	}
	code, _ := p.String("currency")
	if code == "" {
		return nil, api.Validation("currency is required")
	}
	code = strings.ToUpper(code)
	if !s.opts.Market.HasCurrency(code) {
		return nil, api.CurrencyNotFound(code)
	}
	return s.currency(code, ext), nil
}

// spotSymbols are the symbols v2 knows: the spot ones.
func (s *Server) spotSymbols() []string {
	var out []string
	for _, code := range s.opts.Market.SymbolCodes() {
		if !s.opts.Market.IsFutures(code) {
			out = append(out, code)
		}
	}
	return out
}

func (s *Server) symbol(code string) any {
	sym, _ := s.opts.Market.Symbol(code)
	return v2shape.NewSymbol(code, sym)
}

// knownSymbol checks a symbol parameter: required, listed and spot.
func (s *Server) knownSymbol(p api.Params) (string, *api.Error) {
	code, _ := p.String("symbol")
	if code == "" {
		return "", api.Validation("symbol is required")
	}
	code = strings.ToUpper(code)
	if !s.opts.Market.IsSymbol(code) || s.opts.Market.IsFutures(code) {
		if s.opts.Faults.On("V2-WS-UNKNOWN-SYMBOL") {
			return "", api.Validation("symbol %q is not valid", code)
		}
		return "", api.SymbolNotFound(code)
	}
	return code, nil
}

func (s *Server) getSymbols(_ *conn, _ *request, p api.Params) (any, *api.Error) {
	codes := p.List("symbol")
	if len(codes) == 0 {
		codes = p.List("symbols")
	}
	if len(codes) == 0 {
		codes = s.spotSymbols()
	}
	out := make([]any, 0, len(codes))
	for _, code := range codes {
		code = strings.ToUpper(code)
		if !s.opts.Market.IsSymbol(code) || s.opts.Market.IsFutures(code) {
			return nil, api.SymbolNotFound(code)
		}
		sym := s.symbol(code)
		if s.opts.Faults.On("V2-WS-SYMBOLS") {
			sym = v2shape.Without(sym, "feeCurrency")
		}
		out = append(out, sym)
	}
	return out, nil
}

func (s *Server) getSymbol(_ *conn, _ *request, p api.Params) (any, *api.Error) {
	code, err := s.knownSymbol(p)
	if err != nil {
		return nil, err
	}
	if s.opts.Faults.On("V2-WS-SYMBOL") {
		code = s.spotSymbols()[0]
		if want, _ := p.String("symbol"); strings.EqualFold(want, code) && len(s.spotSymbols()) > 1 {
			code = s.spotSymbols()[1]
		}
	}
	return s.symbol(code), nil
}
