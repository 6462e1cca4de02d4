// Package margin holds the specs of v3 margin trading: margin accounts
// (isolated and cross) and how their funds show in the spot balance, margin
// orders, positions and their closing, the margin configuration, margin
// order and trade history, and the access rights of the margin endpoints.
//
// Isolation follows the spot suite. Every Ginkgo process trades on accounts
// of its own (roles full and counterparty). Orders that must not trade rest
// at a few ticks, where no spec trades. Specs that need fills (positions,
// trades) run on symbols of their own (trading.FillMarkets) at a price far from them, with the counterparty trading
// on margin too, so that the specs hold whether or not a target shares one
// book between spot and margin orders. Every spec closes what it opened when
// it ends, whatever the outcome: orders first, then positions, then the
// margin accounts (margin_balance "0").
package margin
