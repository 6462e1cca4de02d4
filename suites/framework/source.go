package framework

import (
	"os"

	"github.com/conform-harness/conform/target"
	. "github.com/onsi/ginkgo/v2"
)

// registered is the suite's flags (RegisterFlags, once at start-up): what
// the spec tree needs to know while it is built, before any process has
// set up the target.
var registered *Flags

// OneSourceAtBuild reports, while the spec tree is built, whether the
// harness will reach the target from one source address: a target off
// this machine, or one behind a proxy that connects from one address for
// all (declared in the config as shared_source, or found when conform run
// resolved the target and handed its resolution down). Specs that must
// then run alone are built Serial from it. The embedded emulator, and a
// loopback target not known to be behind such a proxy, give the harness
// addresses of its own: false. A suite run without conform run against a
// loopback proxy that is not declared learns it only once the target is
// set up (Env.Config.OwnSourceAddresses), too late for the tree.
func OneSourceAtBuild() bool {
	f := registered
	if f == nil {
		return false
	}
	cfg, err := target.Load(f.Config, os.Getenv)
	if err != nil {
		return false
	}
	if f.Target != "" {
		cfg.REST = f.Target
	}
	if cfg.REST == "" {
		return false // the embedded emulator
	}
	if f.Resolved != "" {
		if res, err := target.DecodeResolution(f.Resolved); err == nil {
			cfg.Apply(res)
		}
	}
	return !cfg.OwnSourceAddresses()
}

// ClockAtBuild reports, while the spec tree is built, whether specs may
// move the target's clock: the embedded emulator, a target conform run
// resolved as an emulator with its control plane, or one it did not
// resolve (unknown, so the safe answer).
func ClockAtBuild() bool {
	f := registered
	if f == nil {
		return true
	}
	cfg, err := target.Load(f.Config, os.Getenv)
	if err != nil {
		return true
	}
	if f.Target != "" {
		cfg.REST = f.Target
	}
	if cfg.REST == "" {
		return true // the embedded emulator
	}
	res, err := target.DecodeResolution(f.Resolved)
	if f.Resolved == "" || err != nil {
		return true
	}
	return res.Emulator
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
