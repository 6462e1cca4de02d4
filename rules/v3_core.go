package rules

// Section names, as headed in api-v3.md.
const (
	secConventions = "v3 Conventions"
	secCurrency    = "v3 Resources: Currency"
	secNetwork     = "v3 Resources: Network"
	secSymbol      = "v3 Resources: Symbol"
	secCandle      = "v3 Resources: Futures candle"
	secMarketData  = "v3 Endpoints: Market data (public)"
	secAuth        = "v3 Authentication"
	secAuthBasic   = "v3 Authentication: Basic"
	secAuthHS256   = "v3 Authentication: HS256 (HMAC signature)"
	secAuthRights  = "v3 Authentication: Access rights of keys"
	secErrors      = "v3 Errors"
	secVersioning  = "v3 Versioning"
)

var conventions = []Rule{
	{ID: "V3-CONV-ADDRESS", Area: "conventions", Section: secVersioning,
		Statement: "The REST interface is served under {base_url}/api/3 with the version as a path segment.", Status: Testable},
	{ID: "V3-CONV-TIMESTAMP", Area: "conventions", Section: secConventions,
		Statement: "Timestamps are ISO 8601 UTC strings (or Unix milliseconds where a field says so).", Status: Testable},
	{ID: "V3-CONV-DECIMAL-STRING", Area: "conventions", Section: secConventions,
		Statement: "Finance values (price, quantity, fee, amounts, steps, rates) are decimals carried as JSON strings, never JSON numbers.", Status: Testable},
	{ID: "V3-CONV-DECIMAL-PRECISION", Area: "conventions", Section: secConventions,
		Statement: "Finance values are arbitrary-precision decimals: an amount with many significant digits comes back exactly as it was set.", Status: Testable},
	{ID: "V3-CONV-NUMBER-TYPE", Area: "conventions", Section: secConventions,
		Statement: "Fields typed Number (identifiers, counts, confirmations) are JSON numbers.", Status: Testable},
	{ID: "V3-CONV-GET-QUERY", Area: "conventions", Section: secConventions,
		Statement: "Parameters of GET requests go in the query string.", Status: Testable},
	{ID: "V3-CONV-BODY-FORM", Area: "conventions", Section: secConventions,
		Statement: "Request bodies may be sent form-encoded.", Status: Testable},
	{ID: "V3-CONV-BODY-JSON", Area: "conventions", Section: secConventions,
		Statement: "Request bodies may be sent as JSON with a JSON content type.", Status: Testable},
	{ID: "V3-CONV-KEEPALIVE", Area: "conventions", Section: secConventions,
		Statement: "Persistent HTTP connections are supported: an HTTP/1.1 connection serves several requests in turn.", Status: Testable},
	{ID: "V3-CONV-KEEPALIVE-HTTP10", Area: "conventions", Section: secConventions,
		Statement: "An HTTP/1.0 client that sends Connection: keep-alive gets a persistent connection.", Status: Testable},
}

