package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/conform-harness/conform/emulator"
	"github.com/conform-harness/conform/emulator/faults"
)

const emulateSynopsis = `usage: conform emulate [--addr HOST:PORT] [--faults IDS] [--control-plane=true]

Serves the reference emulator until SIGINT or SIGTERM, for running the suite
(conform run --target) or another client against it. --faults switches on
the faults of the given rules (see conform mutate --list).`

type emulateOptions struct {
	addr         string
	faults       string
	controlPlane bool
	noLimits     bool
}

func emulateFlagSet(o *emulateOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("emulate", flag.ContinueOnError)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "listen `address`")
	fs.StringVar(&o.faults, "faults", "", "comma-separated rule `IDs` whose faults are switched on")
	fs.BoolVar(&o.noLimits, "no-limits", false, "switch off the rate limits and the WebSocket connection cap (for capacity runs of the emulator itself)")
	fs.BoolVar(&o.controlPlane, "control-plane", true, "serve the control plane under /_conform (reset, fund, clock), which emulator-only specs need")
	return fs
}

// checkListenAddr tells a malformed listen address (a bad flag, exit 2)
// from one that is well formed but cannot be listened on (exit 3).
func checkListenAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("want HOST:PORT, e.g. 127.0.0.1:8080")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("port %q is not a number from 0 to 65535", port)
	}
	return nil
}

// splitIDs splits a comma-separated list of rule IDs, dropping blanks.
func splitIDs(s string) []string {
	var ids []string
	for id := range strings.SplitSeq(s, ",") {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	return ids
}

func cmdEmulate(args []string, e *env) error {
	o := &emulateOptions{}
	if err := parseFlags("emulate", emulateFlagSet(o), args, e); err != nil {
		return err
	}
	if err := checkListenAddr(o.addr); err != nil {
		return usageErrorf("emulate: --addr %q: %v", o.addr, err)
	}
	ids := splitIDs(o.faults)
	if _, err := faults.New(ids...); err != nil { // an unknown fault is a bad flag, not a harness error
		return usageErrorf("emulate: --faults: %v", err)
	}
	emu, err := emulator.New(emulator.Options{Addr: o.addr, Faults: ids, ControlPlane: o.controlPlane, NoLimits: o.noLimits})
	if err != nil {
		return harnessErrorf("emulate: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := emu.Start(); err != nil {
		return harnessErrorf("emulate: %w", err)
	}
	fmt.Fprintf(e.stdout, "conform emulator listening on %s\n", emu.URL())
	if len(ids) > 0 {
		fmt.Fprintf(e.stdout, "faults on: %s\n", strings.Join(ids, ", "))
	}
	<-ctx.Done()
	if err := emu.Close(); err != nil {
		return harnessErrorf("emulate: close: %w", err)
	}
	return nil
}
