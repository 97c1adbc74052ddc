package table

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/refuse"
)

// scheduleBots starts a computer player for every computer seat that has
// something to do: a setup to make, or a move. t.mu must be held.
func (s *Service) scheduleBots(t *table) {
	if s.ctx.Err() != nil || !t.status.Live() {
		return
	}
	for i, seat := range t.m.Seats {
		if seat.Computer == "" || t.computers()[i].busy {
			continue
		}
		var due bool
		if !t.m.Started {
			due = t.g.HasSetup() && seat.Setup == nil
		} else {
			due = slices.Contains(t.st.ToMove(), game.Seat(i))
		}
		if due {
			t.bots[i].busy = true
			s.bots.Add(1)
			go s.runBot(t, game.Seat(i))
		}
	}
}

// botFor returns seat's computer player, making it on first use. t.mu
// must be held.
func (s *Service) botFor(t *table, seat game.Seat) (game.Bot, error) {
	if b := t.computers()[seat].bot; b != nil {
		return b, nil
	}
	b, err := s.cfg.NewBot(t.g.Name(), t.m.Seats[seat].Computer, auth.RandomSeed(), t.cfg.Lexicon)
	if err != nil {
		return nil, err
	}
	t.bots[seat].bot = b
	return b, nil
}

// botSeat is a computer seat's player, made on its first move, and
// whether it is working now.
type botSeat struct {
	bot  game.Bot
	busy bool
}

// computers returns t's computer players, one for every seat, made the
// first time a computer seat needs one: a table of people never does.
// t.mu must be held.
func (t *table) computers() []botSeat {
	if t.bots == nil {
		t.bots = make([]botSeat, len(t.m.Seats))
	}
	return t.bots
}

// botWorking reports whether a computer player of t is making a setup or
// a move. t.mu must be held.
func (t *table) botWorking() bool {
	return slices.ContainsFunc(t.bots, func(b botSeat) bool { return b.busy })
}

// storeRetry is how long a computer seat, or a clock that ran out, waits
// before trying again when the store could not save its move (a store
// out of reach, such as a PostgreSQL server restarting).
const storeRetry = time.Second

// runBot makes one setup or one move for a computer seat. The bot sees
// the seat's view and nothing else, and its answer goes through the same
// checks as a person's. A bot that fails or answers with a refused move
// resigns, so that a table never waits for ever; one whose move the store
// could not save tries again once storeRetry has passed, and resigns
// nothing for it.
func (s *Service) runBot(t *table, seat game.Seat) {
	defer s.bots.Done()
	retry := true
	defer func() {
		t.mu.Lock()
		t.bots[seat].busy = false
		if retry {
			s.scheduleBots(t)
		}
		s.noteIdle(t)
		t.unlock()
	}()
	select {
	case s.botSem <- struct{}{}:
		defer func() { <-s.botSem }()
	case <-s.ctx.Done():
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.BotTimeout)
	defer cancel()

	t.mu.Lock()
	bot, err := s.botFor(t, seat)
	started, version, cfg := t.m.Started, t.version(), t.cfg
	var view any
	if started && t.st != nil {
		view = t.st.View(seat)
	}
	t.unlock()
	log := s.log.With("table", t.id, "seat", int(seat))
	if err != nil {
		log.Error("no computer player", "err", err)
		retry = false
		return
	}
	if !started {
		raw, err := bot.Setup(ctx, cfg, seat)
		if s.ctx.Err() != nil {
			// The server stops: the next makes the setup, rather than
			// this one store a random one on the way out.
			return
		}
		if err != nil {
			log.Warn("computer setup failed; making a random one", "err", err)
			raw, err = t.g.AutoSetup(cfg, seat, auth.RandomSeed())
		}
		if err == nil {
			_, err = s.setSetup(ctx, t, seat, raw)
		}
		if refuse.Status(err) == http.StatusServiceUnavailable {
			s.storeWait(log, err)
			return
		}
		if err != nil && s.ctx.Err() == nil {
			log.Error("computer setup refused", "err", err)
			retry = false
		}
		return
	}
	mv, err := bot.Move(ctx, cfg, seat, view)
	if s.ctx.Err() != nil {
		return
	}
	if err == nil {
		_, err = s.move(ctx, t, seat, mv, &version)
		if err == nil || refuse.Status(err) == 409 && s.staleVersion(t, version) {
			return
		}
		if refuse.Status(err) == http.StatusServiceUnavailable {
			s.storeWait(log, err)
			return
		}
	}
	log.Warn("computer move failed; resigning", "move", mv, "err", err)
	if _, err := s.move(s.ctx, t, seat, "resign", nil); err != nil {
		log.Error("computer could not resign", "err", err)
		retry = false
	}
}

// storeWait waits storeRetry (or until the service closes) after the
// store failed a computer seat's setup or move; runBot then schedules the
// seat again.
func (s *Service) storeWait(log *slog.Logger, err error) {
	log.Warn("computer move not saved; trying again", "in", storeRetry, "err", err)
	select {
	case <-time.After(storeRetry):
	case <-s.ctx.Done():
	}
}

// staleVersion reports whether t moved on from version (another seat
// moved first): the bot will be asked again.
func (s *Service) staleVersion(t *table, version int) bool {
	t.mu.Lock()
	defer t.unlock()
	return t.version() != version
}

// computerSeats reports whether any of t's seats is a computer's. t.mu
// must be held.
func (t *table) computerSeats() bool {
	for _, seat := range t.m.Seats {
		if seat.Computer != "" {
			return true
		}
	}
	return false
}
