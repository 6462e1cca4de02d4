package outdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ForeignError says that a directory holds what conform did not write.
type ForeignError struct {
	Dir string
	// Entries are the foreign entries, relative to Dir ("notes.txt",
	// "previous/x.json"), a changed file marked so.
	Entries []string
}

// shown is how many entries an error names.
const shown = 3

func (e *ForeignError) Error() string {
	names := e.Entries
	more := ""
	if len(names) > shown {
		more = fmt.Sprintf(" and %d more", len(names)-shown)
		names = names[:shown]
	}
	return fmt.Sprintf("holds files conform did not write (%s%s): conform writes only to a new or empty directory or one it wrote", strings.Join(names, ", "), more)
}

// Check reports whether dir is conform's: every entry is conform's
// bookkeeping, a file its manifest lists and that is unchanged since
// conform wrote it, or a subdirectory that is conform's in turn. An empty
// or missing directory is conform's. What is not is a *ForeignError.
func Check(dir string) error {
	var found []string
	if err := foreign(dir, "", &found); err != nil {
		return err
	}
	if len(found) > 0 {
		return &ForeignError{Dir: dir, Entries: found}
	}
	return nil
}

// foreign appends the entries of dir that are not conform's to found, their
// names prefixed with rel.
func foreign(dir, rel string, found *[]string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	m, _, err := readManifest(dir)
	if err != nil {
		return err
	}
	listed := map[string]Entry{}
	for _, e := range m.Files {
		listed[e.Name] = e
	}
	for _, de := range entries {
		name := de.Name()
		switch {
		case reserved(name):
		case de.IsDir(): // not a link to one: DirEntry does not follow links
			if err := foreign(filepath.Join(dir, name), rel+name+"/", found); err != nil {
				return err
			}
		default:
			e, ok := listed[name]
			if !ok {
				*found = append(*found, rel+name)
				continue
			}
			same, err := e.matches(filepath.Join(dir, name))
			if err != nil {
				return err
			}
			if !same {
				*found = append(*found, rel+name+" (changed since conform wrote it)")
			}
		}
	}
	return nil
}
