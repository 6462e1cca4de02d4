// The side-by-side benchmark (make bench-compare) lives in its own module so
// that the harness's go.mod does not carry the reference order book. Its path
// sits under emulator/ so that Go's internal rule lets it drive the engine
// directly.
module github.com/conform-harness/conform/emulator/internal/benchcmp

go 1.26.8

replace github.com/conform-harness/conform => ../

require (
	github.com/conform-harness/conform v0.0.0-00010101000000-000000000000
	github.com/i25959341/orderbook v0.2.5
	github.com/shopspring/decimal v1.6.0
)

require (
	github.com/emirpasic/gods v1.18.1 // indirect
	github.com/gorilla/websocket v1.5.3 // indirect
)
