package lexicon

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseHouseList(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string // every word, by length then alphabetically
	}{
		{"plain", "crane\npsalm\n", []string{"crane", "psalm"}},
		{"no final newline", "crane\npsalm", []string{"crane", "psalm"}},
		{"comments and blanks", "# our words\n\ncrane  # a bird\n   \n\t psalm\t\n#last", []string{"crane", "psalm"}},
		{"any case, duplicates once", "Crane\nCRANE\ncrane\nPsalm", []string{"crane", "psalm"}},
		{"CRLF and a byte-order mark", "\uFEFFcrane\r\npsalm\r\n", []string{"crane", "psalm"}},
		{"one letter and the longest", "a\n" + strings.Repeat("z", MaxWordLen), []string{"a", strings.Repeat("z", MaxWordLen)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			l, err := Parse("house.txt", strings.NewReader(c.text))
			if err != nil {
				t.Fatal(err)
			}
			if l.Name() != "house.txt" || !slices.Equal(allWords(l), c.want) {
				t.Errorf("Parse = %q %q, want %q", l.Name(), allWords(l), c.want)
			}
			for _, w := range c.want {
				if size, ok := l.Commonness(w); !ok || size != 10 {
					t.Errorf("Commonness(%q) = %d, %v", w, size, ok)
				}
			}
		})
	}
}

func allWords(l *Lexicon) []string {
	var out []string
	for n := 1; n <= MaxWordLen; n++ {
		out = append(out, l.OfLength(n)...)
	}
	return out
}

func TestParseHouseListRefusesBadInput(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       string
	}{
		{"empty file", "", "house.txt: no words"},
		{"only comments", "# nothing here\n\n   # still nothing\n", "house.txt: no words"},
		{"apostrophe", "crane\ndon't\n", `house.txt:2: "don't" holds "'", which is not a letter a-z`},
		{"digit", "crane\npsalm\nr2d2", `house.txt:3: "r2d2" holds "2"`},
		{"accented letter", "café", `house.txt:1: "café" holds "é"`},
		{"hyphen", "well-known", `holds "-"`},
		{"two words", "crane\npsalm tree\n", `house.txt:2: "psalm tree" is more than one word`},
		{"absurd length", "crane\n" + strings.Repeat("a", MaxWordLen+1), "house.txt:2: a word of 65 letters is longer than the 64 allowed"},
		{"line too long", strings.Repeat("b", 10000), "house.txt:1: line longer than 4096 bytes"},
		{"line too long, not ASCII", "crane\n" + strings.Repeat("é", 3000), "house.txt:2: line longer than 4096 bytes"},
		{"line too long, three-byte characters", strings.Repeat("€", 3000), "house.txt:1: line longer than 4096 bytes"},
		{"binary (NUL)", "crane\n\x00\x01\x02\x03ELF", "house.txt:2: binary data"},
		{"binary (not UTF-8)", "\xff\xfe\x00c\x00r", "house.txt:1: binary data"},
		{"binary, one long line", strings.Repeat("\x00\x9f", 5000), "house.txt:1: binary data"},
	} {
		t.Run(c.name, func(t *testing.T) {
			l, err := Parse("house.txt", strings.NewReader(c.text))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Parse = %v, %v; want an error saying %q", l, err, c.want)
			}
			if l != nil {
				t.Error("a lexicon as well as an error")
			}
		})
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "house.txt")
	if err := os.WriteFile(good, []byte("# house words\nQuizl\nnymphabet\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, load := range []func(string) (*Lexicon, error){Load, LoadFile} {
		l, err := load(good)
		if err != nil {
			t.Fatal(err)
		}
		if l.Name() != good || l.Len() != 2 || !l.Has("quizl") || l.Has("crane") {
			t.Errorf("loaded %q with %d words", l.Name(), l.Len())
		}
	}

	binary := filepath.Join(dir, "parlour.bin")
	if err := os.WriteFile(binary, []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, want string
	}{
		{filepath.Join(dir, "missing.txt"), "missing.txt: no such file"},
		{dir, "is a directory"},
		{binary, "parlour.bin:1: binary data"},
		{empty, "empty.txt: no words"},
		// Not a lexicon's name, so a path; a mistyped name is told the names.
		{"en-medium", `no lexicon "en-medium" and no file of that name: the lexicons are en-common, en and en-large`},
		{"EN-Lrage", `no lexicon "EN-Lrage"`},
	} {
		l, err := Load(c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Load(%q) = %v, %v; want an error saying %q", c.path, l, err, c.want)
		}
	}
	// A lexicon's name in another case, with no file of that name, is
	// the lexicon.
	for name, want := range map[string]string{"EN": "en", "En-Common": "en-common"} {
		if l, err := Load(name); err != nil || l.Name() != want {
			t.Errorf("Load(%q) = %v, %v; want %s", name, l, err, want)
		}
	}

	if os.Geteuid() != 0 { // root reads any file
		locked := filepath.Join(dir, "locked.txt")
		if err := os.WriteFile(locked, []byte("crane\n"), 0o000); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(locked); err == nil || !strings.Contains(err.Error(), "permission denied") {
			t.Errorf("Load(unreadable) = %v, want permission denied", err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"crane\npsalm\n",
		"# comment\n\nCrane # bird\r\n",
		"\uFEFFa\nb\nc",
		"don't\n",
		"café",
		"two words",
		strings.Repeat("a", MaxWordLen+1),
		"\x00\x01binary",
		"",
		"#",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse("fuzz.txt", strings.NewReader(string(data)))
		if err != nil {
			if l != nil {
				t.Fatal("a lexicon and an error")
			}
			if !strings.HasPrefix(err.Error(), "lexicon: fuzz.txt") || !utf8.ValidString(err.Error()) {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		words := allWords(l)
		if len(words) == 0 || len(words) != l.Len() {
			t.Fatalf("%d words, Len %d", len(words), l.Len())
		}
		lines := strings.ToLower(string(data))
		for _, w := range words {
			if !validWord(w) || !l.Has(w) || !strings.Contains(lines, w) {
				t.Fatalf("word %q", w)
			}
		}
	})
}
