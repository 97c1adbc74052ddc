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
// Version 2 marks the moves the server played for a seat (Forfeits): a
// resignation in an analysis filed before may have been one. Version 3
// takes a Quizl trip's announceable_at from the strong solver's own
// choice at each move, which a version 2 analysis could contradict.
const Version = 3

// Analysis is one finished game's analysis: the game's result and, under
// the game's own name, its engine's notes on every move.
type Analysis struct {
	Version int    `json:"version"`
	Game    string `json:"game"`
	// Title is the game's title as players read it ("Sightless Word
	// Fight"); analyses kept before it was added have none.
	Title   string   `json:"title,omitempty"`
	Players []string `json:"players"`
	Lexicon string   `json:"lexicon"`
	// Moves counts the record's moves; every note names its move by its
	// 1-based index into them.
	Moves   int   `json:"moves"`
	Winners []int `json:"winners"`
	Scores  []int `json:"scores,omitempty"`

	// Forfeits are the moves the server played for a seat, in record
	// order; Of leaves it empty, since a record holds such a move as an
	// ordinary one, and the server that refereed the table sets it.
	Forfeits []Forfeit `json:"forfeits,omitempty"`

	Nymphabet *nymbot.Analysis   `json:"nymphabet,omitempty"`
	Quizl     *quizlbot.Analysis `json:"quizl,omitempty"`
	Salvo     *salvobot.Analysis `json:"salvo,omitempty"`
	Wordfight *wfbot.Analysis    `json:"wordfight,omitempty"`
}

// Reasons the server plays a move for a seat, as Forfeit.Why has them.
const (
	// ForfeitTimeout: the seat's time ran out.
	ForfeitTimeout = "timeout"
	// ForfeitClaim: the seat was away while it was to move, and another
	// player claimed the game.
	ForfeitClaim = "claim"
)

// Forfeit is a move the server played for a seat rather than its player:
// the move that gives up least (a resignation, or in Sightless Word Fight
// "cannot"), which the analysis would otherwise judge as the player's
// own choice.
type Forfeit struct {
	// Index is the move's 1-based index into the record's moves, as the
	// notes name it.
	Index int `json:"index"`
	// Why is ForfeitTimeout or ForfeitClaim.
	Why string `json:"why"`
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
	if g, err := reg.Lookup(rec.Game); err == nil {
		a.Title = g.Title()
	}
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
