// Package bot holds Nymphabet's computer players. They see only their
// seat's view (nymphabet.View) and answer with a word or "resign", like a
// person.
//
// The strong player is perfect: it asks the solver (package solve) for the
// value of every move and never lets a won position go; in a lost one it
// picks the move whose saving replies are fewest and rarest, hoping the
// opponent misses them. The easy and medium players know only common
// words and often play by feel rather than by the solver.
package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"parlour/game"
	"parlour/games/nymphabet"
	"parlour/games/nymphabet/solve"
	"parlour/lexicon"
)

// level is how a computer player plays.
type level struct {
	name string
	// vocab is the rarest SCOWL size the player knows (10 most common).
	vocab int
	// perfect is the chance that a move is the solver's best among the
	// words the player knows; otherwise it plays by a one-move look.
	perfect float64
	// choices is how many of a move's most common known words the player
	// picks among.
	choices int
}

// levelOf returns the level called name.
func levelOf(name string) (level, bool) {
	switch strings.ToLower(name) {
	case game.Easy:
		return level{name: game.Easy, vocab: 20, perfect: 0.35, choices: 20}, true
	case game.Medium:
		return level{name: game.Medium, vocab: 35, perfect: 0.8, choices: 10}, true
	case game.Strong:
		return level{name: game.Strong, vocab: 100, perfect: 1, choices: 3}, true
	}
	return level{}, false
}

// solvers shares one solver per lexicon and mode between players.
type solvers struct {
	mu sync.Mutex
	m  map[solverKey]*solve.Solver
}

type solverKey struct {
	lex  *lexicon.Lexicon
	mode nymphabet.Mode
}

func newSolvers() *solvers { return &solvers{m: map[solverKey]*solve.Solver{}} }

// get returns the solver for lex and mode, building it on first use.
func (c *solvers) get(lex *lexicon.Lexicon, mode nymphabet.Mode) *solve.Solver {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := solverKey{lex, mode}
	s, ok := c.m[k]
	if !ok {
		s = solve.New(lex, mode)
		c.m[k] = s
	}
	return s
}

// Player is a Nymphabet computer player of one level. It keeps no state
// between moves beyond its solvers, so its choices depend only on its
// seed and the view.
type Player struct {
	level level
	seed  uint64
	lex   *lexicon.Lexicon
	cache *solvers
}

var _ game.Bot = (*Player)(nil)

// New returns a computer player of the given level (easy, medium or
// strong), deterministic for seed, that plays words of lex unless the
// table's configuration names another lexicon.
func New(level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
	return newPlayer(level, seed, lex, newSolvers())
}

func newPlayer(name string, seed uint64, lex *lexicon.Lexicon, cache *solvers) (*Player, error) {
	l, ok := levelOf(name)
	if !ok {
		return nil, fmt.Errorf("no Nymphabet computer player of level %q (easy, medium or strong)", name)
	}
	if lex == nil {
		return nil, errors.New("a Nymphabet computer player needs a lexicon")
	}
	return &Player{level: l, seed: seed, lex: lex, cache: cache}, nil
}

// Setup returns nil: Nymphabet has no setup.
func (p *Player) Setup(context.Context, game.Config, game.Seat) (json.RawMessage, error) {
	return nil, nil
}

// Move chooses a word for seat, whose view is view (a *nymphabet.View, a
// nymphabet.View or its JSON).
func (p *Player) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	v, err := asView(view)
	if err != nil {
		return "", err
	}
	lex := p.lex
	if cfg.Lexicon != nil {
		lex = cfg.Lexicon
	}
	return p.choose(lex, v, int(seat), -1)
}

func asView(view any) (*nymphabet.View, error) {
	switch v := view.(type) {
	case *nymphabet.View:
		if v == nil {
			return nil, errors.New("no view")
		}
		return v, nil
	case nymphabet.View:
		return &v, nil
	case json.RawMessage:
		return decodeView(v)
	case []byte:
		return decodeView(v)
	}
	return nil, fmt.Errorf("a Nymphabet player cannot read a view of type %T", view)
}

func decodeView(b []byte) (*nymphabet.View, error) {
	var v nymphabet.View
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("reading the view: %w", err)
	}
	return &v, nil
}

// option is a move the player may make: letters to delete, the most
// common words it knows that do it, and how many such words it knows.
type option struct {
	move  solve.Move
	words []solve.Word
	known int
	vocab int
	shun  map[string]bool
}

// knows reports whether w is a word the option's player would write.
func (o *option) knows(w solve.Word) bool { return w.Common <= o.vocab && !o.shun[w.Text] }

