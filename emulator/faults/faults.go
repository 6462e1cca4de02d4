// Package faults holds the emulator's fault switches. Each fault is keyed by
// the ID of the rule it breaks, and breaks exactly that rule, so that a
// mutation run can prove the rule's spec can fail.
package faults

import (
	"fmt"
	"sort"
	"strings"
)

// Fault describes one switch.
type Fault struct {
	// Rule is the catalogue ID of the rule this fault breaks.
	Rule string
	// Breaks says, in a few words, what the emulator does wrong when on.
	Breaks string
}

// Set is the set of faults switched on. The zero value and nil have none on.
// A Set is fixed at construction and safe for concurrent reads.
type Set struct {
	on map[string]bool
}

// New switches on the faults for the given rule IDs. Every ID must name a
// known fault.
func New(ids ...string) (*Set, error) {
	known := map[string]bool{}
	for _, f := range Catalogue() {
		known[f.Rule] = true
	}
	s := &Set{on: map[string]bool{}}
	var unknown []string
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" {
			continue
		}
		if !known[id] {
			unknown = append(unknown, id)
			continue
		}
		s.on[id] = true
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("faults: no fault for %s (see conform mutate --list)", strings.Join(unknown, ", "))
	}
	return s, nil
}

// On reports whether the fault for rule id is switched on. The engine asks
// dozens of times per order; with no fault on it answers without hashing.
func (s *Set) On(id string) bool { return s != nil && len(s.on) > 0 && s.on[id] }

// IDs lists the faults switched on, sorted.
func (s *Set) IDs() []string {
	if s == nil {
		return nil
	}
	ids := make([]string, 0, len(s.on))
	for id := range s.on {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Catalogue returns every fault the emulator implements, sorted by rule.
func Catalogue() []Fault {
	out := append([]Fault(nil), catalogue...)
	sort.Slice(out, func(i, j int) bool { return out[i].Rule < out[j].Rule })
	return out
}

// Alias returns a set for a component that enforces rules of one version
// with code written for another (the v2 router reuses the v3 router's
// writer and credentials): each key of aliases is switched on in the result
// when its value is on in s. Nothing else is on, so the other version's
// faults leave the component alone.
func (s *Set) Alias(aliases map[string]string) *Set {
	out := &Set{on: map[string]bool{}}
	for to, from := range aliases {
		if s.On(from) {
			out.on[to] = true
		}
	}
	return out
}
