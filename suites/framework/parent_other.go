//go:build !linux

package framework

// dieWithParent has no portable equivalent outside Linux.
func dieWithParent() {}
