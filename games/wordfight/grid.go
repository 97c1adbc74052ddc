package wordfight

import (
	"fmt"
	"iter"
	"strings"

	"parlour/game"
	"parlour/lexicon"
)

// Grid is one player's crossword: letters on a Board. The zero Grid is not
// usable; make one with NewGrid or GridFromRows.
type Grid struct {
	b     *Board
	cells []byte // row-major; 0 for an empty square, else 'a'-'z'
	n     int    // letters on the grid
	// at lists, for each letter, the squares (row-major index) holding it,
	// so that placements are found from the letters a word can reuse.
	at [26][]int16
}

// NewGrid returns an empty grid on b.
func NewGrid(b *Board) *Grid {
	return &Grid{b: b, cells: make([]byte, b.w*b.h)}
}

// GridFromRows rebuilds a grid from the rows a View shows: one string per
// row, '.' for an empty square, '#' for an unusable one, letters otherwise
// (any case). The board is taken from the rows.
func GridFromRows(rows []string) (*Grid, error) {
	if len(rows) < MinSide || len(rows) > MaxSide {
		return nil, fmt.Errorf("grid: %s, want %d to %d", game.Count(len(rows), "row", "rows"), MinSide, MaxSide)
	}
	mask := make([]string, len(rows))
	for i, row := range rows {
		m := []byte(row)
		for j, ch := range m {
			if isLetter(ch) {
				m[j] = '.'
			}
		}
		mask[i] = string(m)
	}
	b, err := NewBoard(len(rows[0]), len(rows), strings.Join(mask, "/"))
	if err != nil {
		return nil, fmt.Errorf("grid: %w", err)
	}
	g := NewGrid(b)
	for r, row := range rows {
		for c := 0; c < len(row); c++ {
			if isLetter(row[c]) {
				g.set(r*b.w+c, lower(row[c]))
			}
		}
	}
	return g, nil
}

// Board returns the board g lies on.
func (g *Grid) Board() *Board { return g.b }

// Len reports how many letters g holds.
func (g *Grid) Len() int { return g.n }

// At returns the letter in row r, column c in lower case, or 0 for an empty,
// unusable or off-board square.
func (g *Grid) At(r, c int) byte {
	if r < 0 || c < 0 || r >= g.b.h || c >= g.b.w {
		return 0
	}
	return g.cells[r*g.b.w+c]
}

// Clone returns a copy of g that can change without changing g.
func (g *Grid) Clone() *Grid {
	h := &Grid{b: g.b, cells: append([]byte(nil), g.cells...), n: g.n}
	for i, a := range g.at {
		if len(a) > 0 {
			h.at[i] = append([]int16(nil), a...)
		}
	}
	return h
}

// Rows returns g as the rows a View shows: '.' empty, '#' unusable, and
// upper-case letters.
func (g *Grid) Rows() []string {
	rows := make([]string, g.b.h)
	buf := make([]byte, g.b.w*g.b.h)
	for i, ch := range g.cells {
		switch {
		case ch != 0:
			buf[i] = ch - 'a' + 'A'
		case g.b.blocked != nil && g.b.blocked[i]:
			buf[i] = '#'
		default:
			buf[i] = '.'
		}
	}
	s := string(buf)
	for r := range rows {
		rows[r] = s[r*g.b.w : (r+1)*g.b.w]
	}
	return rows
}

func (g *Grid) set(i int, ch byte) {
	if g.cells[i] != 0 {
		return
	}
	g.cells[i] = ch
	g.n++
	g.at[ch-'a'] = append(g.at[ch-'a'], int16(i))
}

// Place writes word (lower case) at p and returns how many of its letters
// were already there. It does not check the rules: call Check first.
func (g *Grid) Place(word string, p Placement) (reused int) {
	dr, dc := step(p.Down)
	for i := 0; i < len(word); i++ {
		r, c := p.Row+i*dr, p.Col+i*dc
		if g.At(r, c) == word[i] {
			reused++
		} else if g.b.Usable(r, c) {
			g.set(r*g.b.w+c, word[i])
		}
	}
	return reused
}

func step(down bool) (dr, dc int) {
	if down {
		return 1, 0
	}
	return 0, 1
}

// problem is why a placement is illegal, kept cheap so that the search for
// legal placements formats no errors.
type problem int

