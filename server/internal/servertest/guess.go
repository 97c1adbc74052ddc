// Package servertest holds what the server's tests share: Guess, a small
// game played through the game package's interfaces as the real games are,
// with its computer players; the stores the tests run on (StoreKind,
// EachStore) with one throwaway PostgreSQL server a test run (Main); and
// Eventually, for waiting on what another goroutine does.
//
// It imports no server package, so that every one of them, and their
// internal tests, can import it.
package servertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"parlour/game"
	"parlour/lexicon"
)

// Guess is a small game with secret setups, private events and computer
// players, so that the service can be tested apart from the real games:
// each seat hides a number, and in turn each seat guesses the number of
// the next seat (its own, alone at the table), learning privately whether
// the secret is higher or lower. The first right guess wins.
type Guess struct{}

// Name is "guess".
func (Guess) Name() string        { return "guess" }
func (Guess) Title() string       { return "Guess" }
func (Guess) Players() (int, int) { return 1, 3 }
func (Guess) HasSetup() bool      { return true }

// Options are the largest number, and the wins that end a set.
func (Guess) Options() []game.Option {
	return []game.Option{
		{Name: "max", Label: "Largest number", Kind: game.Int, Default: 100, Min: 10, Max: 1000, Help: "the largest number"},
		{Name: "set_target", Label: "Wins that end a set", Kind: game.Int, Default: 2, Min: 1, Max: 10, Help: "wins that end a set"},
	}
}

// GuessSetup is a seat's hidden number.
type GuessSetup struct {
	Number int `json:"number"`
}

// CheckSetup takes {"number": N} with N from 1 to the largest number.
func (Guess) CheckSetup(cfg game.Config, seat game.Seat, raw json.RawMessage) (json.RawMessage, error) {
	var s GuessSetup
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("want {\"number\": N}")
	}
	if s.Number < 1 || s.Number > cfg.Rules.Int("max") {
		return nil, fmt.Errorf("the number must be from 1 to %d", cfg.Rules.Int("max"))
	}
	return json.Marshal(s)
}

// AutoSetup picks a number from seed.
func (Guess) AutoSetup(cfg game.Config, seat game.Seat, seed uint64) (json.RawMessage, error) {
	return json.Marshal(GuessSetup{Number: int(seed%uint64(cfg.Rules.Int("max"))) + 1})
}

// New starts a game on the seats' numbers.
func (Guess) New(cfg game.Config, setups []json.RawMessage) (game.State, error) {
	st := &guessState{cfg: cfg, secret: make([]int, len(setups)), tried: make([][]GuessTry, len(setups))}
	for i, raw := range setups {
		var s GuessSetup
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		st.secret[i] = s.Number
	}
	return st, nil
}

// GuessTry is a guess and its answer: "higher", "lower" or "right".
type GuessTry struct {
	N      int    `json:"n"`
	Answer string `json:"answer"`
}

type guessState struct {
	cfg    game.Config
	secret []int
	tried  [][]GuessTry
	turn   int
	winner int
	over   bool
}

// GuessView is what a seat sees: its own number, its own guesses and
// their answers, whose turn it is; everything after the end.
type GuessView struct {
	Seat    int          `json:"seat"`
	Mine    int          `json:"mine,omitempty"`
	Tried   []GuessTry   `json:"tried,omitempty"`
	ToMove  int          `json:"to_move"`
	Over    bool         `json:"over"`
	Secrets []int        `json:"secrets,omitempty"`
	All     [][]GuessTry `json:"all,omitempty"`
}

// A GuessView's log is the seat's own guesses, which only grow: the
// socket's view tails are tested on it (TestSocketViewTails).
// AppendJSON appends v as JSON.
func (v GuessView) AppendJSON(b []byte) []byte {
	j, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return append(b, j...)
}

// LogName names the log in the view: "tried".
func (v GuessView) LogName() string { return "tried" }

// LogLen is how many guesses the seat has made.
func (v GuessView) LogLen() int { return len(v.Tried) }

// AppendJSONTail appends v with its guesses from the from-th on.
func (v GuessView) AppendJSONTail(b []byte, from int) []byte {
	v.Tried = v.Tried[min(from, len(v.Tried)):]
	return v.AppendJSON(b)
}

func (s *guessState) target(seat int) int { return (seat + 1) % len(s.secret) }

func (s *guessState) ToMove() []game.Seat {
	if s.over {
		return nil
	}
	return []game.Seat{game.Seat(s.turn)}
}

