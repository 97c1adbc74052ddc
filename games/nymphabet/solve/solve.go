// Package solve plays Nymphabet perfectly by retrograde analysis over a
// lexicon.
//
// From a letter the only thing a word decides is how many letters it
// deletes, so a position's moves are the run lengths some word of the
// lexicon achieves from that letter. In the standard game a position is
// the current letter; in the cyclic game it is the current letter and the
// number of letters left; in the scoring game it is those and the two
// players' products so far, of which only their ratio matters. The first
// two are solved outright in tables; the scoring game is searched from the
// positions asked about, with every value memoised.
package solve

import (
	"fmt"
	"math/bits"
	"sync"

	"parlour/games/nymphabet"
	"parlour/lexicon"
)

// Value is the outcome of a position under perfect play, for the player
// about to write a word.
type Value int8

// The values of a position.
const (
	Loss Value = -1
	Draw Value = 0
	Win  Value = 1
)

func (v Value) String() string {
	switch v {
	case Loss:
		return "loss"
	case Win:
		return "win"
	}
	return "draw"
}

// MarshalText writes a value as "win", "draw" or "loss".
func (v Value) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads a value as MarshalText writes it, so that an
// analysis read back from its JSON says the same.
func (v *Value) UnmarshalText(b []byte) error {
	switch string(b) {
	case "win":
		*v = Win
	case "draw":
		*v = Draw
	case "loss":
		*v = Loss
	default:
		return fmt.Errorf("%q is not a value: want win, draw or loss", b)
	}
	return nil
}

const letters = nymphabet.Letters

// Word is a lexicon word with its SCOWL commonness (10 most common).
type Word struct {
	Text   string // lower case
	Common int
}

// Position is a position of a game in progress: what the player to move
// faces.
type Position struct {
	// Anywhere is set for a cyclic or scoring game's first word, which may
	// begin with any letter; Letter is then ignored.
	Anywhere bool
	// Letter is the current letter, 0 for A.
	Letter int
	// Left counts the undeleted letters (26 - Letter in standard mode).
	Left int
	// Mover and Other are the products of the letters the player to move
	// and the other player deleted per turn, 1 before a player's first
	// word. Only scoring mode reads them.
	Mover, Other int
}

// Start returns the position before the first word of a game in mode.
func Start(mode nymphabet.Mode) Position {
	if mode.Wraps() {
		return Position{Anywhere: true, Left: letters, Mover: 1, Other: 1}
	}
	return Position{Letter: 0, Left: letters, Mover: 1, Other: 1}
}

// FromView returns the position seat faces in v, a game in progress.
func FromView(v *nymphabet.View, seat int) (Position, error) {
	if v.Status != "in_progress" || v.ToMove < 0 {
		return Position{}, fmt.Errorf("the game is over")
	}
	if seat != 0 && seat != 1 || len(v.Players) != 2 {
		return Position{}, fmt.Errorf("seat %d is not a player's", seat)
	}
	if v.ToMove != seat {
		return Position{}, fmt.Errorf("it is not seat %d's turn", seat)
	}
	p := Position{Left: v.Left, Mover: v.Players[seat].Product, Other: v.Players[1-seat].Product}
	if v.Current == "" {
		p.Anywhere = true
		return p, nil
	}
	if len(v.Current) != 1 || v.Current[0] < 'A' || v.Current[0] > 'Z' {
		return Position{}, fmt.Errorf("current letter %q", v.Current)
	}
	p.Letter = int(v.Current[0] - 'A')
	return p, nil
}

// Solver knows, for one lexicon and mode, every word's run and the value
// of every position. It is safe for concurrent use.
type Solver struct {
	mode nymphabet.Mode
	lex  *lexicon.Lexicon
	// words[c][r] holds the words beginning with letter c whose run is r
	// letters (under the mode's wrapping), most common first.
	words [letters][letters + 1][]Word
	// runs[c] has bit r set when some word beginning with c runs r letters.
	runs [letters]uint32

	standard [letters]Value              // by current letter
	cyclic   [letters][letters + 1]Value // by current letter and letters left

	mu   sync.Mutex
	memo map[uint64]Value // scoring positions, see key
}

// New builds the solver for lex and mode, solving the standard and cyclic
// games outright (a few milliseconds once the words are read). The word
// RESIGN is left out: the notation reserves it for resigning.
func New(lex *lexicon.Lexicon, mode nymphabet.Mode) *Solver {
	s := &Solver{mode: mode, lex: lex, memo: map[uint64]Value{}}
	wrap := mode.Wraps()
	for w, c := range lex.ByCommonness() {
		if w == nymphabet.Resign {
			continue
		}
		r := lexicon.Run(w, wrap)
		if r == 0 {
			continue
		}
		l := int(w[0] - 'a')
		s.words[l][r] = append(s.words[l][r], Word{Text: w, Common: c})
		s.runs[l] |= 1 << r
	}
	switch mode {
	case nymphabet.Standard:
		s.solveStandard()
	default:
		s.solveCyclic()
	}
	return s
}

