package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"parlour/account"
	"parlour/game"
	"parlour/pairing"
	"parlour/server/auth"
	"parlour/server/protocol"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store"
)

// Create makes an event on req's terms. p is its creator, who must have
// an account and may make MaxCreatedADay events a day; nil is the house
// (the server's own calendar), which has no such cap. Everything the
// event needs is checked before anything is stored: the game and its
// rules, a clock that lets a game end within an arena, rounds a field can
// play, a start neither past nor too far off.
func (s *Service) Create(ctx context.Context, p *auth.Principal, req protocol.TournamentRequest) (Event, error) {
	return s.create(ctx, p, auth.NewID(), req)
}

// CreateHouse makes the house's event keyed key (its id, the same on
// every node: a calendar's), as Create does for nil, unless it exists:
// then it returns that event and false.
func (s *Service) CreateHouse(ctx context.Context, key string, req protocol.TournamentRequest) (Event, bool, error) {
	if key == "" {
		return Event{}, false, errors.New("tournament: a house event needs a key")
	}
	if e, err := s.Get(ctx, key); err == nil {
		return e, false, nil
	} else if refuse.Status(err) != 404 {
		return Event{}, false, err
	}
	e, err := s.create(ctx, nil, key, req)
	if errors.Is(err, store.ErrConflict) {
		e, err = s.Get(ctx, key)
		return e, false, err
	}
	return e, err == nil, err
}

