package games

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"parlour/docs"
	"parlour/game"
	"parlour/lexicon"
)

func TestRegistry(t *testing.T) {
	reg := Registry()
	want := []string{"nymphabet", "quizl", "salvo", "wordfight"}
	got := reg.Names()
	if len(got) != len(want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Names() = %v, want %v", got, want)
		}
		g, err := reg.Lookup(want[i])
		if err != nil || g.Name() != want[i] {
			t.Fatalf("Lookup(%q) = %v, %v", want[i], g, err)
		}
		if g.Title() == "" || len(g.Options()) == 0 {
			t.Errorf("%s: no title or no options", want[i])
		}
		for _, o := range append(g.Options(), game.TableOptions()...) {
			if o.Label == "" || o.Help == "" {
				t.Errorf("%s: option %s has no label or no help, which front ends show players", want[i], o.Name)
			}
		}
	}
	if _, err := reg.Lookup("chess"); err == nil {
		t.Fatal("Lookup(chess) succeeded")
	}
}

// TestRulesDocsNameEveryOption: each game's rules page (docs/rules,
// served by the browser and `parlour rules`) names every option of the
// game by the label the forms show and by the key the API takes, so that
// a player can find in the rules what a form offers.
func TestRulesDocsNameEveryOption(t *testing.T) {
	t.Parallel()
	reg := Registry()
	for _, name := range reg.Names() {
		g, _ := reg.Lookup(name)
		b, err := fs.ReadFile(docs.Rules, "rules/"+name+".md")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for _, o := range g.Options() {
			if !strings.Contains(string(b), o.Label+" (`"+o.Name) {
				t.Errorf("rules/%s.md does not name %s as %q (`%s`)", name, o.Name, o.Label, o.Name)
			}
		}
	}
}

// TestBotsPlayEveryGame seats a computer player of each level against a
// strong one in a two-player game of each kind and plays it to the end
// through the contract, as the server does.
func TestBotsPlayEveryGame(t *testing.T) {
	lex := lexicon.Default()
	reg := Registry()
	ctx := context.Background()
	for _, name := range reg.Names() {
		for _, level := range []string{game.Easy, game.Medium, game.Strong} {
			t.Run(name+"/"+level, func(t *testing.T) {
				g, _ := reg.Lookup(name)
				rules, err := game.Resolve(g.Options(), nil)
				if err != nil {
					t.Fatal(err)
				}
				cfg := game.Config{Players: []string{"Ann", "Ben"}, Rules: rules, Lexicon: lex, Seed: 3}
				bots := make([]game.Bot, 2)
				var setups []json.RawMessage
				for i, lv := range []string{level, game.Strong} {
					if bots[i], err = NewBot(name, lv, uint64(i+1), lex); err != nil {
						t.Fatal(err)
					}
					if !g.HasSetup() {
						continue
					}
					raw, err := bots[i].Setup(ctx, cfg, game.Seat(i))
					if err != nil {
						t.Fatal(err)
					}
					c, err := g.CheckSetup(cfg, game.Seat(i), raw)
					if err != nil {
						t.Fatalf("bot's setup refused: %v", err)
					}
					setups = append(setups, c)
				}
				st, err := g.New(cfg, setups)
				if err != nil {
					t.Fatal(err)
				}
				for moves := 0; st.Result().Status != game.Finished; moves++ {
					if moves > 2000 {
						t.Fatal("game did not end in 2000 moves")
					}
					for _, s := range st.ToMove() {
						m, err := bots[s].Move(ctx, cfg, s, st.View(s))
						if err != nil {
							t.Fatalf("bot %d: %v", s, err)
						}
						if _, err := st.Apply(s, m); err != nil {
							t.Fatalf("bot %d's move %q refused: %v", s, m, err)
						}
					}
				}
			})
		}
	}
	if _, err := NewBot("quizl", "grandmaster", 1, lex); err == nil {
		t.Fatal("unknown level accepted")
	}
	if _, err := NewBot("chess", game.Easy, 1, lex); err == nil {
		t.Fatal("unknown game accepted")
	}
}

