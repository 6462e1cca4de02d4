package rules

// Section names, as headed in the documents, and shared reasons.
const (
	secConventions  = "v3 Conventions"
	secCurrency     = "v3 Resources: Currency"
	secNetwork      = "v3 Resources: Network"
	secSymbol       = "v3 Resources: Symbol"
	secCandle       = "v3 Resources: Futures candle"
	secMarketData   = "v3 Endpoints: Market data (public)"
	secAuth         = "v3 Authentication"
	secAuthBasic    = "v3 Authentication: Basic"
	secAuthHS256    = "v3 Authentication: HS256 (HMAC signature)"
	secAuthRights   = "v3 Authentication: Access rights of keys"
	secErrors       = "v3 Errors"
	secVersioning   = "v3 Versioning"
	secOrder        = "v3 Resources: Order"
	secSpotBalance  = "v3 Resources: Spot balance"
	secHistory      = "v3 Resources: Order history record"
	secSpot         = "v3 Endpoints: Spot trading"
	secCreateOrder  = "v3 Endpoints: Spot trading, Create order parameters"
	secOrderRules   = "v3 Endpoints: Spot trading, Rules for orders"
	secSpotHistory  = "v3 Endpoints: Spot trading, Spot order history query"
	secTransitions  = "v3 States and transitions"
	secLimitsOther  = "v3 Limits: Other limits"
	secTIFDefs      = "v3 Resources: Order (time in force definitions)"
	ambiguousStatus = "the spec gives the code but no HTTP status for it"
	secLimits       = "v3 Limits"
	secOtherFamily  = "v3 Endpoints: Other endpoint families"
	secBuyCryptoRes = "v3 Resources: Buy-crypto"
	secAddresses    = "v3 What the service does: Addresses"
	secConnection   = "v3 Events: Connection"

	// pendingPerAccount: an unserved path answers 404 before anyone is
	// authenticated, so nothing is counted against an account there.
	pendingPerAccount = "needs an authenticated endpoint of the class, and the wallet endpoints' request and response shapes are marked not shown, so the emulator serves none; a target that serves /wallet/balance is checked"
	secLists          = "v3 Endpoints: Order lists (spot and margin)"
	secMargin         = "v3 Endpoints: Margin trading"
	secMarginAcct     = "v3 Resources: Margin account"
	secMarginConfig   = "v3 Resources: Margin configuration record"
	secMarginTrade    = "v3 Resources: Margin trade history record"
	notShown          = "marked not shown in the spec"
)
