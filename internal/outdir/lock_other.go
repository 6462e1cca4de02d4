//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package outdir

import (
	"errors"
	"io/fs"
	"os"
)

// takeLock creates the lock file at path; where advisory locks are not to
// be had, its existence is the lock (held false, f open to read its
// holder), and one left by a conform that died must be removed by hand.
func takeLock(path string) (f *os.File, held bool, err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		f, err = os.Open(path)
		return f, false, err
	}
	return f, err == nil, err
}
