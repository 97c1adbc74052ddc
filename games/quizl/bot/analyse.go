package bot

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"parlour/game"
	"parlour/games/quizl"
	"parlour/lexicon"
)

// Analysis is the strong solver's verdict on a finished game of Quizl, one
// note per move, each from what its mover had seen (see docs/analysis.md).
type Analysis struct {
	Moves []MoveNote `json:"moves"`
}

// MoveNote is one move judged from its mover's view just before it.
type MoveNote struct {
	// Index is the move's 1-based index into the record's moves.
	Index int    `json:"index"`
	Seat  int    `json:"seat"`
	Move  string `json:"move"`
	// Kind is "call", "say" or "resign".
	Kind string `json:"kind"`
	// Boards has, for a call, one note per grid the mover still
	// attacked.
	Boards []BoardNote `json:"boards,omitempty"`
	// Strong is the move the strong solver would have made here.
	Strong string `json:"strong,omitempty"`
	// Against, Word, Probability and Right describe an announcement: the
	// grid's owner, the word, the probability the strong solver gave the
	// word from what the caller had seen, and whether it was right.
	// Probability assumes the grid's other squares were filled at random;
	// IfDeceptive is the probability if the grid was made to deceive, as
	// the strong grid maker makes grids (see Odds).
	Against     int     `json:"against"`
	Word        string  `json:"word,omitempty"`
	Probability float64 `json:"probability"`
	IfDeceptive float64 `json:"if_deceptive"`
	Right       bool    `json:"right,omitempty"`
	// Trips lists the grids whose password the call uncovered unannounced.
	Trips []TripNote `json:"trips,omitempty"`
}

// BoardNote is what a call told the mover about one grid.
type BoardNote struct {
	Against int    `json:"against"`
	Name    string `json:"name"`
	// Before and After count the (line, word) hypotheses consistent with
	// what the mover had seen before and after the call.
	Before int `json:"before"`
	After  int `json:"after"`
	// OnLine is the probability, before the call, that the password lay
	// on the row or column through the called square.
	OnLine float64 `json:"on_line"`
	// Likeliest is the likeliest password after the call and
	// LikeliestP its probability ("" and 0 when no word fits).
	Likeliest  string  `json:"likeliest,omitempty"`
	LikeliestP float64 `json:"likeliest_p"`
}

// TripNote is a password uncovered by calls without being announced.
type TripNote struct {
	Against int    `json:"against"`
	Name    string `json:"name"`
	// Password is the password the call uncovered: the line through the
	// called square that the call completed.
	Password string `json:"password"`
	// AnnounceableAt is the index of the mover's earliest move, up to the
	// tripping call itself, at which the strong solver's move (the
	// move's Strong) was to announce the password (0 when it never was),
	// and Probability the password's probability then, from what the
	// mover had seen, as an announcement's Probability.
	AnnounceableAt int     `json:"announceable_at"`
	Probability    float64 `json:"probability"`
}