// Mode reports the mode s solves.
func (s *Solver) Mode() nymphabet.Mode { return s.mode }

// Lexicon reports the lexicon s plays from.
func (s *Solver) Lexicon() *lexicon.Lexicon { return s.lex }

// deletions returns, as a bit set, how many letters a word may delete from
// letter c with left letters undeleted: a run longer than left deletes
// left.
func (s *Solver) deletions(c, left int) uint32 {
	r := s.runs[c]
	d := r & (1<<left - 1)
	if r>>left != 0 {
		d |= 1 << left
	}
	return d
}

func (s *Solver) solveStandard() {
	for c := letters - 1; c >= 0; c-- {
		v := Loss // no word at all: the player must resign
		for d := s.deletions(c, letters-c); d != 0; d &= d - 1 {
			r := bits.TrailingZeros32(d)
			if c+r < letters && s.standard[c+r] == Loss {
				v = Win
				break
			}
		}
		s.standard[c] = v
	}
}

func (s *Solver) solveCyclic() {
	for n := 1; n <= letters; n++ {
		for c := range letters {
			v := Loss
			for d := s.deletions(c, n); d != 0; d &= d - 1 {
				r := bits.TrailingZeros32(d)
				if r == n || s.cyclic[(c+r)%letters][n-r] == Loss {
					v = Win
					break
				}
			}
			s.cyclic[c][n] = v
		}
	}
}

// Value returns p's value for the player to move. For a first word that
// may start anywhere it is the value of the best start.
func (s *Solver) Value(p Position) Value {
	if p.Anywhere {
		best := Loss
		for c := range letters {
			best = max(best, s.Value(Position{Letter: c, Left: letters, Mover: p.Mover, Other: p.Other}))
		}
		return best
	}
	if p.Left <= 0 || p.Left > letters || p.Letter < 0 || p.Letter >= letters {
		return Loss
	}
	switch s.mode {
	case nymphabet.Standard:
		return s.standard[p.Letter]
	case nymphabet.Cyclic:
		return s.cyclic[p.Letter][p.Left]
	}
	return s.scoring(p.Letter, p.Left, p.Mover, p.Other)
}

// after returns the value, for the player who made it, of deleting r
// letters from p (p.Anywhere must be false).
func (s *Solver) after(p Position, r int) Value {
	switch s.mode {
	case nymphabet.Standard:
		if p.Letter+r >= letters {
			return Loss // deleted Z: the last word loses
		}
		return -s.standard[p.Letter+r]
	case nymphabet.Cyclic:
		if r >= p.Left {
			return Win
		}
		return -s.cyclic[(p.Letter+r)%letters][p.Left-r]
	}
	if r >= p.Left {
		return compare(p.Mover*r, p.Other)
	}
	return -s.scoring((p.Letter+r)%letters, p.Left-r, p.Other, p.Mover*r)
}

func compare(a, b int) Value {
	switch {
	case a > b:
		return Win
	case a < b:
		return Loss
	}
	return Draw
}

// scoring returns the value of a scoring position for the player to move,
// whose product is a against the other's b.
func (s *Solver) scoring(c, left, a, b int) Value {
	if a <= 0 || b <= 0 {
		a, b = max(a, 1), max(b, 1)
	}
	g := gcd(a, b)
	a, b = a/g, b/g
	k := key(c, left, a, b)
	s.mu.Lock()
	v, ok := s.memo[k]
	s.mu.Unlock()
	if ok {
		return v
	}
	v = Loss
	d := s.deletions(c, left)
	// Longest first: ending the game or taking many letters tends to be
	// best, and a win stops the search.
	for d != 0 && v != Win {
		r := 31 - bits.LeadingZeros32(d)
		d &^= 1 << r
		var w Value
		if r == left {
			w = compare(a*r, b)
		} else {
			w = -s.scoring((c+r)%letters, left-r, b, a*r)
		}
		v = max(v, w)
	}
	s.mu.Lock()
	s.memo[k] = v
	s.mu.Unlock()
	return v
}

// key packs a scoring position: 5 bits of letter, 5 of letters left and 27
// for each reduced product (products of parts summing to 26 stay far below
// 2^27).
func key(c, left, a, b int) uint64 {
	return uint64(c) | uint64(left)<<5 | uint64(a)<<10 | uint64(b)<<37
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Positions reports how many scoring positions s has solved so far.
func (s *Solver) Positions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.memo)
}

