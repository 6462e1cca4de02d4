// Package trading is what the trading suites (spot, orderlists, margin)
// share: a trader bound to a venue's order endpoints, order requests and
// decoded orders, balances, the target's working symbols, fill planning for
// specs that trade between two accounts, the target's clock, and the Order
// table with its enumerations.
//
// The helpers assert with Gomega and register Ginkgo cleanups, so they are
// called from spec bodies (and setup nodes) only, as the suites' own helpers
// were. Everything here was written once per suite before; where the copies
// differed, this keeps the stricter check.
package trading
