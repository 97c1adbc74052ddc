package lexicon

import (
	"bufio"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchWords returns the default lexicon's words, and 1024 queries: half of
// them words, half not.
func benchQueries(b *testing.B) (*Lexicon, []string, []string) {
	b.Helper()
	l := Default()
	var all []string
	for n := 1; n <= MaxWordLen; n++ {
		all = append(all, l.OfLength(n)...)
	}
	r := rand.New(rand.NewPCG(1, 2))
	q := make([]string, 0, 1024)
	for len(q) < 1024 {
		w := all[r.IntN(len(all))]
		if len(q)%2 == 1 {
			bs := []byte(w)
			bs[r.IntN(len(bs))] = byte('a' + r.IntN(26))
			if l.Has(string(bs)) {
				continue
			}
			w = string(bs)
		}
		q = append(q, w)
	}
	return l, all, q
}

// mapOf builds the map a simple program would: each word read from a word
// list as its own string.
func mapOf(text string) map[string]struct{} {
	m := make(map[string]struct{})
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		m[sc.Text()] = struct{}{}
	}
	return m
}

func BenchmarkHas(b *testing.B) {
	l, all, q := benchQueries(b)
	m := mapOf(strings.Join(all, "\n"))
	b.Run("lexicon", func(b *testing.B) {
		b.ReportAllocs()
		found := 0
		for i := 0; b.Loop(); i++ {
			if l.Has(q[i&1023]) {
				found++
			}
		}
		if found == 0 {
			b.Fatal("found nothing")
		}
	})
	b.Run("map", func(b *testing.B) {
		b.ReportAllocs()
		found := 0
		for i := 0; b.Loop(); i++ {
			if _, ok := m[q[i&1023]]; ok {
				found++
			}
		}
		if found == 0 {
			b.Fatal("found nothing")
		}
	})
}

// heapGrowth reports how many bytes of heap the value build returns keeps
// alive.
func heapGrowth(build func() any) (uint64, any) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	v := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(v)
	return after.HeapAlloc - before.HeapAlloc, v
}

// BenchmarkLoad times building the default lexicon from the embedded data,
// beside building a map[string]struct{} of the same words from a word list.
func BenchmarkLoad(b *testing.B) {
	b.Run("lexicon", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decode("en", 70); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("map", func(b *testing.B) {
		b.ReportAllocs()
		text := strings.Join(allWords(Default()), "\n")
		for b.Loop() {
			mapOf(text)
		}
	})
}

// BenchmarkMemory reports the heap that the default lexicon keeps alive
// (lexicon-bytes), the heap of a map[string]struct{} of the same words read
// from a word list (map-bytes), and the first as a fraction of the second,
// all measured with runtime.MemStats.
func BenchmarkMemory(b *testing.B) {
	text := strings.Join(allWords(Default()), "\n")
	var lex, m uint64
	for b.Loop() {
		lex, _ = heapGrowth(func() any { l, _ := decode("en", 70); return l })
		m, _ = heapGrowth(func() any { return mapOf(text) })
	}
	b.ReportMetric(float64(lex), "lexicon-bytes")
	b.ReportMetric(float64(m), "map-bytes")
	b.ReportMetric(float64(lex)/float64(m), "lexicon/map")
}

func BenchmarkMatch(b *testing.B) {
	l := Default()
	for _, c := range []struct {
		name, pattern string
		opt           MatchOptions
	}{
		{"c?a?e", "c?a?e", MatchOptions{}},
		{"?r??e", "?r??e", MatchOptions{Exclude: "st"}},
		{"?????-distinct", "?????", MatchOptions{Distinct: true}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := l.Match(c.pattern, c.opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkRuns(b *testing.B) {
	l := Default()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		l.Runs(byte('a'+i%26), 2, true)
	}
}

// BenchmarkHasSpread is BenchmarkHas with queries spread over every word of
// the lexicon (and as many non-words), as a referee's are, rather than 1024
// that stay in the processor's caches.
func BenchmarkHasSpread(b *testing.B) {
	l, all, _ := benchQueries(b)
	m := mapOf(strings.Join(all, "\n"))
	r := rand.New(rand.NewPCG(9, 10))
	q := make([]string, 0, 1<<18)
	for len(q) < cap(q) {
		w := all[r.IntN(len(all))]
		if len(q)%2 == 1 {
			bs := []byte(w)
			bs[r.IntN(len(bs))] = byte('a' + r.IntN(26))
			w = string(bs)
		}
		q = append(q, w)
	}
	mask := len(q) - 1
	b.Run("lexicon", func(b *testing.B) {
		b.ReportAllocs()
		found := 0
		for i := 0; b.Loop(); i++ {
			if l.Has(q[i&mask]) {
				found++
			}
		}
		if found == 0 {
			b.Fatal("found nothing")
		}
	})
	b.Run("map", func(b *testing.B) {
		b.ReportAllocs()
		found := 0
		for i := 0; b.Loop(); i++ {
			if _, ok := m[q[i&mask]]; ok {
				found++
			}
		}
		if found == 0 {
			b.Fatal("found nothing")
		}
	})
}

// BenchmarkHasSideBySide times the lexicon and the map on the same 1024
// queries in alternating rounds, so that both see the same machine, and
// reports each one's median time per lookup over the rounds and their ratio.
// On a busy machine this ratio is steadier than comparing BenchmarkHas's two
// sub-benchmarks, which run at different moments.
func BenchmarkHasSideBySide(b *testing.B) {
	l, all, q := benchQueries(b)
	m := mapOf(strings.Join(all, "\n"))
	var lex, mp []time.Duration
	found := 0
	for b.Loop() {
		t0 := time.Now()
		for _, w := range q {
			if l.Has(w) {
				found++
			}
		}
		t1 := time.Now()
		for _, w := range q {
			if _, ok := m[w]; ok {
				found++
			}
		}
		lex, mp = append(lex, t1.Sub(t0)), append(mp, time.Since(t1))
	}
	if found == 0 {
		b.Fatal("found nothing")
	}
	median := func(d []time.Duration) float64 {
		slices.Sort(d)
		return float64(d[len(d)/2]) / float64(len(q))
	}
	ml, mm := median(lex), median(mp)
	b.ReportMetric(ml, "lexicon-ns/lookup")
	b.ReportMetric(mm, "map-ns/lookup")
	b.ReportMetric(ml/mm, "lexicon/map")
}
