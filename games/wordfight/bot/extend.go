package bot

import (
	"strings"

	"parlour/games/wordfight"
)

// maxRunExtensions caps the words, most common first, that the strong
// player tries laying over one run of its grid.
const maxRunExtensions = 30

// run is a word of a grid (a run of two or more letters) and where it lies.
type run struct {
	word string
	at   wordfight.Placement
}

// runsAt lists the runs of g with where they lie, across then down.
func runsAt(g *wordfight.Grid) []run {
	var out []run
	b := g.Board()
	var cur []byte
	flush := func(p wordfight.Placement) {
		if len(cur) >= 2 {
			out = append(out, run{word: string(cur), at: p})
		}
		cur = cur[:0]
	}
	for _, down := range [2]bool{false, true} {
		outer, inner := b.Height(), b.Width()
		if down {
			outer, inner = inner, outer
		}
		for i := 0; i < outer; i++ {
			var start wordfight.Placement
			for j := 0; j < inner; j++ {
				r, c := i, j
				if down {
					r, c = j, i
				}
				ch := g.At(r, c)
				if ch == 0 {
					flush(start)
					continue
				}
				if len(cur) == 0 {
					start = wordfight.Placement{Row: r, Col: c, Down: down}
				}
				cur = append(cur, ch)
			}
			flush(start)
		}
	}
	return out
}

// extender finds, for the runs of a grid, the vocabulary words that hold
// them, remembering them for the length of one decision.
type extender struct {
	b    *Bot
	memo map[string][]string
}

func (b *Bot) newExtender() *extender { return &extender{b: b, memo: map[string][]string{}} }

// of returns up to maxRunExtensions words longer than r that hold it, most
// common first.
func (e *extender) of(r string) []string {
	if ws, ok := e.memo[r]; ok {
		return ws
	}
	var out []string
	if len(r) >= 3 {
		for _, k := range e.b.vocab.withTrigram(r) {
			w := e.b.vocab.words[k]
			if len(w) > len(r) && strings.Contains(w, r) {
				out = append(out, w)
				if len(out) == maxRunExtensions {
					break
				}
			}
		}
	}
	e.memo[r] = out
	return out
}

// potential measures what g's runs may yet score when a word holding one
// of them is declared: for each run, the most that one of its extensions
// laid over it would score under multiply (the run's letters times the
// extension's), summed over the runs.
func (e *extender) potential(g *wordfight.Grid) float64 {
	total := 0.0
	for _, r := range runsAt(g) {
		best := 0
		for _, x := range e.of(r.word) {
			n := len(r.word) * len(x)
			if n <= best {
				continue
			}
			for k := strings.Index(x, r.word); k >= 0; {
				q := r.at
				if q.Down {
					q.Row -= k
				} else {
					q.Col -= k
				}
				if reused, ok := g.Fits(e.b.lex, x, q); ok {
					best = max(best, reused*len(x))
					break
				}
				next := strings.Index(x[k+1:], r.word)
				if next < 0 {
					break
				}
				k += 1 + next
			}
		}
		total += float64(best)
	}
	return total
}
