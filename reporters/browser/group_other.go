//go:build !unix

package browser

import "os/exec"

// ownGroup and stopGroup have no process groups to use here: the browser
// is stopped alone, as chromedp stops it.
func ownGroup(*exec.Cmd) {}

func stopGroup(int) {}
