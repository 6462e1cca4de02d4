package wiremut

// v2Table returns the corruptions of the version 2 areas: REST under
// /api/2/ and the JSON-RPC streams under /api/2/ws. Each is something the
// v2 document forbids (a field it lists dropped, a decimal string or a
// DateTime turned into a number, a Boolean or Number given another type, a
// value outside an enumeration, another error code or HTTP status, a
// JSON-RPC response with another version or id), on the paths whose areas
// the run covers.
func v2Table() []Mutation {
	const (
		md    = "area:v2marketdata || area:v2conventions || area:v2versioning"
		hist  = "area:v2history"
		acct  = "area:v2account"
		subs  = "area:v2subaccounts"
		buy   = "area:v2buycrypto"
		ws    = "area:v2streams"
		errs  = "area:v2errors || area:v2auth"
		money = "area:v2account || area:v2conventions || area:v2history"
	)
	return []Mutation{
		{Name: "v2-drop-tick", Kind: DropField, Method: "GET", Path: "/api/2/public/symbol", Field: "tickSize", Areas: md},
		{Name: "v2-created-unix", Kind: TimeToUnix, Path: "/api/2/", Field: "createdAt", Areas: money},
		{Name: "v2-err-20001-20002", Kind: ErrorCode, Path: "/api/2/", From: "20001", To: "20002", Areas: "area:v2errors || area:v2account"},
		{Name: "v2-400-422", Kind: Status, Path: "/api/2/", From: "400", To: "422", Areas: errs},
		{Name: "v2-ws-drop-jsonrpc", Kind: DropField, WS: true, Path: "/api/2/ws", Field: "jsonrpc", Areas: ws},
		{Name: "v2-ws-report-type", Kind: SetValue, WS: true, Path: "/api/2/ws", Field: "reportType", To: "bogus", Areas: ws},
		{Name: "v2-ws-price-number", Kind: DecimalToNumber, WS: true, Path: "/api/2/ws", Field: "price", Areas: ws},
		// Public market data: Currency, Symbol, Ticker.
		{Name: "v2-currency-crypto", Kind: SetValue, Method: "GET", Path: "/api/2/public/currency", Field: "crypto", To: "yes", Areas: md},
		{Name: "v2-currency-fee-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/2/public/currency", Field: "payoutFee", Areas: md},
		{Name: "v2-currency-precision-string", Kind: NumberToString, Method: "GET", Path: "/api/2/public/currency", Field: "precisionPayout", Areas: md},
		{Name: "v2-currency-confirmations-string", Kind: NumberToString, Method: "GET", Path: "/api/2/public/currency", Field: "payinConfirmations", Areas: md},
		{Name: "v2-currency-drop-fullname", Kind: DropField, Method: "GET", Path: "/api/2/public/currency", Field: "fullName", Areas: md},
		{Name: "v2-currency-delisted", Kind: SetValue, Method: "GET", Path: "/api/2/public/currency", Field: "delisted", To: "no", Areas: md},
		{Name: "v2-currency-truncate", Kind: TruncateArrays, Method: "GET", Path: "/api/2/public/currency", Areas: md},
		{Name: "v2-symbol-tick-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/2/public/symbol", Field: "tickSize", Areas: md},
		{Name: "v2-symbol-drop-increment", Kind: DropField, Method: "GET", Path: "/api/2/public/symbol", Field: "quantityIncrement", Areas: md},
		{Name: "v2-symbol-drop-fee-currency", Kind: DropField, Method: "GET", Path: "/api/2/public/symbol", Field: "feeCurrency", Areas: md},
		{Name: "v2-symbol-take-rate-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/2/public/symbol", Field: "takeLiquidityRate", Areas: md},
		{Name: "v2-symbol-margin-flag", Kind: SetValue, Method: "GET", Path: "/api/2/public/symbol", Field: "marginTrading", To: "yes", Areas: md},
		{Name: "v2-symbol-truncate", Kind: TruncateArrays, Method: "GET", Path: "/api/2/public/symbol", Areas: md},
		{Name: "v2-ticker-drop-symbol", Kind: DropField, Method: "GET", Path: "/api/2/public/ticker", Field: "symbol", Areas: md},
		{Name: "v2-ticker-unix", Kind: TimeToUnix, Method: "GET", Path: "/api/2/public/ticker", Field: "timestamp", Areas: md},
		{Name: "v2-ticker-volume-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/2/public/ticker", Field: "volume", Areas: md},
		{Name: "v2-ticker-truncate", Kind: TruncateArrays, Method: "GET", Path: "/api/2/public/ticker", Areas: md},
		// Trading history: user trades.
		{Name: "v2-trade-side", Kind: SetValue, Method: "GET", Path: "/api/2/history", Field: "side", To: "hold", Areas: hist},
		{Name: "v2-trade-fee-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/2/history", Field: "fee", Areas: hist},
		{Name: "v2-trade-id-string", Kind: NumberToString, Method: "GET", Path: "/api/2/history", Field: "id", Areas: hist},
		{Name: "v2-trade-order-id-string", Kind: NumberToString, Method: "GET", Path: "/api/2/history", Field: "orderId", Areas: hist},
		{Name: "v2-trade-taker", Kind: SetValue, Method: "GET", Path: "/api/2/history", Field: "taker", To: "yes", Areas: hist},
		{Name: "v2-trade-unix", Kind: TimeToUnix, Method: "GET", Path: "/api/2/history", Field: "timestamp", Areas: hist},
		{Name: "v2-trade-drop-cloid", Kind: DropField, Method: "GET", Path: "/api/2/history", Field: "clientOrderId", Areas: hist},
		{Name: "v2-trade-reverse", Kind: ReverseArrays, Method: "GET", Path: "/api/2/history/trades", Areas: hist},
		{Name: "v2-trade-truncate", Kind: TruncateArrays, Method: "GET", Path: "/api/2/history/trades", Areas: hist},
		// Account management.
		{Name: "v2-balance-drop-available", Kind: DropField, Method: "GET", Path: "/api/2/account/balance", Field: "available", Areas: money},
		{Name: "v2-balance-reserved-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/2/account/balance", Field: "reserved", Areas: money},
		{Name: "v2-balance-truncate", Kind: TruncateArrays, Method: "GET", Path: "/api/2/account/balance", Areas: money},
		{Name: "v2-address-drop", Kind: DropField, Path: "/api/2/account/crypto/address", Field: "address", Areas: acct},
		{Name: "v2-withdraw-drop-id", Kind: DropField, Method: "POST", Path: "/api/2/account/crypto/withdraw", Field: "id", Areas: acct},
		{Name: "v2-commit-result", Kind: SetValue, Method: "PUT", Path: "/api/2/account/crypto/withdraw", Field: "result", To: "yes", Areas: acct},
		{Name: "v2-rollback-result", Kind: SetValue, Method: "DELETE", Path: "/api/2/account/crypto/withdraw", Field: "result", To: "yes", Areas: acct},
		{Name: "v2-tx-status", Kind: SetValue, Method: "GET", Path: "/api/2/account/transactions", Field: "status", To: "done", Areas: acct},
		{Name: "v2-tx-type", Kind: SetValue, Method: "GET", Path: "/api/2/account/transactions", Field: "type", To: "gift", Areas: acct},
		{Name: "v2-tx-index-string", Kind: NumberToString, Method: "GET", Path: "/api/2/account/transactions", Field: "index", Areas: acct},
		{Name: "v2-tx-amount-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/2/account/transactions", Field: "amount", Areas: acct},
		{Name: "v2-tx-drop-id", Kind: DropField, Method: "GET", Path: "/api/2/account/transactions", Field: "id", Areas: acct},
		{Name: "v2-tx-reverse", Kind: ReverseArrays, Method: "GET", Path: "/api/2/account/transactions", Areas: acct},
		{Name: "v2-estimate-fee-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/2/account/crypto/estimate-withdraw", Field: "fee", Areas: acct},
		{Name: "v2-levels-id-string", Kind: NumberToString, Method: "GET", Path: "/api/2/account/crypto/estimate-withdraw-levels", Field: "feeLevelId", Areas: acct},
		{Name: "v2-levels-default", Kind: SetValue, Method: "GET", Path: "/api/2/account/crypto/estimate-withdraw-levels", Field: "isDefault", To: "yes", Areas: acct},
		{Name: "v2-is-mine", Kind: SetValue, Method: "GET", Path: "/api/2/account/crypto/is-mine", Field: "result", To: "yes", Areas: acct},
		{Name: "v2-transfer-drop-id", Kind: DropField, Method: "POST", Path: "/api/2/account/transfer", Field: "id", Areas: acct},
		{Name: "v2-internal-result", Kind: DropField, Method: "POST", Path: "/api/2/account/transfer/internal", Field: "result", Areas: acct},
		{Name: "v2-convert-drop-result", Kind: DropField, Method: "POST", Path: "/api/2/account/crypto/transfer-convert", Field: "result", Areas: acct},
		// Sub-accounts.
		{Name: "v2-subs-acl-payout", Kind: SetValue, Path: "/api/2/sub-acc/acl", Field: "isPayoutEnabled", To: "yes", Areas: subs},
		{Name: "v2-subs-acl-id-string", Kind: NumberToString, Path: "/api/2/sub-acc/acl", Field: "subAccountId", Areas: subs},
		{Name: "v2-subs-acl-drop-description", Kind: DropField, Path: "/api/2/sub-acc/acl", Field: "description", Areas: subs},
		{Name: "v2-subs-balance-drop-main", Kind: DropField, Method: "GET", Path: "/api/2/sub-acc/balance", Field: "main", Areas: subs},
		{Name: "v2-subs-balance-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/2/sub-acc/balance", Field: "available", Areas: subs},
		{Name: "v2-subs-freeze-result", Kind: SetValue, Method: "POST", Path: "/api/2/sub-acc/freeze", Field: "result", To: "yes", Areas: subs},
		{Name: "v2-subs-activate-result", Kind: SetValue, Method: "POST", Path: "/api/2/sub-acc/activate", Field: "result", To: "yes", Areas: subs},
		{Name: "v2-subs-transfer-drop-result", Kind: DropField, Method: "POST", Path: "/api/2/sub-acc/transfer", Field: "result", Areas: subs},
		{Name: "v2-subs-address-drop", Kind: DropField, Method: "GET", Path: "/api/2/sub-acc/deposit-address", Field: "address", Areas: subs},
		{Name: "v2-subs-500-400", Kind: Status, Path: "/api/2/sub-acc", From: "500", To: "400", Areas: subs},
		{Name: "v2-subs-10021-10001", Kind: ErrorCode, Path: "/api/2/sub-acc", From: "10021", To: "10001", Areas: subs},
		// Buy crypto.
		{Name: "v2-buy-drop-provider", Kind: DropField, Path: "/api/2/buy-crypto", Field: "providerID", Areas: buy},
		{Name: "v2-buy-method-status", Kind: SetValue, Method: "GET", Path: "/api/2/buy-crypto/provider", Field: "status", To: "deleted", Areas: buy},
		{Name: "v2-buy-spot-number", Kind: DecimalToNumber, Path: "/api/2/buy-crypto", Field: "spotPrice", Areas: buy},
		{Name: "v2-buy-created-unix", Kind: TimeToUnix, Path: "/api/2/buy-crypto", Field: "createdAt", Areas: buy},
		{Name: "v2-buy-order-type", Kind: SetValue, Path: "/api/2/buy-crypto", Field: "orderType", To: "sell", Areas: buy},
		{Name: "v2-buy-drop-checkout", Kind: DropField, Path: "/api/2/buy-crypto", Field: "checkoutURL", Areas: buy},
		{Name: "v2-buy-source-min-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/2/buy-crypto/provider", Field: "sourceMin", Areas: buy},
		{Name: "v2-buy-order-id-string", Kind: NumberToString, Path: "/api/2/buy-crypto", Field: "providerId", Areas: buy},
		// Errors: codes, statuses and the error body.
		{Name: "v2-err-10001-600", Kind: ErrorCode, Path: "/api/2/", From: "10001", To: "600", Areas: errs},
		{Name: "v2-err-2001-2002", Kind: ErrorCode, Path: "/api/2/", From: "2001", To: "2002", Areas: errs},
		{Name: "v2-err-2002-2001", Kind: ErrorCode, Path: "/api/2/", From: "2002", To: "2001", Areas: errs},
		{Name: "v2-err-1001-1002", Kind: ErrorCode, Path: "/api/2/", From: "1001", To: "1002", Areas: errs},
		{Name: "v2-err-1002-1001", Kind: ErrorCode, Path: "/api/2/", From: "1002", To: "1001", Areas: errs},
		{Name: "v2-err-1003-1002", Kind: ErrorCode, Path: "/api/2/", From: "1003", To: "1002", Areas: errs},
		{Name: "v2-401-403", Kind: Status, Path: "/api/2/", From: "401", To: "403", Areas: errs},
		{Name: "v2-403-401", Kind: Status, Path: "/api/2/", From: "403", To: "401", Areas: errs},
		{Name: "v2-err-drop-message", Kind: DropField, Path: "/api/2/", Field: "message", Areas: errs},
		{Name: "v2-err-code-string", Kind: NumberToString, Path: "/api/2/", Field: "code", Areas: errs},
		// JSON-RPC streams.
		{Name: "v2-ws-jsonrpc-version", Kind: SetValue, WS: true, Path: "/api/2/ws", Field: "jsonrpc", To: "1.0", Areas: ws},
		{Name: "v2-ws-id-shift", Kind: ShiftID, WS: true, Path: "/api/2/ws", Areas: ws},
		{Name: "v2-ws-id-string", Kind: NumberToString, WS: true, Path: "/api/2/ws", Field: "id", Areas: ws},
		{Name: "v2-ws-result-true", Kind: SetValue, WS: true, Path: "/api/2/ws", Match: `"result":true`, Field: "result", To: "true", Areas: ws},
		{Name: "v2-ws-err-code-string", Kind: NumberToString, WS: true, Path: "/api/2/ws", Field: "code", Areas: ws},
		{Name: "v2-ws-err-drop-message", Kind: DropField, WS: true, Path: "/api/2/ws", Match: `"error"`, Field: "message", Areas: ws},
		{Name: "v2-ws-err-1002-1001", Kind: ErrorCode, WS: true, Path: "/api/2/ws", From: "1002", To: "1001", Areas: ws},
		{Name: "v2-ws-err-2001-2002", Kind: ErrorCode, WS: true, Path: "/api/2/ws", From: "2001", To: "2002", Areas: ws},
		{Name: "v2-ws-snapshot-as-update", Kind: SetValue, WS: true, Path: "/api/2/ws", Match: `"snapshotOrderbook"`, Field: "method", To: "updateOrderbook", Areas: ws},
		{Name: "v2-ws-method", Kind: SetValue, WS: true, Path: "/api/2/ws", Match: `"updateTrades"`, Field: "method", To: "updateTrade", Areas: ws},
		{Name: "v2-ws-sequence-string", Kind: NumberToString, WS: true, Path: "/api/2/ws", Field: "sequence", Areas: ws},
		{Name: "v2-ws-drop-sequence", Kind: DropField, WS: true, Path: "/api/2/ws", Field: "sequence", Areas: ws},
		{Name: "v2-ws-size-number", Kind: DecimalToNumber, WS: true, Path: "/api/2/ws", Field: "size", Areas: ws},
		{Name: "v2-ws-book-unix", Kind: TimeToUnix, WS: true, Path: "/api/2/ws", Match: "Orderbook", Field: "timestamp", Areas: ws},
		{Name: "v2-ws-ticker-unix", Kind: TimeToUnix, WS: true, Path: "/api/2/ws", Match: `"ticker"`, Field: "timestamp", Areas: ws},
		{Name: "v2-ws-trade-side", Kind: SetValue, WS: true, Path: "/api/2/ws", Field: "side", To: "hold", Areas: ws},
		{Name: "v2-ws-trades-truncate", Kind: TruncateArrays, WS: true, Path: "/api/2/ws", Match: `"snapshotTrades"`, Field: "data", Areas: ws},
		{Name: "v2-ws-candle-drop-max", Kind: DropField, WS: true, Path: "/api/2/ws", Field: "max", Areas: ws},
		{Name: "v2-ws-candle-period", Kind: SetValue, WS: true, Path: "/api/2/ws", Match: "Candles", Field: "period", To: "30m", Areas: ws},
		{Name: "v2-ws-drop-symbol", Kind: DropField, WS: true, Path: "/api/2/ws", Field: "symbol", Areas: ws},
		{Name: "v2-ws-report-status", Kind: SetValue, WS: true, Path: "/api/2/ws", Field: "status", To: "pending", Areas: ws},
		{Name: "v2-ws-trade-qty-number", Kind: DecimalToNumber, WS: true, Path: "/api/2/ws", Field: "tradeQuantity", Areas: ws},
		{Name: "v2-ws-currency-crypto", Kind: SetValue, WS: true, Path: "/api/2/ws", Field: "crypto", To: "yes", Areas: ws},
		{Name: "v2-ws-tick-number", Kind: DecimalToNumber, WS: true, Path: "/api/2/ws", Field: "tickSize", Areas: ws},
		{Name: "v2-ws-report-unix", Kind: TimeToUnix, WS: true, Path: "/api/2/ws", Field: "createdAt", Areas: ws},
	}
}