// Move is one choice in a position: a start letter and how many letters to
// delete, with its value for the player making it and the words that make
// it.
type Move struct {
	Letter  int
	Deletes int
	Value   Value
	// Ends is set when the move deletes the last letter left.
	Ends bool
	// Words are the words that delete exactly Deletes letters from Letter
	// here, most common first. The slice is shared: do not modify it.
	Words [][]Word
}

// Moves lists every choice in p with its value, in order of start letter
// and then letters deleted.
func (s *Solver) Moves(p Position) []Move {
	if p.Anywhere {
		var out []Move
		for c := range letters {
			out = append(out, s.Moves(Position{Letter: c, Left: letters, Mover: p.Mover, Other: p.Other})...)
		}
		return out
	}
	if p.Left <= 0 || p.Left > letters || p.Letter < 0 || p.Letter >= letters {
		return nil
	}
	var out []Move
	for d := s.deletions(p.Letter, p.Left); d != 0; d &= d - 1 {
		r := bits.TrailingZeros32(d)
		m := Move{Letter: p.Letter, Deletes: r, Value: s.after(p, r), Ends: r == p.Left}
		if r == p.Left {
			// every run of at least r letters deletes r
			for k := r; k <= letters; k++ {
				if len(s.words[p.Letter][k]) > 0 {
					m.Words = append(m.Words, s.words[p.Letter][k])
				}
			}
		} else {
			m.Words = [][]Word{s.words[p.Letter][r]}
		}
		out = append(out, m)
	}
	return out
}

// Best returns the most common word among ws, which must not be empty.
func Best(ws [][]Word) Word {
	best := ws[0][0]
	for _, w := range ws[1:] {
		if w[0].Common < best.Common || w[0].Common == best.Common && w[0].Text < best.Text {
			best = w[0]
		}
	}
	return best
}

// BestMove returns a move of the highest value in p, preferring the move
// whose word is most common, and false when p has no move at all.
func (s *Solver) BestMove(p Position) (Move, bool) {
	var best Move
	found := false
	for _, m := range s.Moves(p) {
		if !found || m.Value > best.Value ||
			m.Value == best.Value && better(Best(m.Words), Best(best.Words)) {
			best, found = m, true
		}
	}
	return best, found
}

func better(a, b Word) bool {
	return a.Common < b.Common || a.Common == b.Common && len(a.Text) < len(b.Text) ||
		a.Common == b.Common && len(a.Text) == len(b.Text) && a.Text < b.Text
}

// Words returns the words beginning with letter c whose run is exactly r
// letters under the solver's mode, most common first. The slice is
// shared: do not modify it.
func (s *Solver) Words(c, r int) []Word {
	if c < 0 || c >= letters || r < 0 || r > letters {
		return nil
	}
	return s.words[c][r]
}

// Entry is one position of a report: the player about to write a word
// beginning with Letter, the value for that player, and a word that
// achieves it (a winning word, or in scoring mode a drawing one; empty on
// a loss).
type Entry struct {
	Letter string `json:"letter"`
	Value  Value  `json:"value"`
	Word   string `json:"word,omitempty"`
}

// Report is the solver's findings, the output of `parlour nymphabet solve`.
type Report struct {
	Mode nymphabet.Mode `json:"mode"`
	// FirstPlayer is the value of the game for the player who writes the
	// first word.
	FirstPlayer Value `json:"first_player"`
	// Positions (standard mode) has one entry per current letter A to Z.
	Positions []Entry `json:"positions,omitempty"`
	// Starts (cyclic and scoring modes) has one entry per letter the
	// first word may begin with.
	Starts []Entry `json:"starts,omitempty"`
	// QThroughU reports whether some word beginning with Q deletes Q, R,
	// S, T and U; QThroughUWords lists such words.
	QThroughU      bool     `json:"q_through_u"`
	QThroughUWords []string `json:"q_through_u_words,omitempty"`
}

// Report solves every position the report lists.
func (s *Solver) Report() Report {
	r := Report{Mode: s.mode, FirstPlayer: s.Value(Start(s.mode))}
	for c := range letters {
		p := Position{Letter: c, Left: letters, Mover: 1, Other: 1}
		if s.mode == nymphabet.Standard {
			p.Left = letters - c
		}
		e := Entry{Letter: string(rune('A' + c)), Value: s.Value(p)}
		if m, ok := s.BestMove(p); ok && e.Value != Loss {
			e.Word = Best(m.Words).Text
		}
		if s.mode == nymphabet.Standard {
			r.Positions = append(r.Positions, e)
		} else {
			r.Starts = append(r.Starts, e)
		}
	}
	// Q to U never passes Z, so wrapping does not matter.
	for k := 5; k <= letters; k++ {
		for _, w := range s.words['q'-'a'][k] {
			r.QThroughUWords = append(r.QThroughUWords, w.Text)
		}
	}
	r.QThroughU = len(r.QThroughUWords) > 0
	return r
}
