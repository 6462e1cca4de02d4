//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package client

import "syscall"

// lock takes the file's exclusive advisory lock, waiting for it.
func (s *sharedBuckets) lock() error { return syscall.Flock(int(s.f.Fd()), syscall.LOCK_EX) }

func (s *sharedBuckets) unlock() error { return syscall.Flock(int(s.f.Fd()), syscall.LOCK_UN) }
