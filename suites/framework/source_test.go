package framework

import (
	"os"
	"strings"
	"testing"

	"github.com/conform-harness/conform/target"
)

// While the tree is built, the handed-down target alone says whether it is
// reached from one address (the embedded emulator and a plain loopback
// target are not; a target elsewhere and a shared source, declared or
// found by conform run's resolution, are) and whether specs may move its
// clock (an emulator). A hand-off the suite cannot read gets the safe
// answers here: StartTarget reports it.
func TestOneSourceAtBuild(t *testing.T) {
	for _, tc := range []struct {
		name        string
		cfg         *target.Config
		want, clock bool
	}{
		{"embedded emulator", nil, false, true},
		{"loopback", &target.Config{REST: "http://127.0.0.1:9"}, false, false},
		{"elsewhere", &target.Config{REST: "https://api.demo.example.com"}, true, false},
		{"shared source", &target.Config{REST: "http://127.0.0.1:9", Emulator: true, SharedSource: true}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := ""
			if tc.cfg != nil {
				var err error
				if v, err = tc.cfg.Handoff(); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv(target.SuiteEnv, v)
			if got := OneSourceAtBuild(); got != tc.want {
				t.Errorf("OneSourceAtBuild() = %v, want %v", got, tc.want)
			}
			if got := ClockAtBuild(); got != tc.clock {
				t.Errorf("ClockAtBuild() = %v, want %v", got, tc.clock)
			}
		})
	}
	t.Setenv(target.SuiteEnv, "{")
	if OneSourceAtBuild() || !ClockAtBuild() {
		t.Error("an unreadable hand-off: one address, or no clock to move")
	}
}

// A suite run without conform run but with CONFORM_TARGET set is refused
// in one line rather than run on the embedded emulator; under conform run
// (the hand-off set, even empty) CONFORM_TARGET is conform run's to read.
func TestHandedTargetRefusesATargetOfItsOwn(t *testing.T) {
	t.Setenv("CONFORM_TARGET", "https://api.demo.example.com")
	t.Setenv(target.SuiteEnv, "")
	if _, err := handedTarget(); err != nil {
		t.Errorf("under conform run: %v", err)
	}
	os.Unsetenv(target.SuiteEnv) // t.Setenv restores it
	if _, err := handedTarget(); err == nil || !strings.Contains(err.Error(), "CONFORM_TARGET") {
		t.Errorf("without conform run: %v, want a refusal naming CONFORM_TARGET", err)
	}
}
