package rules

// v2marketdataRules is the v2marketdata area of the catalogue.
var v2marketdataRules = []Rule{
	{ID: "V2-CURRENCY-FIELDS", Area: "v2marketdata", Section: secV2Currency, Status: Testable,
		Statement: "GET /public/currency answers an array of Currency: id, fullName, crypto, payinEnabled, payinPaymentId, payinConfirmations, payoutEnabled, payoutIsPaymentId, transferEnabled, delisted, payoutFee, payoutMinimalAmount, precisionPayout, precisionTransfer of their types, processing times optional."},
	{ID: "V2-CURRENCY-FILTER", Area: "v2marketdata", Section: secV2Public, Status: Testable,
		Statement: "The currencies parameter (comma-separated codes) limits GET /public/currency to those currencies."},
	{ID: "V2-CURRENCY-ONE", Area: "v2marketdata", Section: secV2Public, Status: Testable,
		Statement: "GET /public/currency/{currency} answers the Currency with that id."},
	{ID: "V2-SYMBOL-FIELDS", Area: "v2marketdata", Section: secV2Symbol, Status: Testable,
		Statement: "GET /public/symbol answers an array of Symbol: id, baseCurrency, quoteCurrency, quantityIncrement, tickSize, takeLiquidityRate, provideLiquidityRate (may be negative), feeCurrency, with marginTrading and maxInitialLeverage optional."},
	{ID: "V2-SYMBOL-FILTER", Area: "v2marketdata", Section: secV2Public, Status: Testable,
		Statement: "The symbols parameter (comma-separated codes) limits GET /public/symbol to those symbols."},
	{ID: "V2-SYMBOL-ONE", Area: "v2marketdata", Section: secV2Public, Status: Testable,
		Statement: "GET /public/symbol/{symbol} answers the Symbol with that id."},
	{ID: "V2-TICKER-FIELDS", Area: "v2marketdata", Section: secV2Ticker, Status: Testable,
		Statement: "GET /public/ticker answers an array of Ticker: ask and bid (decimal or null when no data), last, open, low, high, volume, volumeQuote, timestamp (DateTime) and symbol."},
	{ID: "V2-TICKER-NULL", Area: "v2marketdata", Section: secV2Ticker, Status: Testable,
		Statement: "A Ticker's ask and bid are null when there is no data (that side of the order book is empty) and decimals when there is (the best price of that side)."},
	{ID: "V2-TICKER-FILTER", Area: "v2marketdata", Section: secV2Public, Status: Testable,
		Statement: "The symbols parameter limits GET /public/ticker to those symbols."},
	{ID: "V2-TICKER-NO-TRADE", Area: "v2marketdata", Section: secV2Ticker, Status: Ambiguous,
		Reason:    "only ask and bid are said to be null when there is no data; the document does not say what last, open, low and high are for a symbol without trades",
		Statement: "last, open, low and high of a symbol without trades."},
	{ID: "V2-OOS-REST-MARKET", Area: "v2marketdata", Section: secV2Public, Status: OutOfScope, Reason: v2NotShownRESTOrd,
		Statement: "The REST order book, trades and candles of version 2 (and GET /public/ticker/{symbol})."},
}
