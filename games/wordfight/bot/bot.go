// Package bot holds Sightless Word Fight's computer players. A player sees
// only its seat's view (its own grid, the public list, who could not place
// each word) and answers in the move notation, like a person.
//
// Every level places each word where it scores most, more or less
// carefully, and declares words it expects to fit well in its own grid and
// badly in the others'. The levels differ in vocabulary, in how many
// candidates they weigh, and in whether they model the other players:
//
//   - greedy, the bench's weakest baseline: the first legal placement it
//     finds, and a random common word to declare;
//   - greedy-best, the bench's real opponent, a player of its own written
//     apart from the levels (baseline.go): the best-scoring placement, and
//     of a few hundred random words and the words holding a word of its
//     grid, the one that scores most in its own grid, with no thought for
//     the others;
//   - easy: a random legal placement, and a common word it can place;
//   - medium: the best-scoring placement, and the best-scoring of a few
//     dozen common words;
//   - strong: of the placements that score most once the room their grid
//     leaves for the rivals' later long words is counted (see capacity),
//     the one that leaves the runs of its grid most room to be extended
//     by longer words holding them (TOPIC by TOPICAL scores 5 x 7),
//     weighed against the points;
//     it declares from a wide vocabulary, and the words holding its
//     grid's runs, the word with the best margin over what the others
//     can be expected to score in grids imagined from the public list,
//     steering towards strikes while it leads and away from them while
//     it trails, and counting the room the word leaves in its own grid.
package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"sync"

	"parlour/game"
	"parlour/games/wordfight"
	"parlour/lexicon"
)

// The level names of the bench's baselines: Greedy takes the first legal
// placement it finds; BestGreedy (its own player, not a Bot) the
// best-scoring placement, and declares the word that scores most in its
// own grid.
const (
	Greedy     = "greedy"
	BestGreedy = "greedy-best"
)

// Levels lists the level names New accepts, weakest first (the baselines
// among them).
func Levels() []string { return []string{Greedy, game.Easy, game.Medium, BestGreedy, game.Strong} }

// params set a level's strength.
type params struct {
	level string
	// rarest is the highest commonness (SCOWL size) of a word the player
	// declares.
	rarest int
	// candidates is how many words the player weighs for a declaration.
	candidates int
	// best: place for the most points (else at random, or first found).
	best, first bool
	// open weighs the best-scoring placements by the grid they leave.
	open bool
	// future weighs, against a placement's points, what the grid it
	// leaves may score later (see extender.potential).
	future float64
	// imagine is how many grids per rival the player imagines from the
	// public list to weigh its shortlist of declarations against.
	imagine, shortlist int
	// crossers is how many words that may reuse two letters of its grid,
	// longest first, the player adds to its declaration candidates.
	crossers int
	// room weighs, against a placement's points, how cramped the grid it
	// leaves is for the rivals' later long words (see roomCost).
	room float64
	// suit is how strongly the imagined rival grids are weighed by how
	// well they take the words the rival declared.
	suit float64
	// extend adds to the declaration candidates the words that hold a
	// word of the player's grid.
	extend bool
	// model weighs the other players' likely answers when declaring.
	model bool
	// early is what a strike that does not end the game is worth, at
	// most, to a declaration: a gain while the player leads, a loss while
	// it trails (see model.value).
	early float64
	// safe is the lead, under multiply, by which the player expects to be
	// ahead after a word before it declares one that ends the game: its
	// rivals' scores are guesses, about 24 points off (root mean square)
	// against the careful player.
	safe float64
	// win and lose are what a strike that may end the game is worth, per
	// unit of chance, while the player expects to end it ahead (win) or
	// not (lose).
	win, lose float64
	// safeEarly is the lead by which the player expects to be ahead after
	// a word before a strike that does not end the game is welcome (never
	// less than safe): short of it, the strike brings the rivals nearer to
	// ending the game.
	safeEarly float64
	// lastRoom multiplies room once the next strike ends the game.
	lastRoom float64
	// lost is the share of a word's letters the player expects a rival
	// to have reused when none of its imagined grids takes a word the
	// rival placed.
	lost float64
	// ends, when above 0, has the imagined rivals break ties between
	// their best-scoring placements by the clear squares beyond the
	// word's ends, up to ends a side, as a player keeping room would.
	ends int
}

func levelParams(level string) (params, error) {
	switch level {
	case Greedy:
		return params{level: level, rarest: 20, candidates: 1, first: true}, nil
	case game.Easy:
		return params{level: level, rarest: 20, candidates: 6}, nil
	case game.Medium:
		return params{level: level, rarest: 35, candidates: 40, best: true}, nil
	case game.Strong:
		return params{level: level, rarest: 50, candidates: 1500, best: true, open: true, model: true, extend: true,
			future: 0.3, room: 30, imagine: 24, shortlist: 80, suit: 3, crossers: 3000,
			early: 8, safe: 30, win: 8, lose: 8, safeEarly: 10, lastRoom: 1, ends: 6, lost: 0.3}, nil
	}
	return params{}, fmt.Errorf("no Word Fight player level %q (there are %s)", level, strings.Join(Levels(), ", "))
}