func (s *Service) create(ctx context.Context, p *auth.Principal, id string, req protocol.TournamentRequest) (Event, error) {
	now := s.now()
	t := store.Tournament{ID: id, Kind: req.Kind, Name: req.Name, Description: req.Description, Rated: req.Rated,
		Minutes: req.Minutes, Rounds: req.Rounds, Seats: req.Seats, MinRatedGames: req.MinRatedGames, MaxPlayers: req.MaxPlayers,
		Status: store.TournamentCreated, Created: now}
	if p != nil {
		name, acct, err := s.tables.NameOf(ctx, p)
		if err != nil {
			return Event{}, err
		}
		if !acct {
			return Event{}, refuse.Forbidden("creating an event needs an account: sign up or sign in first")
		}
		t.Creator, t.CreatorName = p.Identity, name
	}
	g, err := s.cfg.Games.Lookup(strings.ToLower(strings.TrimSpace(req.Game)))
	if err != nil {
		return Event{}, refuse.Bad("%v", err)
	}
	t.Game = g.Name()
	raw := make(map[string]json.RawMessage, len(req.Rules)+2)
	for k, v := range req.Rules {
		raw[k] = v
	}
	if req.Mode != "" {
		opt := ""
		if r, ok := g.(game.Rated); ok {
			opt = r.PoolOption()
		}
		if opt == "" {
			return Event{}, refuse.Bad("%s has no modes: leave out mode", g.Title())
		}
		if _, ok := raw[opt]; ok {
			return Event{}, refuse.Bad("give the mode once: as mode, or in the rules")
		}
		b, _ := json.Marshal(req.Mode)
		raw[opt] = b
	}
	if _, ok := raw[game.ClockOption]; ok {
		return Event{}, refuse.Bad("give the clock as clock, not in the rules")
	}
	raw[game.ClockOption] = req.Clock
	rules, err := game.ResolveFor(g, raw)
	if err != nil {
		return Event{}, refuse.Bad("%v", err)
	}
	clock, ok := game.ClockOf(rules)
	if !ok {
		return Event{}, refuse.Bad("an event's games need a clock, so that every game ends: give one of at least %d seconds", game.ClockMin)
	}
	nd := table.RawRules(g, rules)
	t.Clock = nd[game.ClockOption]
	delete(nd, game.ClockOption)
	if len(nd) > 0 {
		t.Rules, _ = json.Marshal(nd)
	}

	lo, hi := g.Players()
	switch {
	case t.Seats == 0:
		t.Seats = 2
		if lo > 2 {
			t.Seats = lo
		}
	case t.Kind == Arena && t.Seats != 2:
		return Event{}, refuse.Bad("an arena seats two players a table, not %d: for three or four, make a Swiss", t.Seats)
	}
	if t.Seats < lo || t.Seats > hi {
		return Event{}, refuse.Bad("%s is played by %s, not %d", g.Title(), game.PlayerRange(lo, hi), t.Seats)
	}
	if t.Seats > 2 && t.Rated {
		return Event{}, refuse.Bad("only games of two are rated: make a multi-seat event casual")
	}
	if t.Rated || t.MinRatedGames > 0 {
		if _, ok := game.Pool(g, rules); !ok {
			return Event{}, refuse.Bad("%s has no ratings: make the event casual, without a least number of rated games", g.Title())
		}
	}
	if t.Rated {
		asker := ""
		if p != nil {
			asker = p.Identity
		}
		pr := table.Pairing{Game: g, Rules: rules, Rated: true, Asker: asker,
			Seats: []table.PairedSeat{{Identity: asker, Name: "player"}, {Identity: "", Name: "opponent"}}}
		if err := s.tables.CheckPairing(pr); err != nil {
			return Event{}, err
		}
	}

	length := ExpectedLength(clock, t.Seats)
	switch t.Kind {
	case Arena:
		if t.Minutes > MaxArenaMinutes {
			return Event{}, refuse.Bad("an arena runs at most %d minutes (a day), not %d", MaxArenaMinutes, t.Minutes)
		}
		if clock.Kind == game.ClockCorrespondence {
			return Event{}, refuse.Bad("an arena's games must end within it: a clock of %s cannot; choose a Fischer or turn clock", clock)
		}
		if arena := time.Duration(t.Minutes) * time.Minute; length > arena {
			return Event{}, refuse.Bad("a game on a clock of %s may run %s, longer than the arena's %s: give it a faster clock or more minutes",
				clock, minutes(length), game.Count(t.Minutes, "minute", "minutes"))
		}
		if t.MaxPlayers == 0 {
			t.MaxPlayers = MaxArenaPlayers
		}
		if t.MaxPlayers > MaxArenaPlayers {
			return Event{}, refuse.Bad("an arena takes at most %d players, not %d", MaxArenaPlayers, t.MaxPlayers)
		}
	case Swiss:
		if t.Rounds > MaxRounds {
			return Event{}, refuse.Bad("a Swiss plays at most %d rounds, not %d", MaxRounds, t.Rounds)
		}
		if t.MaxPlayers == 0 {
			t.MaxPlayers = MaxSwissPlayers
		}
		if t.MaxPlayers > MaxSwissPlayers {
			return Event{}, refuse.Bad("a Swiss takes at most %d players, not %d", MaxSwissPlayers, t.MaxPlayers)
		}
		// A cap under a table's worth is told below as what it is, not
		// as a field that can play no round.
		if most := maxRounds(t.MaxPlayers, t.Seats); t.Rounds > most && t.MaxPlayers >= t.Seats {
			return Event{}, refuse.Bad("%s cannot play %s without meeting again: at most %s",
				game.Count(t.MaxPlayers, "player", "players"), game.Count(t.Rounds, "round", "rounds"), game.Count(most, "round", "rounds"))
		}
	}
	if t.MaxPlayers < t.Seats {
		return Event{}, refuse.Bad("an event of %d a table needs room for at least %d players, not %d", t.Seats, t.Seats, t.MaxPlayers)
	}

	t.Starts = now.Add(DefaultDelay).Truncate(time.Second)
	if !req.At.IsZero() {
		t.Starts = req.At.UTC()
	}
	if t.Starts.Before(now) {
		// Said as how long ago, not as a time: the form that sent it
		// showed the player their own zone's clock, not UTC's.
		return Event{}, refuse.Bad("that start has passed (%s): choose a time from now on", ago(now.Sub(t.Starts)))
	}
	if t.Starts.After(now.Add(MaxAhead)) {
		return Event{}, refuse.Bad("an event starts at most %d days ahead", int(MaxAhead/(24*time.Hour)))
	}
	if t.Name == "" {
		what := "Arena"
		if t.Kind == Swiss {
			what = "Swiss"
		}
		t.Name = g.Title() + " " + what
	}
	if i := strings.IndexFunc(req.Password, unicode.IsControl); i >= 0 {
		// No join form types one: the event could be joined only by a
		// program that knows the password byte for byte.
		r, _ := utf8.DecodeRuneInString(req.Password[i:])
		return Event{}, refuse.Bad("an event's password may not hold control characters such as line breaks or tabs (U+%04X): no join form can type them", r)
	}
	if req.Password != "" {
		t.PasswordHash = account.Hash(req.Password)
	}
	// The day's cap comes last: a body with a mistake is told its
	// mistake, which it must mend whenever it is sent, not to wait. The
	// count and the write are one step, so that events sent at once
	// are not all counted before any is stored.
	if p != nil {
		s.creating.Lock()
		defer s.creating.Unlock()
		n, err := s.st.TournamentsCreated(ctx, p.Identity, now.Add(-24*time.Hour))
		if err != nil {
			return Event{}, refuse.ReadFailed(s.log, "your events", err)
		}
		if n >= MaxCreatedADay {
			return Event{}, refuse.TooMany("you have created %s in the last 24 hours, the most a player may: play in one, cancel one not yet started, or wait until the first of them is a day old", game.Count(n, "event", "events"))
		}
	}

	ev, err := s.load(t)
	if err != nil {
		return Event{}, fmt.Errorf("tournament: a new event: %w", err)
	}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	// On a cluster this node runs the event it makes: it takes the
	// event's lease before the event is stored, so that no other node,
	// looking for live events nobody runs, takes it up in between.
	held := s.hold(ctx, ev)
	if err := s.st.WriteTournament(ctx, t.ID, store.TournamentWrite{Event: &ev.t, Create: true}); err != nil {
		if held {
			s.lease.Release(ctx, t.ID)
		}
		if errors.Is(err, store.ErrConflict) {
			return Event{}, err
		}
		return Event{}, refuse.SaveFailed(s.log, "the event", err)
	}
	ev.t.Entrants = []store.Entrant{}
	s.mu.Lock()
	s.events[t.ID] = ev
	s.mu.Unlock()
	// Its lease renewed (or taken now, should the store have been away
	// a moment ago): unless another node took the event up meanwhile,
	// this node runs it.
	if s.hold(ctx, ev) || s.event(t.ID) == ev {
		s.noteDue(ev)
	}
	s.log.Info("event created", "event", t.ID, "kind", t.Kind, "game", t.Game, "creator", t.Creator, "starts", t.Starts)
	return s.view(ev.t, ev.g, ev.version, true), nil
}

// maxRounds is the most rounds a field of n plays at tables of seats
// without two meeting again.
func maxRounds(n, seats int) int {
	if seats <= 2 {
		return pairing.MaxRounds(n)
	}
	// Each round a player meets seats-1 others, of the n-1 there are.
	return max(1, (n-1)/(seats-1))
}

// ago says how long ago a moment d back was, in the largest whole unit
// that fits it: moments, minutes, hours or days.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "moments ago"
	case d < time.Hour:
		return game.Count(int(d/time.Minute), "minute", "minutes") + " ago"
	case d < 48*time.Hour:
		return game.Count(int(d/time.Hour), "hour", "hours") + " ago"
	}
	return game.Count(int(d/(24*time.Hour)), "day", "days") + " ago"
}

// minutes says d in whole minutes, rounded up.
func minutes(d time.Duration) string {
	m := int((d + time.Minute - 1) / time.Minute)
	return game.Count(m, "minute", "minutes")
}
