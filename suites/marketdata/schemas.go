package marketdata

import (
	fw "github.com/conform-harness/conform/suites/framework"
)

// The resource tables of api-v3.md, "Resources and their fields". Lowercase
// "number" and "String number" are decimals carried as strings (Conventions
// 2); "Number" is a JSON number; "optional" and "present in some responses
// only" mean the field may be absent.

// currencySchema is the Currency table (V3-CURRENCY-FIELDS); networks items
// are checked against networkSchema by V3-NETWORK-FIELDS.
var currencySchema = fw.Schema{
	"full_name":                    {Kind: fw.String},
	"crypto":                       {Kind: fw.Bool},
	"stable":                       {Kind: fw.Bool, Optional: true},
	"payin_enabled":                {Kind: fw.Bool},
	"payout_enabled":               {Kind: fw.Bool},
	"transfer_enabled":             {Kind: fw.Bool},
	"transfer_to_wallet_enabled":   {Kind: fw.Bool, Optional: true},
	"transfer_to_exchange_enabled": {Kind: fw.Bool, Optional: true},
	"manual_fiat_payin_enabled":    {Kind: fw.Bool, Optional: true},
	"manual_fiat_payout_enabled":   {Kind: fw.Bool, Optional: true},
	"sign":                         {Kind: fw.String},
	"crypto_payment_id_name":       {Kind: fw.String, Optional: true},
	"crypto_explorer":              {Kind: fw.String, Optional: true},
	"precision_transfer":           {Kind: fw.Decimal},
	"account_top_order":            {Kind: fw.Number, Optional: true},
	"qr_prefix":                    {Kind: fw.String, Optional: true},
	"delisted":                     {Kind: fw.Bool},
	"networks":                     {Kind: fw.Array},
}

// networkSchema is the Network table (V3-NETWORK-FIELDS). asset_id's values
// must also be strings; that is checked apart.
var networkSchema = fw.Schema{
	"code":                   {Kind: fw.String},
	"network_name":           {Kind: fw.String},
	"network":                {Kind: fw.String},
	"is_ens_available":       {Kind: fw.Bool},
	"protocol":               {Kind: fw.String, Optional: true},
	"default":                {Kind: fw.Bool},
	"payin_enabled":          {Kind: fw.Bool},
	"payout_enabled":         {Kind: fw.Bool},
	"precision_payout":       {Kind: fw.Decimal},
	"payout_fee":             {Kind: fw.Decimal, Optional: true},
	"payout_is_payment_id":   {Kind: fw.Bool},
	"payin_payment_id":       {Kind: fw.Bool},
	"payin_confirmations":    {Kind: fw.Number},
	"address_regex":          {Kind: fw.String, Optional: true},
	"payment_id_regex":       {Kind: fw.String, Optional: true},
	"low_processing_time":    {Kind: fw.Number, Optional: true},
	"high_processing_time":   {Kind: fw.Number, Optional: true},
	"avg_processing_time":    {Kind: fw.Number, Optional: true},
	"crypto_payment_id_name": {Kind: fw.String, Optional: true},
	"crypto_explorer":        {Kind: fw.String, Optional: true},
	"contract_address":       {Kind: fw.String, Optional: true},
	"is_multichain":          {Kind: fw.Bool},
	"asset_id":               {Kind: fw.Object, Optional: true},
}

// symbolSchema holds the Symbol fields that every symbol carries
// (V3-SYMBOL-FIELDS). The futures-only fields (contract_type, expiry,
// underlying), base_currency and max_initial_leverage have rules of their
// own (V3-SYMBOL-FUTURES, -EXPIRY, -SPOT, -LEVERAGE).
var symbolSchema = fw.Schema{
	"type":               {Kind: fw.String},
	"quote_currency":     {Kind: fw.String},
	"status":             {Kind: fw.String},
	"quantity_increment": {Kind: fw.Decimal},
	"tick_size":          {Kind: fw.Decimal},
	"take_rate":          {Kind: fw.Decimal},
	"make_rate":          {Kind: fw.Decimal},
	"fee_currency":       {Kind: fw.String},
	"margin_trading":     {Kind: fw.Bool},
}

// Documented values of the Symbol enumerations.
var (
	symbolTypes    = []string{"spot", "futures"}
	symbolStatuses = []string{"working", "suspended", "clearing"}
	contractTypes  = []string{"perpetual", "cash_settled"}
)

// candleSchema is the futures candle (V3-FCANDLE-FIELDS): "timestamp
// DateTime, open, close, min, max (numbers)" with lowercase numbers.
var candleSchema = fw.Schema{
	"timestamp": {Kind: fw.DateTime},
	"open":      {Kind: fw.Decimal},
	"close":     {Kind: fw.Decimal},
	"min":       {Kind: fw.Decimal},
	"max":       {Kind: fw.Decimal},
}
