package bot

import (
	"context"
	"fmt"
	"time"

	"parlour/bench"
	"parlour/game"
	"parlour/games/wordfight"
	"parlour/lexicon"
)

// maxMoves bounds a game on the bench; a 20 x 20 game ends long before.
const maxMoves = 20000

// Bench plays two-player games of every level against the greedy baseline
// (greedy against itself gives its score for reference) and strong against
// medium, under the default rules, games games per matchup, the player under
// test taking the first seat in every other game. Each matchup's measure is
// that player's points per game; its move times are that player's own.
func Bench(ctx context.Context, games int, seed uint64, lex *lexicon.Lexicon) ([]*bench.Matchup, error) {
	if games < 1 {
		return nil, fmt.Errorf("word fight bench: %d games: want at least one", games)
	}
	if lex == nil {
		return nil, fmt.Errorf("word fight bench: no lexicon")
	}
	vocabs := map[int]*vocabulary{}
	player := func(level string, seed uint64) (*Bot, error) {
		p, err := levelParams(level)
		if err != nil {
			return nil, err
		}
		if vocabs[p.rarest] == nil {
			vocabs[p.rarest] = newVocabulary(lex, p.rarest)
		}
		return &Bot{p: p, seed: seed, lex: lex, vocab: vocabs[p.rarest]}, nil
	}
	rules := game.Defaults(wordfight.Game{}.Options())
	var out []*bench.Matchup
	pairs := [][2]string{{Greedy, Greedy}, {game.Easy, Greedy}, {game.Medium, Greedy}, {game.Strong, Greedy}, {game.Strong, game.Medium}}
	for li, pair := range pairs {
		level, rival := pair[0], pair[1]
		m := bench.NewMatchup(fmt.Sprintf("%s vs %s, 2 players", level, rival), fmt.Sprintf("%s's points", level))
		for i := range games {
			if err := ctx.Err(); err != nil {
				return out, err
			}
			s := seed + uint64(li)<<32 + uint64(i)*0x9e3779b97f4a7c15
			me, err := player(level, s)
			if err != nil {
				return out, err
			}
			base, err := player(rival, s^0x5bd1e995)
			if err != nil {
				return out, err
			}
			seat := game.Seat(i % 2)
			bots := []game.Bot{base, base}
			bots[seat] = me
			cfg := game.Config{Players: []string{"A", "B"}, Rules: rules, Lexicon: lex, Seed: s}
			st, err := Play(ctx, cfg, bots, func(s game.Seat, d time.Duration) {
				if s == seat {
					m.Time(d)
				}
			})
			if err != nil {
				return out, fmt.Errorf("%s: game %d: %w", m.Name, i+1, err)
			}
			r := st.Result()
			winner := "draw"
			switch {
			case len(r.Winners) == 1 && r.Winners[0] == seat:
				winner = level
			case len(r.Winners) == 1:
				winner = rival
			}
			if level == rival && winner != "draw" {
				winner = fmt.Sprintf("seat %d", r.Winners[0]+1)
			}
			m.Add(float64(r.Scores[seat]), winner)
		}
		out = append(out, m)
	}
	return out, nil
}

// Play plays one game of bots (one per seat) to its end and returns the
// final state. timed, when not nil, hears how long each move took.
func Play(ctx context.Context, cfg game.Config, bots []game.Bot, timed func(game.Seat, time.Duration)) (*wordfight.State, error) {
	st, err := wordfight.Start(cfg)
	if err != nil {
		return nil, err
	}
	if len(bots) != len(cfg.Players) {
		return nil, fmt.Errorf("%d bots for %d players", len(bots), len(cfg.Players))
	}
	for n := 0; ; {
		toMove := st.ToMove()
		if len(toMove) == 0 {
			return st, nil
		}
		for _, s := range toMove {
			if err := ctx.Err(); err != nil {
				return st, err
			}
			if n++; n > maxMoves {
				return st, fmt.Errorf("no end after %d moves", maxMoves)
			}
			start := time.Now()
			mv, err := bots[s].Move(ctx, cfg, s, st.View(s))
			if timed != nil {
				timed(s, time.Since(start))
			}
			if err != nil {
				return st, fmt.Errorf("seat %d: %w", s, err)
			}
			if _, err := st.Apply(s, mv); err != nil {
				return st, fmt.Errorf("seat %d played %q: %w", s, mv, err)
			}
		}
	}
}
