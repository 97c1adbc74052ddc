// Package analysis annotates finished games with the computer players'
// engines: every move judged from its mover's point of view, using only
// what that seat could see then (docs/analysis.md). Each game's engine
// lives with its bots (games/*/bot); this package replays a record,
// refuses a game still in progress, and gathers the engine's notes into
// one object for the command line and the API.
package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"parlour/game"
	nymbot "parlour/games/nymphabet/bot"
	"parlour/games/quizl"
	quizlbot "parlour/games/quizl/bot"
	salvobot "parlour/games/salvo/bot"
	wfbot "parlour/games/wordfight/bot"
	"parlour/lexicon"
)

// Version is the version of the analysis object; it changes when a
// field's meaning does, so that a cached analysis can be told apart.
const Version = 1

// Analysis is one finished game's analysis: the game's result and, under
// the game's own name, its engine's notes on every move.
type Analysis struct {
	Version int      `json:"version"`
	Game    string   `json:"game"`
	Players []string `json:"players"`
	Lexicon string   `json:"lexicon"`
	// Moves counts the record's moves; every note names its move by its
	// 1-based index into them.
	Moves   int   `json:"moves"`
	Winners []int `json:"winners"`
	Scores  []int `json:"scores,omitempty"`

	Nymphabet *nymbot.Analysis   `json:"nymphabet,omitempty"`
	Quizl     *quizlbot.Analysis `json:"quizl,omitempty"`
	Salvo     *salvobot.Analysis `json:"salvo,omitempty"`
	Wordfight *wfbot.Analysis    `json:"wordfight,omitempty"`
}

// ErrInProgress is wrapped by Of's error for a game that has not ended.
var ErrInProgress = game.ErrInProgress

// Of analyses the finished game rec, refereed with lex. It returns an
// error wrapping ErrInProgress for a game not yet over, and the
// *game.Refusal of a record that does not replay.
func Of(ctx context.Context, reg *game.Registry, rec *game.Record, lex *lexicon.Lexicon) (*Analysis, error) {
	cfg, res, turns, err := game.Turns(reg, rec, lex)
	if err != nil {
		var ref *game.Refusal
		if errors.As(err, &ref) {
			return nil, fmt.Errorf("the record does not replay: %w", err)
		}
		return nil, err
	}
	a := &Analysis{Version: Version, Game: rec.Game, Players: cfg.Players, Lexicon: lex.Name(), Moves: len(turns), Winners: []int{}, Scores: res.Scores}
	for _, w := range res.Winners {
		a.Winners = append(a.Winners, int(w))
	}
	switch rec.Game {
	case "nymphabet":
		a.Nymphabet, err = nymbot.Analyse(ctx, cfg, turns)
	case "quizl":
		a.Quizl, err = quizlbot.Analyse(ctx, cfg, turns)
	case "salvo":
		a.Salvo, err = salvobot.Analyse(ctx, cfg, turns)
	case "wordfight":
		a.Wordfight, err = wfbot.Analyse(ctx, cfg, turns)
	default:
		return nil, fmt.Errorf("no engine analyses %s", rec.Game)
	}
	if err != nil {
		return nil, fmt.Errorf("analysing the %s game: %w", rec.Game, err)
	}
	return a, nil
}

// Renamed returns body, an encoded analysis, naming the seats players,
// and whether it had to change it: an account deleted or renamed by a
// moderator goes by its new name in its finished games' records, and so
// must it in their analyses, which are kept encoded. Only the names that
// came from the record change: a solitaire grid stays "the grid".
func Renamed(body []byte, players []string) ([]byte, bool, error) {
	var a Analysis
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, false, fmt.Errorf("reading an analysis: %w", err)
	}
	if slices.Equal(a.Players, players) || len(a.Players) != len(players) {
		return body, false, nil
	}
	name := func(seat int, was string) string {
		if seat >= 0 && seat < len(players) && was == a.Players[seat] {
			return players[seat]
		}
		return was
	}
	if a.Quizl != nil {
		for i := range a.Quizl.Moves {
			m := &a.Quizl.Moves[i]
			// An announcement of a game of three names its player.
			m.Move = quizl.Game{}.RenameMove(m.Move, a.Players, players)
			for j := range m.Boards {
				m.Boards[j].Name = name(m.Boards[j].Against, m.Boards[j].Name)
			}
			for j := range m.Trips {
				m.Trips[j].Name = name(m.Trips[j].Against, m.Trips[j].Name)
			}
		}
	}
	a.Players = slices.Clone(players)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&a); err != nil {
		return nil, false, fmt.Errorf("encoding an analysis: %w", err)
	}
	return buf.Bytes(), true, nil
}
