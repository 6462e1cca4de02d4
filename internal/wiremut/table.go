package wiremut

// Table returns the mutations the runner applies, one run each, across the
// v3 areas (and their streams), then the v2 ones (v2Table). Each names the suite areas to run
// (--label-filter) so a run takes seconds, not the whole suite.
func Table() []Mutation {
	const (
		md     = "area:marketdata || area:conventions"
		spot   = "area:spot || area:conventions"
		lists  = "area:orderlists"
		margin = "area:margin"
		errs   = "area:errors || area:auth || area:spot || area:marketdata"
		subs   = "area:subaccounts"
		buy    = "area:buycrypto"
		pub    = "area:streampublic"
		trade  = "area:streamtrading"
		wallet = "area:streamwallet"
	)
	return append([]Mutation{
		{Name: "md-drop-tick", Kind: DropField, Method: "GET", Path: "/api/3/public/symbol", Field: "tick_size", Areas: md},
		{Name: "md-tick-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/3/public/symbol", Field: "tick_size", Areas: md},
		{Name: "md-symbol-status", Kind: SetValue, Method: "GET", Path: "/api/3/public/symbol", Field: "status", To: "halted", Areas: md},
		{Name: "md-symbol-type", Kind: SetValue, Method: "GET", Path: "/api/3/public/symbol", Field: "type", To: "option", Areas: md},
		{Name: "md-drop-quote", Kind: DropField, Method: "GET", Path: "/api/3/public/symbol", Field: "quote_currency", Areas: md},
		{Name: "md-margin-flag", Kind: SetValue, Method: "GET", Path: "/api/3/public/symbol", Field: "margin_trading", To: "yes", Areas: md},
		{Name: "md-currency-crypto", Kind: SetValue, Method: "GET", Path: "/api/3/public/currency", Field: "crypto", To: "yes", Areas: md},
		{Name: "md-currency-drop-networks", Kind: DropField, Method: "GET", Path: "/api/3/public/currency", Field: "networks", Areas: md},
		{Name: "md-candle-unix", Kind: TimeToUnix, Method: "GET", Path: "/api/3/public/futures", Field: "timestamp", Areas: md},
		{Name: "md-candle-reverse", Kind: ReverseArrays, Method: "GET", Path: "/api/3/public/futures", Areas: md},
		{Name: "md-candle-truncate", Kind: TruncateArrays, Method: "GET", Path: "/api/3/public/futures", Areas: md},
		{Name: "spot-drop-coid", Kind: DropField, Path: "/api/3/spot/order", Field: "client_order_id", Areas: spot},
		{Name: "spot-status", Kind: SetValue, Path: "/api/3/spot/order", Field: "status", To: "pending", Areas: spot},
		{Name: "spot-qty-number", Kind: DecimalToNumber, Path: "/api/3/spot/order", Field: "quantity", Areas: spot},
		{Name: "spot-created-unix", Kind: TimeToUnix, Path: "/api/3/spot/order", Field: "created_at", Areas: spot},
		{Name: "spot-id-string", Kind: NumberToString, Path: "/api/3/spot/order", Field: "id", Areas: spot},
		{Name: "spot-fee-drop", Kind: DropField, Method: "GET", Path: "/api/3/spot/fee", Field: "take_rate", Areas: spot},
		{Name: "spot-balance-drop", Kind: DropField, Method: "GET", Path: "/api/3/spot/balance", Field: "available", Areas: spot},
		{Name: "spot-history-truncate", Kind: TruncateArrays, Method: "GET", Path: "/api/3/spot/history/order", Areas: spot},
		{Name: "spot-tif", Kind: SetValue, Path: "/api/3/spot/order", Field: "time_in_force", To: "GTX", Areas: spot},
		{Name: "lists-drop-id", Kind: DropField, Method: "POST", Path: "/api/3/spot/order/list", Field: "order_list_id", Areas: lists},
		{Name: "lists-contingency", Kind: SetValue, Method: "POST", Path: "/api/3/spot/order/list", Field: "contingency_type", To: "allOrSome", Areas: lists},
		{Name: "lists-truncate", Kind: TruncateArrays, Method: "POST", Path: "/api/3/spot/order/list", Areas: lists},
		{Name: "margin-mode", Kind: SetValue, Path: "/api/3/margin", Field: "margin_mode", To: "portfolio", Areas: margin},
		{Name: "margin-drop-currencies", Kind: DropField, Path: "/api/3/margin/account", Field: "currencies", Areas: margin},
		{Name: "margin-config-drop", Kind: DropField, Method: "GET", Path: "/api/3/margin/config", Field: "config", Areas: margin},
		{Name: "err-400-422", Kind: Status, Path: "/api/3/", From: "400", To: "422", Areas: errs},
		{Name: "err-10001-10002", Kind: ErrorCode, Path: "/api/3/", From: "10001", To: "10002", Areas: errs},
		{Name: "err-20001-20002", Kind: ErrorCode, Path: "/api/3/", From: "20001", To: "20002", Areas: errs},
		{Name: "err-2001-2002", Kind: ErrorCode, Path: "/api/3/", From: "2001", To: "2002", Areas: errs},
		{Name: "err-drop-message", Kind: DropField, Path: "/api/3/", Field: "message", Areas: errs},
		{Name: "err-404-400", Kind: Status, Path: "/api/3/", From: "404", To: "400", Areas: errs},
		{Name: "auth-401-403", Kind: Status, Path: "/api/3/", From: "401", To: "403", Areas: "area:auth || area:errors"},
		{Name: "auth-1002-1001", Kind: ErrorCode, Path: "/api/3/", From: "1002", To: "1001", Areas: "area:auth || area:errors"},
		{Name: "auth-403-401", Kind: Status, Path: "/api/3/", From: "403", To: "401", Areas: "area:auth || area:errors"},
		{Name: "subs-status", Kind: SetValue, Method: "GET", Path: "/api/3/sub-account", Field: "status", To: "frozen", Areas: subs},
		{Name: "subs-drop-id", Kind: DropField, Method: "GET", Path: "/api/3/sub-account", Field: "sub_account_id", Areas: subs},
		{Name: "subs-result", Kind: SetValue, Method: "POST", Path: "/api/3/sub-account", Field: "result", To: "ok", Areas: subs},
		{Name: "subs-21004-21003", Kind: ErrorCode, Path: "/api/3/sub-account", From: "21004", To: "21003", Areas: subs},
		{Name: "buy-drop-provider", Kind: DropField, Path: "/api/3/buy-crypto", Field: "provider_id", Areas: buy},
		{Name: "buy-provider-string", Kind: NumberToString, Path: "/api/3/buy-crypto", Field: "provider_id", Areas: buy},
		{Name: "buy-spot-price-number", Kind: DecimalToNumber, Path: "/api/3/buy-crypto", Field: "spot_price", Areas: buy},
		{Name: "ws-pub-drop-ch", Kind: DropField, WS: true, Path: "/api/3/ws/public", Field: "ch", Areas: pub},
		{Name: "ws-pub-side", Kind: SetValue, WS: true, Path: "/api/3/ws/public", Field: "s", To: "hold", Areas: pub},
		{Name: "ws-pub-drop-id", Kind: DropField, WS: true, Path: "/api/3/ws/public", Field: "id", Areas: pub},
		{Name: "ws-pub-t-string", Kind: NumberToString, WS: true, Path: "/api/3/ws/public", Field: "t", Areas: pub},
		{Name: "ws-pub-price-number", Kind: DecimalToNumber, WS: true, Path: "/api/3/ws/public", Field: "p", Areas: pub},
		{Name: "ws-pub-subs-truncate", Kind: TruncateArrays, WS: true, Path: "/api/3/ws/public", Field: "subscriptions", Areas: pub},
		{Name: "ws-trade-drop-id", Kind: DropField, WS: true, Path: "/api/3/ws/trading", Field: "id", Areas: trade},
		{Name: "ws-trade-err-code", Kind: NumberToString, WS: true, Path: "/api/3/ws/trading", Field: "code", Areas: trade},
		{Name: "ws-wallet-drop-id", Kind: DropField, WS: true, Path: "/api/3/ws/wallet", Field: "id", Areas: wallet},
		// Narrower corruptions: fields fewer specs read.
		{Name: "md-drop-fee-currency", Kind: DropField, Method: "GET", Path: "/api/3/public/symbol", Field: "fee_currency", Areas: md},
		{Name: "md-make-rate-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/3/public/symbol", Field: "make_rate", Areas: md},
		{Name: "md-precision-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/3/public/currency", Field: "precision_transfer", Areas: md},
		{Name: "md-delisted", Kind: SetValue, Method: "GET", Path: "/api/3/public/currency", Field: "delisted", To: "no", Areas: md},
		{Name: "spot-drop-post-only", Kind: DropField, Path: "/api/3/spot/order", Field: "post_only", Areas: spot},
		{Name: "spot-drop-updated", Kind: DropField, Path: "/api/3/spot/order", Field: "updated_at", Areas: spot},
		{Name: "spot-price-avg-number", Kind: DecimalToNumber, Path: "/api/3/spot/order", Field: "price_average", Areas: spot},
		{Name: "spot-drop-cumulative", Kind: DropField, Path: "/api/3/spot/order", Field: "quantity_cumulative", Areas: spot},
		{Name: "spot-taker", Kind: SetValue, Path: "/api/3/spot", Field: "taker", To: "yes", Areas: spot},
		{Name: "spot-reserved-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/3/spot/balance", Field: "reserved", Areas: spot},
		{Name: "spot-history-reverse", Kind: ReverseArrays, Method: "GET", Path: "/api/3/spot/history/order", Areas: spot},
		{Name: "margin-leverage-number", Kind: DecimalToNumber, Path: "/api/3/margin/account", Field: "leverage", Areas: margin},
		{Name: "margin-config-enabled", Kind: SetValue, Method: "GET", Path: "/api/3/margin/config", Field: "enabled", To: "yes", Areas: margin},
		{Name: "margin-drop-positions", Kind: DropField, Path: "/api/3/margin/account", Field: "positions", Areas: margin},
		{Name: "margin-history-truncate", Kind: TruncateArrays, Method: "GET", Path: "/api/3/margin/history", Areas: margin},
		{Name: "subs-acl-withdraw", Kind: SetValue, Path: "/api/3/sub-account/acl", Field: "withdraw_enabled", To: "yes", Areas: subs},
		{Name: "subs-acl-drop-description", Kind: DropField, Path: "/api/3/sub-account/acl", Field: "description", Areas: subs},
		{Name: "subs-acl-created-unix", Kind: TimeToUnix, Path: "/api/3/sub-account/acl", Field: "created_at", Areas: subs},
		{Name: "subs-balance-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/3/sub-account/balance", Field: "available", Areas: subs},
		{Name: "subs-address-drop", Kind: DropField, Method: "GET", Path: "/api/3/sub-account/crypto", Field: "address", Areas: subs},
		{Name: "subs-drop-email", Kind: DropField, Method: "GET", Path: "/api/3/sub-account", Field: "email", Areas: subs},
		{Name: "subs-transfer-result-number", Kind: SetValue, Method: "POST", Path: "/api/3/sub-account/transfer", Field: "result", To: "", Areas: subs},
		{Name: "buy-method-status", Kind: SetValue, Method: "GET", Path: "/api/3/buy-crypto/provider", Field: "status", To: "deleted", Areas: buy},
		{Name: "buy-limit-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/3/buy-crypto/provider", Field: "source_min", Areas: buy},
		{Name: "buy-created-unix", Kind: TimeToUnix, Path: "/api/3/buy-crypto", Field: "created_at", Areas: buy},
		{Name: "buy-drop-checkout", Kind: DropField, Path: "/api/3/buy-crypto", Field: "checkout_url", Areas: buy},
		{Name: "buy-drop-wallet-address", Kind: DropField, Method: "POST", Path: "/api/3/buy-crypto", Field: "wallet_address", Areas: buy},
		{Name: "buy-order-type", Kind: SetValue, Path: "/api/3/buy-crypto", Field: "order_type", To: "sell", Areas: buy},
		{Name: "buy-rate-amount-number", Kind: DecimalToNumber, Method: "GET", Path: "/api/3/buy-crypto/provider", Field: "target_amount", Areas: buy},
		{Name: "buy-drop-methods", Kind: DropField, Method: "GET", Path: "/api/3/buy-crypto/provider", Field: "methods", Areas: buy},
		{Name: "ws-pub-trade-id-string", Kind: NumberToString, WS: true, Path: "/api/3/ws/public", Field: "i", Areas: pub},
		{Name: "ws-pub-drop-v", Kind: DropField, WS: true, Path: "/api/3/ws/public", Field: "v", Areas: pub},
		{Name: "ws-pub-drop-subscriptions", Kind: DropField, WS: true, Path: "/api/3/ws/public", Field: "subscriptions", Areas: pub},
		{Name: "ws-pub-err-code-string", Kind: NumberToString, WS: true, Path: "/api/3/ws/public", Field: "code", Areas: pub},
		{Name: "err-code-string", Kind: NumberToString, Path: "/api/3/", Field: "code", Areas: errs},
		{Name: "err-20002-10001", Kind: ErrorCode, Path: "/api/3/", From: "20002", To: "10001", Areas: errs},
		{Name: "err-1003-1002", Kind: ErrorCode, Path: "/api/3/", From: "1003", To: "1002", Areas: "area:auth || area:errors"},
		{Name: "err-2002-2001", Kind: ErrorCode, Path: "/api/3/", From: "2002", To: "2001", Areas: errs},
		{Name: "subs-21001-21004", Kind: ErrorCode, Path: "/api/3/sub-account", From: "21001", To: "21004", Areas: subs},
		{Name: "subs-21003-21004", Kind: ErrorCode, Path: "/api/3/sub-account", From: "21003", To: "21004", Areas: subs},
		// One value in a document, and the streams whose shapes the document does not show.
		{Name: "spot-one-decimal", Kind: DecimalToNumber, Method: "GET", Path: "/api/3/spot/order", Seed: 2, Areas: spot},
		{Name: "spot-active-reverse", Kind: ReverseArrays, Method: "GET", Path: "/api/3/spot/order", Areas: spot},
		{Name: "spot-fee-list-truncate", Kind: TruncateArrays, Method: "GET", Path: "/api/3/spot/fee", Areas: spot},
		{Name: "md-one-decimal", Kind: DecimalToNumber, Method: "GET", Path: "/api/3/public/currency", Seed: 3, Areas: md},
		{Name: "md-symbol-expiry-unix", Kind: TimeToUnix, Method: "GET", Path: "/api/3/public/symbol", Field: "expiry", Areas: md},
		{Name: "margin-cancel-truncate", Kind: TruncateArrays, Method: "DELETE", Path: "/api/3/margin/order", Areas: margin},
		{Name: "lists-spot-status", Kind: SetValue, Method: "POST", Path: "/api/3/spot/order/list", Field: "status", To: "pending", Areas: lists},
		{Name: "lists-margin-side", Kind: SetValue, Method: "POST", Path: "/api/3/margin/order/list", Field: "side", To: "short", Areas: lists},
		{Name: "lists-margin-status", Kind: SetValue, Method: "POST", Path: "/api/3/margin/order/list", Field: "status", To: "pending", Areas: lists},
		{Name: "ws-trade-status", Kind: SetValue, WS: true, Path: "/api/3/ws/trading", Field: "status", To: "pending", Areas: trade},
		{Name: "ws-trade-qty-number", Kind: DecimalToNumber, WS: true, Path: "/api/3/ws/trading", Field: "quantity", Areas: trade},
		{Name: "ws-trade-drop-result", Kind: DropField, WS: true, Path: "/api/3/ws/trading", Field: "result", Areas: trade},
		{Name: "ws-wallet-drop-result", Kind: DropField, WS: true, Path: "/api/3/ws/wallet", Field: "result", Areas: wallet},
		{Name: "ws-wallet-available-number", Kind: DecimalToNumber, WS: true, Path: "/api/3/ws/wallet", Field: "available", Areas: wallet},
		{Name: "subs-list-truncate", Kind: TruncateArrays, Method: "GET", Path: "/api/3/sub-account", Areas: subs},
		{Name: "buy-orders-reverse", Kind: ReverseArrays, Method: "GET", Path: "/api/3/buy-crypto/provider", Areas: buy},
		// Enumerations and types on less-read paths.
		{Name: "margin-order-side", Kind: SetValue, Path: "/api/3/margin/order", Field: "side", To: "short", Areas: margin},
		{Name: "margin-order-type", Kind: SetValue, Path: "/api/3/margin/order", Field: "type", To: "trailingStop", Areas: margin},
		{Name: "margin-history-status", Kind: SetValue, Method: "GET", Path: "/api/3/margin/history", Field: "status", To: "pending", Areas: margin},
		{Name: "spot-history-status", Kind: SetValue, Method: "GET", Path: "/api/3/spot/history", Field: "status", To: "pending", Areas: spot},
		{Name: "margin-account-type", Kind: SetValue, Method: "GET", Path: "/api/3/margin/account", Field: "type", To: "portfolio", Areas: margin},
		{Name: "subs-acl-deposit", Kind: SetValue, Path: "/api/3/sub-account/acl", Field: "deposit_address_generation_enabled", To: "yes", Areas: subs},
		{Name: "buy-payment-id-string", Kind: NumberToString, Method: "GET", Path: "/api/3/buy-crypto", Field: "payment_method_id", Areas: buy},
		{Name: "buy-order-id-string", Kind: NumberToString, Path: "/api/3/buy-crypto", Field: "id", Areas: buy},
		{Name: "spot-balance-drop-currency", Kind: DropField, Method: "GET", Path: "/api/3/spot/balance", Field: "currency", Areas: spot},
		{Name: "spot-fee-symbol-drop", Kind: DropField, Method: "GET", Path: "/api/3/spot/fee", Field: "symbol", Areas: spot},
	}, v2Table()...)
}

