package lexicon

import (
	"bufio"
	"bytes"
	"compress/flate"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// summary is what internal/gen says each named lexicon holds.
type summary struct {
	words        int
	byLength     map[int]int
	byCommonness map[int]int
}

func readSummary(t *testing.T) map[string]*summary {
	t.Helper()
	f, err := os.Open("data/summary.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]*summary{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		nums := make([]int, len(fs)-2)
		for i := range nums {
			if nums[i], err = strconv.Atoi(fs[i+2]); err != nil {
				t.Fatalf("summary line %q: %v", line, err)
			}
		}
		s := out[fs[0]]
		if s == nil {
			s = &summary{byLength: map[int]int{}, byCommonness: map[int]int{}}
			out[fs[0]] = s
		}
		switch fs[1] {
		case "words":
			s.words = nums[0]
		case "length":
			s.byLength[nums[0]] = nums[1]
		case "commonness":
			s.byCommonness[nums[0]] = nums[1]
		default:
			t.Fatalf("summary line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestNamedLexiconsMatchSummary(t *testing.T) {
	sum := readSummary(t)
	names := Names()
	if len(sum) != len(names) {
		t.Fatalf("summary describes %d lexicons, Names gives %v", len(sum), names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			want := sum[name]
			if want == nil {
				t.Fatalf("summary lacks %s", name)
			}
			l, err := Load(name)
			if err != nil {
				t.Fatal(err)
			}
			if l.Name() != name || l.Len() != want.words {
				t.Errorf("Load(%q) = %q with %d words, want %d", name, l.Name(), l.Len(), want.words)
			}
			for n := 0; n <= MaxWordLen+1; n++ {
				if got := len(l.OfLength(n)); got != want.byLength[n] {
					t.Errorf("%d words of %d letters, want %d", got, n, want.byLength[n])
				}
			}
			if byCommonness := l.Sizes(); !maps(byCommonness, want.byCommonness) {
				t.Errorf("counts by commonness %v, want %v", byCommonness, want.byCommonness)
			}
		})
	}
	if sum["en"].words < 100000 || sum["en-common"].words >= sum["en"].words || sum["en"].words >= sum["en-large"].words {
		t.Errorf("implausible sizes: %d, %d, %d", sum["en-common"].words, sum["en"].words, sum["en-large"].words)
	}
}

// TestEmbeddedDescribesNames: Embedded describes each of Names, in order,
// with the count of words the summary (and so the lexicon) holds.
func TestEmbeddedDescribesNames(t *testing.T) {
	t.Parallel()
	sum := readSummary(t)
	about := Embedded()
	if len(about) != len(Names()) {
		t.Fatalf("Embedded describes %d lexicons, Names gives %v", len(about), Names())
	}
	for i, a := range about {
		if a.Name != Names()[i] || a.Title == "" || sum[a.Name] == nil || a.Words != sum[a.Name].words {
			t.Errorf("Embedded()[%d] = %+v; Names()[%d] = %q, with %v words", i, a, i, Names()[i], sum[a.Name])
		}
	}
}

func maps(a, b map[int]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestDefaultIsSharedEn(t *testing.T) {
	l, err := Load("en")
	if err != nil {
		t.Fatal(err)
	}
	if Default() != l || Default().Name() != DefaultName {
		t.Error("Load(\"en\") and Default() differ")
	}
}

func TestCommonWordsPresent(t *testing.T) {
	for _, name := range []string{"en-common", "en", "en-large"} {
		l, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{"psalm", "crane", "restaurant", "xylophone", "promontory", "topical", "aback", "jackal", "a", "the"} {
			if !l.Has(w) || !l.HasFold(strings.ToUpper(w)) {
				t.Errorf("%s lacks %q", name, w)
			}
			if c, ok := l.Commonness(w); !ok || c > 35 {
				t.Errorf("%s: Commonness(%q) = %d, %v; want at most 35", name, w, c, ok)
			}
		}
	}
	l := Default()
	for _, c := range []struct {
		word string
		size int
	}{{"a", 10}, {"restaurant", 20}, {"psalm", 35}} {
		if got, _ := l.Commonness(c.word); got != c.size {
			t.Errorf("Commonness(%q) = %d, want %d", c.word, got, c.size)
		}
	}
	// en-large holds rare words that en leaves out.
	large, _ := Load("en-large")
	for _, w := range []string{"london", "isnt"} { // only in english-words.95
		if !large.Has(w) || l.Has(w) {
			t.Errorf("%q: en-large %v, en %v; want only en-large", w, large.Has(w), l.Has(w))
		}
	}
}

func TestNotWordsAbsent(t *testing.T) {
	// Each of these appears in SCOWL only among proper names, upper-case
	// words, abbreviations or contractions.
	absent := []string{
		"ortega", "alamogordo", "sheppard", "kerouac", "ghent", // names
		"abbr", "lgbt", "wyo", "conj", // abbreviations
		"shouldve", "couldve", "youll", // contractions
	}
	for _, name := range []string{"en-common", "en", "en-large"} {
		l, _ := Load(name)
		for _, w := range absent {
			if l.Has(w) || l.HasFold(w) {
				t.Errorf("%s holds %q", name, w)
			}
		}
		for _, w := range []string{"", "I'm", "o'clock", "London", "crane ", "crâne", strings.Repeat("a", MaxWordLen+1), "cr\x00ne"} {
			if l.Has(w) {
				t.Errorf("%s: Has(%q)", name, w)
			}
		}
	}
	if !Default().HasFold("CrAnE") || Default().Has("CRANE") {
		t.Error("Has must want lower case and HasFold any case")
	}
}

// randomWords returns count distinct random words of 1 to maxLen letters,
// drawn from the first letters of the alphabet so that patterns and runs
// find many.
func randomWords(r *rand.Rand, count, maxLen, letters int) []string {
	seen := map[string]bool{}
	var out []string
	for len(out) < count {
		b := make([]byte, 1+r.IntN(maxLen))
		for i := range b {
			b[i] = byte('a' + r.IntN(letters))
		}
		if w := string(b); !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

func TestHasAgreesWithASet(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	words := randomWords(r, 5000, MaxWordLen, 26)
	short := randomWords(r, 3000, 6, 5)
	words = append(words, short...)
	l := FromWords("house", append(words, "Upper", "not a word", "", "don't"))
	set := map[string]bool{"upper": true}
	for _, w := range words {
		set[w] = true
	}
	if l.Len() != len(set) {
		t.Fatalf("Len = %d, want %d", l.Len(), len(set))
	}
	probes := append(randomWords(r, 5000, MaxWordLen, 26), randomWords(r, 2000, 6, 5)...)
	probes = append(probes, words...)
	for _, w := range probes {
		if l.Has(w) != set[w] {
			t.Fatalf("Has(%q) = %v, want %v", w, l.Has(w), set[w])
		}
		if c, ok := l.Commonness(w); ok != set[w] || ok && c != 10 {
			t.Fatalf("Commonness(%q) = %d, %v", w, c, ok)
		}
	}
	for n := 1; n <= MaxWordLen; n++ {
		var want []string
		for w := range set {
			if len(w) == n {
				want = append(want, w)
			}
		}
		slices.Sort(want)
		if got := l.OfLength(n); !slices.Equal(got, want) {
			t.Fatalf("OfLength(%d) = %d words, want %d", n, len(got), len(want))
		}
	}
}

// bruteMatch is Match by scanning every word of the pattern's length.
func bruteMatch(words []string, pattern string, opt MatchOptions) []string {
	var out []string
	for _, w := range words {
		if len(w) != len(pattern) {
			continue
		}
		ok := true
		var seen [26]bool
		for i := 0; i < len(w) && ok; i++ {
			p := lower(pattern[i])
			switch {
			case p == '?' || p == '.':
				ok = !strings.ContainsRune(strings.ToLower(opt.Exclude), rune(w[i]))
			default:
				ok = w[i] == p
			}
			if opt.Distinct {
				ok = ok && !seen[w[i]-'a']
				seen[w[i]-'a'] = true
			}
		}
		if ok {
			out = append(out, w)
		}
	}
	return out
}

func TestMatchAgreesWithBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	house := randomWords(r, 4000, 30, 4)
	lexicons := []*Lexicon{Default(), FromWords("house", house)}
	for _, l := range lexicons {
		var all []string
		for n := 1; n <= MaxWordLen; n++ {
			all = append(all, l.OfLength(n)...)
		}
		queries := 300
		if testing.Short() {
			queries = 60
		}
		for range queries {
			// A pattern from a real word, most letters hidden.
			w := all[r.IntN(len(all))]
			p := []byte(w)
			for i := range p {
				switch r.IntN(5) {
				case 0, 1, 2:
					p[i] = "?."[r.IntN(2)]
				case 3:
					p[i] -= 'a' - 'A'
				}
			}
			var opt MatchOptions
			if r.IntN(2) == 0 {
				for range r.IntN(4) {
					opt.Exclude += string(rune('a' + r.IntN(26)))
				}
			}
			opt.Distinct = r.IntN(2) == 0
			got, err := l.Match(string(p), opt)
			if err != nil {
				t.Fatal(err)
			}
			if want := bruteMatch(all, string(p), opt); !slices.Equal(got, want) {
				t.Fatalf("%s: Match(%q, %+v) = %d words, want %d: %v", l.Name(), p, opt, len(got), len(want), want)
			}
		}
	}
}

func TestMatchExamples(t *testing.T) {
	l := FromWords("t", []string{"crane", "crate", "grace", "cease", "chase", "caste", "canoe", "civic", "cocoa"})
	for _, c := range []struct {
		pattern string
		opt     MatchOptions
		want    []string
	}{
		{"c?a?e", MatchOptions{}, []string{"cease", "chase", "crane", "crate"}},
		{"C.A.E", MatchOptions{Exclude: "R"}, []string{"cease", "chase"}},
		{"c???e", MatchOptions{Distinct: true}, []string{"canoe", "caste", "chase", "crane", "crate"}},
		{"c?c??", MatchOptions{}, []string{"cocoa"}},
		{"?????", MatchOptions{Exclude: "aeiou"}, nil},
		{"zzzzzz", MatchOptions{}, nil},
	} {
		got, err := l.Match(c.pattern, c.opt)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("Match(%q, %+v) = %v, %v; want %v", c.pattern, c.opt, got, err, c.want)
		}
	}
}

func TestMatchRefusesBadPatterns(t *testing.T) {
	l := Default()
	for _, c := range []struct {
		pattern string
		opt     MatchOptions
		want    string
	}{
		{"", MatchOptions{}, "empty pattern"},
		{"c*a?e", MatchOptions{}, `"*" at position 2`},
		{"cr ne", MatchOptions{}, `" " at position 3`},
		{"crâne", MatchOptions{}, `"â" at position 3`},
		{strings.Repeat("?", MaxWordLen+1), MatchOptions{}, "longer than the 64"},
		{"c?a?e", MatchOptions{Exclude: "r1"}, `"1" is not a letter`},
	} {
		got, err := l.Match(c.pattern, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) || got != nil {
			t.Errorf("Match(%q, %+v) = %v, %v; want an error saying %q", c.pattern, c.opt, got, err, c.want)
		}
	}
}

func TestRun(t *testing.T) {
	for _, c := range []struct {
		word string
		wrap bool
		want int
	}{
		{"", false, 0},
		{"Abc", false, 0},
		{"abc", false, 3},
		{"about", false, 2},
		{"acbd", false, 2},    // a, b; the c came before the b
		{"bicycle", false, 2}, // b, c
		{"xylophone", false, 2},
		{"yzab", false, 2},
		{"yzab", true, 4},
		{"zebra", false, 1},
		{"zebra", true, 2}, // z, a
		{"abcdefghijklmnopqrstuvwxyz", false, 26},
		{"zabcdefghijklmnopqrstuvwxyz", true, 26},
	} {
		if got := Run(c.word, c.wrap); got != c.want {
			t.Errorf("Run(%q, %v) = %d, want %d", c.word, c.wrap, got, c.want)
		}
	}
}

func TestRunsAgreeWithBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	// Words rich in long runs, and runs through z, for the stored-run
	// shortcuts and their exceptions.
	var house []string
	for range 3000 {
		start := r.IntN(26)
		var b []byte
		for i := range 1 + r.IntN(40) {
			if r.IntN(4) == 0 {
				b = append(b, byte('a'+r.IntN(26)))
			}
			b = append(b, byte('a'+(start+i)%26))
		}
		house = append(house, string(b))
	}
	house = append(house, "abcdefghijklmnopqrstuvwxyz", "zyx", "xyzabcdefghijklmnopqrstuvw")
	for _, l := range []*Lexicon{Default(), FromWords("runs", house)} {
		var all []string
		for n := 1; n <= MaxWordLen; n++ {
			all = append(all, l.OfLength(n)...)
		}
		for _, wrap := range []bool{false, true} {
			want := map[[2]int][]string{}
			for _, w := range all {
				k := [2]int{int(w[0] - 'a'), Run(w, wrap)}
				want[k] = append(want[k], w)
			}
			for c := range 26 {
				for n := 0; n <= 27; n++ {
					got := l.Runs(byte('a'+c), n, wrap)
					if !slices.Equal(got, want[[2]int{c, n}]) {
						t.Fatalf("%s: Runs(%c, %d, %v) = %d words, want %d", l.Name(), 'a'+c, n, wrap, len(got), len(want[[2]int{c, n}]))
					}
				}
			}
		}
	}
	if got := Default().Runs('A', 1, false); len(got) == 0 || got[0][0] != 'a' {
		t.Errorf("Runs('A') = %d words; want the words of 'a'", len(got))
	}
	for _, bad := range []byte{'1', ' ', 0, 0xff} {
		if got := Default().Runs(bad, 1, false); got != nil {
			t.Errorf("Runs(%q) = %d words, want none", bad, len(got))
		}
	}
}

func TestByCommonness(t *testing.T) {
	l, _ := Load("en-common")
	prev, prevSize, n := "", 0, 0
	for w, size := range l.ByCommonness() {
		if c, ok := l.Commonness(w); !ok || c != size {
			t.Fatalf("yielded %q with %d; Commonness says %d, %v", w, size, c, ok)
		}
		if size < prevSize || size == prevSize && w <= prev {
			t.Fatalf("%q (%d) after %q (%d)", w, size, prev, prevSize)
		}
		prev, prevSize = w, size
		n++
	}
	if n != l.Len() {
		t.Errorf("yielded %d words of %d", n, l.Len())
	}
	for w := range l.ByCommonness() {
		if w != "a" {
			t.Errorf("first word %q, want \"a\"", w)
		}
		break
	}
}

func deflate(t *testing.T, b []byte) []byte {
	t.Helper()
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.BestSpeed)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return z.Bytes()
}

func TestCorruptDataIsAnError(t *testing.T) {
	raw := []byte(dataMagic + "\x00\x00cat\x00\x01og\x01\x00zzz")
	for _, bad := range [][]byte{
		nil,
		[]byte("not deflate at all"),
		deflate(t, []byte("wrong magic\n")),
		deflate(t, raw[:len(raw)-3]), // a record with no letters
		deflate(t, []byte(dataMagic+"\x00\x05cat")),            // shares more than the last word had
		deflate(t, []byte(dataMagic+"\x00\x00dog\x00\x00cat")), // out of order
		deflate(t, []byte(dataMagic+"\x0b\x00cat")),            // no such size
	} {
		if l, err := decodeData("x", 95, bad); err == nil {
			t.Errorf("decodeData(%q) = %d words, want an error", bad, l.Len())
		}
	}
	l, err := decodeData("x", 95, deflate(t, raw))
	if err != nil || l.Len() != 3 || !l.Has("cog") || !l.Has("zzz") {
		t.Errorf("decodeData = %v, %v", l, err)
	}
	if l, _ := decodeData("x", 10, deflate(t, raw)); l.Len() != 2 || l.Has("zzz") {
		t.Errorf("up to size 10: %d words", l.Len())
	}
}

func ExampleLexicon_Has() {
	l := Default()
	fmt.Println(l.Has("psalm"), l.Has("psalmz"), l.Has("PSALM"), l.HasFold("PSALM"))
	// Output: true false false true
}

func ExampleLexicon_Match() {
	l := Default()
	words, err := l.Match("c?a?e", MatchOptions{Exclude: "r", Distinct: true})
	fmt.Println(words, err)
	// Output: [chafe chape chase clade clave] <nil>
}

func ExampleLexicon_Commonness() {
	size, ok := Default().Commonness("restaurant")
	fmt.Println(size, ok)
	// Output: 20 true
}

func ExampleRun() {
	fmt.Println(Run("bicycle", false), Run("zebra", false), Run("zebra", true))
	// Output: 2 1 2
}

func ExampleLoad() {
	l, err := Load("en-common")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(l.Name(), l.Has("crane"), l.Has("promontory"), l.Has("ziggurat"))
	// Output: en-common true true false
}

func TestLookupsDoNotAllocate(t *testing.T) {
	l := Default()
	words := []string{"psalm", "PSALM", "psalmz", "counterrevolutionaries", "", "don't", strings.Repeat("a", 100)}
	allocs := testing.AllocsPerRun(100, func() {
		for _, w := range words {
			l.Has(w)
			l.HasFold(w)
			l.Commonness(w)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run of lookups, want 0", allocs)
	}
}
