// The side-by-side benchmark (make bench-compare) lives in its own module so
// that the harness's go.mod does not carry the reference order book. Its path
// sits under emulator/ so that Go's internal rule lets it drive the engine
// directly.
module github.com/conform-harness/conform/emulator/internal/benchcmp

go 1.26.8

replace github.com/conform-harness/conform => ../

require (
	github.com/conform-harness/conform v0.0.0-00010101000000-000000000000
	github.com/gorilla/websocket v1.5.3
	github.com/i25959341/orderbook v0.2.5
	github.com/shopspring/decimal v1.6.0
)

require (
	github.com/emirpasic/gods v1.18.1 // indirect
	github.com/influxdata/tdigest v0.0.1 // indirect
	github.com/josharian/intern v1.0.0 // indirect
	github.com/mailru/easyjson v0.7.7 // indirect
	github.com/rs/dnscache v0.0.0-20230804202142-fc85eb664529 // indirect
	github.com/tsenart/go-tsz v0.0.0-20180814235614-0bd30b3df1c3 // indirect
	github.com/tsenart/vegeta/v12 v12.12.0 // indirect
	golang.org/x/net v0.56.0 // indirect
	golang.org/x/sync v0.21.0 // indirect
	golang.org/x/text v0.38.0 // indirect
)