func (s *guessState) Apply(seat game.Seat, move string) ([]game.Event, error) {
	if err := game.CheckTurn(s.cfg, s.ToMove(), seat); err != nil {
		return nil, err
	}
	f := strings.Fields(strings.ToLower(move))
	if len(f) == 1 && f[0] == "resign" {
		s.over, s.winner = true, s.target(int(seat))
		if len(s.secret) == 1 {
			s.winner = -1
		}
		return []game.Event{{Kind: "resign", Text: s.cfg.Name(seat) + " resigns"}}, nil
	}
	if len(f) != 2 || f[0] != "guess" {
		return nil, errors.New(`write "guess N" or "resign"`)
	}
	n, err := strconv.Atoi(f[1])
	if err != nil || n < 1 || n > s.cfg.Rules.Int("max") {
		return nil, fmt.Errorf("guess a number from 1 to %d", s.cfg.Rules.Int("max"))
	}
	secret := s.secret[s.target(int(seat))]
	ans := "right"
	switch {
	case n < secret:
		ans = "higher"
	case n > secret:
		ans = "lower"
	}
	s.tried[seat] = append(s.tried[seat], GuessTry{N: n, Answer: ans})
	evs := []game.Event{
		{Kind: "guess", Text: fmt.Sprintf("%s guesses", s.cfg.Name(seat))},
		{To: []game.Seat{seat}, Kind: "answer", Text: fmt.Sprintf("%d: %s", n, ans), Data: map[string]any{"n": n, "answer": ans}},
	}
	if ans == "right" {
		s.over, s.winner = true, int(seat)
		evs = append(evs, game.Event{Kind: "end", Text: s.cfg.Name(seat) + " wins"})
	} else {
		s.turn = (s.turn + 1) % len(s.secret)
	}
	return evs, nil
}

func (s *guessState) View(seat game.Seat) any {
	v := GuessView{Seat: int(seat), ToMove: s.turn, Over: s.over}
	if s.over {
		v.ToMove = -1
		v.Secrets = append([]int(nil), s.secret...)
		v.All = s.tried
	}
	if seat >= 0 {
		if len(s.secret) > 1 {
			v.Mine = s.secret[seat]
		}
		v.Tried = append([]GuessTry(nil), s.tried[seat]...)
	}
	return v
}

func (s *guessState) Result() game.Result {
	if !s.over {
		return game.Result{Status: game.InProgress}
	}
	sc := make([]int, len(s.secret))
	r := game.Result{Status: game.Finished, Scores: sc}
	if s.winner >= 0 {
		sc[s.winner] = 1
		r.Winners = []game.Seat{game.Seat(s.winner)}
	}
	return r
}

// GuessBot bisects, reading only its seat's view. At Level "broken" it
// answers nonsense, for the tests of a computer player that goes wrong.
type GuessBot struct{ Level string }

// Setup hides a third of the largest number.
func (b GuessBot) Setup(ctx context.Context, cfg game.Config, seat game.Seat) (json.RawMessage, error) {
	return json.Marshal(GuessSetup{Number: cfg.Rules.Int("max") / 3})
}

// Move guesses halfway between what the answers so far allow.
func (b GuessBot) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	v, ok := view.(GuessView)
	if !ok {
		return "", fmt.Errorf("view of type %T", view)
	}
	lo, hi := 1, cfg.Rules.Int("max")
	for _, t := range v.Tried {
		switch t.Answer {
		case "higher":
			lo = max(lo, t.N+1)
		case "lower":
			hi = min(hi, t.N-1)
		}
	}
	if b.Level == "broken" {
		return "nonsense", nil
	}
	return fmt.Sprintf("guess %d", (lo+hi)/2), nil
}

// Bots makes Guess's computer players (a server Config's NewBot); it has
// none for other games.
func Bots(gameName, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
	if gameName != "guess" {
		return nil, fmt.Errorf("no computer players for %s", gameName)
	}
	return GuessBot{Level: level}, nil
}

// Registry holds Guess and TailGuess.
func Registry() *game.Registry { return game.NewRegistry(Guess{}, TailGuess{}) }

// WordGuess is Guess that says it judges words (game.Worded), so that a
// seek or a table of it may name a word list; it never reads one.
type WordGuess struct{ Guess }

// Name is "wordguess".
func (WordGuess) Name() string { return "wordguess" }

// Words reports that WordGuess is a game of words.
func (WordGuess) Words() bool { return true }

// TailGuess is Guess whose state encodes its views' tails itself
// (game.TailViewer), as Quizl's does.
type TailGuess struct{ Guess }

// Name is "tailguess".
func (TailGuess) Name() string { return "tailguess" }

// New starts a game as Guess does.
func (g TailGuess) New(cfg game.Config, setups []json.RawMessage) (game.State, error) {
	st, err := g.Guess.New(cfg, setups)
	if err != nil {
		return nil, err
	}
	return &tailGuessState{st.(*guessState)}, nil
}

type tailGuessState struct{ *guessState }

func (s *tailGuessState) LogName() string { return GuessView{}.LogName() }

func (s *tailGuessState) AppendViewTail(b []byte, seat game.Seat, from int) ([]byte, int) {
	v := s.View(seat).(GuessView)
	return v.AppendJSONTail(b, from), v.LogLen()
}

// Lexicon is a server Config's Lexicon: two words, whatever the name.
func Lexicon(string) (*lexicon.Lexicon, error) {
	return lexicon.FromWords("test", []string{"crane", "psalm"}), nil
}

// Config is a game configuration whose largest number is maxN.
func Config(maxN int) game.Config { return game.Config{Rules: game.Rules{"max": maxN}} }
