// Package orderlists holds the specs of v3 order lists (POST
// /spot/order/list and POST /margin/order/list): order_list_id, contingency
// types and counts, the per-type constraints, the list answer, atomic
// refusal and the transitions of allOrNone, oneCancelOther,
// oneTriggerOther and oneTriggerOneCancelOther.
//
// Isolation follows the spot suite. Every Ginkgo process trades on accounts
// of its own (roles full and counterparty). Orders that must not trade are
// "parked": buys at a few ticks, and stop or take-profit orders whose
// triggers sit at a few ticks, where no spec ever trades, so parallel specs
// never cross one another and no trigger fires. Specs that need fills trade
// on symbols of their own (trading.FillMarkets) at a price far from the
// parked orders; those whose market orders would meet whatever rests run
// Serial (alone, after the parallel ones). Every order a spec creates is canceled when the spec ends, and
// every margin account it opens is closed, whatever the outcome.
//
// Lists are sent as JSON with a JSON content type (Conventions 3).
package orderlists
