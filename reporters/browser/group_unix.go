//go:build unix

package browser

import (
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// ownGroup starts Chromium in a process group of its own, so that the
// helpers it forks (zygotes) can be stopped with it: chromedp waits for the
// browser process only, and a zygote that outlives it makes the profile
// directory again after it was removed.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	dieWithParent(cmd.SysProcAttr)
}

// stopGroup kills what is left of the browser's process group and waits,
// a second at most, until none of it is left.
func stopGroup(pid int) {
	if pid <= 0 {
		return
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	for range 100 {
		if err := syscall.Kill(-pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
