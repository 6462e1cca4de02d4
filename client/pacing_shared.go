package client

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"
)

// A shared pacer keeps its buckets in a file that every process of a run
// opens: the processes pace against one budget of the source address they
// share, so a process may use what the others leave, instead of a fixed
// 1/N share of each row whether or not the others use it (over a path
// 20 ms each way, a certification's two processes spent much of their
// time waiting on half a row while the other half went unused).

// sharedBuckets is a pacer's buckets in a file, each class 16 bytes at
// offset 16*i: the tokens (float64 bits) and the time they were counted
// (Unix nanoseconds; 0 for a class never used). Every read-modify-write
// happens under an exclusive advisory lock on the file.
type sharedBuckets struct {
	f   *os.File
	buf []byte
}

const sharedBucketSize = 16

// NewSharedPacer paces to the whole of each class's rate and burst (with
// the 10% margin of NewPacer) together with every other pacer, in any
// process, over the same classes and file at path (created if missing).
// Where the file cannot be shared, it returns an error: the caller falls
// back to NewPacer with a share of its own. Should the file fail later,
// the pacer goes on alone at fallback (0..1] of each row, as NewPacer.
func NewSharedPacer(classes []PathClass, path string, fallback float64) (*Pacer, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("shared pacer: %w", err)
	}
	s := &sharedBuckets{f: f, buf: make([]byte, sharedBucketSize*len(classes))}
	if err := s.lock(); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("shared pacer %s: %w", path, err)
	}
	if err := s.unlock(); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("shared pacer %s: %w", path, err)
	}
	if fallback <= 0 || fallback > 1 {
		fallback = 1
	}
	p := NewPacer(classes, 1)
	p.shared, p.fallback = s, fallback
	return p, nil
}

// load locks the file and reads every class's bucket into b (a class never
// used has none).
func (s *sharedBuckets) load(b map[int]*bucket) error {
	if err := s.lock(); err != nil {
		return err
	}
	clear(s.buf)
	if _, err := s.f.ReadAt(s.buf, 0); err != nil && !errors.Is(err, io.EOF) {
		_ = s.unlock()
		return err
	}
	clear(b)
	for i := range len(s.buf) / sharedBucketSize {
		at := int64(binary.LittleEndian.Uint64(s.buf[i*sharedBucketSize+8:]))
		if at == 0 {
			continue
		}
		tokens := math.Float64frombits(binary.LittleEndian.Uint64(s.buf[i*sharedBucketSize:]))
		b[i] = &bucket{tokens: tokens, at: time.Unix(0, at)}
	}
	return nil
}

// store writes b back and unlocks the file.
func (s *sharedBuckets) store(b map[int]*bucket) error {
	clear(s.buf)
	for i, k := range b {
		if k == nil || i >= len(s.buf)/sharedBucketSize {
			continue
		}
		binary.LittleEndian.PutUint64(s.buf[i*sharedBucketSize:], math.Float64bits(k.tokens))
		binary.LittleEndian.PutUint64(s.buf[i*sharedBucketSize+8:], uint64(k.at.UnixNano()))
	}
	_, err := s.f.WriteAt(s.buf, 0)
	if uerr := s.unlock(); err == nil {
		err = uerr
	}
	return err
}
