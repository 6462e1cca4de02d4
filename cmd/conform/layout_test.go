package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// maxFileLines bounds a production Go file of the repository: a longer one
// is split by what it holds.
const maxFileLines = 500

// oversizeAllowed are the trees not yet held to the bound; remove an entry
// once its files fit. Empty: every tree is held to it.
var oversizeAllowed []string

func TestNoProductionFileOverTheBound(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "bin" || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		for _, p := range oversizeAllowed {
			if strings.HasPrefix(rel, p) {
				return nil
			}
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := bytes.Count(b, []byte("\n")); n > maxFileLines {
			t.Errorf("%s: %d lines (at most %d): split it by what it holds", rel, n, maxFileLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A spec's assertion on a bare boolean fails with "Expected <bool>: false
// to be true", which says nothing of what was expected: every such
// assertion in the suites carries a message (or uses a matcher that
// describes the value).
func TestSuiteBooleanAssertionsSayWhy(t *testing.T) {
	root := filepath.Join("..", "..", "suites")
	bare := regexp.MustCompile(`To\((BeTrue|BeFalse)\(\)\)`)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if bare.MatchString(line) {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("suites/%s:%d: a boolean assertion without a message: %s", filepath.ToSlash(rel), i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
