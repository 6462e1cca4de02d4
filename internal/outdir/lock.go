package outdir

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Holder is the conform writing to a directory: what its lock file says.
type Holder struct {
	PID     int       `json:"pid"`
	Started time.Time `json:"started"`
	Command string    `json:"command"`
}

// Me describes this process running command.
func Me(command string) Holder {
	return Holder{PID: os.Getpid(), Started: time.Now().UTC().Truncate(time.Second), Command: command}
}

func (h Holder) String() string {
	return fmt.Sprintf("pid %d (%s, started %s)", h.PID, h.Command, h.Started.Local().Format("2006-01-02 15:04:05 MST"))
}

// BusyError says that another conform holds the directory's lock.
type BusyError struct {
	Dir string
	// Holder is nil when the lock names no one yet (its holder is starting).
	Holder *Holder
}

func (e *BusyError) Error() string {
	who := "another conform that is starting"
	if e.Holder != nil {
		who = "conform " + e.Holder.String()
	}
	return fmt.Sprintf("is in use by %s: wait for it to end or choose another directory", who)
}

// lock is a held lock file.
type lock struct {
	f    *os.File
	path string
}

// acquire takes dir's lock for me. A lock that another process holds is a
// *BusyError naming it; the file of one that died holding it (a kill -9)
// is taken over, and its holder returned.
func acquire(dir string, me Holder) (*lock, *Holder, error) {
	p := filepath.Join(dir, LockFile)
	body, err := json.Marshal(me)
	if err != nil {
		return nil, nil, err
	}
	var busy *Holder
	for range 20 {
		f, held, err := takeLock(p)
		if err != nil {
			return nil, nil, fmt.Errorf("lock: %w", unwrapPath(err))
		}
		if !held {
			busy = readHolder(f)
			f.Close()
			if busy != nil {
				return nil, nil, &BusyError{Dir: dir, Holder: busy}
			}
			time.Sleep(10 * time.Millisecond) // its holder has yet to write its name
			continue
		}
		if !samePath(f, p) { // removed by its holder as this one opened it
			f.Close()
			continue
		}
		stale := readHolder(f)
		if err := f.Truncate(0); err == nil {
			_, err = f.WriteAt(append(body, '\n'), 0)
		}
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("lock: %w", err)
		}
		return &lock{f: f, path: p}, stale, nil
	}
	return nil, nil, &BusyError{Dir: dir, Holder: busy}
}

// readHolder reads the holder a lock file names, nil when it names none.
func readHolder(f *os.File) *Holder {
	b, err := io.ReadAll(io.NewSectionReader(f, 0, 1<<16))
	if err != nil || len(b) == 0 {
		return nil
	}
	var h Holder
	if json.Unmarshal(b, &h) != nil || h.PID == 0 {
		return nil
	}
	return &h
}

// samePath reports whether f is still the file at path.
func samePath(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(path)
	return err == nil && os.SameFile(a, b)
}

// release removes the lock file, then lets go of it: a conform waiting on
// the removed file sees that it is no longer at its path and tries again.
func (l *lock) release() error {
	err := os.Remove(l.path)
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	return errors.Join(err, l.f.Close())
}
