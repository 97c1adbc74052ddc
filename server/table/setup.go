package table

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// SetupRequest gives a seat's secret setup, or asks the server to make
// one: at random, or as the computer at Computer's level would.
type SetupRequest struct {
	Setup    json.RawMessage `json:"setup,omitempty"`
	Auto     bool            `json:"auto,omitempty"`
	Computer string          `json:"computer,omitempty"`
	// Wait asks for the answer once play has started and it is the
	// asker's turn (see Service.Setup).
	Wait bool `json:"wait,omitempty"`
}

// SetupResult answers a setup: the checked setup as the record keeps it,
// and the table as it stands: whether play has started and, if not, what
// it waits for.
type SetupResult struct {
	Version int             `json:"version"`
	Setup   json.RawMessage `json:"setup"`
	Started bool            `json:"started"`
	Status  store.Status    `json:"status"`
	ToMove  []game.Seat     `json:"to_move"`
	// Waiting says what play waits for, until it starts.
	Waiting string `json:"waiting,omitempty"`
	// Events are, after a wait, the events of the moves made since play
	// started that the asker may see.
	Events []game.Event `json:"events,omitempty"`
	// TimedOut is set when a wait ended at the server's longest wait.
	TimedOut bool `json:"timed_out,omitempty"`
}

// Setup takes the secret setup of the asker's seat at table id. With
// req.Wait it then answers once play has started and it is the asker's
// turn (or the game is over), with the events of the moves made since the
// start that the asker may see (a computer seat that moves first); past
// the server's longest wait it answers with what there is, TimedOut set
// and Waiting saying what play waits for (other players to join, or their
// setups).
func (s *Service) Setup(ctx context.Context, p *auth.Principal, id string, req SetupRequest) (SetupResult, error) {
	if req.Auto == (len(req.Setup) > 0) {
		return SetupResult{}, refuse.Bad(`give either "setup" or "auto": true`)
	}
	if !req.Auto && req.Computer != "" {
		return SetupResult{}, refuse.Bad(`"computer" goes with "auto": true`)
	}
	t, err := s.table(ctx, id)
	if err != nil {
		return SetupResult{}, err
	}
	t.mu.Lock()
	seat := t.seatOf(p)
	t.unlock()
	if seat < 0 {
		return SetupResult{}, refuse.Forbidden("you hold no seat at this table")
	}
	var raw json.RawMessage
	if req.Auto {
		raw, err = s.autoSetup(ctx, t, seat, req.Computer)
		if err != nil {
			return SetupResult{}, err
		}
	} else {
		raw = req.Setup
	}
	res, err := s.setSetup(ctx, t, seat, raw)
	if err != nil || !req.Wait {
		return res, err
	}
	return s.awaitSetup(ctx, t, seat, res)
}

// autoSetup makes a setup for seat: random, or by the computer at level.
func (s *Service) autoSetup(ctx context.Context, t *table, seat game.Seat, level string) (json.RawMessage, error) {
	t.mu.Lock()
	cfg := t.cfg
	t.unlock()
	if level == "" || level == "random" {
		raw, err := t.g.AutoSetup(cfg, seat, auth.RandomSeed())
		if err != nil {
			return nil, fmt.Errorf("making a setup: %w", err)
		}
		return raw, nil
	}
	if level != game.Easy && level != game.Medium && level != game.Strong {
		return nil, refuse.Bad(`"computer" must be easy, medium or strong, not %q`, refuse.Clip(level))
	}
	if s.cfg.NewBot == nil {
		return nil, refuse.Bad("this server has no computer players")
	}
	bot, err := s.cfg.NewBot(t.g.Name(), level, auth.RandomSeed(), cfg.Lexicon)
	if err != nil {
		return nil, refuse.Bad("%v", err)
	}
	bctx, cancel := context.WithTimeout(ctx, s.cfg.BotTimeout)
	defer cancel()
	raw, err := bot.Setup(bctx, cfg, seat)
	if err != nil {
		return nil, fmt.Errorf("the computer could not make a setup: %w", err)
	}
	return raw, nil
}

// setSetup checks and stores seat's setup; the last setup starts play.
func (s *Service) setSetup(ctx context.Context, t *table, seat game.Seat, raw json.RawMessage) (SetupResult, error) {
	t.mu.Lock()
	defer t.unlock()
	t.lastUse = time.Now()
	switch {
	case !t.g.HasSetup():
		return SetupResult{}, refuse.Conflict("%s has no secret setup", t.g.Title())
	case t.m.Started:
		return SetupResult{}, refuse.Conflict("play has started: setups can no longer change")
	case t.m.Seats[seat].Hidden:
		return SetupResult{}, refuse.Conflict("in a solitaire game the computer makes the setup you play against")
	}
	checked, err := t.g.CheckSetup(t.cfg, seat, raw)
	if err != nil {
		return SetupResult{}, refuse.Unprocessable("setup refused: %v", err)
	}
	checked = compactJSON(checked)
	old := t.m.clone()
	t.m.Seats[seat].Setup, t.m.Seats[seat].Salt = checked, newSalt()
	if err := s.changed(ctx, t, old); err != nil {
		return SetupResult{}, err
	}
	res := SetupResult{Version: t.version(), Setup: checked}
	ts, err := s.turnState(t, seat, t.version())
	if err != nil {
		return SetupResult{}, err
	}
	res.fill(ts)
	return res, nil
}
