// Package scenarios holds the limit and cap specs of the v3 Limits section
// and their declarative table (Table): one row per limit, each checked by
// offering more than rate plus burst inside one window from source
// addresses of its own and asserting that exactly rate plus burst are
// accepted, that the budget comes back after the window, and that the
// window slides. The WebSocket connection cap, the stream message limits
// and the ping are checked here too.
//
// The specs register into the one root suite (suites/suite_test.go imports
// this package) like the suites/* packages. They run only against a
// loopback target, where the harness can choose source addresses in
// 127.0.1.0/24 to 127.0.9.0/24 (reserved for them; functional specs use
// other loopback addresses); elsewhere one machine has one address and they
// skip. All scenarios run at once in one Ordered container (every one has
// addresses, and so budgets, of its own), so the set takes about as long as
// its longest row, a few seconds; each rule's spec then judges its part of
// the results, so that a failure is reported against the rule it breaks.
//
// The engine (Run, Check, the senders) knows nothing of Ginkgo: the
// precision benchmark drives it directly against an in-process emulator.
package scenarios
