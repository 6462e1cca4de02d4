// Package marketdata holds the conformance specs of the public market-data
// endpoints of API v3: currencies and their networks, symbols and futures
// candles. Each spec is written from the spec text (api-v3.md), discovers
// the target's listings instead of hard-coding them, and names the rules it
// checks. The root suite in suites/ imports this package and runs it.
package marketdata
