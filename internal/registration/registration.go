// Package registration says which top-level containers of the suite's area
// packages (suites/<area>) a suite process registers. Building Ginkgo's
// tree of every spec was most of the CPU of a mutation run, which selects
// one rule's few specs: conform mutate names the top-level containers that
// hold them (read off its dry run) in Env, and the framework's AreaDescribe
// registers those only. Unset or empty, every container registers (conform
// run, the dry run).
package registration

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/onsi/ginkgo/v2/types"
)

// Env names the environment variable holding the comma-separated keys
// (Key) of the top-level containers a suite process registers.
const Env = "CONFORM_SUITE_CONTAINERS"

// Key names a top-level container by where it is declared: its package's
// directory, file and line (spot/orders.go:16), the same whether the path
// is absolute or trimmed to the module's.
func Key(file string, line int) string {
	file = filepath.FromSlash(file)
	return fmt.Sprintf("%s/%s:%d", filepath.Base(filepath.Dir(file)), filepath.Base(file), line)
}

// Value renders keys as Env's value: sorted, without duplicates.
func Value(keys []string) string {
	s := slices.Clone(keys)
	slices.Sort(s)
	return strings.Join(slices.Compact(s), ",")
}

// Registers reports whether the top-level container declared at file and
// line is registered when Env holds value: always when value is empty.
func Registers(value, file string, line int) bool {
	if value == "" {
		return true
	}
	return slices.Contains(strings.Split(value, ","), Key(file, line))
}

// KeyOf is the key of the top-level container holding the spec s (a spec
// at the top level is its own): what a run must register to build s.
func KeyOf(s types.SpecReport) string {
	loc := s.LeafNodeLocation
	if len(s.ContainerHierarchyLocations) > 0 {
		loc = s.ContainerHierarchyLocations[0]
	}
	return Key(loc.FileName, loc.LineNumber)
}
