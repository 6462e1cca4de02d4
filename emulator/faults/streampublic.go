package faults

// streampublicFaults break the rules of the streampublic area
// (rules/streampublic.go): the market data stream /ws/public.
var streampublicFaults = []Fault{
	{"V3-WS-PUB-SUBSCRIBE", "answers subscribe with an empty subscriptions list"},
	{"V3-WS-PUB-SUBSCRIPTIONS", "answers subscriptions with no symbols, whatever is subscribed"},
	{"V3-WS-PUB-UNSUBSCRIBE", "answers unsubscribe without ending any subscription"},
	{"V3-WS-PUB-ID-RESULT", "leaves the id out of results on the market data stream"},
	{"V3-WS-PUB-ID-ERROR", "leaves the id out of error answers on the market data stream"},
	{"V3-WS-PUB-ID-OPTIONAL", "answers nothing to a request without id on the market data stream"},
	{"V3-WS-PUB-ERROR-SHAPE", "writes the error code of market data stream errors as a string"},
	{"V3-WS-PUB-UNKNOWN-METHOD", "ignores an unknown method on the market data stream (no answer)"},
	{"V3-WS-PUB-MALFORMED", "drops the connection without a close frame on a request with a member of the wrong type"},
	{"V3-WS-PUB-UNKNOWN-CHANNEL", "accepts a subscription to an unknown channel"},
	{"V3-WS-PUB-SYMBOLS-REQUIRED", "accepts subscribe without symbols"},
	{"V3-WS-PUB-LIMIT-BOUNDS", "accepts limit up to 5000"},
	{"V3-WS-PUB-NO-RIGHT", "answers subscribe to converted candles with 1001 Authorization required"},
	{"V3-WS-PUB-NOTIFY-SHAPE", "puts snapshot entries under data instead of snapshot"},
	{"V3-WS-PUB-NOTIFY-NO-ID", "puts the subscribe request's id on its snapshots"},
	{"V3-WS-PUB-ONE-SYMBOL", "sends the snapshots of all symbols of a subscription in one notification"},
	{"V3-WS-PUB-LIMIT-SNAPSHOT", "sends limit+1 entries in a snapshot"},
	{"V3-WS-PUB-LIMIT-DEFAULT", "sends a snapshot of the latest 10 entries when limit is absent"},
	{"V3-WS-PUB-CANDLE-LIMIT", "ignores limit on candles/{period}: every subscription gets a snapshot of all the symbol's candles"},
	{"V3-WS-PUB-UPDATE", "sends each trades update with the symbol's previous trade again"},
	{"V3-WS-PUB-TRADES-FIELDS", "writes a trades entry's i as a string"},
	{"V3-WS-PUB-TRADES-REST", "numbers the stream's trades apart from the orders' trades (i = trade id + 1000000)"},
	{"V3-WS-PUB-CANDLE-PERIODS", "refuses candles/D7 and candles/1M as unknown channels"},
	{"V3-WS-PUB-CANDLE-FIELDS", "names a candles entry's quote volume qv instead of q"},
	{"V3-WS-PUB-CANDLE-TRADE", "writes a candle update's volume without the trade's quantity"},
	{"V3-WS-PUB-CONVERTED", "leaves target_currency out of converted candle notifications"},
	{"V3-WS-PUB-CONVERTED-TARGET", "accepts converted candles without target_currency (converting into the quote currency)"},
	{"V3-WS-PUB-CONVERTED-FIELDS", "names a converted candle entry's quote volume qv instead of q"},
}
