// Package salvo referees Salvo, the battleship game played with salvos of
// shots and reports that count hits per class of ship without saying which
// shot hit.
//
// The rules are those of RULES.md §2: two to six players, each with a
// fleet of five ships (battleship 5, cruiser 4, destroyer 3, two submarines
// of 2) hidden in a 10 x 10 ocean. In turn each fires a salvo at the next
// player still in the game; the report says per class how many shots hit
// and which ships sank. A player who has sunk a whole fleet must outline
// it: a right outline wins (or, with three or more players, knocks that
// player out), a wrong one loses.
//
// Secrets stay secret by construction: State.View gives a seat only its
// own fleet and what it has been told, and events name who may see them.
package salvo

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"

	"parlour/game"
)

// The names of the rule options and their values.
const (
	OptPlacement   = "placement"
	OptDiagonal    = "diagonal_ships"
	OptShotsLostBy = "shots_lost_by"

	PlacementStrict = "strict"
	PlacementFree   = "free"
	LostBySinker    = "sinker"
	LostByOwner     = "owner"
)

// MaxPlayers is the most players a Salvo table seats.
const MaxPlayers = 6

// MaxShots is the number of shots in a salvo at the start.
const MaxShots = 5

// Game is Salvo as a game.Game. Its zero value is ready to use.
type Game struct{}

var _ game.Game = Game{}

// Name returns "salvo".
func (Game) Name() string { return "salvo" }

// Title returns "Salvo".
func (Game) Title() string { return "Salvo" }

// Players reports that Salvo seats one (practice against a hidden fleet)
// to MaxPlayers players.
func (Game) Players() (min, max int) { return 1, MaxPlayers }

// HidesSetup reports whether the setup of seat owner must be kept from
// viewer while the game is in progress, beyond the rule that every setup
// is kept from the other seats: at a one-seat table the one setup is the
// hidden fleet the player fires at, so it is kept from the player too.
func (Game) HidesSetup(cfg game.Config, owner, viewer game.Seat) bool {
	return len(cfg.Players) == 1 || owner != viewer
}

// HasSetup reports that every seat hides a fleet before play.
func (Game) HasSetup() bool { return true }

// ScoresLabel says what the scores count (game.ScoreNamer): the ships
// each player sank.
func (Game) ScoresLabel(game.Rules) string { return "ships sunk" }

// Options lists Salvo's rule options.
func (Game) Options() []game.Option {
	return []game.Option{
		{
			Name: OptPlacement, Label: "Ship placement", Kind: game.Choice, Default: PlacementStrict,
			Choices: []string{PlacementStrict, PlacementFree},
			Help:    "strict: at most one square of a ship on the ocean's edge, and no ship touching more than one square of another; free: ships only may not overlap",
		},
		{
			Name: OptDiagonal, Label: "Diagonal ships", Kind: game.Bool, Default: false,
			Help: "ships may also lie on diagonals (then squares sharing a corner touch too)",
		},
		{
			Name: OptShotsLostBy, Label: "Shots lost by", Kind: game.Choice, Default: LostBySinker,
			Choices: []string{LostBySinker, LostByOwner},
			Help:    "who loses a shot from later salvos for each ship sunk: the player who sank it, or the ship's owner",
		},
	}
}

// PlacementOf returns the placement rules of resolved rule options.
func PlacementOf(r game.Rules) Placement {
	return Placement{
		Strict:   r.String(OptPlacement) != PlacementFree,
		Diagonal: r.Bool(OptDiagonal),
	}
}

// CheckSetup checks a seat's fleet, {"fleet": ["B2-B6", "D2-G2", "I4-I6",
// "D8-E8", "G9-G10"]}, under the table's placement rules and returns it
// in canonical form.
func (Game) CheckSetup(cfg game.Config, seat game.Seat, setup json.RawMessage) (json.RawMessage, error) {
	f, err := ParseSetup(setup, PlacementOf(cfg.Rules))
	if err != nil {
		return nil, err
	}
	return SetupOf(f), nil
}

// AutoSetup returns a fleet drawn uniformly from the legal fleets under the
// table's placement rules, the same for the same seed and seat.
func (Game) AutoSetup(cfg game.Config, seat game.Seat, seed uint64) (json.RawMessage, error) {
	r := rand.New(rand.NewPCG(seed, 0x5a1f0+uint64(seat)))
	return SetupOf(RandomFleet(r, PlacementOf(cfg.Rules))), nil
}

// New starts a play from one checked setup per seat.
func (Game) New(cfg game.Config, setups []json.RawMessage) (game.State, error) {
	return NewState(cfg, setups)
}

// strictUnmarshal decodes one JSON value into v strictly (game.DecodeJSON:
// exact-case keys, no key twice, no unknown fields, nothing after it).
func strictUnmarshal(raw []byte, v any) error {
	if len(raw) > 4096 {
		return errors.New("the setup is too long")
	}
	if err := game.DecodeJSON(raw, v); err != nil {
		if je, ok := errors.AsType[*game.JSONError](err); ok && je.Trailing {
			return errors.New("there is more after the setup")
		}
		return fmt.Errorf("cannot read it: %w", err)
	}
	return nil
}
