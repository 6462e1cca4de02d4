package coverage

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/conform-harness/conform/rules"
)

// specColumn bounds the spec files shown per rule in the table.
const specColumn = 70

// Print lists the catalogue joined with its specs: a row per rule (its
// area, status, number of specs and their files) and what the catalogue says
// of it beneath, then the totals.
func (cov *Coverage) Print(w io.Writer) error {
	// Widths are computed here rather than with text/tabwriter, whose column
	// blocks would break at the indented reason lines.
	wID, wArea, wStatus := len("ID"), len("AREA"), len("STATUS")
	for _, r := range cov.Rules {
		wID, wArea, wStatus = max(wID, len(r.ID)), max(wArea, len(r.Area)), max(wStatus, len(r.StatusName()))
	}
	bw := bufio.NewWriter(w)
	row := func(id, area, st, n, files string) {
		fmt.Fprintf(bw, "%-*s  %-*s  %-*s  %5s  %s\n", wID, id, wArea, area, wStatus, st, n, files)
	}
	row("ID", "AREA", "STATUS", "SPECS", "SPEC FILES")
	for _, r := range cov.Rules {
		files := strings.Join(specFiles(r.Locations), ", ")
		if files == "" {
			files = "-"
		}
		row(r.ID, r.Area, r.StatusName(), strconv.Itoa(len(r.Specs)), clip(files, specColumn))
		switch {
		case r.Pending != "":
			fmt.Fprintf(bw, "%*s  pending: %s\n", wID, "", r.Pending)
		case r.Reason != "":
			fmt.Fprintf(bw, "%*s  %s: %s\n", wID, "", r.Status, r.Reason)
		}
		if r.EmulatorOnly != "" {
			fmt.Fprintf(bw, "%*s  emulator-only: %s\n", wID, "", r.EmulatorOnly)
		}
		if r.SecondAddress != "" {
			fmt.Fprintf(bw, "%*s  second address: %s\n", wID, "", r.SecondAddress)
		}
	}
	t := cov.Totals()
	fmt.Fprintf(bw, "\n%d rules: %d/%d testable with specs (%d pending), %d/%d ambiguous with specs, %d out of scope; %d specs\n",
		t.Rules, t.Covered, t.Testable, t.Pending, t.AmbCovered, t.Ambiguous, t.OutOfScope, t.Specs)
	return bw.Flush()
}

// specFiles lists the distinct files of spec locations (file:line), in order.
func specFiles(locs []string) []string {
	var out []string
	for _, l := range locs {
		f, _, _ := strings.Cut(l, ":")
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// Print shows one rule's four places: its sentence in the catalogue,
// its specs, its emulator fault and its rows in the reports.
func (r Rule) Print(w io.Writer) error {
	bw := bufio.NewWriter(w)
	area, _ := rules.LookupArea(r.Area)
	fmt.Fprintf(bw, "%s  (%s)\n", r.ID, r.StatusName())
	fmt.Fprintf(bw, "  sentence: %s\n", r.Statement)
	fmt.Fprintf(bw, "  section:  %s (%s)\n", r.Section, area.Document)
	fmt.Fprintf(bw, "  area:     %s  (rules/%s.go, emulator/faults/%s.go, %s)\n", r.Area, r.Area, r.Area, suiteDir(r.Area))
	if r.Reason != "" {
		fmt.Fprintf(bw, "  %s: %s\n", r.Status, r.Reason)
	}
	if r.Pending != "" {
		fmt.Fprintf(bw, "  pending:  %s\n", r.Pending)
	}
	if r.EmulatorOnly != "" {
		fmt.Fprintf(bw, "  emulator-only: %s\n", r.EmulatorOnly)
	}
	if r.SecondAddress != "" {
		fmt.Fprintf(bw, "  second address: %s\n", r.SecondAddress)
	}
	fmt.Fprintf(bw, "  specs:    %d\n", len(r.Specs))
	for i, text := range r.Specs {
		fmt.Fprintf(bw, "    %s\n      %s\n", r.Locations[i], text)
	}
	fault := r.Fault
	if fault == "" {
		fault = "none"
	}
	fmt.Fprintf(bw, "  fault:    %s  (conform emulate --faults %s; conform mutate --only %s)\n", fault, r.ID, r.ID)
	fmt.Fprintf(bw, "  reports:  results.json rules[id=%s]; junit.xml testcase %q; report.html#%s; select with --label-filter 'rule:%s'\n", r.ID, r.ID, r.ID, r.ID)
	return bw.Flush()
}

// PrintEmulatorOnly lists the rules the catalogue marks emulator-only, with
// the reason and the specs that carry the emulator-only label.
func (cov *Coverage) PrintEmulatorOnly(w io.Writer) error {
	bw := bufio.NewWriter(w)
	n := 0
	for _, r := range cov.Rules {
		if r.EmulatorOnly == "" {
			continue
		}
		n++
		fmt.Fprintf(bw, "%s  (%s)\n  %s\n", r.ID, r.Area, r.EmulatorOnly)
	}
	fmt.Fprintf(bw, "\n%d rules need the emulator's control plane (reset, fund, clock), all or in part; on a sandbox their specs skip with the reason\n\n", n)
	n = 0
	for _, r := range cov.Rules {
		if r.SecondAddress == "" {
			continue
		}
		n++
		fmt.Fprintf(bw, "%s  (%s)\n  %s\n", r.ID, r.Area, r.SecondAddress)
	}
	fmt.Fprintf(bw, "\n%d rules need source addresses of their own, all or in part; from one address (a sandbox across a network) they end inconclusive with the reason\n", n)
	fmt.Fprintf(bw, "a certification of a target without the control plane, or reached from one address, lists these as not applicable, not as failures\n")
	return bw.Flush()
}

// suiteDir is where an area's specs live.
func suiteDir(area string) string { return "suites/" + area + "/" }

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n-1]) + "…"
}
