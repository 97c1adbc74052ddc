package games_test

import (
	"fmt"
	"strings"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
)

// A record is re-refereed move by move: here the scoring-mode sample game,
// in which the first player wins 108 to 96.
func Example_replay() {
	const text = `{"parlour": 1, "game": "nymphabet", "rules": {"mode": "scoring"},
	  "lexicon": "en-large", "players": ["Ann", "Ben"], "moves": [
	  {"by": "Ann", "move": "queerest"}, {"by": "Ben", "move": "uvula"},
	  {"by": "Ann", "move": "waxy"}, {"by": "Ben", "move": "zabaglione"},
	  {"by": "Ann", "move": "cede"}, {"by": "Ben", "move": "fighting"},
	  {"by": "Ann", "move": "jackal"}, {"by": "Ben", "move": "minorship"}]}`
	rec, err := game.Decode(strings.NewReader(text))
	if err != nil {
		fmt.Println(err)
		return
	}
	lex, err := lexicon.Load(rec.Lexicon)
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg, st, steps, err := game.Replay(games.Registry(), rec, lex)
	if err != nil {
		fmt.Println(err)
		return
	}
	res := st.Result()
	fmt.Println(len(steps), "moves,", res.Status)
	fmt.Println("winner:", cfg.Name(res.Winners[0]), "scores:", res.Scores)
	// Output:
	// 8 moves, finished
	// winner: Ann scores: [108 96]
}

// A refused move names what is wrong in a player's words and the move.
func Example_refusal() {
	rec := &game.Record{Parlour: 1, Game: "nymphabet", Players: []string{"Ann", "Ben"},
		Moves: []game.Move{{By: "Ann", Move: "aback"}, {By: "Ben", Move: "pique"}}}
	_, _, _, err := game.Replay(games.Registry(), rec, lexicon.Default())
	fmt.Println(err)
	// Output:
	// move 2 by Ben refused: PIQUE does not start with D, the next undeleted letter
}

// The registry lists every game and its rule options for front ends.
func ExampleRegistry() {
	reg := games.Registry()
	for _, name := range reg.Names() {
		g, _ := reg.Lookup(name)
		lo, hi := g.Players()
		fmt.Printf("%s: %s, %d-%d players, %d rule options\n", name, g.Title(), lo, hi, len(g.Options()))
	}
	// Output:
	// nymphabet: Nymphabet, 2-2 players, 2 rule options
	// quizl: Quizl, 1-8 players, 3 rule options
	// salvo: Salvo, 1-6 players, 3 rule options
	// wordfight: Sightless Word Fight, 2-8 players, 6 rule options
}
