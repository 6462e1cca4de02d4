// Package spot holds the specs of v3 spot trading: the Order resource, the
// create order parameters and rules for orders, order states and time in
// force, replace and cancel, balances, fees, order history and the
// active-order limits.
//
// Isolation. Every Ginkgo process trades on accounts of its own (roles full
// and counterparty). Orders that must not trade are buys at a few ticks and
// sells at a price far above anything a spec trades at, so that parallel
// specs never cross one another. Specs that need fills trade on
// symbols of their own (trading.FillMarkets takes them from every other
// process's fill specs). Specs whose market orders would meet whatever
// rests, or that move the emulator clock, are Serial: Ginkgo runs them
// alone, after the parallel ones, so no other process has orders in the
// book. Every order a
// spec creates is canceled when the spec ends, whatever its outcome.
package spot
