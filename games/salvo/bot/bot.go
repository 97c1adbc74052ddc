// Package bot holds Salvo's computer players: shooters that find a hidden
// fleet from the per-class reports, and placers that hide one.
//
// The strong shooter keeps a belief over every fleet consistent with the
// reports so far, as a set of sampled fleets (exact enumeration once few
// remain), and picks each salvo's squares together: the squares most
// likely to hit new ship squares, then squares whose report tells the
// likely fleets apart, while putting off sinking ships it has located
// (under the default rules each ship sunk costs the sinker a shot). It
// outlines only once the reports leave one fleet, spending the spare shots
// of its last salvos to make sure. Medium chooses the same way from a
// smaller belief, without weighing information or the shots it loses by
// sinking; easy is medium with a smaller belief and a third of its shots
// gone astray. The baselines the bench compares against are random shots,
// hunt/target, single-square placement density, and fleet density: a
// shooter written apart from the strong player's code that fires where
// most fleets meeting every per-class report lie.
//
// Bots see only their seat's view (salvo.View) and answer in the move
// notation, as a person would.
package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"

	"parlour/game"
	"parlour/games/salvo"
	"parlour/lexicon"
)

// The baseline shooters' levels, beside game.Easy, game.Medium and
// game.Strong.
const (
	Random     = "random"      // random squares
	HuntTarget = "hunt-target" // hunt on a checkerboard, then fire round hit salvos
	Density    = "density"     // the squares most placements of the ships left cover
	// FleetDensity fires where most fleets that meet every per-class
	// report lie, by its own sampler (density.go), apart from the strong
	// player's code.
	FleetDensity = "fleet-density"
)

// Levels lists every level New accepts, strongest first.
func Levels() []string {
	return []string{game.Strong, game.Medium, game.Easy, FleetDensity, Density, HuntTarget, Random}
}

// Bot is a Salvo computer player for one seat of one play.
type Bot struct {
	level string
	seed  uint64
	w     weights
}

var _ game.Bot = (*Bot)(nil)

// New returns a Salvo player at level (see Levels), deterministic for
// seed. lex is not used: Salvo has no words.
func New(level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
	return newBot(level, seed)
}

func newBot(level string, seed uint64) (*Bot, error) {
	l := strings.ToLower(strings.TrimSpace(level))
	for _, k := range Levels() {
		if l == k {
			return &Bot{level: l, seed: seed, w: strongWeights()}, nil
		}
	}
	return nil, fmt.Errorf("no Salvo player called %q (there are %s)", level, strings.Join(Levels(), ", "))
}

// Level reports the bot's level.
func (b *Bot) Level() string { return b.level }

// rng returns the random source for one decision, fixed by the bot's seed
// and where in the game the decision falls, so a replayed game repeats.
func (b *Bot) rng(seat game.Seat, step int) *rand.Rand {
	return rand.New(rand.NewPCG(b.seed, uint64(seat)<<32|uint64(step)))
}

// Setup hides the bot's fleet: the strong player places a fleet that is
// hard to find, the others a random legal one.
func (b *Bot) Setup(ctx context.Context, cfg game.Config, seat game.Seat) (json.RawMessage, error) {
	p := salvo.PlacementOf(cfg.Rules)
	r := b.rng(seat, 1<<31)
	var f salvo.Fleet
	if b.level == game.Strong {
		f = HardFleet(ctx, r, p)
	} else {
		f = salvo.RandomFleet(r, p)
	}
	return salvo.SetupOf(f), nil
}

// Move chooses the bot's move from its seat's view.
func (b *Bot) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	var v salvo.View
	switch x := view.(type) {
	case salvo.View:
		v = x
	case *salvo.View:
		v = *x
	default:
		return "", fmt.Errorf("salvo bot: want a salvo.View, got %T", view)
	}
	if v.Target < 0 {
		return "", fmt.Errorf("salvo bot: %s has nobody to fire at", cfg.Name(seat))
	}
	if b.level == FleetDensity {
		return fleetDensityMove(v, salvo.PlacementOf(cfg.Rules), b.rng(seat, len(v.Salvos)+len(v.Outlines)))
	}
	k := newKnowledge(v, salvo.PlacementOf(cfg.Rules), cfg.Rules.String(salvo.OptShotsLostBy) != salvo.LostByOwner)
	r := b.rng(seat, len(v.Salvos)+len(v.Outlines))
	if v.MustOutline {
		f, ok := k.outline(ctx, r)
		if !ok {
			return "resign", nil
		}
		return "outline " + strings.Join(f.Strings(), " "), nil
	}
	var sq []salvo.Square
	var err error
	switch b.level {
	case game.Strong:
		sq, err = strongSalvo(ctx, k, r, v.Shots, b.w)
	case game.Medium:
		sq, err = strongSalvo(ctx, k, r, v.Shots, mediumWeights())
	case game.Easy:
		sq, err = strongSalvo(ctx, k, r, v.Shots, easyWeights())
		sq = noisy(k, r, sq, 0.35)
	case HuntTarget:
		sq = huntTargetSalvo(k, r, v.Shots)
	case Density:
		sq = densitySalvo(k, r, v.Shots)
	default:
		sq = randomSalvo(k, r, v.Shots)
	}
	if err != nil {
		return "", err
	}
	parts := make([]string, len(sq))
	for i, q := range sq {
		parts[i] = q.String()
	}
	return "fire " + strings.Join(parts, " "), nil
}
