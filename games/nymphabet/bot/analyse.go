package bot

import (
	"context"
	"fmt"
	"strings"

	"parlour/game"
	"parlour/games/nymphabet"
	"parlour/games/nymphabet/solve"
)

// Analysis is the perfect player's verdict on a finished game of
// Nymphabet, one note per word (see docs/analysis.md).
type Analysis struct {
	Mode nymphabet.Mode `json:"mode"`
	// Exact is false under the no-repeats rule: the solver's values assume
	// every word may be written again, so they can be wrong late in such a
	// game.
	Exact bool `json:"exact"`
	// FirstPlayer is the game's value for the first player before any word.
	FirstPlayer solve.Value `json:"first_player"`
	Moves       []WordNote  `json:"moves"`
	// Mistakes counts the moves marked as mistakes, per seat.
	Mistakes []int `json:"mistakes"`
}

// WordNote is one move of the game, judged for the player who made it.
type WordNote struct {
	// Index is the move's 1-based index into the record's moves.
	Index int    `json:"index"`
	Seat  int    `json:"seat"`
	Move  string `json:"move"`
	// Letter is the letter the word had to begin with ("" for a first
	// word that could begin anywhere).
	Letter string `json:"letter"`
	// Left counts the letters undeleted before the move.
	Left int `json:"left"`
	// Before is the position's value for the mover before the move: what
	// perfect play from here gives; After is the value the move left the
	// mover with (the opposite of the value for the next player).
	Before solve.Value `json:"before"`
	After  solve.Value `json:"after"`
	// Deletes counts the letters the word deleted.
	Deletes int `json:"deletes"`
	// Mistake is set when After is worse than Before: a won position
	// thrown into a draw or loss, or a drawn one into a loss.
	Mistake bool `json:"mistake"`
	// Best is the commonest word that keeps Before's value ("" when the
	// position was lost whatever the mover wrote); BestDeletes how many
	// letters it deletes.
	Best        string `json:"best,omitempty"`
	BestDeletes int    `json:"best_deletes,omitempty"`
	// Forced, in scoring mode, holds the largest final product each
	// player could make sure of from the position before the move, the
	// mover's first: what the mover could reach whatever the other did,
	// and what the other could reach whatever the mover did. Each is a
	// different game from Before's (each side playing for its own product
	// alone). Absent in the other modes, or when the search was too large.
	Forced []int `json:"forced,omitempty"`
}

// productLimit bounds the positions the scoring mode's product search
// solves for one game (from the start of an en game it solves about
// 450,000).
const productLimit = 4_000_000

// Analyse judges every move of a finished game from the turns of its
// record (game.Turns), with the solver for the game's lexicon and mode.
// Nymphabet has no secrets, so the mover's view is the whole position.
func Analyse(ctx context.Context, cfg game.Config, turns []game.Turn) (*Analysis, error) {
	if cfg.Lexicon == nil {
		return nil, fmt.Errorf("nymphabet analysis: no lexicon")
	}
	mode := nymphabet.Standard
	exact := true
	if len(turns) > 0 {
		v, err := asView(turns[0].Before)
		if err != nil {
			return nil, err
		}
		mode, exact = v.Mode, !v.NoRepeats
	}
	s := solve.New(cfg.Lexicon, mode)
	ps := &solve.ProductSearch{Limit: productLimit}
	a := &Analysis{Mode: mode, Exact: exact, FirstPlayer: s.Value(solve.Start(mode)), Moves: []WordNote{}, Mistakes: make([]int, 2)}
	for _, t := range turns {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v, err := asView(t.Before)
		if err != nil {
			return nil, err
		}
		n, err := judge(s, ps, v, t)
		if err != nil {
			return nil, fmt.Errorf("nymphabet analysis, move %d: %w", t.Index, err)
		}
		if n.Mistake && n.Seat >= 0 && n.Seat < 2 {
			a.Mistakes[n.Seat]++
		}
		a.Moves = append(a.Moves, n)
	}
	return a, nil
}

// judge values one move from the position its mover faced.
func judge(s *solve.Solver, ps *solve.ProductSearch, v *nymphabet.View, t game.Turn) (WordNote, error) {
	word := strings.ToLower(strings.TrimSpace(t.Move))
	if word == nymphabet.Resign && v.ToMove >= 0 && v.ToMove != int(t.Seat) {
		return judgeResignation(s, ps, v, t)
	}
	pos, err := solve.FromView(v, int(t.Seat))
	if err != nil {
		return WordNote{}, err
	}
	var forced []int
	if v.Mode == nymphabet.Scoring {
		if m, o, ok := s.Products(ps, pos); ok {
			forced = []int{m, o}
		}
	}
	n := WordNote{Index: t.Index, Seat: int(t.Seat), Move: strings.ToUpper(word), Letter: v.Current, Left: v.Left, Before: s.Value(pos), Forced: forced}
	if m, ok := s.BestMove(pos); ok && m.Value == n.Before && n.Before != solve.Loss {
		n.Best = strings.ToUpper(solve.Best(m.Words).Text)
		n.BestDeletes = m.Deletes
	}
	if word == nymphabet.Resign {
		n.After = solve.Loss
	} else {
		n.Deletes = v.Mode.Deletes(word, v.Left)
		start := int(word[0] - 'a')
		found := false
		for _, m := range s.Moves(pos) {
			if m.Letter == start && m.Deletes == n.Deletes {
				n.After, found = m.Value, true
				break
			}
		}
		if !found {
			return n, fmt.Errorf("%s is not a move the solver knows from here", n.Move)
		}
	}
	n.Mistake = n.After < n.Before
	return n, nil
}

// judgeResignation values a resignation made while the other player was
// to move, which the rules allow at any time: the position is the
// other's to play, so its value for the resigner is the opposite of the
// other's, and the resigner had no word to write.
func judgeResignation(s *solve.Solver, ps *solve.ProductSearch, v *nymphabet.View, t game.Turn) (WordNote, error) {
	pos, err := solve.FromView(v, v.ToMove)
	if err != nil {
		return WordNote{}, err
	}
	n := WordNote{Index: t.Index, Seat: int(t.Seat), Move: strings.ToUpper(nymphabet.Resign), Letter: v.Current, Left: v.Left, Before: -s.Value(pos), After: solve.Loss}
	if v.Mode == nymphabet.Scoring {
		if m, o, ok := s.Products(ps, pos); ok {
			n.Forced = []int{o, m} // the resigner's first
		}
	}
	n.Mistake = n.After < n.Before
	return n, nil
}
