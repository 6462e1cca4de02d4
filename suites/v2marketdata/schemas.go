package v2marketdata

import fw "github.com/conform-harness/conform/suites/framework"

// The resource tables of api-v2.md. Lowercase "number" is a finance value
// carried as a decimal string; "Number" a JSON number.

var currencySchema = fw.Schema{
	"id":                  {Kind: fw.String},
	"fullName":            {Kind: fw.String},
	"crypto":              {Kind: fw.Bool},
	"payinEnabled":        {Kind: fw.Bool},
	"payinPaymentId":      {Kind: fw.Bool},
	"payinConfirmations":  {Kind: fw.Number},
	"payoutEnabled":       {Kind: fw.Bool},
	"payoutIsPaymentId":   {Kind: fw.Bool},
	"transferEnabled":     {Kind: fw.Bool},
	"delisted":            {Kind: fw.Bool},
	"payoutFee":           {Kind: fw.Decimal},
	"payoutMinimalAmount": {Kind: fw.Decimal},
	"precisionPayout":     {Kind: fw.Number},
	"precisionTransfer":   {Kind: fw.Number},
	// lowProcessingTime, highProcessingTime and avgProcessingTime are
	// optional and their JSON type is ambiguous (V2-CONV-PROCESSING-TIME).
}

var symbolSchema = fw.Schema{
	"id":                   {Kind: fw.String},
	"baseCurrency":         {Kind: fw.String},
	"quoteCurrency":        {Kind: fw.String},
	"quantityIncrement":    {Kind: fw.Decimal},
	"tickSize":             {Kind: fw.Decimal},
	"takeLiquidityRate":    {Kind: fw.Decimal},
	"provideLiquidityRate": {Kind: fw.Decimal},
	"feeCurrency":          {Kind: fw.String},
	"marginTrading":        {Kind: fw.Bool, Optional: true},
	"maxInitialLeverage":   {Kind: fw.Decimal, Optional: true},
}

// tickerSchema: ask and bid may be null when there is no data; last, open,
// low and high are held to the same reading (V2-TICKER-NO-TRADE records
// what a target sends for a symbol without trades).
var tickerSchema = fw.Schema{
	"ask":         {Kind: fw.Decimal, Nullable: true},
	"bid":         {Kind: fw.Decimal, Nullable: true},
	"last":        {Kind: fw.Decimal, Nullable: true},
	"open":        {Kind: fw.Decimal, Nullable: true},
	"low":         {Kind: fw.Decimal, Nullable: true},
	"high":        {Kind: fw.Decimal, Nullable: true},
	"volume":      {Kind: fw.Decimal},
	"volumeQuote": {Kind: fw.Decimal},
	"timestamp":   {Kind: fw.DateTime},
	"symbol":      {Kind: fw.String},
}
