package outdir

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ArchivePath is where the directory's .tar.gz goes: beside it, named
// after it.
func (d *Dir) ArchivePath() string { return d.path + ".tar.gz" }

// CheckArchive reports whether the archive may be written: it does not
// exist, or it is the one this directory's manifest records, unchanged.
// Anything else at its path is a *ForeignError.
func (d *Dir) CheckArchive() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.checkArchive()
}

func (d *Dir) checkArchive() error {
	p := d.ArchivePath()
	if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	if a := d.m.Archive; a != nil && a.Name == filepath.Base(p) {
		same, err := a.matches(p)
		if err != nil || same {
			return err
		}
	}
	return &ForeignError{Dir: filepath.Dir(p), Entries: []string{filepath.Base(p)}}
}

// WriteArchive writes the archive with write, replacing only the one
// conform wrote before (see CheckArchive): into a temporary file beside
// it, renamed into place when complete, and recorded with its hash.
func (d *Dir) WriteArchive(write func(io.Writer) error) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.checkArchive(); err != nil {
		return "", err
	}
	p := d.ArchivePath()
	d.m.Archive = &Entry{Name: filepath.Base(p)}
	if err := d.save(); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".*.tmp")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name()) // gone once renamed; removed on failure
	bw := bufio.NewWriter(f)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		return "", err
	}
	size, sum, err := hashFile(p)
	if err != nil {
		return "", err
	}
	d.m.Archive = &Entry{Name: filepath.Base(p), Size: size, SHA256: sum}
	return p, d.save()
}
