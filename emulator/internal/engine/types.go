// Package engine is the emulator's spot matching engine: order validation,
// rounding, reservation of funds, matching, fees, time in force, stop and
// take-profit triggers, expiry, replace and cancel, order history and the
// active-order limits. It works on exact decimals and an injected clock, and
// is shared by every API surface (REST v3, later v2 and the trading stream).
package engine

import (
	"time"

	"github.com/conform-harness/conform/emulator/internal/fixed"
	"github.com/shopspring/decimal"
)

// Side of an order.
type Side string

// Order sides.
const (
	Buy  Side = "buy"
	Sell Side = "sell"
)

// Type of an order.
type Type string

// Order types.
const (
	Limit            Type = "limit"
	Market           Type = "market"
	StopLimit        Type = "stopLimit"
	StopMarket       Type = "stopMarket"
	TakeProfitLimit  Type = "takeProfitLimit"
	TakeProfitMarket Type = "takeProfitMarket"
)

// TimeInForce of an order.
type TimeInForce string

// Time in force values.
const (
	GTC TimeInForce = "GTC"
	IOC TimeInForce = "IOC"
	FOK TimeInForce = "FOK"
	Day TimeInForce = "Day"
	GTD TimeInForce = "GTD"
)

// Status of an order.
type Status string

// Order statuses. StatusNew carries a prefix because New is the engine's
// constructor.
const (
	StatusNew       Status = "new"
	Suspended       Status = "suspended"
	PartiallyFilled Status = "partiallyFilled"
	Filled          Status = "filled"
	Canceled        Status = "canceled"
	Expired         Status = "expired"
)

// Symbol is what the engine needs to know of a spot symbol.
type Symbol struct {
	Code         string
	Base, Quote  string
	FeeCurrency  string
	TickSize     decimal.Decimal
	QuantityStep decimal.Decimal
	TakeRate     decimal.Decimal
	MakeRate     decimal.Decimal
	Status       string // working, suspended, clearing: only working symbols trade
	// Futures marks a futures contract: only futures orders trade it, and
	// Base names the contract itself (the unit positions are held in).
	Futures bool
}

// PlaceRequest is a new order as a client asked for it. Optional fields are
// pointers (nil: not sent); the engine applies the documented defaults and
// validates everything, so that every API surface shares one reading.
type PlaceRequest struct {
	Account        string
	ClientOrderID  *string
	Symbol         string // "" means not sent
	Side           *Side
	Type           *Type
	TimeInForce    *TimeInForce
	Quantity       *decimal.Decimal
	Price          *decimal.Decimal
	StopPrice      *decimal.Decimal
	ExpireTime     *time.Time
	StrictValidate bool
	PostOnly       bool
	// DisplayQuantity is the raw string sent; only "0" is valid.
	DisplayQuantity *string
	// TakeRate and MakeRate are fee markups; they may only raise the fee.
	TakeRate *decimal.Decimal
	MakeRate *decimal.Decimal
	// Margin makes it a margin order (POST /margin/order); nil for spot.
	Margin *MarginParams
}

// MarginParams are what a margin order adds to a spot order.
type MarginParams struct {
	// Mode is "isolated" or "cross"; "" means not sent (isolated).
	Mode string
	// ReduceOnly orders may only reduce the position: the part that would
	// open or increase one expires.
	ReduceOnly bool
	// ClosePosition orders take the position's size as their quantity
	// (which must not be sent) and are canceled when there is none.
	ClosePosition bool
	// Futures makes it a futures order (POST /futures/order): it trades a
	// futures contract on a futures margin account.
	Futures bool
}

// ReplaceRequest is a PATCH of an active order.
type ReplaceRequest struct {
	Account          string
	ClientOrderID    string
	NewClientOrderID *string
	Quantity         *decimal.Decimal
	Price            *decimal.Decimal
	StopPrice        *decimal.Decimal
	StrictValidate   bool
}

// Trade is one execution of an order.
type Trade struct {
	ID        int64
	Quantity  decimal.Decimal
	Price     decimal.Decimal
	Fee       decimal.Decimal // negative for a rebate
	Taker     bool
	Timestamp time.Time
}

