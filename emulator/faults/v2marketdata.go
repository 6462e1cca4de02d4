package faults

// v2marketdataFaults break the rules of the v2marketdata area (rules/v2marketdata.go).
var v2marketdataFaults = []Fault{
	{"V2-CURRENCY-FIELDS", "leaves delisted out of v2 Currency records"},
	{"V2-CURRENCY-FILTER", "ignores the currencies filter of GET /api/2/public/currency"},
	{"V2-CURRENCY-ONE", "answers GET /api/2/public/currency/{currency} with the first listed currency"},
	{"V2-SYMBOL-FIELDS", "leaves feeCurrency out of v2 Symbol records"},
	{"V2-SYMBOL-STEPS-POSITIVE", "writes quantityIncrement 0"},
	{"V2-SYMBOL-FILTER", "ignores the symbols filter of GET /api/2/public/symbol"},
	{"V2-SYMBOL-ONE", "answers GET /api/2/public/symbol/{symbol} with the id in lower case"},
	{"V2-TICKER-FIELDS", "writes the ticker timestamp as an empty string"},
	{"V2-TICKER-NULL", "answers ask and bid \"0\" instead of null in GET /api/2/public/ticker when that side of the book is empty"},
	{"V2-TICKER-FILTER", "ignores the symbols filter of GET /api/2/public/ticker"},
}
