// Package outdir keeps conform's output directories conform's. A manifest
// in each directory (.conform-manifest.json) lists the files conform wrote
// there, with their sizes and hashes; conform writes, moves and removes
// only those, and refuses a directory that holds anything else unless it
// is empty. A subdirectory is conform's when it is in turn (a previous
// generation, a command's own subdirectory). A lock file makes a second
// conform on the same directory refuse, naming the first.
//
// A name is recorded before its file is written, so that a run that dies
// half way leaves files that are still known to be conform's; once written,
// a file is sealed with its size and hash, so that one changed since (a
// user's file put in its place) is no longer conform's.
package outdir

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Names conform keeps for itself in every directory it owns.
const (
	// ManifestFile lists the files conform wrote in the directory.
	ManifestFile = ".conform-manifest.json"
	// LockFile names the conform writing to the directory now.
	LockFile = ".conform.lock"
	// manifestTemp is the manifest being replaced (written, then renamed).
	manifestTemp = ManifestFile + ".tmp"
)

// reserved reports whether name is conform's bookkeeping, not a report.
func reserved(name string) bool {
	return name == ManifestFile || name == LockFile || name == manifestTemp
}

// Entry is one file conform wrote.
type Entry struct {
	Name string `json:"name"`
	// Size and SHA256 are the file as conform left it; an empty SHA256 is a
	// file being written (recorded, not yet sealed).
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256,omitempty"`
}

// matches reports whether path is still the file conform wrote: a regular
// file of the recorded size and hash (any regular file while unsealed).
func (e Entry) matches(path string) (bool, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return false, err
	}
	if !fi.Mode().IsRegular() {
		return false, nil
	}
	if e.SHA256 == "" {
		return true, nil
	}
	if fi.Size() != e.Size {
		return false, nil
	}
	size, sum, err := HashFile(path)
	if err != nil {
		return false, err
	}
	return size == e.Size && sum == e.SHA256, nil
}

// HashFile returns the size and hex SHA-256 of the file at path, as the
// manifest records them (the certification bundle lists its files alike).
func HashFile(path string) (int64, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", err
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// manifest is the content of ManifestFile.
type manifest struct {
	About string  `json:"about"`
	Files []Entry `json:"files"`
	// Archive is the .tar.gz conform wrote beside the directory, if any.
	Archive *Entry `json:"archive,omitempty"`
}

const about = "the files conform wrote in this directory; conform writes, moves and removes no other"

func readManifest(dir string) (manifest, bool, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return manifest{}, false, nil
	}
	if err != nil {
		return manifest{}, false, err
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return manifest{}, true, fmt.Errorf("%s: unreadable %s: %w", dir, ManifestFile, err)
	}
	for _, e := range m.Files {
		if !validName(e.Name) {
			return manifest{}, true, fmt.Errorf("%s: %s lists %q, which is not a file name", dir, ManifestFile, e.Name)
		}
	}
	return m, true, nil
}

