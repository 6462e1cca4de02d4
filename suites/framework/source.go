package framework

import (
	. "github.com/onsi/ginkgo/v2"
)

// OneSourceAtBuild reports, while the spec tree is built, whether the
// harness will reach the target from one source address: a target off
// this machine, or one behind a proxy that connects from one address for
// all (declared in the config as shared_source, or found when conform run
// resolved the target it hands down). Specs that must then run alone are
// built Serial from it. The embedded emulator gives the harness addresses
// of its own: false.
func OneSourceAtBuild() bool {
	cfg, err := handedTarget()
	if err != nil || cfg.REST == "" {
		return false // StartTarget reports a bad hand-off
	}
	return !cfg.OwnSourceAddresses()
}

// ClockAtBuild reports, while the spec tree is built, whether specs may
// move the target's clock: the embedded emulator, or a target conform run
// resolved as an emulator with its control plane. A hand-off the suite
// cannot read says true, the safe answer (StartTarget reports it).
func ClockAtBuild() bool {
	cfg, err := handedTarget()
	if err != nil || cfg.REST == "" {
		return true
	}
	return cfg.Emulator
}

// SerialWhereClockMoves decorates a spec that moves the emulator's clock on
// an emulator (which concerns every process's orders: Serial) and waits for
// the target's own clock elsewhere (no decorator: it runs beside others).
func SerialWhereClockMoves() any {
	if ClockAtBuild() {
		return Serial
	}
	return Label()
}
