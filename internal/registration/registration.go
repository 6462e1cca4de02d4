// Package registration says which area packages of the suite (suites/<area>)
// a suite process registers. Building Ginkgo's tree of every spec was most
// of the CPU of a mutation run, which selects one rule's few specs: conform
// mutate names the packages whose top-level containers hold them (read off
// its dry run) in Env, and the framework's AreaDescribe registers the
// containers of those packages only. Unset or empty, every package
// registers (conform run, the dry run).
package registration

import (
	"path/filepath"
	"slices"
	"strings"
)

// Env names the environment variable holding the comma-separated area
// packages a suite process registers.
const Env = "CONFORM_SUITE_AREAS"

// AreaOf returns the area package of a source file: its directory's name
// (suites/spot/orders.go: spot), the same whether the path is absolute or
// trimmed to the module's.
func AreaOf(file string) string {
	return filepath.Base(filepath.Dir(filepath.FromSlash(file)))
}

// Value renders areas as Env's value: sorted, without duplicates.
func Value(areas []string) string {
	s := slices.Clone(areas)
	slices.Sort(s)
	return strings.Join(slices.Compact(s), ",")
}

// Registers reports whether a top-level container declared in file is
// registered when Env holds value: always when value is empty.
func Registers(value, file string) bool {
	if value == "" {
		return true
	}
	return slices.Contains(strings.Split(value, ","), AreaOf(file))
}
