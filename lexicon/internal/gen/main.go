// Command gen builds Parlour's embedded English lexicons from SCOWL.
//
// It reads the word lists that Debian's scowl package installs
// (apt-get install -y scowl) and writes, into the lexicon package's data
// directory:
//
//   - words-35.lex, words-70.lex, words-95.lex: every word of en-large with
//     its size, split in three layers by size (up to 35, 40 to 70, 80 to 95),
//     front-coded and DEFLATE-compressed. en-common is the first layer, en
//     the first two, en-large all three, so loading a lexicon decompresses
//     only the words it holds;
//   - summary.txt: how many words each named lexicon holds, by length and by
//     commonness, which the package's tests check the loader against;
//   - SCOWL-COPYRIGHT: SCOWL's copyright and permission notice, which its
//     licence asks us to ship with the words.
//
// Words come only from the english, american and british "-words" lists and
// their variant_1, variant_2, british_variant_1 and british_variant_2 lists;
// never from proper-names, upper, abbreviations or contractions. A word keeps
// the smallest size of any list it appears in. Only lines made entirely of
// the letters a-z are kept, which drops words with capitals, apostrophes,
// hyphens and accents. SCOWL's word lists also hold the names of the letters
// (b, c, ...) and a few unit symbols written in lower case (kb, mf, csc...):
// these are not genuine words under the project's rulings, so only a and i
// stand as one-letter words and the symbols in notWord are dropped. The
// output depends only on the input files, so
// running gen twice gives identical bytes.
//
// Usage (from the lexicon directory, or through go generate ./lexicon):
//
//	go run ./internal/gen [-scowl /usr/share/dict/scowl] [-doc /usr/share/doc/scowl] [-out data]
package main

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// categories are the SCOWL spelling categories the lexicons draw on.
var categories = []string{
	"english", "american", "british",
	"variant_1", "variant_2", "british_variant_1", "british_variant_2",
}

// sizes are SCOWL's list sizes, most common first. A word's commonness in the
// data is its index here.
var sizes = []int{10, 20, 35, 40, 50, 55, 60, 70, 80, 95}

// lexicons are the named lexicons and the largest SCOWL size each holds.
var lexicons = []struct {
	name string
	max  int
}{
	{"en-common", 35},
	{"en", 70},
	{"en-large", 95},
}

// maxWordLen matches lexicon.MaxWordLen.
const maxWordLen = 64

// magic starts the decompressed data; the lexicon package checks it.
const magic = "parlour-lexicon 1\n"

func main() {
	scowl := flag.String("scowl", "/usr/share/dict/scowl", "directory holding SCOWL's final word lists")
	doc := flag.String("doc", "/usr/share/doc/scowl", "directory holding SCOWL's copyright file and README.gz")
	out := flag.String("out", "data", "directory to write the words-*.lex layers, summary.txt and SCOWL-COPYRIGHT")
	flag.Parse()
	if err := generate(*scowl, *doc, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func generate(scowlDir, docDir, outDir string) error {
	words, files, err := readWords(scowlDir)
	if err != nil {
		return err
	}
	version, err := scowlVersion(filepath.Join(docDir, "README.gz"))
	if err != nil {
		return err
	}
	notice, err := os.ReadFile(filepath.Join(docDir, "copyright"))
	if err != nil {
		return fmt.Errorf("reading SCOWL's copyright notice: %w", err)
	}
	list := sortWords(words)
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	type output struct {
		name string
		data []byte
	}
	var outputs []output
	below := 0
	for _, lx := range lexicons {
		var layer []entry
		for _, e := range list {
			if s := sizes[e.code]; s > below && s <= lx.max {
				layer = append(layer, e)
			}
		}
		data, err := encode(layer)
		if err != nil {
			return err
		}
		outputs = append(outputs, output{fmt.Sprintf("words-%d.lex", lx.max), data})
		below = lx.max
	}
	outputs = append(outputs,
		output{"summary.txt", summary(list, version, files)},
		output{"SCOWL-COPYRIGHT", notice})
	for _, o := range outputs {
		if err := os.WriteFile(filepath.Join(outDir, o.name), o.data, 0o644); err != nil {
			return err
		}
	}
	slog.Info("wrote lexicon data", "dir", outDir, "words", len(list), "scowl", version)
	return nil
}

// entry is one word and the index into sizes of its commonness.
type entry struct {
	word string
	code byte
}

// readWords reads every list of the chosen categories and returns each
// word's smallest size code, and the names of the files it read.
func readWords(dir string) (map[string]byte, []string, error) {
	words := make(map[string]byte)
	var files []string
	for _, cat := range categories {
		for code, size := range sizes {
			name := fmt.Sprintf("%s-words.%d", cat, size)
			f, err := os.Open(filepath.Join(dir, name))
			if errors.Is(err, os.ErrNotExist) {
				continue // not every category has every size
			}
			if err != nil {
				return nil, nil, fmt.Errorf("reading SCOWL (apt-get install -y scowl): %w", err)
			}
			err = readList(f, func(w string) {
				if old, ok := words[w]; !ok || byte(code) < old {
					words[w] = byte(code)
				}
			})
			f.Close()
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", name, err)
			}
			files = append(files, name)
		}
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("no SCOWL word lists in %s (apt-get install -y scowl)", dir)
	}
	return words, files, nil
}

// readList calls keep for every line of r made only of a-z.
func readList(r io.Reader, keep func(string)) error {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		w := strings.TrimRight(sc.Text(), "\r")
		if isWord(w) {
			keep(w)
		}
	}
	return sc.Err()
}