const (
	fits       problem = iota
	offBoard           // square i is off the board
	blockedSq          // square i is unusable
	clash              // square i holds another letter
	before             // the square before the word holds a letter
	after              // the square after the word holds a letter
	nothingNew         // every letter is already there
	noReuse            // a later word reuses nothing
	badCross           // the cross run through square i is not a word
	notCanon           // (search only) an earlier anchor finds this placement
	emptyWord          // no letters
)

// fit reports whether word (lower case a-z) may go at p, how many letters
// it reuses, and otherwise what is wrong and at which letter index. When
// anchor >= 0 it also requires that the first reused letter is word[anchor]
// (so that a search through anchors meets each placement once).
func (g *Grid) fit(lex *lexicon.Lexicon, word string, p Placement, anchor int) (reused int, why problem, at int) {
	n := len(word)
	if n == 0 {
		return 0, emptyWord, 0
	}
	dr, dc := step(p.Down)
	b := g.b
	// Squares first: cheap, and they settle most placements.
	first := -1
	for i := 0; i < n; i++ {
		r, c := p.Row+i*dr, p.Col+i*dc
		if r < 0 || c < 0 || r >= b.h || c >= b.w {
			return 0, offBoard, i
		}
		k := r*b.w + c
		if b.blocked != nil && b.blocked[k] {
			return 0, blockedSq, i
		}
		switch ch := g.cells[k]; ch {
		case 0:
		case word[i]:
			reused++
			if first < 0 {
				first = i
				if anchor >= 0 && i != anchor {
					return 0, notCanon, i
				}
			}
		default:
			return 0, clash, i
		}
	}
	if g.At(p.Row-dr, p.Col-dc) != 0 {
		return 0, before, 0
	}
	if g.At(p.Row+n*dr, p.Col+n*dc) != 0 {
		return 0, after, n - 1
	}
	if reused == n {
		return reused, nothingNew, 0
	}
	if reused == 0 && g.n > 0 {
		return 0, noReuse, 0
	}
	// Cross runs through each new letter.
	var buf [MaxSide]byte
	for i := 0; i < n; i++ {
		r, c := p.Row+i*dr, p.Col+i*dc
		if g.cells[r*b.w+c] != 0 {
			continue
		}
		// Walk perpendicular: (dc, dr) swaps the direction.
		pr, pc := dc, dr
		if g.At(r-pr, c-pc) == 0 && g.At(r+pr, c+pc) == 0 {
			continue
		}
		sr, sc := r, c
		for g.At(sr-pr, sc-pc) != 0 {
			sr, sc = sr-pr, sc-pc
		}
		m := 0
		for {
			ch := g.At(sr, sc)
			if sr == r && sc == c {
				ch = word[i]
			}
			if ch == 0 {
				break
			}
			buf[m] = ch
			m++
			sr, sc = sr+pr, sc+pc
		}
		if !lex.Has(string(buf[:m])) {
			return 0, badCross, i
		}
	}
	return reused, fits, 0
}

// Check reports whether word may be placed at p in g under the rules, and
// how many letters already in g it reuses. The error says what is wrong in
// a player's words, starting with the placement ("B2 across: the square C2
// holds R, not O").
func (g *Grid) Check(lex *lexicon.Lexicon, word string, p Placement) (reused int, err error) {
	word = strings.ToLower(word)
	for i := 0; i < len(word); i++ {
		if word[i] < 'a' || word[i] > 'z' {
			return 0, fmt.Errorf("%s: %q is not a word of letters A-Z", p, clipText(word))
		}
	}
	if len(word) > MaxSide {
		return 0, fmt.Errorf("%s: %s is longer than any board", p, strings.ToUpper(word))
	}
	reused, why, i := g.fit(lex, word, p, -1)
	if why == fits {
		return reused, nil
	}
	return 0, g.explain(word, p, why, i)
}

