package engine

// The order record keeps its side, type, time in force and status in a
// byte each. As the API's strings they took 64 of its 368 bytes, which
// every placement allocates and every collection scans (the record now
// fits a smaller size class). They become strings again in snapshots,
// events and messages (String).

type sideCode uint8

const (
	cBuy sideCode = iota
	cSell
)

var sideNames = [...]Side{cBuy: Buy, cSell: Sell}

func (c sideCode) public() Side   { return sideNames[c] }
func (c sideCode) String() string { return string(sideNames[c]) }

// sideCodeOf is the code of a valid side (parse has checked it).
func sideCodeOf(s Side) sideCode { return codeOf[sideCode](sideNames[:], s) }

type typeCode uint8

const (
	cLimit typeCode = iota
	cMarket
	cStopLimit
	cStopMarket
	cTakeProfitLimit
	cTakeProfitMarket
)

var typeNames = [...]Type{cLimit: Limit, cMarket: Market, cStopLimit: StopLimit, cStopMarket: StopMarket,
	cTakeProfitLimit: TakeProfitLimit, cTakeProfitMarket: TakeProfitMarket}

func (c typeCode) public() Type   { return typeNames[c] }
func (c typeCode) String() string { return string(typeNames[c]) }

// typeCodeOf is the code of a valid type (parse has checked it).
func typeCodeOf(t Type) typeCode { return codeOf[typeCode](typeNames[:], t) }

type tifCode uint8

const (
	cGTC tifCode = iota
	cIOC
	cFOK
	cDay
	cGTD
)

var tifNames = [...]TimeInForce{cGTC: GTC, cIOC: IOC, cFOK: FOK, cDay: Day, cGTD: GTD}

func (c tifCode) public() TimeInForce { return tifNames[c] }
func (c tifCode) String() string      { return string(tifNames[c]) }

// tifCodeOf is the code of a valid time in force (parse has checked it).
func tifCodeOf(t TimeInForce) tifCode { return codeOf[tifCode](tifNames[:], t) }

// codeOf is the code of name s in names (its index; 0, the default
// value, when s is not there).
func codeOf[C ~uint8, S comparable](names []S, s S) C {
	for c, n := range names {
		if n == s {
			return C(c)
		}
	}
	return 0
}

type statusCode uint8

const (
	cNew statusCode = iota
	cSuspended
	cPartiallyFilled
	cFilled
	cCanceled
	cExpired
)

var statusNames = [...]Status{cNew: StatusNew, cSuspended: Suspended, cPartiallyFilled: PartiallyFilled,
	cFilled: Filled, cCanceled: Canceled, cExpired: Expired}

func (c statusCode) public() Status { return statusNames[c] }
func (c statusCode) String() string { return string(statusNames[c]) }
