package bot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"parlour/bench"
	"parlour/game"
	"parlour/games/wordfight"
	"parlour/lexicon"
)

// maxMoves bounds a game on the bench; a 20 x 20 game ends long before.
const maxMoves = 20000

// pairing is one matchup of the bench: the player under test, its rivals
// (one per other seat), and whether the measure is its points or its share
// of wins.
type pairing struct {
	level  string
	rivals []string
	wins   bool
}

func (p pairing) name() string {
	return fmt.Sprintf("%s vs %s, %d players", p.level, strings.Join(p.rivals, " + "), len(p.rivals)+1)
}

func (p pairing) measure() string {
	if p.wins {
		return fmt.Sprintf("%s's wins (win 1, draw 1/2)", p.level)
	}
	return fmt.Sprintf("%s's points", p.level)
}

// pairings are the bench's matchups, in order. The index of each is part
// of its games' seeds, so new ones go at the end.
func pairings() []pairing {
	return []pairing{
		{level: Greedy, rivals: []string{Greedy}},
		{level: game.Easy, rivals: []string{Greedy}},
		{level: game.Medium, rivals: []string{Greedy}},
		{level: game.Strong, rivals: []string{Greedy}},
		{level: game.Strong, rivals: []string{game.Medium}},
		{level: game.Strong, rivals: []string{BestGreedy}, wins: true},
		{level: game.Strong, rivals: []string{game.Medium, game.Medium}, wins: true},
		{level: BestGreedy, rivals: []string{game.Medium}, wins: true},
		{level: BestGreedy, rivals: []string{game.Medium, game.Medium}, wins: true},
		{level: Careful, rivals: []string{BestGreedy}, wins: true},
		{level: game.Strong, rivals: []string{Careful}, wins: true},
	}
}

// Bench plays every level against the baselines under the default rules,
// games games per matchup: two-player games against the first-placement
// greedy baseline (greedy against itself gives its score for reference),
// strong against medium, and the win shares that matter most: strong
// against the best-scoring greedy player, and strong against two medium
// players at a three-player table. The player under test moves round the
// seats from game to game. A matchup's measure is that player's points per
// game, or its wins (a shared win counting 1/2), whose mean is its win
// rate with a 95% interval; its move times are that player's own.
func Bench(ctx context.Context, games int, seed uint64, lex *lexicon.Lexicon) ([]*bench.Matchup, error) {
	return benchPairings(ctx, games, seed, lex, pairings(), nil, carefulTuned)
}

// benchPairings plays the pairings whose index keep accepts (all when keep
// is nil), the careful player playing with weights cw.
func benchPairings(ctx context.Context, games int, seed uint64, lex *lexicon.Lexicon, ps []pairing, keep func(int) bool, cw carefulWeights) ([]*bench.Matchup, error) {
	if games < 1 {
		return nil, fmt.Errorf("word fight bench: %d games: want at least one", games)
	}
	if lex == nil {
		return nil, fmt.Errorf("word fight bench: no lexicon")
	}
	vocabs := map[int]*vocabulary{}
	player := func(level string, seed uint64) (game.Bot, error) {
		switch level {
		case BestGreedy:
			return newBestGreedy(seed, lex, bestGreedyWords(lex)), nil
		case Careful:
			c := newCareful(seed, lex)
			c.w = cw
			return c, nil
		}
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
	for li, pr := range ps {
		if keep != nil && !keep(li) {
			continue
		}
		n := len(pr.rivals) + 1
		m := bench.NewMatchup(pr.name(), pr.measure())
		for i := range games {
			if err := ctx.Err(); err != nil {
				return out, err
			}
			s := seed + uint64(li)<<32 + uint64(i)*0x9e3779b97f4a7c15
			seat := game.Seat(i % n)
			bots := make([]game.Bot, n)
			names := make([]string, n)
			for k, j := 0, 0; k < n; k++ {
				names[k] = string(rune('A' + k))
				level, bs := pr.level, s
				if game.Seat(k) != seat {
					level, bs = pr.rivals[j], s^(0x5bd1e995*uint64(j+1))
					j++
				}
				b, err := player(level, bs)
				if err != nil {
					return out, err
				}
				bots[k] = b
			}
			cfg := game.Config{Players: names, Rules: rules, Lexicon: lex, Seed: s}
			st, err := Play(ctx, cfg, bots, func(s game.Seat, d time.Duration) {
				if s == seat {
					m.Time(d)
				}
			})
			if err != nil {
				return out, fmt.Errorf("%s: game %d: %w", m.Name, i+1, err)
			}
			m.Add(outcome(pr, st.Result(), seat))
		}
		out = append(out, m)
	}
	return out, nil
}

// outcome returns a finished game's measure for the player under test in
// seat, and the label of who won.
func outcome(pr pairing, r game.Result, seat game.Seat) (float64, string) {
	mine := false
	for _, w := range r.Winners {
		mine = mine || w == seat
	}
	winner := ""
	switch {
	case len(r.Winners) != 1:
		winner = "draw"
	case mine:
		winner = pr.level
	default:
		winner = "rivals"
		if len(pr.rivals) == 1 {
			winner = pr.rivals[0]
		}
	}
	if winner == pr.level && pr.level == pr.rivals[0] {
		winner = fmt.Sprintf("seat %d", r.Winners[0]+1)
	}
	if !pr.wins {
		return float64(r.Scores[seat]), winner
	}
	switch {
	case !mine:
		return 0, winner
	case len(r.Winners) == 1:
		return 1, winner
	}
	return 1 / float64(len(r.Winners)), winner
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