// TestSolitaireRecordHidesGrid checks that a solitaire Quizl player's copy
// of the record, mid-game, holds no letter of the grid they attack.
func TestSolitaireRecordHidesGrid(t *testing.T) {
	rec := &game.Record{Parlour: 1, Game: "quizl", Players: []string{"Ann"},
		Setup: map[string]json.RawMessage{"Ann": json.RawMessage(`{"grid": ["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "password": "PSALM"}`)},
		Moves: []game.Move{{By: "Ann", Move: "72"}}}
	g, cfg, st, err := game.Start(Registry(), rec, lexicon.Default())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Apply(0, "72"); err != nil {
		t.Fatal(err)
	}
	mine := rec.For(g, cfg, st.Result(), 0)
	if len(mine.Setup) != 0 {
		t.Fatalf("the solitaire player's record shows the grid: %s", mine.Setup["Ann"])
	}
}

// TestResultWinnersAList: every game reports its winners as a list, empty
// while the game goes on and when nobody won (alone, a resignation), never
// as JSON's null: the API hands Result to clients as it is, and one that
// reads the winners' length must not meet null in one game and [] in
// another.
func TestResultWinnersAList(t *testing.T) {
	t.Parallel()
	lex := lexicon.Default()
	reg := Registry()
	for _, name := range reg.Names() {
		g, _ := reg.Lookup(name)
		lo, _ := g.Players()
		for _, n := range []int{lo, 2} {
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) {
				t.Parallel()
				st := newPlay(t, g, lex, []string{"Ann", "Ben"}[:n])
				check := func(when string) {
					t.Helper()
					b, err := json.Marshal(st.Result())
					if err != nil {
						t.Fatal(err)
					}
					if strings.Contains(string(b), `"winners":null`) || !strings.Contains(string(b), `"winners":[`) {
						t.Errorf("%s, the result is %s: want its winners as a list", when, b)
					}
				}
				check("at the start")
				// In Quizl a player's resignation ends their hunt, and the
				// others play on: every seat resigns in turn.
				for s := range n {
					if st.Result().Status == game.Finished {
						break
					}
					if _, err := st.Apply(game.Seat(s), "resign"); err != nil {
						t.Fatalf("seat %d's resignation refused: %v", s, err)
					}
				}
				if st.Result().Status != game.Finished {
					t.Fatalf("every seat resigned, and the game is %s", st.Result().Status)
				}
				check("after the resignations")
			})
		}
	}
}

// TestLeavers: in each game a player of three may leave while the others
// play on, and the state says who is out (game.Leaver), as the server's
// clocks read it; Nymphabet, of two, ends instead.
func TestLeavers(t *testing.T) {
	t.Parallel()
	lex := lexicon.Default()
	reg := Registry()
	for _, name := range []string{"quizl", "salvo", "wordfight"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			g, _ := reg.Lookup(name)
			st := newPlay(t, g, lex, []string{"Ann", "Ben", "Cat"})
			l, ok := st.(game.Leaver)
			if !ok {
				t.Fatalf("%s's state does not say who is out", name)
			}
			for s := range game.Seat(3) {
				if l.Out(s) {
					t.Errorf("seat %d out before anybody left", s)
				}
			}
			if _, err := st.Apply(2, "resign"); err != nil {
				t.Fatalf("Cat's resignation: %v", err)
			}
			if st.Result().Status != game.InProgress {
				t.Fatalf("the game of three ended when Cat resigned")
			}
			if !l.Out(2) || l.Out(0) || l.Out(1) || l.Out(-1) || l.Out(3) {
				t.Errorf("after Cat resigned, out: %v %v %v (and -1, 3: %v %v)", l.Out(0), l.Out(1), l.Out(2), l.Out(-1), l.Out(3))
			}
		})
	}
}

// newPlay starts a game of g with the default rules between players,
// each seat's setup made at random.
func newPlay(t *testing.T, g game.Game, lex *lexicon.Lexicon, players []string) game.State {
	t.Helper()
	rules, err := game.Resolve(g.Options(), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.Config{Players: players, Rules: rules, Lexicon: lex, Seed: 5}
	var setups []json.RawMessage
	if g.HasSetup() {
		for i := range players {
			raw, err := g.AutoSetup(cfg, game.Seat(i), uint64(i+1))
			if err != nil {
				t.Fatal(err)
			}
			setups = append(setups, raw)
		}
	}
	st, err := g.New(cfg, setups)
	if err != nil {
		t.Fatal(err)
	}
	return st
}
