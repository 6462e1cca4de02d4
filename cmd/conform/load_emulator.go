package main

import (
	"fmt"

	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/fixtures"
	"github.com/conform-harness/conform/target"
)

// loadEmulator is the embedded emulator of a load run and the target
// config that points at it.
type loadEmulator struct {
	emu    *emulator.Emulator
	config target.Config
}

// startLoadEmulator starts the emulator on a free loopback port, with its
// rate limits on or off, and returns a target config with the first
// fixture account's keys by role (and the second's full key as the
// counterparty).
func startLoadEmulator(limits bool) (*loadEmulator, error) {
	emu, err := emulator.New(loadEmulatorOptions(limits))
	if err != nil {
		return nil, fmt.Errorf("emulator: %w", err)
	}
	if err := emu.Start(); err != nil {
		return nil, fmt.Errorf("emulator: %w", err)
	}
	accts, err := fixtures.Accounts()
	if err != nil || len(accts) < 2 {
		emu.Close()
		return nil, fmt.Errorf("emulator: fixture accounts: %v", err)
	}
	cfg := target.Config{REST: emu.URL(), Emulator: true, Accounts: map[string]target.Account{}}
	for _, k := range accts[0].Keys {
		cfg.Accounts[k.Role] = target.Account{APIKey: k.APIKey, Secret: k.Secret, Rights: k.Rights}
	}
	// The second account's full key trades against the first (ws-market).
	for _, k := range accts[1].Keys {
		if k.Role == target.RoleFull {
			cfg.Accounts[target.RoleCounterparty] = target.Account{APIKey: k.APIKey, Secret: k.Secret, Rights: k.Rights}
		}
	}
	return &loadEmulator{emu: emu, config: cfg}, nil
}

// Close stops the emulator.
func (l *loadEmulator) Close() error { return l.emu.Close() }

// loadEmulatorOptions are the emulator's options for a load run.
func loadEmulatorOptions(limits bool) emulator.Options {
	return emulator.Options{NoLimits: !limits}
}
