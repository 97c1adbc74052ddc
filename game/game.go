// Package game is the contract every Parlour game implements: seats, rule
// options, secret setups, moves in text notation, per-seat views, events,
// results, and the game record that replays them.
//
// A game package (games/quizl, games/salvo, ...) is a pure referee: no I/O,
// no clock, and randomness only from a seed its caller passes. Front ends,
// computer players and the record tools see a game only through this
// package, so a rule lives in exactly one place.
package game

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"parlour/lexicon"
)

// Seat is a player's place at the table, counted from 0 in seat order.
// Spectator stands for somebody who holds no seat.
type Seat int

// Spectator is the seat of an onlooker: it sees only what is public.
const Spectator Seat = -1

// Game describes one kind of game: its name, its rule options, and how to
// start a play of it. A Game value holds no play state and is safe for
// concurrent use.
type Game interface {
	// Name is the game's name in records and URLs: "quizl", "salvo", ...
	Name() string
	// Title is the game's name for people: "Sightless Word Fight".
	Title() string
	// Players reports the least and the most players a table may seat.
	Players() (min, max int)
	// Options lists the rule options in the order front ends show them.
	Options() []Option
	// HasSetup reports whether every seat submits a secret setup before play.
	HasSetup() bool
	// CheckSetup validates one seat's secret setup under cfg and returns it
	// in canonical form (upper-case letters, normalised notation). The error
	// says what is wrong in a player's words.
	CheckSetup(cfg Config, seat Seat, setup json.RawMessage) (json.RawMessage, error)
	// AutoSetup makes a random legal setup for seat, deterministic for seed.
	AutoSetup(cfg Config, seat Seat, seed uint64) (json.RawMessage, error)
	// New starts a play. setups holds one checked setup per seat for games
	// that have setups, and is nil for games that do not.
	New(cfg Config, setups []json.RawMessage) (State, error)
}

// Config is everything a play is started from, as a record stores it.
type Config struct {
	// Players are the players' names in seat order; names are unique.
	Players []string
	// Rules are the resolved rule options (see Options.Resolve).
	Rules Rules
	// Lexicon decides which words are genuine.
	Lexicon *lexicon.Lexicon
	// Seed is the source of whatever randomness the game has.
	Seed uint64
}

// SeatOf returns the seat of the player called name (case-insensitive).
func (c Config) SeatOf(name string) (Seat, bool) {
	for i, p := range c.Players {
		if equalFold(p, name) {
			return Seat(i), true
		}
	}
	return Spectator, false
}

// Name returns the name of seat s, or "spectator".
func (c Config) Name(s Seat) string {
	if s < 0 || int(s) >= len(c.Players) {
		return "spectator"
	}
	return c.Players[s]
}

// State is one play of a game in progress or finished. Methods that do not
// change it are safe for concurrent use; Apply is not.
type State interface {
	// ToMove lists the seats that may move now: one seat in turn-based play,
	// several when moves are simultaneous, none once the game is over.
	ToMove() []Seat
	// Apply plays move, written in the game's notation, for seat. A refused
	// move returns an error in a player's words and leaves the state exactly
	// as it was. An accepted move returns what it revealed, and to whom.
	Apply(seat Seat, move string) ([]Event, error)
	// View returns what seat may see now, as a JSON-encodable value of the
	// game's own view type; Spectator gets the public view. After the game
	// ends every view reveals everything.
	View(seat Seat) any
	// Result reports the game's status, winners and scores.
	Result() Result
}

// Leaver is implemented by states whose game may go on without some of
// its seats: a player of three who resigned, a Quizl player whose every
// hunt is settled, a Salvo fleet outlined. Out reports whether seat is
// out of the game, never to move in it again; whoever shows the game
// shows no clock of such a seat.
type Leaver interface {
	Out(seat Seat) bool
}

// Normalizer is implemented by states whose players may write a move in
// ways the record's notation (RECORDS.md) does not have: Quizl's "say 2
// CRANE" or "say comp CRANE" for "say Computer (strong) CRANE". Normalize
// returns move as the record writes it, and an error, as Apply would give
// it, for a move it cannot read. Whoever keeps a record stores the
// normalized move, so that records stay in the notation.
type Normalizer interface {
	Normalize(seat Seat, move string) (string, error)
}

// MoveRenamer is implemented by games whose moves may name a player, as
// Quizl's "say NAME WORD" does with three or more players. RenameMove
// returns move, written while the seats were called from, as it reads
// once they are called to (the same seats in the same order): whoever
// renames a finished game's seats (an account deleted or renamed) renames
// them in its moves too, so that its record still replays. A move that
// names nobody comes back as it is.
type MoveRenamer interface {
	RenameMove(move string, from, to []string) string
}

// Concealer is implemented by states whose views reveal the secret
// setups once play ends. ConcealedView returns seat's view with that
// reveal left out: what a setup holds that seat did not uncover in play
// stays hidden, as it was during play, while the result and everything
// else are as View gives them. A server shows it where a reveal must wait:
// an attempt at a daily puzzle, whose answer must not reach anyone, its
// own player included, before the day ends for everybody.
type Concealer interface {
	ConcealedView(seat Seat) any
}