// Bot is a Word Fight computer player. It implements game.Bot.
type Bot struct {
	p     params
	seed  uint64
	lex   *lexicon.Lexicon
	vocab *vocabulary
}

// New returns a player of level (greedy, easy, medium or strong),
// deterministic for seed, that plays words of lex.
func New(level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
	if lex == nil {
		return nil, fmt.Errorf("word fight bot: no lexicon")
	}
	if level == BestGreedy {
		return newBestGreedy(seed, lex, bestGreedyWords(lex)), nil
	}
	p, err := levelParams(level)
	if err != nil {
		return nil, err
	}
	return &Bot{p: p, seed: seed, lex: lex, vocab: newVocabulary(lex, p.rarest)}, nil
}

// vocabulary is the words a player may declare, most common first.
type vocabulary struct {
	words []string
	// tri indexes words by the trigrams they hold, so that the words
	// holding a given word are found without scanning them all. It is
	// built on first use.
	triOnce sync.Once
	tri     map[[3]byte][]int32
	// capacity is the table of capacityTable, built on first use.
	capOnce  sync.Once
	capTable *capacityTable
}

// capacity returns the vocabulary's capacity table.
func (v *vocabulary) capacity() *capacityTable {
	v.capOnce.Do(func() { v.capTable = newCapacityTable(v.words) })
	return v.capTable
}

// withTrigram returns the indexes (in words, ascending) of the words that
// hold s's first three letters.
func (v *vocabulary) withTrigram(s string) []int32 {
	v.triOnce.Do(func() {
		v.tri = map[[3]byte][]int32{}
		for k, w := range v.words {
			for i := 0; i+3 <= len(w); i++ {
				t := [3]byte{w[i], w[i+1], w[i+2]}
				if l := v.tri[t]; len(l) == 0 || l[len(l)-1] != int32(k) {
					v.tri[t] = append(l, int32(k))
				}
			}
		}
	})
	return v.tri[[3]byte{s[0], s[1], s[2]}]
}

func newVocabulary(lex *lexicon.Lexicon, rarest int) *vocabulary {
	v := &vocabulary{}
	for w, c := range lex.ByCommonness() {
		if c > rarest {
			break
		}
		if len(w) >= 3 && len(w) <= 12 {
			v.words = append(v.words, w)
		}
	}
	return v
}

// Setup implements game.Bot: Word Fight has no setup.
func (b *Bot) Setup(ctx context.Context, cfg game.Config, seat game.Seat) (json.RawMessage, error) {
	return nil, nil
}

// Move implements game.Bot. view is the *wordfight.View of seat (or its
// JSON encoding).
func (b *Bot) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	v, g, rng, err := seatView(view, seat, "bot", "", b.seed)
	if err != nil {
		return "", err
	}
	if v.Current != "" {
		word := strings.ToLower(v.Current)
		p, ok := b.place(ctx, rng, v, g, word)
		if !ok {
			return "cannot", nil
		}
		return "place " + p.String(), nil
	}
	w, err := b.declare(ctx, rng, v, g)
	if err != nil {
		return "", err
	}
	return "declare " + w, nil
}

func asView(view any) (*wordfight.View, error) {
	switch v := view.(type) {
	case *wordfight.View:
		return v, nil
	case wordfight.View:
		return &v, nil
	case json.RawMessage:
		return decodeView(v)
	case []byte:
		return decodeView(v)
	}
	return nil, fmt.Errorf("word fight bot: a view of type %T is not a Word Fight view", view)
}

func decodeView(b []byte) (*wordfight.View, error) {
	var v wordfight.View
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("word fight bot: reading the view: %w", err)
	}
	return &v, nil
}

// seatView is how every player's Move begins: view read as seat's (the
// player who names the errors), its grid, and the randomness for this one
// decision. The randomness is a function of seed, the salt and the
// position, so that a game replays the same from the seed whatever else
// the player was asked before, and players salted apart draw apart.
func seatView(view any, seat game.Seat, who, salt string, seed uint64) (*wordfight.View, *wordfight.Grid, *rand.Rand, error) {
	v, err := asView(view)
	if err != nil {
		return nil, nil, nil, err
	}
	if v.Seat != seat || v.Grid == nil {
		return nil, nil, nil, fmt.Errorf("word fight %s: the view is not seat %d's", who, seat)
	}
	g, err := wordfight.GridFromRows(v.Grid)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("word fight %s: %w", who, err)
	}
	h := fnv.New64a()
	fmt.Fprintf(h, "%s%d/%d/%s", salt, v.Seat, len(v.List), v.Current)
	return v, g, rand.New(rand.NewPCG(seed, h.Sum64())), nil
}
