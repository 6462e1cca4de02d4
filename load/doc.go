// Package load runs capacity tests against an exchange API target and turns
// their results into reports. Plain-http runs go through the package's own
// engine (a self-pacing worker per connection, raw HTTP/1.1); https runs
// and Offer go through Vegeta's attacker; both record Vegeta's results.
//
// A run offers a named scenario (see NewScenario) at a constant or ramping
// rate for a bounded duration; every request is built fresh by a Vegeta
// targeter that only ever aims at the given target. Results are streamed in
// Vegeta's own gob encoding (results.bin), so `vegeta report` and `vegeta
// plot` read them and the files of several workers can be merged (Analyze
// over several Sources). A run's Summary states requested against achieved
// rate, success ratio, status mix, 429 share and latency percentiles from an
// HDR histogram; its Verdict calls the run invalid when the generator fell
// short of the requested rate by more than 1%, and evaluates thresholds such
// as p99<50ms or success>0.99.
package load
