package registration

import "testing"

func TestRegisters(t *testing.T) {
	for _, c := range []struct {
		value, file string
		want        bool
	}{
		{"", "/src/conform/suites/spot/orders.go", true},
		{"spot", "/src/conform/suites/spot/orders.go", true},
		{"conventions,spot", "github.com/conform-harness/conform/suites/spot/orders.go", true},
		{"conventions,spot", "/src/conform/suites/v2spot/orders.go", false},
		{"spot", "/src/conform/suites/limits/limits.go", false},
		{"limits", "/src/conform/suites/v2limits/batch.go", false},
	} {
		if got := Registers(c.value, c.file); got != c.want {
			t.Errorf("Registers(%q, %q) = %v, want %v", c.value, c.file, got, c.want)
		}
	}
}

func TestValue(t *testing.T) {
	if got := Value([]string{"spot", "conventions", "spot"}); got != "conventions,spot" {
		t.Errorf("Value = %q", got)
	}
	if got := Value(nil); got != "" {
		t.Errorf("Value(nil) = %q", got)
	}
}
