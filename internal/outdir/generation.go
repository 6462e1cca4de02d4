package outdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// Sub opens the subdirectory name as a directory of its own, with its own
// manifest, under this one's lock; it is created when missing and refused
// when it is not conform's.
func (d *Dir) Sub(name string) (*Dir, error) {
	if !validName(name) {
		return nil, fmt.Errorf("outdir: %q is not a directory name of %s", name, d.path)
	}
	p := d.Join(name)
	fi, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Mkdir(p, 0o755); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	case !fi.IsDir():
		return nil, &ForeignError{Dir: d.path, Entries: []string{name}}
	}
	if err := Check(p); err != nil {
		return nil, err
	}
	m, _, err := readManifest(p)
	if err != nil {
		return nil, err
	}
	return &Dir{path: p, m: m, written: map[string]bool{}}, nil
}

// generation says what the subdirectory name is: missing, conform's (it
// has a manifest and nothing else), or empty without a manifest, which
// conform may fill but never moves or removes. Anything else is a
// *ForeignError.
func (d *Dir) generation(name string) (exists, owned bool, err error) {
	p := d.Join(name)
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, false, nil
	}
	if err != nil {
		return false, false, err
	}
	if !fi.IsDir() {
		return true, false, &ForeignError{Dir: d.path, Entries: []string{name}}
	}
	if err := Check(p); err != nil {
		return true, false, err
	}
	_, has, err := readManifest(p)
	if err != nil {
		return true, false, err
	}
	if has {
		return true, true, nil
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return true, false, err
	}
	if len(entries) > 0 { // conform's subdirectories only, but no manifest of its own
		return true, false, &ForeignError{Dir: d.path, Entries: []string{name + "/"}}
	}
	return true, false, nil
}

// RemoveSub removes the subdirectory name when it is conform's: its files,
// its subdirectories (conform's in turn), its manifest, then the directory
// itself. An empty directory without a manifest is left where it is;
// anything else is refused, before anything is removed.
func (d *Dir) RemoveSub(name string) error {
	_, owned, err := d.generation(name)
	if err != nil || !owned {
		return err
	}
	return removeOwned(d.Join(name))
}

// removeOwned removes a directory Check found conform's and that has a
// manifest: only what the manifest lists and conform's own subdirectories.
func removeOwned(dir string) error {
	m, _, err := readManifest(dir)
	if err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, de := range entries {
		if !de.IsDir() {
			continue
		}
		sub := filepath.Join(dir, de.Name())
		if _, has, err := readManifest(sub); err != nil {
			return err
		} else if has {
			if err := removeOwned(sub); err != nil {
				return err
			}
		}
	}
	for _, e := range m.Files {
		if err := os.Remove(filepath.Join(dir, e.Name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	for _, name := range []string{manifestTemp, LockFile, ManifestFile} {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	// Fails when anything is left (an empty directory without a manifest,
	// or a file that appeared meanwhile): then it stays.
	return os.Remove(dir)
}

// MoveSub replaces the subdirectory to with from (mutation/ becomes
// mutation.prev/): to is removed first when it is conform's, and from is
// moved only when it is conform's. Either being something else is refused.
func (d *Dir) MoveSub(from, to string) error {
	if _, _, err := d.generation(from); err != nil {
		return err
	}
	if err := d.RemoveSub(to); err != nil {
		return err
	}
	exists, owned, err := d.generation(from)
	if err != nil || !exists {
		return err
	}
	if !owned {
		return nil // empty and not conform's: nothing to keep, and not conform's to move
	}
	// Renaming over an empty directory replaces it (rename(2)).
	return os.Rename(d.Join(from), d.Join(to))
}

// Rotate makes names (files of this directory conform wrote) the
// generation prev: what prev held is removed (when it is conform's; else
// the rotation is refused), then each of names that exists moves into it,
// listed in prev's manifest with its hash.
func (d *Dir) Rotate(prev string, names ...string) error {
	if err := d.RemoveSub(prev); err != nil {
		return err
	}
	sub, err := d.Sub(prev)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, name := range names {
		i := d.index(name)
		if i < 0 {
			continue
		}
		e := d.m.Files[i]
		if _, err := os.Lstat(d.Join(name)); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		// Listed in both while it moves: a crash leaves it known either way.
		sub.mu.Lock()
		sub.m.Files = append(sub.m.Files, e)
		err := sub.save()
		sub.mu.Unlock()
		if err != nil {
			return err
		}
		if err := os.Rename(d.Join(name), sub.Join(name)); err != nil {
			return err
		}
		d.m.Files = slices.Delete(d.m.Files, i, i+1)
		delete(d.written, name)
		if err := d.save(); err != nil {
			return err
		}
	}
	sub.mu.Lock()
	defer sub.mu.Unlock()
	return sub.save() // a generation is conform's even when nothing moved into it
}
