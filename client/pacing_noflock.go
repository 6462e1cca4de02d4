//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package client

import "errors"

// Without flock the buckets cannot be shared: NewSharedPacer fails and
// its caller paces to a share of its own.
func (s *sharedBuckets) lock() error { return errors.New("no advisory file locks on this system") }

func (s *sharedBuckets) unlock() error { return nil }
