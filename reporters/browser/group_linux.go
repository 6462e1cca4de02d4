//go:build linux

package browser

import "syscall"

// dieWithParent has the kernel kill the browser when conform dies (what
// chromedp does on Linux, kept since ownGroup replaces its command setup).
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
