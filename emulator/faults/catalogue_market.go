package faults

// marketFaults break the market-data rules (currencies, networks, symbols,
// futures candles).
var marketFaults = []Fault{
	// currencies
	{"V3-CURRENCY-MAP", "answers GET /public/currency with an array of Currency records instead of a map keyed by code"},
	{"V3-CURRENCY-FIELDS", "leaves delisted out of every Currency"},
	{"V3-CURRENCY-EXPLORER-TX", "writes crypto_explorer links with {hash} instead of {tx}"},
	{"V3-CURRENCY-FILTER", "ignores the currencies parameter"},
	{"V3-CURRENCY-FILTER-EMPTY", "answers an empty currencies parameter (currencies=) with no currencies"},
	{"V3-CURRENCY-ONE", "answers GET /public/currency/{currency} with {code: Currency} instead of the record"},
	// networks
	{"V3-NETWORK-FIELDS", "leaves is_multichain out of every Network"},
	// symbols
	{"V3-SYMBOL-MAP", "answers GET /public/symbol with an array of Symbol records instead of a map keyed by code"},
	{"V3-SYMBOL-FIELDS", "writes status active instead of working, suspended or clearing"},
	{"V3-SYMBOL-SPOT", "writes a null base_currency for spot symbols"},
	{"V3-SYMBOL-FUTURES", "writes contract_type perp instead of perpetual"},
	{"V3-SYMBOL-EXPIRY", "writes a null expiry for cash-settled contracts"},
	{"V3-SYMBOL-LEVERAGE", "writes max_initial_leverage 1 when margin_trading is false"},
	{"V3-SYMBOL-FILTER", "ignores the symbols parameter of GET /public/symbol"},
	{"V3-SYMBOL-FILTER-EMPTY", "answers an empty symbols parameter (symbols=) with no symbols"},
	{"V3-SYMBOL-ONE", "answers GET /public/symbol/{symbol} with {code: Symbol} instead of the record"},
	// futures candles
	{"V3-FCANDLE-LIST-SHAPE", "answers the futures candle list endpoints with one flat array instead of a map keyed by contract"},
	{"V3-FCANDLE-FIELDS", "names a futures candle's min and max low and high"},
	{"V3-FCANDLE-SYMBOLS", "ignores the symbols parameter of the futures candle list endpoints"},
	{"V3-FCANDLE-SORT-DEFAULT", "sorts futures candles ASC when sort is absent"},
	{"V3-FCANDLE-SORT", "ignores an explicit sort, always answering DESC"},
	{"V3-FCANDLE-PERIOD-DEFAULT", "uses H1 when period is absent"},
	{"V3-FCANDLE-PERIOD", "rejects periods D7 and 1M with 10001"},
	{"V3-FCANDLE-RANGE", "ignores till"},
	{"V3-FCANDLE-LIST-LIMIT-DEFAULT", "returns up to 20 candles per contract on the list endpoints when limit is absent"},
	{"V3-FCANDLE-ONE-LIMIT-DEFAULT", "returns up to 50 candles on the by-contract endpoints when limit is absent"},
	{"V3-FCANDLE-LIMIT", "returns limit+1 candles when limit is given"},
	{"V3-FCANDLE-OFFSET", "ignores offset on the by-contract endpoints"},
}
