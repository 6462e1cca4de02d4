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

const emulateSynopsis = `usage: conform emulate [--addr HOST:PORT] [--faults IDS] [--control-plane=true] [--control-token TOKEN]

Serves the reference emulator until SIGINT or SIGTERM, for running the suite
(conform run --target) or another client against it. --faults switches on
the faults of the given rules (see conform mutate --list).

The control plane (/_conform: reset, fund accounts, move the clock) answers
loopback peers only. With --control-token (or CONFORM_CONTROL_TOKEN) it
answers any peer presenting the token (Authorization: Bearer <token> or
X-Conform-Token) and no other; conform run sends CONFORM_CONTROL_TOKEN (or the
config's control_token). Listening beyond loopback prints a warning.`

type emulateOptions struct {
	addr         string
	faults       string
	controlPlane bool
	controlToken string
	noLimits     bool
}

func emulateFlagSet(o *emulateOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("emulate", flag.ContinueOnError)
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8080", "listen `address`")
	fs.StringVar(&o.faults, "faults", "", "comma-separated rule `IDs` whose faults are switched on")
	fs.BoolVar(&o.noLimits, "no-limits", false, "switch off the rate limits and the WebSocket connection cap (for capacity runs of the emulator itself)")
	fs.BoolVar(&o.controlPlane, "control-plane", true, "serve the control plane under /_conform (reset, fund, clock), which emulator-only specs need; to loopback peers only unless --control-token is given")
	fs.StringVar(&o.controlToken, "control-token", "", "open the control plane to any peer presenting this `token` (Authorization: Bearer or X-Conform-Token), and only to them (default $CONFORM_CONTROL_TOKEN)")
	return fs
}

// exposure is the warning line for an emulator listening on url beyond
// this machine (empty on loopback): what others can reach and how to stop
// it.
func exposure(url string, o *emulateOptions) string {
	host := strings.TrimPrefix(url, "http://")
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() || host == "localhost" {
		return ""
	}
	what := "the exchange API, with the fixture accounts' published keys"
	off := "listen on loopback (--addr 127.0.0.1:PORT) to keep it on this machine"
	switch {
	case o.controlPlane && o.controlToken != "":
		what += ", and the control plane /_conform (reset, fund, clock) to holders of the control token"
		off += ", --control-plane=false to turn the control plane off"
	case o.controlPlane:
		what += " (the control plane /_conform answers this machine only)"
	}
	return fmt.Sprintf("conform emulate: warning: %s is reachable from other machines: %s; %s", url, what, off)
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runEmulate(ctx, args, e)
}

// runEmulate serves the emulator until ctx ends (SIGINT or SIGTERM).
func runEmulate(ctx context.Context, args []string, e *env) error {
	o := &emulateOptions{}
	if err := parseFlags("emulate", emulateFlagSet(o), args, e); err != nil {
		return err
	}
	if err := checkListenAddr(o.addr); err != nil {
		return usageErrorf("emulate: --addr %q: %v", o.addr, err)
	}
	if o.controlToken != "" && !o.controlPlane {
		return usageErrorf("emulate: --control-token opens the control plane, which --control-plane=false turns off")
	}
	if o.controlToken == "" && o.controlPlane {
		o.controlToken = e.getenv("CONFORM_CONTROL_TOKEN")
	}
	ids := splitIDs(o.faults)
	if _, err := faults.New(ids...); err != nil { // an unknown fault is a bad flag, not a harness error
		return usageErrorf("emulate: --faults: %v", err)
	}
	emu, err := emulator.New(emulator.Options{Addr: o.addr, Faults: ids, ControlPlane: o.controlPlane, ControlToken: o.controlToken, NoLimits: o.noLimits})
	if err != nil {
		return harnessErrorf("emulate: %w", err)
	}
	if err := emu.Start(); err != nil {
		return harnessErrorf("emulate: %w", err)
	}
	if w := exposure(emu.URL(), o); w != "" {
		fmt.Fprintln(e.stderr, w)
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
