package rules

// Sections of the v2 document the v2streams area comes from (secWS*, apart
// from the v2 REST areas' secV2* names).
const (
	secWSStreaming = "v2 Endpoints: Streaming (JSON-RPC 2.0)"
	secWSStreamNtf = "v2 Endpoints: Streaming, Notification contents"
	secWSReport    = "v2 Resources: Streaming order report (trading stream)"
	secWSLogin     = "v2 Authentication: stream login"
	secWSAddresses = "v2 What the service does (addresses)"
	secWSCurrency  = "v2 Resources: Currency"
	secWSSymbol    = "v2 Resources: Symbol"
	secWSTicker    = "v2 Resources: Ticker"
	secWSStates    = "v2 States and transitions"
	secWSLimits    = "v2 Limits"
)

// v2streamsRules is the v2streams area: the JSON-RPC 2.0 streams of API v2.
var v2streamsRules = []Rule{
	// Addresses and the protocol.
	{ID: "V2-WS-PATHS", Area: "v2streams", Section: secWSAddresses, Status: Testable,
		Statement: "The streams are at {ws_url}/api/2/ws/public, /api/2/ws/trading, /api/2/ws/account and the deprecated single location /api/2/ws."},
	{ID: "V2-WS-UNION", Area: "v2streams", Section: secWSAddresses, Status: Testable,
		Statement: "The deprecated single location /api/2/ws serves both the market data methods and the trading methods."},
	{ID: "V2-WS-RESULT", Area: "v2streams", Section: secWSStreaming, Status: Testable,
		Statement: "A request {method, params, id} is answered {jsonrpc, result, id} with the request's id."},
	{ID: "V2-WS-NOTIFICATION", Area: "v2streams", Section: secWSStreaming, Status: Testable,
		Statement: "A request without id is a notification and gets no response."},
	{ID: "V2-WS-ERROR", Area: "v2streams", Section: secWSStreaming, Status: Testable,
		Statement: "A failed request is answered {jsonrpc, error {code, message, description}, id} with the request's id."},
	{ID: "V2-WS-V3-METHODS", Area: "v2streams", Section: secWSStreaming, Status: Testable,
		Statement: "The v2 streams have the request methods of the v2 table: version 3's subscribe {ch, params: {symbols}} sent to /api/2/ws/public is answered with an error carrying the request's id, not a result."},
	{ID: "V2-WS-SUB-TRUE", Area: "v2streams", Section: secWSStreaming, Status: Testable,
		Statement: "A successful subscription returns result true."},
	{ID: "V2-WS-SUB-ORDER", Area: "v2streams", Section: secWSStreaming, Status: Testable,
		Statement: "After subscribing the server sends the result, then a full snapshot, then update notifications."},
	{ID: "V2-WS-UNSUBSCRIBE", Area: "v2streams", Section: secWSStreaming, Status: Testable,
		Statement: "After unsubscribeOrderbook the server sends no further notification of that subscription."},
	{ID: "V2-WS-UNSUBSCRIBE-MARKET", Area: "v2streams", Section: secWSStreaming, Status: Testable,
		Statement: "After unsubscribeTicker, unsubscribeTrades and unsubscribeCandles the server sends no further ticker, updateTrades or updateCandles notification of those subscriptions."},

	// Reference data.
	{ID: "V2-WS-CURRENCIES", Area: "v2streams", Section: secWSStreaming, Status: Testable,
		Statement: "getCurrencies with several comma-separated codes answers exactly those Currency records."},
	{ID: "V2-WS-CURRENCY", Area: "v2streams", Section: secWSCurrency, Status: Testable,
		Statement: "getCurrency answers one Currency record with the documented fields (id, fullName, crypto, payinEnabled, payoutEnabled, transferEnabled, delisted, precisionPayout, ...)."},
	{ID: "V2-WS-CURRENCY-EXTENDED", Area: "v2streams", Section: secWSCurrency, Status: Testable,
		Statement: "With extended true a stream Currency adds sign, cryptoPaymentIdName, cryptoType, qrPrefix, cryptoExplorer and isInstrumentsStable."},
	{ID: "V2-WS-SYMBOLS", Area: "v2streams", Section: secWSSymbol, Status: Testable,
		Statement: "getSymbols answers Symbol records with id, baseCurrency, quoteCurrency, quantityIncrement, tickSize, takeLiquidityRate, provideLiquidityRate and feeCurrency."},
	{ID: "V2-WS-SYMBOL", Area: "v2streams", Section: secWSSymbol, Status: Testable,
		Statement: "getSymbol answers the one Symbol record whose id is the symbol asked for."},
	{ID: "V2-WS-UNKNOWN-SYMBOL", Area: "v2streams", Section: secWSStreaming, Status: Testable,
		Statement: "A stream request naming an unknown symbol is answered with error code 2001 (Symbol not found) and the request's id."},

	// Market data notifications.
	{ID: "V2-WS-TICKER", Area: "v2streams", Section: secWSTicker, Status: Testable,
		Statement: "subscribeTicker is followed by ticker notifications carrying the Ticker fields (ask, bid, last, open, low, high, volume, volumeQuote, timestamp, symbol)."},
	{ID: "V2-WS-BOOK-SHAPE", Area: "v2streams", Section: secWSStreamNtf, Status: Testable,
		Statement: "snapshotOrderbook and updateOrderbook carry ask and bid arrays of {price, size}, symbol, sequence Number and timestamp."},
	{ID: "V2-WS-BOOK-SEQ", Area: "v2streams", Section: secWSStreamNtf, Status: Testable,
		Statement: "The order book sequence grows monotonically per symbol from update to update."},
	{ID: "V2-WS-BOOK-SNAPSHOT-SEQ", Area: "v2streams", Section: secWSStreamNtf, Status: Testable,
		Statement: "A snapshotOrderbook carries the sequence of the update that follows it."},
	{ID: "V2-WS-BOOK-DELETE", Area: "v2streams", Section: secWSStreamNtf, Status: Testable,
		Statement: "In updateOrderbook a level with size 0 is a level that was deleted."},
	{ID: "V2-WS-BOOK-REBUILD", Area: "v2streams", Section: secWSStreamNtf, Status: Testable,
		Statement: "A book rebuilt from the snapshot and the updates equals the full snapshot a new subscription gets at that moment."},
	{ID: "V2-WS-TRADES-SNAPSHOT", Area: "v2streams", Section: secWSStreamNtf, Status: Testable,
		Statement: "subscribeTrades is followed by snapshotTrades: data array of {id, price, quantity, side, timestamp} and symbol; a full snapshot of at most limit trades (limit of them when the symbol has that many)."},
	{ID: "V2-WS-TRADES-UPDATE", Area: "v2streams", Section: secWSStreamNtf, Status: Testable,
		Statement: "A trade made after subscribing arrives in updateTrades with its price and quantity."},
	{ID: "V2-WS-GETTRADES", Area: "v2streams", Section: secWSStreamNtf, Status: Testable,
		Statement: "getTrades replies with a data array of {id, price, quantity, side, timestamp} and the symbol."},
	{ID: "V2-WS-GETTRADES-PAGING", Area: "v2streams", Section: secWSStreaming, Status: Testable,
		Statement: "getTrades honours sort, limit, offset, and from and till by id (the pagination parameters of the document)."},
	{ID: "V2-WS-GETTRADES-BY-TIME", Area: "v2streams", Section: secWSStreaming, Status: Testable,
		Statement: "getTrades with by timestamp bounds the trades by from and till as DateTimes (inclusive: a trade's own timestamp as from and till keeps it)."},
	{ID: "V2-WS-CANDLES", Area: "v2streams", Section: secWSStreamNtf, Status: Testable,
		Statement: "subscribeCandles is followed by snapshotCandles: data array of {timestamp, open, close, min, max, volume, volumeQuote}, symbol and period."},
	{ID: "V2-WS-CANDLE-MINMAX", Area: "v2streams", Section: secWSStreamNtf, Status: Testable,
		Statement: "A candle of snapshotCandles keeps min at most its open and close and max at least them (min and max: the least and the most price of the candle's period)."},
	{ID: "V2-WS-CANDLES-LIMIT", Area: "v2streams", Section: secWSStreamNtf, Status: Testable,
		Statement: "limit of subscribeCandles bounds the full snapshot as on subscribeTrades: with limit 1 snapshotCandles carries only the latest candle, with a larger limit the older ones too."},
	{ID: "V2-WS-CANDLES-UPDATE", Area: "v2streams", Section: secWSStreamNtf, Status: Testable,
		Statement: "A trade made after subscribing updates the current candle in updateCandles: its close is the trade price and its volume includes the trade."},

	// Login.
	{ID: "V2-WS-LOGIN-BASIC", Area: "v2streams", Section: secWSLogin, Status: Testable,
		Statement: "login with algo BASIC, pKey and sKey succeeds with the key pair and fails with a wrong sKey."},
	{ID: "V2-WS-LOGIN-HS256", Area: "v2streams", Section: secWSLogin, Status: Testable,
		Statement: "login with algo HS256, pKey, nonce and signature (HMAC SHA256 of nonce with the secret key) succeeds, and fails with a wrong signature."},
	{ID: "V2-WS-LOGIN-BEARER", Area: "v2streams", Section: secWSLogin, Status: Testable,
		Statement: "login with algo BEARER and a jwt that is no bearer token of the key fails."},
	{ID: "V2-WS-LOGIN-UNKNOWN-KEY", Area: "v2streams", Section: secWSLogin, Status: Testable,
		Statement: "login with a pKey that is no API key fails, whatever the algo."},
	{ID: "V2-WS-LOGIN-MISSING", Area: "v2streams", Section: secWSLogin, Status: Testable,
		Statement: "login without a required parameter of its algo fails with an error carrying the request's id."},
	{ID: "V2-WS-LOGIN-REQUIRED", Area: "v2streams", Section: secWSStreaming, Status: Testable,
		Statement: "subscribeReports before a successful login is refused (order updates follow subscribeReports of a logged-in user)."},

	// Trading stream.
	{ID: "V2-WS-REPORTS-RIGHTS", Area: "v2streams", Section: secWSStreamNtf, Status: Testable,
		Statement: "activeOrders requires the Orderbook, History, Trading balance right: a key without it is refused subscribeReports."},
	{ID: "V2-WS-REPORTS-RIGHT-ALONE", Area: "v2streams", Section: secWSStreamNtf, Status: Testable,
		Statement: "subscribeReports is refused to a key holding Payment information alone, Withdraw cryptocurrencies alone or Place/cancel orders alone, and answered true for a key holding Orderbook, History, Trading balance alone."},
	{ID: "V2-WS-ACTIVE-ORDERS", Area: "v2streams", Section: secWSStreamNtf, Status: Testable,
		Statement: "After subscribeReports, activeOrders lists exactly the user's currently active orders."},
	{ID: "V2-WS-REPORT-ONE", Area: "v2streams", Section: secWSStreamNtf, Status: Testable,
		Statement: "report is one order report per order update: an order placed and canceled yields exactly two reports, new then canceled."},
	{ID: "V2-WS-REPORT-FIELDS", Area: "v2streams", Section: secWSReport, Status: Testable,
		Statement: "An order report carries id, clientOrderId, symbol, side, status, type, timeInForce, quantity, price, cumQuantity, postOnly, createdAt, updatedAt and reportType."},
	{ID: "V2-WS-REPORT-ORDER-TYPE", Area: "v2streams", Section: secWSReport, Status: Testable,
		Statement: "An order report's type is one of limit, market, stopLimit, stopMarket (the v2 camelCase spelling): the type the order was placed with."},
	{ID: "V2-WS-REPORT-NEW", Area: "v2streams", Section: secWSReport, Status: Testable,
		Statement: "An order placed after subscribeReports yields a report with status new."},
	{ID: "V2-WS-REPORT-CANCELED", Area: "v2streams", Section: secWSReport, Status: Testable,
		Statement: "An order canceled after subscribeReports yields a report with status canceled."},
	{ID: "V2-WS-REPORT-TRADE", Area: "v2streams", Section: secWSReport, Status: Testable,
		Statement: "An execution yields a trade report with tradeQuantity, tradePrice, tradeId and tradeFee, status partiallyFilled or filled and the cumulative quantity."},
	{ID: "V2-WS-REPORT-EXPIRED", Area: "v2streams", Section: secWSReport, Status: Testable,
		Statement: "An IOC order that finds nothing to fill yields a report with status expired."},
	{ID: "V2-WS-REPORT-SUSPENDED", Area: "v2streams", Section: secWSReport, Status: Testable,
		Statement: "A stop order waiting for its trigger yields a report with status suspended."},

	// Ambiguities.
	{ID: "V2-WS-ERROR-CODES", Area: "v2streams", Section: secWSStreaming, Status: Ambiguous,
		Reason:    "the document lists error codes for REST only; which code a failed stream login or an unauthenticated subscribeReports carries is not given",
		Statement: "The error codes of failed stream logins and of trading requests before login."},
	{ID: "V2-WS-BEARER-TOKEN", Area: "v2streams", Section: secWSLogin, Status: Ambiguous,
		Reason:    "BEARER takes a token \"obtained from the authentication service\", which the documents do not describe, so a client cannot obtain one",
		Statement: "How a jwt accepted by BEARER login is obtained."},
	{ID: "V2-WS-UNSUB-RESULT", Area: "v2streams", Section: secWSStreaming, Status: Ambiguous,
		Reason:    "only a successful subscription is said to return true; the answer to an unsubscribe request is not given",
		Statement: "The result of unsubscribeTicker, unsubscribeOrderbook, unsubscribeTrades and unsubscribeCandles."},
	{ID: "V2-WS-CANDLE-DEFAULTS", Area: "v2streams", Section: secWSStreamNtf, Status: Ambiguous,
		Reason:    "period is given only by example (M30) and limit has no default for streams",
		Statement: "The period and snapshot length of subscribeCandles when the request leaves them out."},
	{ID: "V2-WS-REPORT-TYPES", Area: "v2streams", Section: secWSReport, Status: Ambiguous,
		Reason:    "reportType is listed as a field but its values are not",
		Statement: "The values of reportType in order reports."},

	// Out of scope.
	{ID: "V2-OOS-WS-PING", Area: "v2streams", Section: secWSLimits, Status: OutOfScope,
		Reason:    "the v2 document says nothing of pings, and its Limits section shows no limits for the v2 streams (recorded in the v2limits area)",
		Statement: "Whether and how often the server pings a v2 stream connection, and the connection caps and message limits of the v2 streams."},
	{ID: "V2-OOS-REPORT-FIELDS", Area: "v2streams", Section: secWSReport, Status: OutOfScope, Reason: notShown,
		Statement: "Order report fields beyond those listed, and the fields of v2 order records."},
	{ID: "V2-OOS-ACCOUNT-STREAM", Area: "v2streams", Section: secWSStreaming, Status: OutOfScope, Reason: notShown,
		Statement: "The messages of the account stream /api/2/ws/account."},
	{ID: "V2-OOS-STREAM-TRADING", Area: "v2streams", Section: secWSStreaming, Status: OutOfScope, Reason: notShown,
		Statement: "Placing, replacing, listing and canceling orders and reading the trading balance over the v2 trading stream (newOrder, cancelOrder, cancelReplaceOrder, getOrders, getTradingBalance)."},
	{ID: "V2-OOS-ORDER-TRANSITIONS", Area: "v2streams", Section: secWSStates, Status: OutOfScope, Reason: notShown,
		Statement: "The order state transitions of v2 (which report follows which)."},
}