var marketData = []Rule{
	// Currency
	{ID: "V3-CURRENCY-MAP", Area: "marketdata", Section: secMarketData,
		Statement: "GET /public/currency answers an object keyed by currency code whose values are Currency records.", Status: Testable},
	{ID: "V3-CURRENCY-FIELDS", Area: "marketdata", Section: secCurrency,
		Statement: "A Currency carries full_name, crypto, payin_enabled, payout_enabled, transfer_enabled, sign, precision_transfer, delisted and networks with their documented types, and its optional fields have their documented types when present.", Status: Testable},
	{ID: "V3-CURRENCY-EXPLORER-TX", Area: "marketdata", Section: secCurrency,
		Statement: "A crypto_explorer link, of a currency or of a network, carries a {tx} placeholder in place of a hash.", Status: Testable},
	{ID: "V3-CURRENCY-FILTER", Area: "marketdata", Section: secMarketData,
		Statement: "The currencies parameter (comma-separated codes) limits GET /public/currency to those currencies.", Status: Testable},
	{ID: "V3-CURRENCY-FILTER-EMPTY", Area: "marketdata", Section: secMarketData,
		Statement: "An empty or absent currencies parameter means all currencies.", Status: Testable},
	{ID: "V3-CURRENCY-ONE", Area: "marketdata", Section: secMarketData,
		Statement: "GET /public/currency/{currency} answers that currency's Currency record, the same as its entry in the map.", Status: Testable},
	{ID: "V3-CURRENCY-PREFERRED-NETWORK", Area: "marketdata", Section: secMarketData,
		Statement: "GET /public/currency accepts a preferred_network parameter.", Status: Ambiguous,
		Reason: "the spec names preferred_network (a filter, per the change log) but never says what it selects or how the answer changes"},
	{ID: "V3-CURRENCY-FILTER-UNKNOWN", Area: "marketdata", Section: secMarketData,
		Statement: "A currencies filter naming an unknown code is answered somehow.", Status: Ambiguous,
		Reason: "the spec does not say whether unknown codes in a list filter are ignored or rejected (and with which code)"},
	// Network
	{ID: "V3-NETWORK-FIELDS", Area: "marketdata", Section: secNetwork,
		Statement: "A Network carries code, network_name, network, is_ens_available, default, payin_enabled, payout_enabled, precision_payout, payout_is_payment_id, payin_payment_id, payin_confirmations and is_multichain with their documented types; optional fields (asset_id an object of strings among them) have their documented types when present.", Status: Testable},
	{ID: "V3-NETWORK-DEFAULT", Area: "marketdata", Section: secNetwork,
		Statement: "Each currency with networks marks one of them default.", Status: Ambiguous,
		Reason: "the spec says default marks the default network but not whether exactly one, at most one or any number may carry it"},
	// Symbol
	{ID: "V3-SYMBOL-MAP", Area: "marketdata", Section: secMarketData,
		Statement: "GET /public/symbol answers an object keyed by symbol code whose values are Symbol records.", Status: Testable},
	{ID: "V3-SYMBOL-FIELDS", Area: "marketdata", Section: secSymbol,
		Statement: "A Symbol carries type (spot or futures), quote_currency, status (working, suspended or clearing), quantity_increment, tick_size, take_rate, make_rate, fee_currency and margin_trading with their documented types.", Status: Testable},
	{ID: "V3-SYMBOL-SPOT", Area: "marketdata", Section: secSymbol,
		Statement: "A spot symbol names its base_currency as a string.", Status: Testable},
	{ID: "V3-SYMBOL-FUTURES", Area: "marketdata", Section: secSymbol,
		Statement: "A futures symbol has contract_type perpetual or cash_settled, an underlying string and a null base_currency.", Status: Testable},
	{ID: "V3-SYMBOL-EXPIRY", Area: "marketdata", Section: secSymbol,
		Statement: "A futures symbol's expiry is null for a perpetual contract and a DateTime for a cash-settled one.", Status: Testable},
	{ID: "V3-SYMBOL-LEVERAGE", Area: "marketdata", Section: secSymbol,
		Statement: "max_initial_leverage is present only when margin_trading is true.", Status: Testable},
	{ID: "V3-SYMBOL-FILTER", Area: "marketdata", Section: secMarketData,
		Statement: "The symbols parameter (comma-separated codes) limits GET /public/symbol to those symbols.", Status: Testable},
	{ID: "V3-SYMBOL-FILTER-EMPTY", Area: "marketdata", Section: secMarketData,
		Statement: "An empty or absent symbols parameter means all symbols.", Status: Testable},
	{ID: "V3-SYMBOL-ONE", Area: "marketdata", Section: secMarketData,
		Statement: "GET /public/symbol/{symbol} answers that symbol's Symbol record, the same as its entry in the map.", Status: Testable},
	{ID: "V3-SYMBOL-FILTER-UNKNOWN", Area: "marketdata", Section: secMarketData,
		Statement: "A symbols filter naming an unknown code is answered somehow.", Status: Ambiguous,
		Reason: "the spec does not say whether unknown codes in a list filter are ignored or rejected (and with which code)"},
	// Futures candles (open_interest and premium_index)
	{ID: "V3-FCANDLE-LIST-SHAPE", Area: "marketdata", Section: secMarketData,
		Statement: "The futures candle list endpoints answer an object keyed by contract code whose values are arrays of futures candles.", Status: Testable},
	{ID: "V3-FCANDLE-FIELDS", Area: "marketdata", Section: secCandle,
		Statement: "A futures candle carries timestamp (DateTime) and open, close, min and max (decimal strings).", Status: Testable},
	{ID: "V3-FCANDLE-SYMBOLS", Area: "marketdata", Section: secMarketData,
		Statement: "The symbols parameter limits a futures candle list to those contracts.", Status: Testable},
	{ID: "V3-FCANDLE-SORT-DEFAULT", Area: "marketdata", Section: secMarketData,
		Statement: "Futures candles are sorted DESC (newest first) by default.", Status: Testable},
	{ID: "V3-FCANDLE-SORT", Area: "marketdata", Section: secMarketData,
		Statement: "sort=ASC returns futures candles oldest first and sort=DESC newest first.", Status: Testable},
	{ID: "V3-FCANDLE-PERIOD-DEFAULT", Area: "marketdata", Section: secMarketData,
		Statement: "The default period of futures candles is M30.", Status: Testable},
	{ID: "V3-FCANDLE-PERIOD", Area: "marketdata", Section: secMarketData,
		Statement: "Every documented period (M1, M3, M5, M15, M30, H1, H4, D1, D7, 1M) is accepted for futures candles.", Status: Testable},
	{ID: "V3-FCANDLE-RANGE", Area: "marketdata", Section: secMarketData,
		Statement: "from and till bound the timestamps of the futures candles returned.", Status: Testable},
	{ID: "V3-FCANDLE-LIST-LIMIT-DEFAULT", Area: "marketdata", Section: secMarketData,
		Statement: "The futures candle list endpoints return at most 10 candles per contract by default.", Status: Testable},
	{ID: "V3-FCANDLE-ONE-LIMIT-DEFAULT", Area: "marketdata", Section: secMarketData,
		Statement: "The futures candle by-contract endpoints return at most 100 candles by default.", Status: Testable},
	{ID: "V3-FCANDLE-LIMIT", Area: "marketdata", Section: secMarketData,
		Statement: "limit from 1 to 1000 caps the number of futures candles returned (per contract on the list endpoints).", Status: Testable},
	{ID: "V3-FCANDLE-OFFSET", Area: "marketdata", Section: secMarketData,
		Statement: "offset (default 0, up to 100000) skips that many candles on the by-contract endpoints.", Status: Testable},
	{ID: "V3-FCANDLE-LIMIT-BOUNDS", Area: "marketdata", Section: secMarketData,
		Statement: "A futures candle limit outside 1 to 1000 is answered somehow.", Status: Ambiguous,
		Reason: "the spec gives the range but not whether a value outside it is rejected (10001) or clamped"},
	{ID: "V3-FCANDLE-OFFSET-BOUNDS", Area: "marketdata", Section: secMarketData,
		Statement: "A futures candle offset outside 0 to 100000 is answered somehow.", Status: Ambiguous,
		Reason: "the spec gives the range but not whether a value outside it is rejected (10001) or clamped"},
}

