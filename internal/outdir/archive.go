package outdir

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// ArchivePath is where the directory's .tar.gz goes: beside it, named
// after it.
func (d *Dir) ArchivePath() string { return archivePath(d.path) }

func archivePath(dir string) string { return filepath.Clean(dir) + ".tar.gz" }

// CheckArchive reports whether the archive of dir (dir.tar.gz) may be
// written, before dir is opened and without writing anything: it does not
// exist, or it is the one dir's manifest records, unchanged. Anything else
// at its path is a *ForeignError.
func CheckArchive(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	m, _, err := readManifest(abs)
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
		return err
	}
	return checkArchive(abs, m)
}

// CheckArchive is the package's CheckArchive for an open directory.
func (d *Dir) CheckArchive() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return checkArchive(d.path, d.m)
}

func checkArchive(dir string, m manifest) error {
	p := archivePath(dir)
	if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	if a := m.Archive; a != nil && a.Name == filepath.Base(p) {
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
	if err := checkArchive(d.path, d.m); err != nil {
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
	err = f.Chmod(0o644) // a report to share, as os.Create makes it, not CreateTemp's private file
	if err == nil {
		err = write(bw)
	}
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
	size, sum, err := HashFile(p)
	if err != nil {
		return "", err
	}
	d.m.Archive = &Entry{Name: filepath.Base(p), Size: size, SHA256: sum}
	return p, d.save()
}
