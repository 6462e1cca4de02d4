package v2streams

import (
	"github.com/conform-harness/conform/suites/framework"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// Resource tables of the v2 document: "Number" is a JSON number, "number"
// a decimal carried as a string (finance values are strings in v2 too).
var (
	currencySchema = framework.Schema{
		"id": {Kind: framework.String}, "fullName": {Kind: framework.String}, "crypto": {Kind: framework.Bool},
		"payinEnabled": {Kind: framework.Bool}, "payinPaymentId": {Kind: framework.Bool}, "payinConfirmations": {Kind: framework.Number},
		"payoutEnabled": {Kind: framework.Bool}, "payoutIsPaymentId": {Kind: framework.Bool}, "transferEnabled": {Kind: framework.Bool},
		"delisted": {Kind: framework.Bool}, "payoutFee": {Kind: framework.Decimal}, "payoutMinimalAmount": {Kind: framework.Decimal},
		"precisionPayout": {Kind: framework.Number}, "precisionTransfer": {Kind: framework.Number},
		// lowProcessingTime, highProcessingTime and avgProcessingTime are
		// optional and their JSON type is ambiguous (the v2 REST suite
		// records it), so they are not held to a kind here.
	}
	extendedFields = []string{"sign", "cryptoPaymentIdName", "cryptoType", "qrPrefix", "cryptoExplorer", "isInstrumentsStable"}
	symbolSchema   = framework.Schema{
		"id": {Kind: framework.String}, "baseCurrency": {Kind: framework.String}, "quoteCurrency": {Kind: framework.String},
		"quantityIncrement": {Kind: framework.Decimal}, "tickSize": {Kind: framework.Decimal},
		"takeLiquidityRate": {Kind: framework.Decimal}, "provideLiquidityRate": {Kind: framework.Decimal},
		"feeCurrency": {Kind: framework.String}, "marginTrading": {Kind: framework.Bool, Optional: true},
		"maxInitialLeverage": {Kind: framework.Decimal, Optional: true},
	}
)

var _ = framework.AreaDescribe("v2 streams: reference data", func() {
	framework.ConformanceIt("V2-WS-CURRENCIES", func(ctx SpecContext) {
		sym := anySymbol(ctx)
		s := open(ctx, pathPublic)
		got := array(s.ok(ctx, "getCurrencies", frame{"currency": sym.Base + "," + sym.Quote}), "getCurrencies result")
		var ids []any
		for _, c := range got {
			ids = append(ids, object(c, "a currency")["id"])
		}
		Expect(ids).To(ConsistOf(sym.Base, sym.Quote), "getCurrencies of %s,%s answers exactly those two", sym.Base, sym.Quote)
	})

	framework.ConformanceIt("V2-WS-CURRENCY", func(ctx SpecContext) {
		sym := anySymbol(ctx)
		s := open(ctx, pathPublic)
		c := object(s.ok(ctx, "getCurrency", frame{"currency": sym.Base}), "getCurrency result")
		Expect(c).To(framework.MatchSchema(currencySchema), "the Currency record of %s", sym.Base)
		Expect(c["id"]).To(Equal(sym.Base), "the record of the currency asked for")
	})

	framework.ConformanceIt("V2-WS-CURRENCY-EXTENDED", func(ctx SpecContext) {
		sym := anySymbol(ctx)
		s := open(ctx, pathPublic)
		c := object(s.ok(ctx, "getCurrency", frame{"currency": sym.Base, "extended": true}), "getCurrency extended result")
		for _, k := range extendedFields {
			Expect(c).To(HaveKey(k), "the extended form adds %s", k)
		}
		cs := array(s.ok(ctx, "getCurrencies", frame{"currency": sym.Base, "extended": true}), "getCurrencies extended result")
		Expect(cs).To(HaveLen(1), "getCurrencies of one code")
		for _, k := range extendedFields {
			Expect(object(cs[0], "a currency")).To(HaveKey(k), "the extended form of getCurrencies adds %s", k)
		}
	})

	framework.ConformanceIt("V2-WS-SYMBOLS", func(ctx SpecContext) {
		s := open(ctx, pathPublic)
		got := array(s.ok(ctx, "getSymbols", frame{}), "getSymbols result")
		Expect(got).NotTo(BeEmpty(), "getSymbols lists the symbols")
		for _, v := range got {
			Expect(object(v, "a symbol")).To(framework.MatchSchema(symbolSchema), "a Symbol record")
		}
	})

	framework.ConformanceIt("V2-WS-SYMBOL", func(ctx SpecContext) {
		syms := []string{}
		for _, s := range framework.Current().SymbolsOfType(ctx, "spot") {
			syms = append(syms, s)
		}
		Expect(syms).NotTo(BeEmpty(), "the target lists spot symbols")
		s := open(ctx, pathPublic)
		// The last listed one, so that answering the first for anything fails.
		want := syms[len(syms)-1]
		got := object(s.ok(ctx, "getSymbol", frame{"symbol": want}), "getSymbol result")
		Expect(got).To(framework.MatchSchema(symbolSchema), "the Symbol record of %s", want)
		Expect(got["id"]).To(Equal(want), "getSymbol answers the symbol asked for")
	})

	framework.ConformanceContext("V2-WS-UNKNOWN-SYMBOL", func() {
		DescribeTable("answers 2001 with the id", func(ctx SpecContext, method string) {
			s := open(ctx, pathPublic)
			a := s.call(ctx, method, frame{"symbol": "NOSUCHSYMBOL0"})
			e := errorOf(a, method+" of an unknown symbol")
			Expect(e["code"]).To(BeEquivalentTo("2001"), "%s of an unknown symbol: code 2001 Symbol not found", method)
			Expect(a["id"]).NotTo(BeNil(), "the error carries the request's id")
		},
			Entry(nil, "getSymbol"),
			Entry(nil, "subscribeOrderbook"),
			Entry(nil, "subscribeTrades"),
			Entry(nil, "getTrades"),
		)
	})
})
