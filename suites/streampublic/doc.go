// Package streampublic holds the specs of the v3 market data stream
// ({ws_url}/api/3/ws/public): its requests (subscribe, unsubscribe,
// subscriptions) and answers, errors, notifications (snapshot, update, one
// symbol each), limit, and the channels trades, candles/{period} and
// converted/candles/{period}, including that a trade made over REST shows on
// them. Its connection rules (pings, the connection cap) and message limit
// are limit specs (suites/limits).
//
// Every spec opens connections of its own (on a loopback target from source
// addresses of its own). Specs that trade do so on symbols of their own (trading.FillMarkets), as
// every fill spec does, and cancel what they placed.
package streampublic
