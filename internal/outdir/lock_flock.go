//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package outdir

import (
	"errors"
	"os"
	"syscall"
)

// takeLock opens (or creates) the lock file at path and takes an advisory
// lock on it without waiting; held is false when another process holds it
// (f is then open to read its holder). The kernel lets go of the lock when
// its holder dies, however it dies: a lock file whose lock is free is a
// dead conform's.
func takeLock(path string) (f *os.File, held bool, err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, err
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case err == nil:
		return f, true, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		return f, false, nil
	}
	f.Close()
	return nil, false, err
}
