// Package wordfight referees Sightless Word Fight: players take turns
// declaring words onto a public list, and everybody, the declarer included,
// fits each word into a secret crossword of their own or says they cannot.
// Reusing letters scores (with the "Be Fruitful and Multiply" option, the
// number reused times the word's length); words somebody could not place bring
// strikes, and the game ends at the strike limit.
//
// The package holds the rules and nothing else: the move notation, the
// legality of a placement (Grid.Check and the fast Grid.Placements that the
// computer players and the audit share), scoring, strikes, per-seat views
// that keep every grid secret until the end, and the end-of-game audit.
package wordfight

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"parlour/game"
)

// MaxPlayers is the most players a table seats.
const MaxPlayers = 8

// The rule options' names.
const (
	OptWidth       = "width"
	OptHeight      = "height"
	OptShape       = "shape"
	OptMultiply    = "multiply"
	OptStrikesPer  = "strikes_per"
	OptStrikeLimit = "strike_limit"
)

// The values of the strikes_per option.
const (
	PerWord   = "word"
	PerPlayer = "player"
)

// MaxStrikeLimit is the highest strike limit a table may choose.
const MaxStrikeLimit = 10

// Game is Sightless Word Fight. Its zero value is ready to use.
type Game struct{}

var (
	_ game.Game      = Game{}
	_ game.MoveHider = Game{}
)

// Name implements game.Game.
func (Game) Name() string { return "wordfight" }

// Title implements game.Game.
func (Game) Title() string { return "Sightless Word Fight" }

// Words is true: every word played is checked against the table's
// lexicon (game.Worded).
func (Game) Words() bool { return true }

// Players implements game.Game: two to MaxPlayers.
func (Game) Players() (min, max int) { return 2, MaxPlayers }

// HasSetup implements game.Game: grids start empty, so there is none.
func (Game) HasSetup() bool { return false }

// Options implements game.Game.
func (Game) Options() []game.Option {
	return []game.Option{
		{Name: OptWidth, Label: "Board width", Kind: game.Int, Default: 20, Min: MinSide, Max: MaxSide,
			Help: "columns on every player's board"},
		{Name: OptHeight, Label: "Board height", Kind: game.Int, Default: 20, Min: MinSide, Max: MaxSide,
			Help: "rows on every player's board"},
		{Name: OptShape, Label: "Board shape", Kind: game.Text, Default: "",
			Help:  "unusable squares: rows of . (usable) and # (unusable) separated by /, as wide and high as the board; empty for none",
			Check: checkShape},
		{Name: OptMultiply, Label: "Be Fruitful and Multiply", Kind: game.Bool, Default: true,
			Help: "Be Fruitful and Multiply: a word scores letters reused times its length, instead of its length"},
		{Name: OptStrikesPer, Label: "Strikes per", Kind: game.Choice, Default: PerWord, Choices: []string{PerWord, PerPlayer},
			Help: "one strike for each word somebody could not place, or one for each player who could not"},
		{Name: OptStrikeLimit, Label: "Strike limit", Kind: game.Int, Default: 3, Min: 1, Max: MaxStrikeLimit,
			Help: "strikes that end the game (1 is Zero Tolerance)"},
	}
}

// CheckRules implements game.RulesChecker: the options must describe a
// board a play can start on (a shape as wide and high as the board).
func (Game) CheckRules(r game.Rules) error {
	_, err := RulesOf(r).Board()
	return err
}

// CheckSetup implements game.Game; Word Fight has no setup.
func (Game) CheckSetup(cfg game.Config, seat game.Seat, setup json.RawMessage) (json.RawMessage, error) {
	return nil, errors.New("Sightless Word Fight has no setup: grids start empty")
}

// AutoSetup implements game.Game; Word Fight has no setup, so it returns nil.
func (Game) AutoSetup(cfg game.Config, seat game.Seat, seed uint64) (json.RawMessage, error) {
	return nil, nil
}

// Rules are a table's rule options in typed form.
type Rules struct {
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	Shape       string `json:"shape,omitempty"`
	Multiply    bool   `json:"multiply"`
	StrikesPer  string `json:"strikes_per"`
	StrikeLimit int    `json:"strike_limit"`
}

// RulesOf reads resolved rule options (see game.Resolve).
func RulesOf(r game.Rules) Rules {
	return Rules{
		Width:       r.Int(OptWidth),
		Height:      r.Int(OptHeight),
		Shape:       strings.TrimSpace(r.String(OptShape)),
		Multiply:    r.Bool(OptMultiply),
		StrikesPer:  r.String(OptStrikesPer),
		StrikeLimit: r.Int(OptStrikeLimit),
	}
}

// Board returns the board these rules describe.
func (r Rules) Board() (*Board, error) { return NewBoard(r.Width, r.Height, r.Shape) }

// Score returns what placing a word of n letters, reusing reused of them,
// scores under r.
func (r Rules) Score(reused, n int) int {
	if r.Multiply {
		return reused * n
	}
	return n
}

// New implements game.Game: it starts a play with every grid empty and the
// first seat to declare.
func (Game) New(cfg game.Config, setups []json.RawMessage) (game.State, error) {
	return Start(cfg)
}

// Start is New with the concrete state type.
func Start(cfg game.Config) (*State, error) {
	if n := len(cfg.Players); n < 2 || n > MaxPlayers {
		return nil, fmt.Errorf("Sightless Word Fight takes 2 to %d players, not %d", MaxPlayers, n)
	}
	if cfg.Lexicon == nil {
		return nil, errors.New("no lexicon to referee with")
	}
	if cfg.Rules == nil {
		cfg.Rules = game.Defaults(Game{}.Options())
	}
	rules := RulesOf(cfg.Rules)
	if rules.StrikesPer != PerWord && rules.StrikesPer != PerPlayer {
		return nil, fmt.Errorf("strikes_per must be %s or %s, not %q", PerWord, PerPlayer, rules.StrikesPer)
	}
	if rules.StrikeLimit < 1 || rules.StrikeLimit > MaxStrikeLimit {
		return nil, fmt.Errorf("strike_limit must be 1 to %d, not %d", MaxStrikeLimit, rules.StrikeLimit)
	}
	b, err := rules.Board()
	if err != nil {
		return nil, err
	}
	n := len(cfg.Players)
	s := &State{
		cfg:      cfg,
		rules:    rules,
		board:    b,
		grids:    make([]*Grid, n),
		scores:   make([]int, n),
		resigned: make([]bool, n),
		answered: make([]bool, n),
	}
	for i := range s.grids {
		s.grids[i] = NewGrid(b)
	}
	return s, nil
}

// HiddenMove implements game.MoveHider: a player's answer to a word (where
// they placed it, or that they could not) is theirs alone until the end.
func (Game) HiddenMove(by, viewer game.Seat, move string) (string, bool) {
	f := strings.Fields(strings.ToLower(move))
	if len(f) > 0 && (f[0] == "place" || f[0] == "cannot") {
		return hiddenAnswer, true
	}
	return move, false
}

// hiddenAnswer is what HiddenMove shows of an answer: no move.
const hiddenAnswer = "answer"

// Masked implements game.MaskReader: move is an answer hidden by
// HiddenMove.
func (Game) Masked(move string) bool {
	return strings.EqualFold(strings.TrimSpace(move), hiddenAnswer)
}