// choose picks a word for seat in v. A start of 0-25 makes a first word
// that may begin anywhere begin with that letter instead (the bench uses
// it to play every start).
func (p *Player) choose(lex *lexicon.Lexicon, v *nymphabet.View, seat, start int) (string, error) {
	pos, err := solve.FromView(v, seat)
	if err != nil {
		return "", err
	}
	s := p.cache.get(lex, v.Mode)
	moves := s.Moves(pos)
	if start >= 0 && pos.Anywhere {
		moves = filter(moves, func(m solve.Move) bool { return m.Letter == start })
	}
	played := map[string]bool{}
	if v.NoRepeats {
		for _, w := range v.Words {
			played[strings.ToLower(w.Word)] = true
		}
	}
	opts := p.options(moves, p.level.vocab, played)
	if len(opts) == 0 {
		opts = p.options(moves, 1000, played) // words it does not know well
	}
	if len(opts) == 0 {
		return nymphabet.Resign, nil
	}
	r := rand.New(rand.NewPCG(p.seed, uint64(len(v.Words))<<8|uint64(seat)<<4|uint64(max(start, 0))))
	var o option
	if r.Float64() < p.level.perfect {
		o = p.best(s, pos, opts, r)
	} else {
		o = byFeel(opts, r)
	}
	n := min(len(o.words), p.level.choices)
	return o.words[r.IntN(n)].Text, nil
}

func filter(ms []solve.Move, keep func(solve.Move) bool) []solve.Move {
	out := ms[:0:0]
	for _, m := range ms {
		if keep(m) {
			out = append(out, m)
		}
	}
	return out
}

// options keeps the moves the player has a word for, each with its
// level's choice of most common words.
func (p *Player) options(moves []solve.Move, vocab int, played map[string]bool) []option {
	var out []option
	for _, m := range moves {
		o := option{move: m, vocab: vocab, shun: played}
		for _, list := range m.Words {
			taken := 0
			for _, w := range list {
				if o.knows(w) {
					o.known++
					if taken < p.level.choices {
						o.words = append(o.words, w)
						taken++
					}
				}
			}
		}
		if o.known > 0 {
			// Each list is most common first; merge them.
			slices.SortStableFunc(o.words, func(a, b solve.Word) int { return a.Common - b.Common })
			o.words = o.words[:min(len(o.words), p.level.choices)]
			out = append(out, o)
		}
	}
	return out
}

// best returns an option of the highest value. Among winning options any
// will do; among drawn or lost ones it prefers the option that leaves the
// opponent the fewest, rarest replies that hold their ground.
func (p *Player) best(s *solve.Solver, pos solve.Position, opts []option, r *rand.Rand) option {
	top := solve.Loss
	for _, o := range opts {
		top = max(top, o.move.Value)
	}
	var cands []option
	for _, o := range opts {
		if o.move.Value == top {
			cands = append(cands, o)
		}
	}
	if top == solve.Win || len(cands) == 1 {
		return cands[r.IntN(len(cands))]
	}
	bestAt, bestTrap := 0, trap{}
	for i, o := range cands {
		t := trapOf(s, pos, o.move, -top)
		if i == 0 || t.better(bestTrap) {
			bestAt, bestTrap = i, t
		}
	}
	return cands[bestAt]
}

// trap measures how hard a move makes it for the opponent to hold the
// value hold: how common their most common holding word is (higher is
// rarer, better for us) and how many holding words they have.
type trap struct {
	ends   bool // the move ends the game: no chance of a mistake
	rarest int  // commonness of the opponent's most common holding word
	count  int  // the opponent's holding words
}

func (t trap) better(u trap) bool {
	if t.ends != u.ends {
		return !t.ends
	}
	if t.rarest != u.rarest {
		return t.rarest > u.rarest
	}
	return t.count < u.count
}

func trapOf(s *solve.Solver, pos solve.Position, m solve.Move, hold solve.Value) trap {
	left := pos.Left
	if pos.Anywhere {
		left = nymphabet.Letters
	}
	if m.Deletes >= left {
		return trap{ends: true}
	}
	next := solve.Position{
		Letter: (m.Letter + m.Deletes) % nymphabet.Letters,
		Left:   left - m.Deletes,
		Mover:  pos.Other,
		Other:  pos.Mover * m.Deletes,
	}
	t := trap{rarest: 1000}
	for _, reply := range s.Moves(next) {
		if reply.Value < hold {
			continue
		}
		for _, list := range reply.Words {
			t.count += len(list)
			for _, w := range list {
				t.rarest = min(t.rarest, w.Common)
			}
		}
	}
	return t
}

// byFeel is how a player who does not look ahead chooses: it takes a move
// that ends the game in its favour, shuns one that ends it against it if
// it can, and otherwise writes any word it knows.
func byFeel(opts []option, r *rand.Rand) option {
	var safe []option
	for _, o := range opts {
		if o.move.Value == solve.Win && o.ends() {
			return o
		}
		if !(o.ends() && o.move.Value == solve.Loss) {
			safe = append(safe, o)
		}
	}
	if len(safe) == 0 {
		safe = opts
	}
	// Any known word, so moves with many words come up more often.
	total := 0
	for _, o := range safe {
		total += o.known
	}
	k := r.IntN(total)
	for _, o := range safe {
		if k >= o.known {
			k -= o.known
			continue
		}
		for _, list := range o.move.Words {
			for _, w := range list {
				if o.knows(w) {
					if k == 0 {
						o.words = []solve.Word{w}
						return o
					}
					k--
				}
			}
		}
	}
	return safe[len(safe)-1]
}

// ends reports whether the option ends the game: its value is then plain
// without looking ahead.
func (o option) ends() bool { return o.move.Ends }