// Compacter is implemented by states that keep room to grow, as a
// history that grows by appending does. A server holding a game nobody
// has moved in for a while calls Compact to give that room back: the
// state must stay as it was in every other way, and may grow again with
// the next move.
type Compacter interface {
	Compact()
}

// Worded is implemented by games whose moves are judged against the
// table's lexicon (Config.Lexicon), so that a table of one offers a choice
// of word list and names the one in force. A game without it never reads
// the lexicon.
type Worded interface {
	Words() bool
}

// UsesWords reports whether g judges words against a lexicon (Worded).
func UsesWords(g Game) bool {
	w, ok := g.(Worded)
	return ok && w.Words()
}

// ScoreNamer is implemented by games whose scores count something other
// than points, so that a result names it for people ("ships sunk",
// "letters deleted"): a bare "scores" would read, where the player who
// deleted more letters may have lost, as if they had won. ScoresLabel
// says it under rules r, in lower case.
type ScoreNamer interface {
	ScoresLabel(r Rules) string
}

// ScoresLabel names what g's scores count under rules r: its ScoreNamer's
// words, else "scores".
func ScoresLabel(g Game, r Rules) string {
	if n, ok := g.(ScoreNamer); ok {
		return n.ScoresLabel(r)
	}
	return "scores"
}

// Status says whether a play has ended.
type Status string

// The statuses of a play.
const (
	InProgress Status = "in_progress"
	Finished   Status = "finished"
	// Aborted plays ended without a result before every player had made
	// a move (see Abortable).
	Aborted Status = "aborted"
)

// Over reports whether a play in status s has ended, with a result or
// aborted.
func (s Status) Over() bool { return s == Finished || s == Aborted }

// Result is a play's outcome so far.
type Result struct {
	Status Status `json:"status"`
	// Winners are the seats that won; several on a shared win, none on a
	// draw or while the game goes on.
	Winners []Seat `json:"winners"`
	// Scores has one score per seat for games that keep score (see
	// RECORDS.md for what each game counts), or is nil.
	Scores []int `json:"scores,omitempty"`
}

// Event is one thing a move revealed. To lists who learns it; nil means
// everybody, spectators included.
type Event struct {
	To   []Seat `json:"to,omitempty"`
	Kind string `json:"kind"`
	// Text says what happened in a player's words, for move lists and logs.
	Text string `json:"text"`
	// Data carries the facts for front ends, as a JSON-encodable value.
	Data any `json:"data,omitempty"`
}

// End is the data of the "end" event every game emits as play ends: why it
// ended, in fields a program can act on, and the result. Games embed it
// in their own end data when they reveal more (Quizl's grids, Salvo's
// fleets), so that its fields sit at the top of every end event's data.
type End struct {
	// Reason says why the game ended, as one of the words each game lists
	// in docs/protocol.md ("resign", "strikes", "deleted_z", ...).
	Reason string `json:"reason"`
	// Seat is the player the reason is about: who wrote the last word,
	// announced or tripped last, outlined, resigned; -1 when the reason
	// is about no one player.
	Seat Seat `json:"seat"`
	// Against is the other player the reason involves (whose grid or
	// fleet), -1 when none.
	Against Seat `json:"against"`
	// Word is the word the reason involves, when there is one: the last
	// word written, the announcement, the word that gave the last strike.
	Word string `json:"word,omitempty"`
	// Winners and Scores are the result, as Result reports it.
	Winners []Seat `json:"winners"`
	Scores  []int  `json:"scores,omitempty"`
}

// Visible reports whether seat s may see e.
func (e Event) Visible(s Seat) bool {
	return e.To == nil || slices.Contains(e.To, s)
}

// VisibleTo returns the events of evs that seat s may see.
func VisibleTo(evs []Event, s Seat) []Event {
	n := 0
	for _, e := range evs {
		if e.Visible(s) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	// Sized once: a server filters every move's events for every seat.
	out := make([]Event, 0, n)
	for _, e := range evs {
		if e.Visible(s) {
			out = append(out, e)
		}
	}
	return out
}

// ErrNotYourTurn is wrapped by the error Apply returns for a move out of turn.
var ErrNotYourTurn = errors.New("it is not your turn")

// CheckTurn returns an error wrapping ErrNotYourTurn unless s is in toMove.
// Games call it first in Apply so that the wording is the same everywhere.
func CheckTurn(cfg Config, toMove []Seat, s Seat) error {
	if slices.Contains(toMove, s) {
		return nil
	}
	if len(toMove) == 0 {
		return fmt.Errorf("%w: the game is over", ErrNotYourTurn)
	}
	names := make([]string, len(toMove))
	for i, t := range toMove {
		names[i] = cfg.Name(t)
	}
	return fmt.Errorf("%w: waiting for %s", ErrNotYourTurn, joinNames(names))
}

func joinNames(n []string) string {
	if len(n) == 0 {
		return "nobody"
	}
	return List(n)
}

func equalFold(a, b string) bool { return strings.EqualFold(a, b) }