// validName reports whether name is a file of the directory itself.
func validName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, `/\`) && !reserved(name)
}

// Dir is an output directory conform owns for the length of one command.
// Its methods are safe for concurrent use.
type Dir struct {
	path string
	// lock is held by the top directory of a command; a subdirectory is
	// covered by its parent's.
	lock  *lock
	stale *Holder

	mu sync.Mutex
	m  manifest
	// written are the names recorded by this command.
	written map[string]bool
}

// Open claims dir for one command: it creates dir when it is missing,
// refuses it when it is not a directory or holds anything conform did not
// write (a *ForeignError), and takes its lock, refusing it while another
// conform holds it (a *BusyError). The lock of a conform that died is
// taken over (see StaleLock). Close releases the directory.
func Open(dir string, me Holder) (*Dir, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	switch {
	case err == nil && !fi.IsDir():
		return nil, errors.New("is not a directory")
	case err != nil: // missing, or a path through a file
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return nil, fmt.Errorf("cannot create it: %w", unwrapPath(err))
		}
	}
	if err := Check(abs); err != nil {
		return nil, err
	}
	l, stale, err := acquire(abs, me)
	if err != nil {
		return nil, err
	}
	m, _, err := readManifest(abs)
	if err != nil {
		l.release()
		return nil, err
	}
	return &Dir{path: abs, lock: l, stale: stale, m: m, written: map[string]bool{}}, nil
}

// unwrapPath drops the path of a *fs.PathError, which the caller names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}

// Path is the directory's absolute path.
func (d *Dir) Path() string { return d.path }

// Join is the path of name in the directory.
func (d *Dir) Join(name string) string { return filepath.Join(d.path, name) }

// StaleLock is the holder of a lock Open took over from a conform that is
// no longer running, or nil.
func (d *Dir) StaleLock() *Holder { return d.stale }

func (d *Dir) index(name string) int {
	return slices.IndexFunc(d.m.Files, func(e Entry) bool { return e.Name == name })
}

// Record lists names as conform's before they are written (by conform or
// a process it runs). A name already listed is unsealed, since it is about
// to change; a name not listed whose file exists is refused: it appeared
// after Open and is not conform's.
func (d *Dir) Record(names ...string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, name := range names {
		if !validName(name) {
			return fmt.Errorf("outdir: %q is not a file name of %s", name, d.path)
		}
		if i := d.index(name); i >= 0 {
			d.m.Files[i] = Entry{Name: name}
		} else {
			if _, err := os.Lstat(d.Join(name)); err == nil {
				return &ForeignError{Dir: d.path, Entries: []string{name}}
			}
			d.m.Files = append(d.m.Files, Entry{Name: name})
		}
		d.written[name] = true
	}
	return d.save()
}

// Create records name and creates (or truncates) its file.
func (d *Dir) Create(name string) (*os.File, error) {
	if err := d.Record(name); err != nil {
		return nil, err
	}
	return os.Create(d.Join(name))
}

// WriteFile records name and writes its file.
func (d *Dir) WriteFile(name string, data []byte, perm os.FileMode) error {
	if err := d.Record(name); err != nil {
		return err
	}
	return os.WriteFile(d.Join(name), data, perm)
}

// Remove removes the named files conform wrote (a missing one is no
// error) and forgets them. A name conform did not write is refused when
// its file exists.
func (d *Dir) Remove(names ...string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	changed := false
	for _, name := range names {
		i := d.index(name)
		if i < 0 {
			if _, err := os.Lstat(d.Join(name)); err == nil {
				return &ForeignError{Dir: d.path, Entries: []string{name}}
			}
			continue
		}
		changed = true
		if err := os.Remove(d.Join(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		d.m.Files = slices.Delete(d.m.Files, i, i+1)
		delete(d.written, name)
	}
	if !changed {
		return nil
	}
	return d.save()
}

// Has reports whether name is a file conform wrote that exists.
func (d *Dir) Has(name string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.index(name) < 0 {
		return false
	}
	_, err := os.Lstat(d.Join(name))
	return err == nil
}

// Files lists the files of the manifest that exist, sorted.
func (d *Dir) Files() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for _, e := range d.m.Files {
		if _, err := os.Lstat(d.Join(e.Name)); err == nil {
			out = append(out, e.Name)
		}
	}
	slices.Sort(out)
	return out
}

// Written lists the files this command recorded that exist, sorted: what
// one run wrote, as against what earlier commands left.
func (d *Dir) Written() []string {
	var out []string
	for _, name := range d.Files() {
		d.mu.Lock()
		w := d.written[name]
		d.mu.Unlock()
		if w {
			out = append(out, name)
		}
	}
	return out
}

// Seal records the size and hash of every unsealed file and forgets the
// recorded names whose files were never written (or were removed).
func (d *Dir) Seal() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	kept := d.m.Files[:0]
	var errs []error
	for _, e := range d.m.Files {
		p := d.Join(e.Name)
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			errs = append(errs, err)
		case !fi.Mode().IsRegular():
			continue // no longer a file conform wrote
		case e.SHA256 == "":
			if e.Size, e.SHA256, err = HashFile(p); err != nil {
				errs = append(errs, err)
				e = Entry{Name: e.Name}
			}
		}
		kept = append(kept, e)
	}
	d.m.Files = kept
	if _, err := os.Lstat(d.Join(ManifestFile)); err != nil && len(d.m.Files) == 0 && d.m.Archive == nil {
		// Nothing written: a directory conform was refused (or wrote nothing)
		// is left as it was found.
		return errors.Join(errs...)
	}
	if err := d.save(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Close seals the directory and releases its lock.
func (d *Dir) Close() error {
	err := d.Seal()
	if d.lock != nil {
		err = errors.Join(err, d.lock.release())
		d.lock = nil
	}
	return err
}

// save writes the manifest: a temporary file renamed over it, so that a
// crash leaves either manifest whole.
func (d *Dir) save() error {
	slices.SortFunc(d.m.Files, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	d.m.About = about
	if d.m.Files == nil {
		d.m.Files = []Entry{}
	}
	b, err := json.MarshalIndent(d.m, "", "  ")
	if err != nil {
		return err
	}
	tmp := d.Join(manifestTemp)
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("outdir: %w", err)
	}
	if err := os.Rename(tmp, d.Join(ManifestFile)); err != nil {
		return fmt.Errorf("outdir: %w", err)
	}
	return nil
}
