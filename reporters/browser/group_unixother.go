//go:build unix && !linux

package browser

import "syscall"

// dieWithParent has no portable equivalent outside Linux.
func dieWithParent(*syscall.SysProcAttr) {}