// Analyse judges every move of a finished game from the turns of its
// record (game.Turns), weighing hypotheses over the whole lexicon as the
// strong solver does.
func Analyse(ctx context.Context, cfg game.Config, turns []game.Turn) (*Analysis, error) {
	if cfg.Lexicon == nil {
		return nil, fmt.Errorf("quizl analysis: no lexicon")
	}
	strong, err := newBot(game.Strong, 1, cfg.Lexicon)
	if err != nil {
		return nil, err
	}
	full := strong.vocab(cfg.Lexicon)[1]
	index := make(map[string]int32, len(full.words))
	for i, e := range full.words {
		index[e.word] = int32(i)
	}
	// said[seat][board] lists, for trips, the mover's moves at which the
	// strong solver would have announced a word against a grid: the move
	// index, the word and its probability then. Only those, not each
	// analysis whole: a game of hundreds of moves (announcements without
	// a penalty) would hold megabytes a move.
	type say struct {
		index int
		word  int32
		p     float64
	}
	said := map[[2]int][]say{}
	out := &Analysis{Moves: []MoveNote{}}
	for _, t := range turns {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v, err := viewOf(t.Before)
		if err != nil {
			return nil, err
		}
		after, err := viewOf(t.After)
		if err != nil {
			return nil, err
		}
		n := MoveNote{Index: t.Index, Seat: int(t.Seat), Move: t.Move, Against: -1}
		rng := rand.New(rand.NewPCG(1, uint64(t.Index)))
		d := strong.decide(v, cfg.Lexicon, rng, cfg.Rules)
		n.Strong = d.move
		as := map[int]*analysis{}
		for i := range v.Boards {
			bd := &v.Boards[i]
			if bd.Outcome != quizl.Playing {
				continue
			}
			a := analyse(full, read(bd))
			as[bd.Seat] = a
			if w, ok := index[d.word]; ok && d.against == bd.Seat {
				s := say{index: t.Index, word: w}
				if a.wordP != nil {
					s.p = a.wordP[w]
				}
				key := [2]int{int(t.Seat), bd.Seat}
				said[key] = append(said[key], s)
			}
		}
		f := strings.Fields(strings.ToLower(t.Move))
		switch {
		case len(f) == 0:
		case f[0] == "resign":
			n.Kind = "resign"
		case f[0] == "say":
			n.Kind = "say"
			for _, e := range t.Events {
				if an, ok := e.Data.(quizl.Announced); ok {
					n.Against, n.Word, n.Right = an.Against, an.Word, an.Right
					if a := as[an.Against]; a != nil && a.wordP != nil {
						if w, ok := index[an.Word]; ok {
							n.Probability = a.wordP[w]
						}
					}
					for i := range v.Boards {
						if bd := &v.Boards[i]; bd.Seat == an.Against && bd.Outcome == quizl.Playing {
							_, n.IfDeceptive = strong.odds(bd, an.Word, cfg.Lexicon)
						}
					}
				}
			}
		default:
			sq, err := quizl.ParseSquare(f[0])
			if err != nil {
				return nil, fmt.Errorf("quizl analysis, move %d: %w", t.Index, err)
			}
			n.Kind = "call"
			// tripped marks the grids whose password this call showed
			// whole: the call leaves one hypothesis there, the password.
			tripped := map[int]bool{}
			for _, e := range t.Events {
				if fin, ok := e.Data.(quizl.Finished); ok && fin.Outcome == quizl.Tripped && fin.Seat == int(t.Seat) {
					tripped[fin.Against] = true
				}
			}
			grids := map[int][]string{} // the grids as the call left them
			for i := range v.Boards {
				bd := v.Boards[i]
				a := as[bd.Seat]
				if a == nil {
					continue
				}
				bn := BoardNote{Against: bd.Seat, Name: bd.Name, Before: len(a.cands), OnLine: a.pOn[sq]}
				letter := revealed(after, t.Index-1, bd.Seat)
				if letter != 0 {
					bd.Grid = withLetter(bd.Grid, sq, letter)
				}
				grids[bd.Seat] = bd.Grid
				if tripped[bd.Seat] {
					// The solver sets aside a line shown whole, which a
					// game still going on cannot have as its password.
					bn.After, bn.Likeliest, bn.LikeliestP = 1, completed(bd.Grid, sq, index), 1
					n.Boards = append(n.Boards, bn)
					continue
				}
				b := analyse(full, read(&bd))
				bn.After = len(b.cands)
				if b.best >= 0 {
					bn.Likeliest, bn.LikeliestP = b.word(b.best), b.bestP
				}
				n.Boards = append(n.Boards, bn)
			}
			for _, e := range t.Events {
				fin, ok := e.Data.(quizl.Finished)
				if !ok || fin.Outcome != quizl.Tripped || fin.Seat != int(t.Seat) {
					continue
				}
				tn := TripNote{Against: fin.Against, Name: cfg.Name(game.Seat(fin.Against))}
				for _, bd := range v.Boards {
					if bd.Seat == fin.Against {
						tn.Name = bd.Name // as the board's note names it: "the grid" in solitaire
					}
				}
				tn.Password = completed(grids[fin.Against], sq, index)
				if w, ok := index[tn.Password]; ok {
					for _, s := range said[[2]int{int(t.Seat), fin.Against}] {
						if s.word == w {
							tn.AnnounceableAt, tn.Probability = s.index, s.p
							break
						}
					}
				}
				n.Trips = append(n.Trips, tn)
			}
		}
		out.Moves = append(out.Moves, n)
	}
	return out, nil
}

