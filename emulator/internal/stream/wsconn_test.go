package stream

import "testing"

func TestConns(t *testing.T) {
	var cs Conns[int]
	started := 0
	count := func() { started++ }
	for _, c := range []int{1, 2, 3} {
		if !cs.Add(c, count) {
			t.Fatalf("Add(%d) refused before Shut", c)
		}
	}
	cs.Remove(2)
	if cs.Len() != 2 || cs.IsShut() {
		t.Fatalf("Len = %d, IsShut = %v; want 2, false", cs.Len(), cs.IsShut())
	}
	if open := cs.Shut(); len(open) != 2 {
		t.Fatalf("Shut returned %v, want the two open", open)
	}
	if cs.Add(4, count) || !cs.IsShut() {
		t.Fatal("Add accepted after Shut")
	}
	if started != 3 {
		t.Fatalf("started ran %d times, want 3 (not for a refused Add)", started)
	}
}
