package client

// The per-account method rows of the v3 Limits section for the trading and
// wallet streams, as PathClasses whose prefixes are method names (matched
// whole by a Pacer: no documented name is the prefix of another in its
// table). The first row, matching any method, is for methods of no row.
// Read from the spec, like V3PerIP.
var (
	V3TradingStreamMethods = []PathClass{
		{Prefixes: []string{""}, Rate: 1000},
		{Prefixes: []string{"login", "spot_subscribe", "spot_unsubscribe", "spot_balance_subscribe", "spot_balance_unsubscribe",
			"margin_subscribe", "margin_unsubscribe", "futures_subscribe", "futures_unsubscribe", "futures_balance"}, Rate: 5},
		{Prefixes: []string{"spot_balances", "spot_fee", "margin_get_accounts", "futures_get_accounts", "futures_balances", "futures_fee"}, Rate: 20},
		{Prefixes: []string{"spot_new_order", "spot_new_order_list", "spot_replace_order", "margin_new_order", "margin_new_order_list",
			"margin_replace_order", "futures_new_order", "futures_new_order_list", "futures_replace_order"}, Rate: 300},
	}
	V3WalletStreamMethods = []PathClass{
		{Prefixes: []string{""}, Rate: 1000},
		{Prefixes: []string{"login"}, Rate: 2},
		{Prefixes: []string{"subscribe_transactions", "unsubscribe_transactions", "subscribe_wallet_balances", "unsubscribe_wallet_balances",
			"wallet_balances", "wallet_balance", "transactions"}, Rate: 5},
	}
)