// revealed returns the letter the mover's move i (0-based) showed on the
// grid of seat owner, as the view after it records it, or 0.
func revealed(v *quizl.View, i, owner int) byte {
	if i < 0 || i >= len(v.Moves) {
		return 0
	}
	for _, l := range v.Moves[i].Revealed {
		if l.Seat == owner && len(l.Letter) == 1 {
			return l.Letter[0]
		}
	}
	return 0
}

// completed returns the word on the row or column through sq that rows
// show whole, preferring one in index, or "".
func completed(rows []string, sq quizl.Square, index map[string]int32) string {
	var found string
	for _, l := range []quizl.Line{quizl.RowOf(sq), quizl.ColOf(sq)} {
		b := make([]byte, 0, quizl.Size)
		for i := range quizl.Size {
			q := l.Square(i)
			r, c := q.Row()-5, q.Col()
			if r >= len(rows) || c >= len(rows[r]) || rows[r][c] < 'A' || rows[r][c] > 'Z' {
				break
			}
			b = append(b, rows[r][c])
		}
		if len(b) != quizl.Size {
			continue
		}
		if _, ok := index[string(b)]; ok || found == "" {
			found = string(b)
		}
	}
	return found
}

// withLetter returns a copy of rows with letter at square sq.
func withLetter(rows []string, sq quizl.Square, letter byte) []string {
	out := append([]string(nil), rows...)
	r := sq.Row() - 5
	if r < 0 || r >= len(out) || sq.Col() >= len(out[r]) {
		return out
	}
	b := []byte(out[r])
	b[sq.Col()] = letter
	out[r] = string(b)
	return out
}

// odds returns the probability that word is the password of the grid bd
// shows, weighing hypotheses over the whole lexicon by commonness: first
// assuming the grid's other squares were filled at random, then assuming
// the grid was made to deceive, as the strong solver weighs it (lines
// parallel to a hypothesis's line that read as decoys make it likelier,
// the password hides where a deceptive setter hides it, a word announced
// wrongly makes the lines parallel to it likelier). b must be strong.
func (b *Bot) odds(bd *quizl.Board, word string, lex *lexicon.Lexicon) (random, deceptive float64) {
	full := b.vocab(lex)[1]
	w := -1
	for i, e := range full.words {
		if strings.EqualFold(e.word, word) {
			w = i
			break
		}
	}
	if w < 0 {
		return 0, 0
	}
	if a := analyse(full, read(bd)); a.wordP != nil {
		random = a.wordP[w]
	}
	k := read(bd)
	k.parallel, k.hidden = b.lv.parallel, b.lv.hidden
	k.shapes, k.shapeW = decoysOf(lex, full), b.lv.shape
	if a := analyse(full, k); a.wordP != nil {
		deceptive = recalibrate(a.wordP[w])
	}
	return random, deceptive
}

// The strong solver's belief overrates its likeliest words on deceptive
// grids: its model of the setter is coarser than the setter. Of 772
// announcements by the five bench solvers on strong grids (seed 1, 40
// games each), those it rated 60-80% were right 35% of the time and those
// rated 80-100% 72%. recalibrate maps its probability p to
// logistic(deceptiveSlope logit(p) + deceptiveShift), the line fitted to
// those bins' log-odds; docs/analysis.md shows it on held-out seeds.
const (
	deceptiveSlope = 0.65
	deceptiveShift = -0.9
)

// recalibrate returns the if-deceptive probability for the strong
// solver's belief p under its deceptive-setter model.
func recalibrate(p float64) float64 {
	if p <= 0 || p >= 1 {
		return p
	}
	x := deceptiveSlope*math.Log(p/(1-p)) + deceptiveShift
	return 1 / (1 + math.Exp(-x))
}
