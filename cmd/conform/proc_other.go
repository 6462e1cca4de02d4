//go:build !unix

package main

import (
	"os"
	"os/exec"
)

func setOwnGroup(*exec.Cmd) {}

func interruptGroup(cmd *exec.Cmd) { _ = cmd.Process.Signal(os.Interrupt) }

func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
