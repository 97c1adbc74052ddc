package bot

import (
	"context"
	"fmt"

	"parlour/game"
	"parlour/games/quizl"
	"parlour/lexicon"
)

// ShadowSolver is an adversarial baseline for two-player games: it looks
// for the opponent's password line like the line-probability baseline,
// and once one line holds half its belief it calls that line's squares,
// but it never announces a word. An opponent that foresees its
// announcement from what it has seen expects it on every turn and is
// never proved right: a solver that races such foresight must not throw
// its points away guessing. It never calls the last unseen square of a
// line some word still fits while another call is left, so it does not
// end its own game by tripping over the password.
type ShadowSolver struct{ base }

// NewShadowSolver returns the line-shadowing baseline for lex,
// deterministic for seed.
func NewShadowSolver(seed uint64, lex *lexicon.Lexicon) (*ShadowSolver, error) {
	b, err := newBase("line-shadowing", seed, lex, func(int) float64 { return 1 })
	if err != nil {
		return nil, err
	}
	return &ShadowSolver{b}, nil
}

// Move chooses seat's move from its view: always a call.
func (s *ShadowSolver) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	v, err := viewOf(view)
	if err != nil {
		return "", err
	}
	if v.Finished || v.ToMove != int(seat) || v.Seat != int(seat) {
		return "", fmt.Errorf("quizl %s baseline: seat %d is not to move", s.name, seat)
	}
	called := map[string]bool{}
	for _, c := range v.Called {
		called[c] = true
	}
	var beliefs []*belief
	for i := range v.Boards {
		if bd := &v.Boards[i]; bd.Outcome == quizl.Playing {
			if h := s.believe(bd); h.total > 0 {
				beliefs = append(beliefs, h)
			}
		}
	}
	safe := func(sq quizl.Square) bool {
		for _, h := range beliefs {
			if h.trips(sq) {
				return false
			}
		}
		return true
	}
	// The line found: the line holding most belief, once it holds half.
	for _, h := range beliefs {
		var lineP [quizl.Lines]float64
		for _, x := range h.hyps {
			lineP[x.l] += x.p
		}
		found, fp := quizl.Line(0), -1.0
		for l, p := range lineP {
			if p > fp {
				found, fp = quizl.Line(l), p
			}
		}
		if fp < 0.5 {
			continue
		}
		for i := range quizl.Size {
			if sq := found.Square(i); !called[sq.String()] && safe(sq) {
				return sq.String(), nil
			}
		}
	}
	// Else the safe square likeliest to lie on a password's line, the
	// first in board order among equals; when none is safe, any square.
	best, bestP := quizl.Square(-1), -1.0
	for sq := range quizl.Square(quizl.Squares) {
		if called[sq.String()] || !safe(sq) {
			continue
		}
		var p float64
		for _, h := range beliefs {
			p += h.onLine(sq)
		}
		if p > bestP+1e-12 {
			best, bestP = sq, p
		}
	}
	if best >= 0 {
		return best.String(), nil
	}
	for sq := range quizl.Square(quizl.Squares) {
		if !called[sq.String()] {
			return sq.String(), nil
		}
	}
	return "resign", nil
}
