//go:build linux

package framework

import "syscall"

// dieWithParent asks the kernel to kill this suite process when the Ginkgo
// CLI that started it dies, so a run killed with SIGKILL leaves no suite
// process behind holding ports and an emulator.
func dieWithParent() {
	_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0)
}
