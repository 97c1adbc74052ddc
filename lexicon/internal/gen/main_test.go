package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	scowlDir = "/usr/share/dict/scowl"
	docDir   = "/usr/share/doc/scowl"
)

// TestGenerateIsReproducible runs the generator twice and checks that both
// runs, and the data committed in the lexicon package, are the same bytes.
// It needs Debian's scowl package (apt-get install -y scowl).
func TestGenerateIsReproducible(t *testing.T) {
	if _, err := os.Stat(scowlDir); err != nil {
		t.Skipf("SCOWL is not installed (apt-get install -y scowl): %v", err)
	}
	if testing.Short() {
		t.Skip("generates the lexicon data twice")
	}
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if err := generate(scowlDir, docDir, dir); err != nil {
			t.Fatal(err)
		}
	}
	names, err := filepath.Glob(filepath.Join("..", "..", "data", "*"))
	if err != nil || len(names) != 5 {
		t.Fatalf("committed data: %v, %v", names, err)
	}
	for _, committed := range names {
		name := filepath.Base(committed)
		want, err := os.ReadFile(committed)
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range []string{a, b} {
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the committed lexicon/data/%s (run go generate ./lexicon)", filepath.Join(dir, name), name)
			}
		}
	}
}

func TestGenerateWithoutSCOWL(t *testing.T) {
	err := generate(t.TempDir(), t.TempDir(), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "apt-get install -y scowl") {
		t.Errorf("generate from an empty directory: %v; want a hint to install scowl", err)
	}
}

func TestReadListKeepsOnlyLowerCaseLetters(t *testing.T) {
	in := "crane\nLondon\ndon't\ncafé\nwell-known\n\nzebra\r\nb\na\nkb\ncsc\nbrr\ni\n" + strings.Repeat("a", maxWordLen+1) + "\n"
	var got []string
	if err := readList(strings.NewReader(in), func(w string) { got = append(got, w) }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != "crane zebra a brr i" {
		t.Errorf("kept %q", got)
	}
}
