// Package scenarios is the library of the limit specs (suites/limits and
// suites/v2limits use it, as conform load uses load/): the declarative
// table of limit rows (Table), one per limit of both Limits sections, each
// checked by offering more than rate plus burst inside one window and
// asserting that exactly rate plus burst are accepted, that the budget
// comes back after the window, and that the window slides; the WebSocket
// connection cap, the stream message limits and the ping too.
//
// One batch (Run or RunOneAddress) offers every row; Results.Judge gives
// each rule of BatchRules its verdict from it, so that a failure is
// reported against the rule it breaks. The batch runs one of two ways:
//
//   - On a loopback target the harness chooses source addresses in
//     127.0.1.0/24 to 127.0.9.0/24 (reserved for it; functional specs use
//     other loopback addresses), so every scenario has addresses, and so
//     budgets, of its own: all run at once (Run), beside the other specs,
//     and the set takes about as long as its longest row.
//   - From one source address (a target off this machine, or one behind a
//     proxy that connects from one address for all: shared_source) the
//     batch runs alone after every other spec. RunOneAddress measures the
//     path, opens each row's connections before its window drains so that
//     a burst leaves at once, runs rows that might share a budget one after
//     another (lanes) and lanes of separate budgets side by side. A burst
//     whose answers spread over more than the window is inconclusive with
//     the numbers; a row one address cannot decide (a per-account budget
//     that the address's own budget of the path hides, a second address's
//     budget) is inconclusive with the reason.
//
// The package knows nothing of Ginkgo: its tests drive it directly against
// an in-process emulator, on loopback and behind a relay that adds latency
// and merges addresses.
package scenarios
