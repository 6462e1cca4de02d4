package registration

import "testing"

func TestRegisters(t *testing.T) {
	for _, c := range []struct {
		value, file string
		line        int
		want        bool
	}{
		{"", "/src/conform/suites/spot/orders.go", 16, true},
		{"spot/orders.go:16", "/src/conform/suites/spot/orders.go", 16, true},
		{"conventions/a.go:9,spot/orders.go:16", "github.com/conform-harness/conform/suites/spot/orders.go", 16, true},
		{"spot/orders.go:16", "/src/conform/suites/spot/orders.go", 109, false},
		{"spot/orders.go:16", "/src/conform/suites/margin/orders.go", 16, false},
		{"limits/limits.go:164", "/src/conform/suites/v2limits/limits.go", 164, false},
	} {
		if got := Registers(c.value, c.file, c.line); got != c.want {
			t.Errorf("Registers(%q, %q, %d) = %v, want %v", c.value, c.file, c.line, got, c.want)
		}
	}
}

func TestValue(t *testing.T) {
	if got := Value([]string{"spot/a.go:3", "conventions/b.go:1", "spot/a.go:3"}); got != "conventions/b.go:1,spot/a.go:3" {
		t.Errorf("Value = %q", got)
	}
	if got := Value(nil); got != "" {
		t.Errorf("Value(nil) = %q", got)
	}
}