var authentication = []Rule{
	{ID: "V3-AUTH-PUBLIC", Area: "auth", Section: secAuth,
		Statement: "Public market data needs no authentication.", Status: Testable},
	{ID: "V3-AUTH-REQUIRED", Area: "auth", Section: secAuth,
		Statement: "A request to a non-public endpoint without credentials is refused with 1001 or 1002 and HTTP 401.", Status: Testable},
	{ID: "V3-AUTH-BASIC", Area: "auth", Section: secAuthBasic,
		Statement: "Authorization: Basic base64(<API_KEY>:<SECRET_KEY>) with a valid key pair is accepted.", Status: Testable},
	{ID: "V3-AUTH-BASIC-FAIL", Area: "auth", Section: secAuthBasic,
		Statement: "Basic credentials with a wrong secret are refused with 1001 or 1002 and HTTP 401.", Status: Testable},
	{ID: "V3-AUTH-HS256", Area: "auth", Section: secAuthHS256,
		Statement: "HS256: lowercase hex HMAC-SHA256 over method, path, ?query (if any), body (if any) and timestamp, sent as HS256 base64(<API_KEY>:<signature>:<timestamp>), is accepted.", Status: Testable},
	{ID: "V3-AUTH-HS256-WINDOW", Area: "auth", Section: secAuthHS256,
		Statement: "HS256 with the optional window appended to the message and the header (:<window>) is accepted.", Status: Testable},
	{ID: "V3-AUTH-HS256-BODY", Area: "auth", Section: secAuthHS256,
		Statement: "HS256 signs the request body as sent, so a body changed after signing is refused.", Status: Testable},
	{ID: "V3-AUTH-HS256-FAIL", Area: "auth", Section: secAuthHS256,
		Statement: "An HS256 signature that does not match the message (wrong secret, other query, other path, other method, other timestamp or window) is refused with 1001 or 1002 and HTTP 401.", Status: Testable},
	{ID: "V3-AUTH-UNKNOWN-KEY", Area: "auth", Section: secAuth,
		Statement: "Credentials naming an unknown API key are refused with 1001 or 1002 and HTTP 401.", Status: Testable},
	{ID: "V3-AUTH-MALFORMED", Area: "auth", Section: secAuth,
		Statement: "A malformed Authorization header (unknown scheme, bad base64, missing parts, non-numeric timestamp) is refused with 1001 or 1002 and HTTP 401.", Status: Testable},
	{ID: "V3-AUTH-RIGHTS", Area: "auth", Section: secAuthRights,
		Statement: "Each endpoint is guarded by its documented access right: /spot/balance and /spot/fee by Orderbook, History, Trading balance, /spot/fee/{symbol} by Place/cancel orders; a key lacking it gets 1003 with HTTP 403, a key holding it is served.", Status: Testable},
	{ID: "V3-AUTH-CODE-CHOICE", Area: "auth", Section: secAuthRights,
		Statement: "Missing credentials yield 1001 and failed credentials 1002.", Status: Ambiguous,
		Reason: "the spec says missing or failed credentials yield 1001 or 1002 without mapping one to the other; v2 names 1002 'Authorization failed', v3 'Authorization is required or has been failed'"},
}

