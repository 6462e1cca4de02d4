package framework

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
