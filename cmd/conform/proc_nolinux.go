//go:build unix && !linux

package main

import "syscall"

// dieWithParent has no portable equivalent outside Linux: a conform killed
// with SIGKILL may leave its Ginkgo CLI running there.
func dieWithParent(*syscall.SysProcAttr) {}
