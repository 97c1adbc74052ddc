package docs

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
)

// guideLines is the most lines a document may hold. A guide (deploy.md,
// terminal.md, performance.md and the like) is read through, and 1,000
// lines is about 25 screens, an hour's careful reading: past that a
// reader stops following and starts searching, and a document that grew
// there by accretion has turned into a notebook of its own history. The
// longest guides, performance.md and terminal.md, hold about 950 to 1,000.
const guideLines = 1000

// referenceLines is the most lines of the documents in references, which
// are not read through but consulted by section from their headings.
// 2,000 lines holds the one there is, protocol.md, at about 1,500, with
// room for a fifth game's messages; a dated log of measurements, which
// belongs in git's history, does not fit.
const referenceLines = 2000

// references are the documents allowed referenceLines, and why each is
// long by nature.
var references = map[string]string{
	// Every endpoint, field and WebSocket message, as the project requires
	// them documented, after a quick start on its first screen.
	"docs/protocol.md": "the HTTP API and WebSocket reference",
}

// TestDocumentSize fails on a document over its limit: guideLines, or
// referenceLines for a reference.
func TestDocumentSize(t *testing.T) {
	root := os.DirFS("..")
	for _, page := range pages(t, root) {
		b, err := fs.ReadFile(root, page)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkSize(page, b); err != nil {
			t.Error(err)
		}
	}
	for page := range references {
		if _, err := fs.Stat(root, page); err != nil {
			t.Errorf("references names %s, which is gone: %v", page, err)
		}
	}
}

// sizeError says which document is too long, by how much, and what to do.
type sizeError struct {
	page         string
	lines, limit int
}

func (e sizeError) Error() string {
	return fmt.Sprintf("%s: %d lines, over the %d a reader can take in: split it by reader, or leave its history to git", e.page, e.lines, e.limit)
}

// checkSize returns a sizeError when the document page, holding b, has
// more lines than its limit.
func checkSize(page string, b []byte) error {
	limit := guideLines
	if _, ok := references[page]; ok {
		limit = referenceLines
	}
	if n := bytes.Count(b, []byte("\n")); n > limit {
		return sizeError{page, n, limit}
	}
	return nil
}

func TestSizeAndTmpHelpers(t *testing.T) {
	long := bytes.Repeat([]byte("a line\n"), guideLines+1)
	for _, c := range []struct {
		page string
		b    []byte
		want bool
	}{
		{"docs/deploy.md", bytes.Repeat([]byte("a line\n"), guideLines), false},
		{"docs/deploy.md", long, true},
		{"docs/protocol.md", long, false},
		{"docs/protocol.md", bytes.Repeat([]byte("a line\n"), referenceLines+1), true},
	} {
		if err := checkSize(c.page, c.b); (err != nil) != c.want {
			t.Errorf("checkSize(%s, %d lines) = %v, want an error: %v", c.page, bytes.Count(c.b, []byte("\n")), err, c.want)
		}
	}
	for _, c := range []struct {
		text string
		want int
	}{
		{"rm -rf /" + "tmp/ltdata", 1},
		{"BIN=/" + "tmp/parlour-old bash docs/door-measure.sh", 1},
		{"data in /" + "tmp", 1},
		{"`/" + "tmp/x`\nfine\n(/" + "tmp/y)", 2},
		{"DATA=$(mktemp -d)", 0},
		{"/var/tmp/x and ~/tmp/y and ./tmp/z and a/tmp/b", 0},
		{"/tmpfs and /tmpl", 0},
	} {
		if got := len(tmpPaths([]byte(c.text))); got != c.want {
			t.Errorf("tmpPaths(%q): %d lines, want %d", c.text, got, c.want)
		}
	}
}

// tmpPath matches a path under the temporary folder of one machine: a
// reader's machine has other files there, or none, so a document or
// script names a folder the reader makes ($(mktemp -d), DIR) instead.
// The pattern is built so that this file's own text does not match it.
var tmpPath = regexp.MustCompile(`(^|[^\w.~-])/` + `tmp(/|\b)`)

// TestNoTmpPaths fails on a temporary folder's path in any text file of
// docs/ or in the README.
func TestNoTmpPaths(t *testing.T) {
	root := os.DirFS("..")
	files := []string{"README.md"}
	err := fs.WalkDir(root, "docs", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		b, err := fs.ReadFile(root, f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(b, 0) >= 0 {
			continue // an image
		}
		checked++
		for _, hit := range tmpPaths(b) {
			t.Errorf("%s:%d: a temporary folder's path: %s", f, hit.line, hit.text)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d text files read: the walk missed docs/", checked)
	}
}

// tmpHit is a line holding a temporary folder's path.
type tmpHit struct {
	line int
	text string
}

// tmpPaths returns the lines of b that name a temporary folder's path.
func tmpPaths(b []byte) []tmpHit {
	var out []tmpHit
	for i, line := range strings.Split(string(b), "\n") {
		if tmpPath.MatchString(line) {
			out = append(out, tmpHit{i + 1, strings.TrimSpace(line)})
		}
	}
	return out
}

// pages returns README.md and every Markdown document under docs/.
func pages(t *testing.T, root fs.FS) []string {
	t.Helper()
	out := []string{"README.md"}
	err := fs.WalkDir(root, "docs", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path.Ext(p) == ".md" {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
