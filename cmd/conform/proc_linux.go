//go:build linux

package main

import "syscall"

// dieWithParent has the kernel kill the child when conform dies, even of
// SIGKILL, which no handler of ours sees: a killed run leaves no Ginkgo CLI
// behind (the suite processes watch their own parent the same way, see
// framework.Setup).
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
