package faults

// limitFaults break the rate, burst and connection limits.
var limitFaults = []Fault{}
