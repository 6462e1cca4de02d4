package outdir

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// put writes files (name: content; a name ending in / is a directory) under dir.
func put(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// read returns the content of name under dir, "(absent)" when missing.
func read(dir, name string) string {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return "(absent)"
	}
	return string(b)
}

// snapshot is every file under dir with its content, and every directory.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if fi.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		out[rel] = read(dir, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// owned opens dir, writes files as conform's (name: content; names with a
// slash go to that subdirectory as conform's) and closes it.
func owned(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	d, err := Open(dir, Me("test"))
	if err != nil {
		t.Fatal(err)
	}
	subs := map[string]*Dir{}
	for name, body := range files {
		w := d
		if sub, base, ok := strings.Cut(name, "/"); ok {
			if subs[sub] == nil {
				if subs[sub], err = d.Sub(sub); err != nil {
					t.Fatal(err)
				}
			}
			w, name = subs[sub], base
		}
		if err := w.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range subs {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestCheck(t *testing.T) {
	cases := []struct {
		name string
		// owned files are written through the package, foreign ones beside.
		owned, foreign map[string]string
		change         func(t *testing.T, dir string)
		want           []string // foreign entries; nil: conform's
	}{
		{name: "empty"},
		{name: "a user's file", foreign: map[string]string{"notes.txt": "mine"}, want: []string{"notes.txt"}},
		{name: "a user's files beside conform's", owned: map[string]string{"results.json": "{}"},
			foreign: map[string]string{"README.md": "r", "target.json": "{}"}, want: []string{"README.md", "target.json"}},
		{name: "conform's files", owned: map[string]string{"results.json": "{}", "run.log": "log"}},
		{name: "conform's file changed since", owned: map[string]string{"results.json": "{}"},
			change: func(t *testing.T, dir string) { put(t, dir, map[string]string{"results.json": "{\"x\":1}"}) },
			want:   []string{"results.json (changed since conform wrote it)"}},
		{name: "conform's file replaced by a link", owned: map[string]string{"results.json": "{}"},
			change: func(t *testing.T, dir string) {
				os.Remove(filepath.Join(dir, "results.json"))
				if err := os.Symlink("/etc/passwd", filepath.Join(dir, "results.json")); err != nil {
					t.Skip(err)
				}
			},
			want: []string{"results.json (changed since conform wrote it)"}},
		{name: "conform's generation", owned: map[string]string{"results.json": "{}", "previous/results.json": "{}"}},
		{name: "a user's file in conform's generation", owned: map[string]string{"previous/results.json": "{}"},
			foreign: map[string]string{"previous/notes.txt": "mine"}, want: []string{"previous/notes.txt"}},
		{name: "a user's directory", foreign: map[string]string{"docs/a.md": "a"}, want: []string{"docs/a.md"}},
		{name: "an empty directory", foreign: map[string]string{"empty/": ""}},
		{name: "a link", change: func(t *testing.T, dir string) {
			if err := os.Symlink(t.TempDir(), filepath.Join(dir, "elsewhere")); err != nil {
				t.Skip(err)
			}
		}, want: []string{"elsewhere"}},
		{name: "a stale lock and manifest", foreign: map[string]string{LockFile: "{}", manifestTemp: "{"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			owned(t, dir, c.owned)
			put(t, dir, c.foreign)
			if c.change != nil {
				c.change(t, dir)
			}
			err := Check(dir)
			var fe *ForeignError
			switch {
			case c.want == nil && err != nil:
				t.Errorf("not conform's: %v", err)
			case c.want != nil && !errors.As(err, &fe):
				t.Errorf("got %v, want foreign %v", err, c.want)
			case c.want != nil && !slices.Equal(fe.Entries, c.want):
				t.Errorf("foreign %v, want %v", fe.Entries, c.want)
			}
		})
	}
	if err := Check(filepath.Join(t.TempDir(), "missing")); err != nil {
		t.Errorf("a missing directory: %v", err)
	}
	dir := t.TempDir()
	put(t, dir, map[string]string{ManifestFile: "not json"})
	if err := Check(dir); err == nil || errors.As(err, new(*ForeignError)) {
		t.Errorf("an unreadable manifest: %v", err)
	}
}

func TestForeignErrorIsOneLine(t *testing.T) {
	e := &ForeignError{Dir: "/x", Entries: []string{"a", "b", "c", "d", "e"}}
	if got := e.Error(); strings.Contains(got, "\n") || !strings.Contains(got, "(a, b, c and 2 more)") {
		t.Errorf("%q", got)
	}
}

// Open refuses what is not conform's before it writes anything there.
func TestOpenRefusesWithoutTouching(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "file")
	put(t, root, map[string]string{"file": "x", "user/README.md": "mine", "user/target.json": "{\"secret\":\"s\"}"})
	cases := []struct {
		name, dir, want string
	}{
		{"a file", file, "is not a directory"},
		{"under a file", filepath.Join(file, "sub"), "cannot create it"},
		{"a user's directory", filepath.Join(root, "user"), "holds files conform did not write (README.md, target.json)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := snapshot(t, root)
			d, err := Open(c.dir, Me("test"))
			if err == nil {
				d.Close()
				t.Fatal("opened")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v, want %q", err, c.want)
			}
			if after := snapshot(t, root); !mapsEqual(before, after) {
				t.Errorf("touched: before %v, after %v", before, after)
			}
		})
	}
	if os.Getuid() != 0 { // root writes anywhere
		ro := filepath.Join(root, "ro")
		put(t, root, map[string]string{"ro/": ""})
		os.Chmod(ro, 0o555)
		defer os.Chmod(ro, 0o755)
		if _, err := Open(filepath.Join(ro, "out"), Me("test")); err == nil || !strings.Contains(err.Error(), "cannot create it") {
			t.Errorf("read-only parent: %v", err)
		}
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// A directory conform wrote is opened again, its files replaced and
// removed; what appears in it meanwhile is not conform's.
func TestWriteAndRemoveOnlyOwnFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	owned(t, dir, map[string]string{"results.json": "run 1", "junit.xml": "j1"})
	d, err := Open(dir, Me("test"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got := d.Files(); !slices.Equal(got, []string{"junit.xml", "results.json"}) {
		t.Errorf("files %v", got)
	}
	put(t, dir, map[string]string{"late.txt": "a user's, written during the run"})
	steps := []struct {
		name    string
		do      func() error
		foreign bool
	}{
		{"replace its own file", func() error { return d.WriteFile("results.json", []byte("run 2"), 0o644) }, false},
		{"remove its own file", func() error { return d.Remove("junit.xml") }, false},
		{"remove a missing file", func() error { return d.Remove("ginkgo.json") }, false},
		{"remove a user's file", func() error { return d.Remove("late.txt") }, true},
		{"write over a user's file", func() error { return d.WriteFile("late.txt", nil, 0o644) }, true},
		{"create a file", func() error {
			f, err := d.Create("run.log")
			if err == nil {
				_, err = io.WriteString(f, "log")
				f.Close()
			}
			return err
		}, false},
		{"a bad name", func() error { return d.Record("../x") }, false},
		{"the manifest", func() error { return d.Record(ManifestFile) }, false},
	}
	for _, s := range steps {
		err := s.do()
		if is := errors.As(err, new(*ForeignError)); is != s.foreign {
			t.Errorf("%s: %v", s.name, err)
		}
		if strings.HasPrefix(s.name, "a bad") || strings.HasPrefix(s.name, "the manifest") {
			if err == nil {
				t.Errorf("%s: accepted", s.name)
			}
		}
	}
	for name, want := range map[string]string{"results.json": "run 2", "junit.xml": "(absent)", "late.txt": "a user's, written during the run", "run.log": "log"} {
		if got := read(dir, name); got != want {
			t.Errorf("%s holds %q, want %q", name, got, want)
		}
	}
	if got := d.Written(); !slices.Equal(got, []string{"results.json", "run.log"}) {
		t.Errorf("written %v", got)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	var fe *ForeignError
	if err := Check(dir); !errors.As(err, &fe) || !slices.Equal(fe.Entries, []string{"late.txt"}) {
		t.Errorf("after the run: %v", err)
	}
	os.Remove(filepath.Join(dir, "late.txt"))
	if err := Check(dir); err != nil {
		t.Errorf("sealed files: %v", err)
	}
}

// The steps of a reports directory over several runs: the last run's
// reports move to previous/, a certification keeps none, and a previous/
// that is not conform's is neither moved nor removed.
func TestRotate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	rotated := []string{"results.json", "junit.xml"}
	steps := []struct {
		name    string
		run     map[string]string // this run's files, written after the rotation
		foreign map[string]string // put there before the run
		removes bool              // a certification: previous/ removed, not rotated
		fails   bool
		want    map[string]string
	}{
		{name: "first run", run: map[string]string{"results.json": "run 1", "junit.xml": "j1", "ginkgo.json": "g1"},
			want: map[string]string{"previous/results.json": "(absent)", "results.json": "run 1"}},
		{name: "second run keeps the first", run: map[string]string{"results.json": "run 2"},
			want: map[string]string{"previous/results.json": "run 1", "previous/junit.xml": "j1", "previous/ginkgo.json": "(absent)", "ginkgo.json": "g1", "results.json": "run 2"}},
		{name: "third run replaces it", run: map[string]string{"results.json": "run 3"},
			want: map[string]string{"previous/results.json": "run 2", "previous/junit.xml": "(absent)"}},
		{name: "a user's file in previous/", foreign: map[string]string{"previous/mine.txt": "mine"}, fails: true,
			want: map[string]string{"previous/mine.txt": "mine", "previous/results.json": "run 2", "results.json": "run 3"}},
		{name: "a certification keeps none", removes: true, run: map[string]string{"results.json": "cert"},
			want: map[string]string{"previous/results.json": "(absent)", "previous/mine.txt": "(absent)", "results.json": "cert"}},
	}
	for _, s := range steps {
		put(t, dir, s.foreign)
		d, err := Open(dir, Me("test"))
		if s.fails {
			if err == nil {
				d.Close()
				t.Errorf("%s: opened", s.name)
			}
			for name, want := range s.want {
				if got := read(dir, name); got != want {
					t.Errorf("%s: %s holds %q, want %q", s.name, name, got, want)
				}
			}
			os.Remove(filepath.Join(dir, "previous/mine.txt")) // the user takes it away
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if s.removes {
			err = d.RemoveSub("previous")
		} else if d.Has("results.json") {
			err = d.Rotate("previous", rotated...)
		}
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		for name, body := range s.run {
			if err := d.WriteFile(name, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		for name, want := range s.want {
			if got := read(dir, name); got != want {
				t.Errorf("%s: %s holds %q, want %q", s.name, name, got, want)
			}
		}
		if err := Check(dir); err != nil {
			t.Errorf("%s: afterwards %v", s.name, err)
		}
	}
}

// A generation is removed or moved only when it is conform's, and then
// only conform's files in it.
func TestGenerations(t *testing.T) {
	cases := []struct {
		name   string
		before map[string]string // conform's (owned) files
		extra  map[string]string // put after them
		do     func(d *Dir) error
		err    bool
		want   map[string]string
	}{
		{name: "move a run's reports to .prev", before: map[string]string{"mutation/a.json": "a1", "mutation.prev/a.json": "a0", "mutation.prev/b.json": "b0"},
			do:   func(d *Dir) error { return d.MoveSub("mutation", "mutation.prev") },
			want: map[string]string{"mutation.prev/a.json": "a1", "mutation.prev/b.json": "(absent)", "mutation/a.json": "(absent)"}},
		{name: "nothing to move", before: map[string]string{"mutation.prev/a.json": "a0"},
			do:   func(d *Dir) error { return d.MoveSub("mutation", "mutation.prev") },
			want: map[string]string{"mutation.prev/a.json": "(absent)"}},
		{name: "an empty directory is left alone", extra: map[string]string{"previous/": ""},
			do:   func(d *Dir) error { return d.RemoveSub("previous") },
			want: map[string]string{"previous/" + ManifestFile: "(absent)"}},
		{name: "a file named like a generation", extra: map[string]string{"previous": "mine"},
			do: func(d *Dir) error { return d.RemoveSub("previous") }, err: true,
			want: map[string]string{"previous": "mine"}},
		{name: "an empty previous/ is filled", before: map[string]string{"results.json": "r1"}, extra: map[string]string{"previous/": ""},
			do:   func(d *Dir) error { return d.Rotate("previous", "results.json") },
			want: map[string]string{"previous/results.json": "r1", "results.json": "(absent)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			owned(t, dir, c.before)
			d, err := Open(dir, Me("test"))
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			put(t, dir, c.extra)
			if err := c.do(d); (err != nil) != c.err {
				t.Errorf("error %v, want one: %v", err, c.err)
			}
			for name, want := range c.want {
				if got := read(dir, name); got != want {
					t.Errorf("%s holds %q, want %q", name, got, want)
				}
			}
		})
	}
}

// A removal that meets a user's file removes nothing at all.
func TestRemoveSubRefusesBeforeRemoving(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	owned(t, dir, map[string]string{"previous/results.json": "r", "previous/junit.xml": "j"})
	d, err := Open(dir, Me("test"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	put(t, dir, map[string]string{"previous/zzz.txt": "mine"})
	before := snapshot(t, dir)
	if err := d.RemoveSub("previous"); !errors.As(err, new(*ForeignError)) {
		t.Errorf("got %v", err)
	}
	if err := d.MoveSub("other", "previous"); !errors.As(err, new(*ForeignError)) {
		t.Errorf("move over it: %v", err)
	}
	if after := snapshot(t, dir); !mapsEqual(before, after) {
		t.Errorf("touched: %v -> %v", before, after)
	}
}

func TestArchive(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "cert")
	write := func(body string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, body); return err }
	}
	steps := []struct {
		name   string
		before func()
		body   string
		err    bool
		want   string
	}{
		{name: "first", body: "tar 1", want: "tar 1"},
		{name: "its own is replaced", body: "tar 2", want: "tar 2"},
		{name: "changed since", before: func() { put(t, root, map[string]string{"cert.tar.gz": "a user's"}) }, body: "tar 3", err: true, want: "a user's"},
		{name: "a user's archive", before: func() {
			os.RemoveAll(dir)
			put(t, root, map[string]string{"cert.tar.gz": "mine"})
		}, body: "tar 4", err: true, want: "mine"},
		{name: "gone", before: func() { os.Remove(filepath.Join(root, "cert.tar.gz")) }, body: "tar 5", want: "tar 5"},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		if err := CheckArchive(dir); (err != nil) != s.err {
			t.Errorf("%s: check before opening: %v", s.name, err)
		}
		d, err := Open(dir, Me("test"))
		if err != nil {
			t.Fatal(err)
		}
		if err := d.CheckArchive(); (err != nil) != s.err {
			t.Errorf("%s: check: %v", s.name, err)
		}
		p, err := d.WriteArchive(write(s.body))
		if (err != nil) != s.err || (err == nil && p != dir+".tar.gz") {
			t.Errorf("%s: %q, %v", s.name, p, err)
		}
		d.Close()
		if got := read(root, "cert.tar.gz"); got != s.want {
			t.Errorf("%s: archive holds %q, want %q", s.name, got, s.want)
		}
		if fi, err := os.Stat(filepath.Join(root, "cert.tar.gz")); err == nil && !s.err && runtime.GOOS != "windows" && fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: archive mode %v", s.name, fi.Mode())
		}
		entries, _ := os.ReadDir(root)
		for _, e := range entries {
			if e.Name() != "cert" && e.Name() != "cert.tar.gz" {
				t.Errorf("%s: left %s", s.name, e.Name())
			}
		}
	}
}

func TestLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	first, err := Open(dir, Me("conform run --out out"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(dir, Me("conform run --out out"))
	var be *BusyError
	if !errors.As(err, &be) || be.Holder == nil || be.Holder.PID != os.Getpid() {
		t.Fatalf("second open: %v", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "conform run --out out") || !strings.Contains(msg, "pid ") || strings.Contains(msg, "\n") {
		t.Errorf("message %q", msg)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, LockFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file left: %v", err)
	}
	again, err := Open(dir, Me("conform run"))
	if err != nil {
		t.Fatalf("after the first closed: %v", err)
	}
	if again.StaleLock() != nil {
		t.Errorf("a released lock is stale: %v", again.StaleLock())
	}
	again.Close()
}

// The lock file of a conform that died (its lock released by the kernel)
// is taken over, and its holder told.
func TestStaleLockIsTakenOver(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no advisory locks")
	}
	dir := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip(err)
	}
	put(t, dir, map[string]string{LockFile: `{"pid":` + strconv.Itoa(dead.Process.Pid) + `,"started":"2026-01-02T03:04:05Z","command":"conform run --out x"}`})
	d, err := Open(dir, Me("conform run"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	h := d.StaleLock()
	if h == nil || h.PID != dead.Process.Pid || h.Command != "conform run --out x" || !h.Started.Equal(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)) {
		t.Errorf("stale holder %+v", h)
	}
	if got := readHolderAt(t, filepath.Join(dir, LockFile)); got.PID != os.Getpid() {
		t.Errorf("lock names %+v", got)
	}
}

func readHolderAt(t *testing.T, path string) Holder {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := readHolder(f)
	if h == nil {
		t.Fatal("no holder")
	}
	return *h
}

// A directory conform opened and wrote nothing to is left as it was found:
// no manifest, no lock.
func TestNothingWrittenLeavesNothing(t *testing.T) {
	for name, dir := range map[string]string{"new": filepath.Join(t.TempDir(), "new"), "empty": t.TempDir()} {
		d, err := Open(dir, Me("test"))
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Remove("results.json"); err != nil {
			t.Fatal(err)
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%s: left %v", name, entries)
		}
	}
}
