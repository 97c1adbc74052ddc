package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"parlour/bench"
	"parlour/game"
	"parlour/games/nymphabet"
	"parlour/games/nymphabet/solve"
	"parlour/lexicon"
)

func allLevels() []string { return []string{game.Easy, game.Medium, game.Strong} }

func allModes() []nymphabet.Mode {
	return []nymphabet.Mode{nymphabet.Standard, nymphabet.Cyclic, nymphabet.Scoring}
}

// Bench plays every level against every level, each side first in turn,
// in every mode: games games per matchup, the first word of game i of a
// cyclic or scoring matchup beginning with letter i mod 26, so that every
// start is played. Each matchup's measure is the first player's points (1
// for a win, ½ for a draw); its move times are the first player's, not
// counting the solvers' construction (tens of milliseconds, once per
// lexicon and mode, before the first game). Bench fails if a strong player
// ever loses a position the solver marks as won, or if a player's move is
// refused.
func Bench(ctx context.Context, games int, seed uint64, lex *lexicon.Lexicon) ([]*bench.Matchup, error) {
	if games < 1 {
		return nil, fmt.Errorf("bench needs at least one game per matchup, not %d", games)
	}
	if lex == nil {
		return nil, fmt.Errorf("bench needs a lexicon")
	}
	// Build the solvers first, so that move times measure moves.
	cache := newSolvers()
	for _, mode := range allModes() {
		cache.get(lex, mode)
	}
	var out []*bench.Matchup
	for _, mode := range allModes() {
		for _, first := range allLevels() {
			for _, second := range allLevels() {
				m := bench.NewMatchup(
					fmt.Sprintf("%s: %s first vs %s", mode, first, second),
					"first player's points (win 1, draw 0.5)")
				for i := range games {
					if err := ctx.Err(); err != nil {
						return out, err
					}
					start := -1
					if mode.Wraps() {
						start = i % nymphabet.Letters
					}
					gs := seed + uint64(i)*1_000_003
					res, _, err := playGame(ctx, cache, lex, mode, [2]string{first, second}, gs, start, m)
					if err != nil {
						return out, fmt.Errorf("%s, game %d: %w", m.Name, i+1, err)
					}
					switch {
					case len(res.Winners) == 0:
						m.Add(0.5, "draw")
					case res.Winners[0] == 0:
						m.Add(1, "first")
					default:
						m.Add(0, "second")
					}
				}
				out = append(out, m)
			}
		}
	}
	return out, nil
}

// playGame plays one game between two levels and returns its result and
// moves. A
// start of 0-25 makes a cyclic or scoring game's first word begin there.
// When m is not nil it records the first player's move times.
func playGame(ctx context.Context, cache *solvers, lex *lexicon.Lexicon, mode nymphabet.Mode, lv [2]string, seed uint64, start int, m *bench.Matchup) (game.Result, []game.Move, error) {
	g := nymphabet.Game{}
	rules, err := game.Resolve(g.Options(), map[string]json.RawMessage{nymphabet.OptMode: json.RawMessage(strconv.Quote(string(mode)))})
	if err != nil {
		return game.Result{}, nil, err
	}
	cfg := game.Config{Players: []string{lv[0] + " (first)", lv[1] + " (second)"}, Rules: rules, Lexicon: lex, Seed: seed}
	st, err := g.New(cfg, nil)
	if err != nil {
		return game.Result{}, nil, err
	}
	var ps [2]*Player
	for i := range ps {
		if ps[i], err = newPlayer(lv[i], seed*2+uint64(i), lex, cache); err != nil {
			return game.Result{}, nil, err
		}
	}
	// wonBy remembers a strong seat that faced a position the solver
	// marks as won.
	wonBy := -1
	var moves []game.Move
	for len(st.ToMove()) > 0 {
		if err := ctx.Err(); err != nil {
			return game.Result{}, nil, err
		}
		seat := st.ToMove()[0]
		v := st.View(seat).(*nymphabet.View)
		if lv[seat] == game.Strong && wonBy < 0 {
			pos, err := solve.FromView(v, int(seat))
			if err != nil {
				return game.Result{}, nil, err
			}
			if pos.Anywhere && start >= 0 {
				pos = solve.Position{Letter: start, Left: nymphabet.Letters, Mover: 1, Other: 1}
			}
			if cache.get(lex, mode).Value(pos) == solve.Win {
				wonBy = int(seat)
			}
		}
		t0 := time.Now()
		var move string
		if len(v.Words) == 0 && start >= 0 {
			move, err = ps[seat].choose(lex, v, int(seat), start)
		} else {
			move, err = ps[seat].Move(ctx, cfg, seat, v)
		}
		if err != nil {
			return game.Result{}, nil, err
		}
		if m != nil && seat == 0 {
			m.Time(time.Since(t0))
		}
		if _, err := st.Apply(seat, move); err != nil {
			return game.Result{}, nil, fmt.Errorf("%s played %q: %w", cfg.Players[seat], move, err)
		}
		moves = append(moves, game.Move{By: cfg.Players[seat], Move: move})
	}
	res := st.Result()
	if wonBy >= 0 && (len(res.Winners) == 0 || int(res.Winners[0]) != wonBy) {
		return res, moves, fmt.Errorf("the strong player lost a position the solver marks as won: %v", moves)
	}
	return res, moves, nil
}
