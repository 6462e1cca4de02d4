package faults

// marketFaults break the market-data rules (currencies, networks, symbols,
// futures candles).
var marketFaults = []Fault{}