var errorRules = []Rule{
	{ID: "V3-ERR-BODY", Area: "errors", Section: secErrors,
		Statement: "An error answer carries {error: {code Number, message String, description String optional}}.", Status: Testable},
	{ID: "V3-ERR-10001", Area: "errors", Section: secErrors,
		Statement: "Malformed or missing parameters yield 10001 Validation error with HTTP 400.", Status: Testable},
	{ID: "V3-ERR-2001", Area: "errors", Section: secErrors,
		Statement: "An unknown symbol yields 2001 Symbol not found with HTTP 400.", Status: Testable},
	{ID: "V3-ERR-2002", Area: "errors", Section: secErrors,
		Statement: "An unknown currency yields 2002 Currency not found with HTTP 400.", Status: Testable},
	{ID: "V3-ERR-401", Area: "errors", Section: secErrors,
		Statement: "Codes 1001 and 1002 come with HTTP 401.", Status: Testable},
	{ID: "V3-ERR-1003", Area: "errors", Section: secErrors,
		Statement: "Code 1003 (action forbidden for this API key) comes with HTTP 403.", Status: Testable},
	{ID: "V3-ERR-404", Area: "errors", Section: secErrors,
		Statement: "A request for something that cannot be found (an unknown path) gets HTTP 404.", Status: Testable},
}
