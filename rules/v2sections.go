package rules

// Section names of api-v2.md, as headed there.
const (
	secV2Intro        = "v2 What the service does"
	secV2Conventions  = "v2 What the service does (conventions)"
	secV2Currency     = "v2 Resources: Currency"
	secV2Symbol       = "v2 Resources: Symbol"
	secV2Ticker       = "v2 Resources: Ticker"
	secV2UserTrade    = "v2 Resources: User trade"
	secV2Balance      = "v2 Resources: Balance"
	secV2Address      = "v2 Resources: Deposit address"
	secV2Transaction  = "v2 Resources: Wallet transaction"
	secV2FeeLevel     = "v2 Resources: Fee level"
	secV2States       = "v2 States and transitions"
	secV2Public       = "v2 Endpoints: Public market data"
	secV2History      = "v2 Endpoints: Trading history"
	secV2Account      = "v2 Endpoints: Account management"
	secV2Auth         = "v2 Authentication"
	secV2Errors       = "v2 Errors"
	secV2Limits       = "v2 Limits"
	secV2Versioning   = "v2 Versioning"
	v2NotShownRESTOrd = "the v2 document marks order placement, v2 order records and the REST order book, trades and candles not shown; the emulator serves them beyond the contract (docs/emulator.md) and no spec asserts them"
)
