// Package v2history holds the conformance specs of the trading history of
// API v2 (api-v2.md, Endpoints: Trading history, and the User trade
// resource). The trades it reads are made over version 3 between the
// process's own two accounts (on symbols of their own, trading.FillMarkets:
// they need the book to themselves on the emulator, and trade inside the
// spread elsewhere).
package v2history
