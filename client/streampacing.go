package client

import "github.com/conform-harness/conform/rules"

// StreamMethodClasses are the per-account method rows of a stream (e.g.
// /ws/trading) from the harness's one reading of the document
// (rules.Limits), as classes a Pacer keys by method name: it picks the
// longest matching prefix, so futures_balances is not taken for
// futures_balance. The first class, matching any method, is for methods of
// no row.
func StreamMethodClasses(stream string) []PathClass {
	cs := []PathClass{{Prefixes: []string{""}, Rate: 1000}}
	for _, l := range rules.Limits() {
		if l.Stream && l.PerAccount && len(l.Prefixes) > 0 && l.Prefixes[0] == stream {
			cs = append(cs, PathClass{Prefixes: l.Methods, Rate: l.Rate, Burst: l.Burst})
		}
	}
	return cs
}