func isWord(w string) bool {
	if w == "" || len(w) > maxWordLen {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return !notWord(w)
}

// notWord reports whether w, made of a-z, is in SCOWL's word lists but is
// not a genuine word: a letter's name, or an abbreviation or unit symbol
// that the lists carry in lower case. Every such entry of the lists up to
// size 95 that has no vowel is named here, except the real words among them
// (brr, cwm, hmm, nth, psst, sh, shh, crwth...), which stay.
func notWord(w string) bool {
	if len(w) == 1 {
		return w != "a" && w != "i"
	}
	switch w {
	case "cs", "gs", "kb", "ks", "lm", "ln", "ls", "lx", "mb", "mf", "ms",
		"ps", "rs", "ss", "ts", "csc", "dkl", "hhd", "csch":
		return true
	}
	return false
}

// sortWords orders words by length, then alphabetically: the order the
// lexicon package keeps them in memory.
func sortWords(words map[string]byte) []entry {
	list := make([]entry, 0, len(words))
	for w, c := range words {
		list = append(list, entry{w, c})
	}
	slices.SortFunc(list, func(a, b entry) int {
		if len(a.word) != len(b.word) {
			return len(a.word) - len(b.word)
		}
		return strings.Compare(a.word, b.word)
	})
	return list
}

// encode writes the magic line, then for each word in order: its size code
// (0-9), how many leading letters it shares with the word before (0 for the
// first word of each length, so that each length can be read on its own),
// and the rest of its letters. Codes and shared counts are below 'a', so the
// letters need no terminator. The result is DEFLATE-compressed.
func encode(list []entry) ([]byte, error) {
	var raw bytes.Buffer
	raw.WriteString(magic)
	prev := ""
	for _, e := range list {
		shared := 0
		for len(prev) == len(e.word) && shared < len(prev) && prev[shared] == e.word[shared] {
			shared++
		}
		raw.WriteByte(e.code)
		raw.WriteByte(byte(shared))
		raw.WriteString(e.word[shared:])
		prev = e.word
	}
	var z bytes.Buffer
	w, err := flate.NewWriter(&z, flate.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(raw.Bytes()); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return z.Bytes(), nil
}

// summary describes each named lexicon: its word count, and its counts by
// length and by commonness.
func summary(list []entry, version string, files []string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Written by lexicon/internal/gen; DO NOT EDIT.\n")
	fmt.Fprintf(&b, "# Source: SCOWL %s, as Debian's scowl package installs it.\n", version)
	fmt.Fprintf(&b, "# Lists read (%d): %s\n", len(files), strings.Join(files, " "))
	fmt.Fprintf(&b, "# Lines: LEXICON words N | LEXICON length LETTERS N | LEXICON commonness SIZE N\n")
	for _, lx := range lexicons {
		total := 0
		byLen := map[int]int{}
		bySize := map[int]int{}
		for _, e := range list {
			if sizes[e.code] <= lx.max {
				total++
				byLen[len(e.word)]++
				bySize[sizes[e.code]]++
			}
		}
		fmt.Fprintf(&b, "%s words %d\n", lx.name, total)
		for n := 1; n <= maxWordLen; n++ {
			if byLen[n] > 0 {
				fmt.Fprintf(&b, "%s length %d %d\n", lx.name, n, byLen[n])
			}
		}
		for _, s := range sizes {
			if bySize[s] > 0 {
				fmt.Fprintf(&b, "%s commonness %d %d\n", lx.name, s, bySize[s])
			}
		}
	}
	return b.Bytes()
}

var versionLine = regexp.MustCompile(`(?m)^Version (\S+)`)

// scowlVersion reads SCOWL's version from its README.
func scowlVersion(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("reading SCOWL's README: %w", err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	head := make([]byte, 512)
	n, _ := io.ReadFull(z, head)
	m := versionLine.FindSubmatch(head[:n])
	if m == nil {
		return "", fmt.Errorf("%s: no Version line", path)
	}
	return string(m[1]), nil
}
