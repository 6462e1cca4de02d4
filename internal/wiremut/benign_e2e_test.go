package wiremut

// The benign runs: for every mutation of Benign, the whole suite (every
// area, v3 and v2, REST and streams) against an in-process emulator behind
// a proxy applying it. Every run must stay green: a failure is a false
// alarm of the suite (or the client) on a wire difference the documents
// allow. Opt-in (minutes): WIREMUT_BENIGN=1 and CONFORM_BIN (make
// wirebenign sets both); WIREMUT_ONLY=name,... selects mutations; the table
// is written to $WIREMUT_OUT/wirebenign.md when set.
// TestWireBenignFast is the quick regression check of make test: the
// combined FastBenign mutation over every area, whenever CONFORM_BIN is set.

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestWireBenign(t *testing.T) {
	bin, only := runnerEnv(t, "WIREMUT_BENIGN", "make wirebenign")
	var rows []string
	green := 0
	for _, m := range Benign() {
		if len(only) > 0 && !only[m.Name] {
			continue
		}
		verdict, hits, detail := runBenign(t, bin, m)
		if verdict == "green" {
			green++
		} else {
			t.Errorf("%s (%s): %s\n%s", m.Name, m, verdict, detail)
		}
		row := fmt.Sprintf("| %s | %s | %d | %s |", m.Name, kindsOf(m), hits, verdict)
		rows = append(rows, row)
		t.Log(row)
	}
	table := "| benign mutation | kinds | answers and frames changed | verdict |\n|---|---|---|---|\n" +
		strings.Join(rows, "\n") + fmt.Sprintf("\n\ngreen %d of %d\n", green, len(rows))
	writeTable(t, "wirebenign.md", table)
}

func TestWireBenignFast(t *testing.T) {
	bin := os.Getenv("CONFORM_BIN")
	if bin == "" || testing.Short() {
		t.Skip("set CONFORM_BIN to the directory of make build's binaries (make test does)")
	}
	m := FastBenign()
	if verdict, _, detail := runBenign(t, bin, m); verdict != "green" {
		t.Fatalf("%s (%s): %s\n%s", m.Name, m, verdict, detail)
	}
}

// runBenign runs the suite through a proxy applying the benign m: green
// (passed, and the mutation changed answers), red (a spec failed) or idle.
func runBenign(t *testing.T, bin string, m Mutation) (verdict string, hits int64, detail string) {
	t.Helper()
	v, hits, detail := runOne(t, bin, m)
	switch v {
	case "detected":
		return "red", hits, detail
	case "escaped":
		return "green", hits, ""
	}
	return "idle", hits, "the mutation changed no answer"
}

func kindsOf(m Mutation) string {
	ks := make([]string, 0, len(m.Also)+1)
	for _, k := range m.kinds() {
		ks = append(ks, string(k))
	}
	return strings.Join(ks, "+")
}
