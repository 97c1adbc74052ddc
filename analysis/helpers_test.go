package analysis

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
)

var (
	lexOnce sync.Once
	lexEn   *lexicon.Lexicon
	lexErr  error
)

func en(t testing.TB) *lexicon.Lexicon {
	t.Helper()
	lexOnce.Do(func() { lexEn, lexErr = lexicon.Load("en") })
	if lexErr != nil {
		t.Fatal(lexErr)
	}
	return lexEn
}

// play has computer players of levels play a game of name under rules
// from seed to its end (or maxMoves), and returns its record.
func play(t testing.TB, name string, rules map[string]any, levels []string, seed uint64, maxMoves int) *game.Record {
	t.Helper()
	ctx := context.Background()
	lex := en(t)
	reg := games.Registry()
	rec := &game.Record{Parlour: 1, Game: name, Lexicon: "en", Seed: &seed, Rules: map[string]json.RawMessage{}}
	for k, v := range rules {
		b, _ := json.Marshal(v)
		rec.Rules[k] = b
	}
	bots := make([]game.Bot, len(levels))
	for i, l := range levels {
		rec.Players = append(rec.Players, "P"+string(rune('1'+i))+"-"+l)
		b, err := games.NewBot(name, l, seed+uint64(i)*101, lex)
		if err != nil {
			t.Fatal(err)
		}
		bots[i] = b
	}
	g, err := reg.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	if g.HasSetup() {
		opts, err := game.Resolve(g.Options(), rec.Rules)
		if err != nil {
			t.Fatal(err)
		}
		cfg := game.Config{Players: rec.Players, Rules: opts, Lexicon: lex, Seed: seed}
		rec.Setup = map[string]json.RawMessage{}
		for i, b := range bots {
			s, err := b.Setup(ctx, cfg, game.Seat(i))
			if err != nil || s == nil {
				s, err = g.AutoSetup(cfg, game.Seat(i), seed+uint64(i))
			}
			if err != nil {
				t.Fatal(err)
			}
			rec.Setup[rec.Players[i]] = s
		}
	}
	_, cfg, st, err := game.Start(reg, rec, lex)
	if err != nil {
		t.Fatal(err)
	}
	for len(rec.Moves) < maxMoves && st.Result().Status != game.Finished {
		s := st.ToMove()[0]
		m, err := bots[s].Move(ctx, cfg, s, st.View(s))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Apply(s, m); err != nil {
			t.Fatalf("move %d %q by %s: %v", len(rec.Moves)+1, m, cfg.Players[s], err)
		}
		rec.Moves = append(rec.Moves, game.Move{By: cfg.Players[s], Move: m})
	}
	return rec
}
