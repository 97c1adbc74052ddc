package bot

import (
	"context"
	"fmt"
	"strings"

	"parlour/game"
	"parlour/games/wordfight"
)

// Analysis is the engine's verdict on a finished game of Sightless Word
// Fight: for every answer, the best legal placement the player's own grid
// allowed then against the answer given (see docs/analysis.md).
type Analysis struct {
	Moves []AnswerNote `json:"moves"`
	// Played and Best total, per seat, the points the answers scored and
	// the points the best placement of every word would have scored on the
	// grid as it stood (each word judged on its own: the best placement of
	// an early word may change what later words can do).
	Played []int `json:"played"`
	Best   []int `json:"best"`
	// Missed counts, per seat, the "cannot" answers that had a legal
	// placement.
	Missed []int `json:"missed"`
}

// AnswerNote is one answer to a declared word, judged on the grid its
// player had when answering.
type AnswerNote struct {
	// Index is the move's 1-based index into the record's moves.
	Index int    `json:"index"`
	Seat  int    `json:"seat"`
	Move  string `json:"move"`
	Word  string `json:"word"`
	// Points is what the answer scored (0 for "cannot" or resigning).
	Points int `json:"points"`
	// Best is a legal placement that scores most ("" when the word had no
	// legal placement), and BestPoints its score.
	Best       string `json:"best,omitempty"`
	BestPoints int    `json:"best_points"`
	// Placements counts the word's legal placements on the grid.
	Placements int `json:"placements"`
	// Missed is set on a "cannot" that had a legal placement: the audit's
	// finding, for this move.
	Missed bool `json:"missed"`
}

// Analyse judges every answer of a finished game from the turns of its
// record (game.Turns). Each answer is judged on the answering seat's own
// grid just before it, which is all that seat could see.
func Analyse(ctx context.Context, cfg game.Config, turns []game.Turn) (*Analysis, error) {
	if cfg.Lexicon == nil {
		return nil, fmt.Errorf("word fight analysis: no lexicon")
	}
	n := len(cfg.Players)
	a := &Analysis{Moves: []AnswerNote{}, Played: make([]int, n), Best: make([]int, n), Missed: make([]int, n)}
	for _, t := range turns {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v, err := asView(t.Before)
		if err != nil {
			return nil, err
		}
		f := strings.Fields(strings.ToLower(t.Move))
		if v.Current == "" || len(f) == 0 || f[0] == "declare" || v.Grid == nil {
			continue // a declaration, or nothing to place
		}
		if s := int(t.Seat); s >= 0 && s < len(v.Answered) && v.Answered[s] {
			continue // a resignation after answering the word is no answer to it
		}
		g, err := wordfight.GridFromRows(v.Grid)
		if err != nil {
			return nil, fmt.Errorf("word fight analysis, move %d: %w", t.Index, err)
		}
		note := judge(cfg, v.Rules, g, strings.ToLower(v.Current), f)
		note.Index, note.Seat, note.Move, note.Word = t.Index, int(t.Seat), t.Move, v.Current
		if s := note.Seat; s >= 0 && s < n {
			a.Played[s] += note.Points
			a.Best[s] += note.BestPoints
			if note.Missed {
				a.Missed[s]++
			}
		}
		a.Moves = append(a.Moves, note)
	}
	return a, nil
}

// judge scores the answer f to word on g and finds the best placement.
func judge(cfg game.Config, rules wordfight.Rules, g *wordfight.Grid, word string, f []string) AnswerNote {
	var note AnswerNote
	best := -1
	for p, reused := range g.Placements(cfg.Lexicon, word) {
		note.Placements++
		if sc := rules.Score(reused, len(word)); sc > best {
			best, note.Best = sc, "place "+p.String()
		}
	}
	note.BestPoints = max(best, 0)
	switch f[0] {
	case "place":
		if p, err := wordfight.ParsePlacement(strings.Join(f[1:], " ")); err == nil {
			if reused, err := g.Check(cfg.Lexicon, word, p); err == nil {
				note.Points = rules.Score(reused, len(word))
			}
		}
	case "cannot":
		note.Missed = note.Placements > 0
	}
	return note
}
