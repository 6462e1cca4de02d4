// Package v2marketdata holds the conformance specs of the public market
// data of API v2 (api-v2.md, Endpoints: Public market data, and the
// Currency, Symbol and Ticker resources). Listings are read from the target.
package v2marketdata