// Benign returns the benign mutations: wire differences the documents
// allow, each of which must leave a run of every area green. They apply to
// every answer and server frame but the control plane's, and run every
// area (no Areas filter).
func Benign() []Mutation {
	return []Mutation{
		{Name: "benign-add-field", Kind: AddField, Path: "/api/"},
		{Name: "benign-reorder-keys", Kind: ReorderKeys, Path: "/api/"},
		{Name: "benign-pretty", Kind: Pretty, Path: "/api/"},
		{Name: "benign-gzip", Kind: Gzip, Path: "/api/"},
		{Name: "benign-chunked", Kind: Chunked, Path: "/api/"},
		{Name: "benign-extra-header", Kind: ExtraHeader, Path: "/api/"},
		{Name: "benign-close-sometimes", Kind: CloseSometimes, Path: "/api/"},
		{Name: "benign-delay", Kind: Delay, Path: "/api/"},
		{Name: "benign-fragment", Kind: Fragment, Path: "/api/"},
		{Name: "benign-ping-interleave", Kind: PingInterleave, Path: "/api/"},
		// Every kind at once.
		{Name: "benign-all", Kind: AddField, Also: []Kind{ReorderKeys, Pretty, Gzip, Chunked, ExtraHeader,
			CloseSometimes, Fragment, PingInterleave}, Path: "/api/"},
	}
}

// FastBenignAreas are the areas of the quick regression check: v3 and v2,
// REST and streams, chosen to run in well under 30 s.
const FastBenignAreas = "area:conventions || area:marketdata || area:errors || area:auth || area:orderlists || " +
	"area:streampublic || area:streamwallet || area:v2conventions || area:v2marketdata || area:v2errors || area:v2streams"

// FastBenign is the combined benign mutation of the quick regression check
// (make test): unknown fields, reversed keys, gzip and fragmented frames.
func FastBenign() Mutation {
	return Mutation{Name: "benign-fast", Kind: AddField, Also: []Kind{ReorderKeys, Fragment, Gzip}, Path: "/api/", Areas: FastBenignAreas}
}