func (g *Grid) explain(word string, p Placement, why problem, i int) error {
	W := strings.ToUpper(word)
	dr, dc := step(p.Down)
	r, c := p.Row+i*dr, p.Col+i*dc
	var msg string
	switch why {
	case emptyWord:
		msg = "there is no word to place"
	case offBoard:
		if i == 0 {
			msg = fmt.Sprintf("%s is not on the board", Square(p.Row, p.Col))
		} else {
			msg = fmt.Sprintf("%s runs off the board after %s", W, Square(r-dr, c-dc))
		}
	case blockedSq:
		msg = fmt.Sprintf("the square %s is not part of the board", Square(r, c))
	case clash:
		msg = fmt.Sprintf("the square %s holds %c, not %c", Square(r, c), upper(g.At(r, c)), upper(word[i]))
	case before:
		msg = fmt.Sprintf("the square %s just before %s holds %c: a word must not run on from another", Square(p.Row-dr, p.Col-dc), W, upper(g.At(p.Row-dr, p.Col-dc)))
	case after:
		n := len(word)
		msg = fmt.Sprintf("the square %s just after %s holds %c: a word must not run on into another", Square(p.Row+n*dr, p.Col+n*dc), W, upper(g.At(p.Row+n*dr, p.Col+n*dc)))
	case nothingNew:
		msg = fmt.Sprintf("every letter of %s is already there: write at least one new letter", W)
	case noReuse:
		msg = fmt.Sprintf("%s crosses nothing in your grid: every word after the first must reuse a letter already there", W)
	case badCross:
		run, sr, sc := g.crossRun(word[i], r, c, p.Down)
		d := "down"
		if p.Down {
			d = "across"
		}
		msg = fmt.Sprintf("%c in %s would make %s %s from %s, which is not a word", upper(word[i]), Square(r, c), strings.ToUpper(run), d, Square(sr, sc))
	default:
		msg = "that placement breaks the rules"
	}
	return fmt.Errorf("%s: %s", p, msg)
}

// crossRun returns the run perpendicular to a word going down (or across)
// that letter ch written at r, c would sit in, and where the run starts.
func (g *Grid) crossRun(ch byte, r, c int, down bool) (string, int, int) {
	pr, pc := 1, 0
	if down {
		pr, pc = 0, 1
	}
	sr, sc := r, c
	for g.At(sr-pr, sc-pc) != 0 {
		sr, sc = sr-pr, sc-pc
	}
	var sb strings.Builder
	for rr, cc := sr, sc; ; rr, cc = rr+pr, cc+pc {
		x := g.At(rr, cc)
		if rr == r && cc == c {
			x = ch
		}
		if x == 0 {
			break
		}
		sb.WriteByte(x)
	}
	return sb.String(), sr, sc
}

func upper(b byte) byte {
	if 'a' <= b && b <= 'z' {
		return b - 'a' + 'A'
	}
	return b
}

// Placements yields every legal placement of word (lower case a-z) in g,
// each once, with the number of letters it reuses. On an empty grid every
// square and direction the word fits is legal; otherwise the search starts
// from the letters of g that the word could reuse, so it costs time in
// proportion to those, not to the board.
func (g *Grid) Placements(lex *lexicon.Lexicon, word string) iter.Seq2[Placement, int] {
	return func(yield func(Placement, int) bool) {
		n := len(word)
		if n == 0 || n > g.b.longest {
			return
		}
		for i := 0; i < n; i++ {
			if word[i] < 'a' || word[i] > 'z' {
				return
			}
		}
		if g.n == 0 {
			for r := 0; r < g.b.h; r++ {
				for c := 0; c < g.b.w; c++ {
					for _, down := range [2]bool{false, true} {
						p := Placement{Row: r, Col: c, Down: down}
						if _, why, _ := g.fit(lex, word, p, -1); why == fits {
							if !yield(p, 0) {
								return
							}
						}
					}
				}
			}
			return
		}
		w := g.b.w
		for i := 0; i < n; i++ {
			// A letter repeated earlier in the word anchors the same
			// squares; fit's canonical check drops the duplicates.
			for _, k := range g.at[word[i]-'a'] {
				r, c := int(k)/w, int(k)%w
				for _, down := range [2]bool{false, true} {
					dr, dc := step(down)
					p := Placement{Row: r - i*dr, Col: c - i*dc, Down: down}
					if reused, why, _ := g.fit(lex, word, p, i); why == fits {
						if !yield(p, reused) {
							return
						}
					}
				}
			}
		}
	}
}

// Fits reports whether word (lower case a-z) may go at p in g, and how
// many letters it reuses: Check without the explanation, cheap enough for
// a computer player to ask about many placements.
func (g *Grid) Fits(lex *lexicon.Lexicon, word string, p Placement) (reused int, ok bool) {
	if len(word) > g.b.longest {
		return 0, false
	}
	for i := 0; i < len(word); i++ {
		if word[i] < 'a' || word[i] > 'z' {
			return 0, false
		}
	}
	reused, why, _ := g.fit(lex, word, p, -1)
	return reused, why == fits
}

// CanPlace reports whether word has any legal placement in g, and one.
func (g *Grid) CanPlace(lex *lexicon.Lexicon, word string) (Placement, bool) {
	for p := range g.Placements(lex, word) {
		return p, true
	}
	return Placement{}, false
}