// Order is the engine's record of an order; API layers shape it for the wire.
type Order struct {
	ID int64
	// cloid is the client_order_id the trader chose; "" when generated,
	// then genSeq makes it (see ClientOrderID).
	cloid                 string
	genSeq                uint64
	Account               string
	Symbol                string
	Side                  Side
	Status                Status
	Type                  Type
	TimeInForce           TimeInForce
	Quantity              decimal.Decimal
	QuantityCumulative    decimal.Decimal
	Price                 *decimal.Decimal // shared between snapshots of the order: read, never write through it
	PriceAverage          decimal.Decimal
	StopPrice             *decimal.Decimal
	ExpireTime            *time.Time
	PostOnly              bool
	DisplayQuantity       *string
	OriginalClientOrderID string
	CreatedAt, UpdatedAt  time.Time
	// fills are the executions of this request only (the create or
	// replace answer), in integers: Trades makes them decimals.
	fills   []execution
	fillsBk *book
	// OrderListID and ContingencyType are set on the orders of a list.
	OrderListID     string
	ContingencyType ContingencyType
	// Inactive is true while a secondary order of a oneTriggerOther or
	// oneTriggerOneCancelOther list waits for its primary.
	Inactive bool
	// MarginMode is "isolated" or "cross" on margin orders, "" on spot.
	MarginMode string
	ReduceOnly bool
	// PositionID is the position a margin order first traded into (0: none).
	PositionID int64
}

// ClientOrderID is the order's client_order_id. A generated one is made
// here, where the answer is read, from the sequence number the engine
// keeps (see order.clientID).
func (o Order) ClientOrderID() string { return clientIDOf(o.cloid, o.genSeq) }

// execution is a trade as the engine records it for an answer: its
// quantity in increments and price in ticks of its book.
type execution struct {
	id, lots, ticks, at int64
	fee                 fixed.Amount
	taker               bool
}

// Trades are the executions of the request that answered o (create or
// replace; nil for any other answer), made decimals on each call: the
// engine keeps them in integers, and decimals are made where an answer is
// written (they were an eighth of a placement's time in the engine).
func (o Order) Trades() []Trade {
	if len(o.fills) == 0 {
		return nil
	}
	bk := o.fillsBk
	out := make([]Trade, len(o.fills))
	for i, f := range o.fills {
		out[i] = Trade{ID: f.id, Quantity: bk.step.decimal(f.lots), Price: bk.tick.decimal(f.ticks),
			Fee: f.fee.Decimal(), Taker: f.taker, Timestamp: nanoTime(f.at)}
	}
	return out
}

// HistoryQuery selects order history records (GET /spot/history/order).
type HistoryQuery struct {
	Account       string
	ClientOrderID string     // when set, everything else is ignored
	Symbols       []string   // empty: all
	Statuses      []Status   // empty: all
	SortAsc       bool       // default DESC
	ByTimestamp   bool       // default by id
	From, Till    *time.Time // inclusive bounds on created_at
	Limit, Offset int        // Limit <= 0 means the default (100)
	// DefaultSort is true when the request did not send sort (SortAsc is
	// then ignored and the documented default, DESC, applies).
	DefaultSort bool
	// DefaultLimit is true when the request did not send limit (Limit is
	// then ignored and the documented default, 100, applies).
	DefaultLimit bool
}

// TradeRecord is one execution in an account's spot trade history. Its shape
// is not in the spec; it follows the order's Trade plus what identifies the
// order.
type TradeRecord struct {
	ID            int64           `json:"id"`
	OrderID       int64           `json:"order_id"`
	ClientOrderID string          `json:"client_order_id"`
	Symbol        string          `json:"symbol"`
	Side          Side            `json:"side"`
	Quantity      decimal.Decimal `json:"quantity"`
	Price         decimal.Decimal `json:"price"`
	Fee           decimal.Decimal `json:"fee"` // negative for a rebate
	Taker         bool            `json:"taker"`
	Timestamp     time.Time       `json:"timestamp"`
}

// ErrorKind classifies refusals so that API layers map them to documented codes.
type ErrorKind int

// Refusal kinds.
const (
	ErrValidation        ErrorKind = iota // 10001
	ErrSymbolNotFound                     // 2001
	ErrInsufficientFunds                  // 20001
	ErrOrderNotFound                      // 20002
	ErrDuplicateClientID                  // code not shown in the spec
	ErrOrderLimit                         // code not shown in the spec
	ErrNotAllowed                         // 600: e.g. a symbol that is not working
)

// Error is a refusal with its kind and a description for the error body.
type Error struct {
	Kind ErrorKind
	Msg  string
}

func (e *Error) Error() string { return e.Msg }
