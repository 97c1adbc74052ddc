package tournament

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"parlour/account"
	"parlour/game"
	"parlour/glicko"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/social"
	"parlour/store"
)

// Join enters p in event id, with the event's password when it has one.
// It is refused (and nothing changes) for an event that is finished or
// full, a wrong or missing password, a player already in it, a player
// seated at another event's game, a guest at a rated event, a player with
// fewer rated games than the event asks, a Swiss player withdrawn for not
// showing up, and a newcomer to a Swiss under way (its field is fixed: a
// player who left after the start may come back, not one who left before
// it). A player who left an arena comes back with their points.
func (s *Service) Join(ctx context.Context, p *auth.Principal, id, password string) (Event, error) {
	if p == nil {
		return Event{}, refuse.Unauthorized("joining an event needs an identity: send your identity token or session")
	}
	ev, err := s.live(ctx, id)
	if err != nil {
		return Event{}, err
	}
	name, acct, err := s.tables.NameOf(ctx, p)
	if err != nil {
		return Event{}, err
	}
	elsewhere := s.seatedElsewhere(ctx, p.Identity, id)
	if err := s.owned(ctx, ev); err != nil {
		return Event{}, err
	}
	defer ev.mu.Unlock()
	t := &ev.t
	if err := ev.done(); err != nil {
		return Event{}, err
	}
	me := ev.entrant(p.Identity)
	if me != nil && !me.Left {
		return Event{}, refuse.Conflict("you are in %s already", t.Name)
	}
	if t.PasswordHash != "" {
		if password == "" {
			return Event{}, refuse.Forbidden("%s has a password: send it as password", t.Name)
		}
		if ok, err := account.Verify(t.PasswordHash, password); err != nil || !ok {
			return Event{}, refuse.Forbidden("that is not the password of %s", t.Name)
		}
	}
	// A Swiss's field is who was in it at the start: a player who left
	// before then (kept, with no game) is as new to it as a stranger.
	if t.Kind == Swiss && t.Status == store.TournamentStarted && (me == nil || !counts(*me, seatedAt(*t))) {
		return Event{}, refuse.Conflict("%s has started, and a Swiss plays with the field it started with", t.Name)
	}
	// Withdrawn for not showing up, a Swiss player is paired no more:
	// joining again would only keep more opponents waiting for them.
	if t.Kind == Swiss && me != nil && me.Forfeits >= ForfeitsToWithdraw {
		return Event{}, refuse.Conflict("you were withdrawn from %s after %s you did not show up for, and play no more of it",
			t.Name, game.Count(me.Forfeits, "game", "games"))
	}
	if (me == nil || !counts(*me, seatedAt(*t))) && ev.players() >= t.MaxPlayers {
		return Event{}, refuse.Conflict("%s is full: it takes %s", t.Name, game.Count(t.MaxPlayers, "player", "players"))
	}
	s.mu.Lock()
	other, seated := s.playing[p.Identity]
	s.mu.Unlock()
	if (seated && other != t.ID) || elsewhere {
		return Event{}, refuse.Conflict("you are playing a game of another event: finish it first")
	}
	if t.Rated && !acct {
		return Event{}, refuse.Forbidden("%s is rated, and only players with accounts play rated games: sign up or sign in first", t.Name)
	}
	rating := glicko.DefaultRating
	if acct {
		pool, _ := game.Pool(ev.g, ev.rules)
		var games int
		rating, games, err = s.rating(ctx, p.Identity, pool)
		if err != nil {
			return Event{}, err
		}
		if games < t.MinRatedGames {
			return Event{}, refuse.Forbidden("%s asks for %s in its pool; you have played %d",
				t.Name, game.Count(t.MinRatedGames, "rated game", "rated games"), games)
		}
	} else if t.MinRatedGames > 0 {
		return Event{}, refuse.Forbidden("%s asks for %s, and a guest has none: sign up or sign in first",
			t.Name, game.Count(t.MinRatedGames, "rated game", "rated games"))
	}
	e := store.Entrant{Identity: p.Identity, Name: name, Rating: rating, Guest: !acct, Joined: s.now()}
	if me != nil {
		e = *me
		e.Left = false
		e.Name, e.Guest = name, !acct // a guest may have made an account since
	}
	if err := s.write(ctx, ev, store.TournamentWrite{Entrants: []store.Entrant{e}}); err != nil {
		return Event{}, err
	}
	if me != nil {
		*me = e
	} else {
		t.Entrants = append(t.Entrants, e)
	}
	ev.bump()
	if t.Kind == Arena && t.Status == store.TournamentStarted {
		s.wave(ev)
	}
	return s.viewFor(ev, p), nil
}

// Leave takes p out of event id: before it starts they are out of it; in
// an arena they keep their points and are paired no more (their game
// under way goes on); in a Swiss they are withdrawn from the rounds to
// come. Joining again brings them back.
func (s *Service) Leave(ctx context.Context, p *auth.Principal, id string) (Event, error) {
	if p == nil {
		return Event{}, refuse.Unauthorized("leaving an event needs an identity: send your identity token or session")
	}
	ev, err := s.live(ctx, id)
	if err != nil {
		return Event{}, err
	}
	if err := s.owned(ctx, ev); err != nil {
		return Event{}, err
	}
	defer ev.mu.Unlock()
	if err := ev.done(); err != nil {
		return Event{}, err
	}
	me := ev.entrant(p.Identity)
	if me == nil || me.Left {
		return Event{}, refuse.Conflict("you are not in %s", ev.t.Name)
	}
	e := *me
	e.Left = true
	if err := s.write(ctx, ev, store.TournamentWrite{Entrants: []store.Entrant{e}}); err != nil {
		return Event{}, err
	}
	*me = e
	ev.bump()
	return s.viewFor(ev, p), nil
}

// Withdraw takes identity out of every live event this node holds that
// it is in, as Leave does: the root calls it when a moderator closes an
// account, whose player can no longer sign in, so that no event pairs
// them and keeps an opponent waiting for a no-show.
func (s *Service) Withdraw(ctx context.Context, identity string) error {
	evs := s.running()
	p := &auth.Principal{Identity: identity}
	var errs []error
	for _, ev := range evs {
		ev.mu.Lock()
		me := ev.entrant(identity)
		in, id := me != nil && !me.Left, ev.t.ID
		ev.mu.Unlock()
		if !in {
			continue
		}
		if _, err := s.Leave(ctx, p, id); err != nil && refuse.Status(err) != http.StatusConflict {
			errs = append(errs, fmt.Errorf("withdrawing from event %s: %w", id, err))
		}
	}
	return errors.Join(errs...)
}

// Renamed gives identity the name name in the events this node runs, in
// memory, as the store has done for what it keeps (a moderator renamed
// the account, or its owner deleted it): it is then seated, listed and
// scored under that name, and no later write of the event puts the old
// one back.
func (s *Service) Renamed(identity, name string) {
	evs := s.running()
	for _, ev := range evs {
		ev.mu.Lock()
		changed := false
		if e := ev.entrant(identity); e != nil && e.Name != name {
			e.Name, changed = name, true
		}
		if ev.t.Creator == identity && ev.t.CreatorName != name {
			ev.t.CreatorName, changed = name, true
		}
		if changed {
			ev.bump()
		}
		ev.mu.Unlock()
	}
}

// Start starts event id at once, at its creator's word. A Swiss needs
// two players (or a table's worth) and no more rounds than its field can
// play without meeting again.
func (s *Service) Start(ctx context.Context, p *auth.Principal, id string) (Event, error) {
	if p == nil {
		return Event{}, refuse.Unauthorized("starting an event needs an identity: send your identity token or session")
	}
	ev, err := s.live(ctx, id)
	if err != nil {
		return Event{}, err
	}
	if err := s.owned(ctx, ev); err != nil {
		return Event{}, err
	}
	if ev.t.Creator == "" || ev.t.Creator != p.Identity {
		ev.mu.Unlock()
		return Event{}, refuse.Forbidden("only the player who created %s may start it early", ev.t.Name)
	}
	if err := ev.done(); err != nil {
		ev.mu.Unlock()
		return Event{}, err
	}
	if ev.t.Status != store.TournamentCreated {
		ev.mu.Unlock()
		return Event{}, refuse.Conflict("%s has started already", ev.t.Name)
	}
	if err := ev.startable(); err != nil {
		ev.mu.Unlock()
		return Event{}, err
	}
	ev.mu.Unlock()
	if err := s.start(ctx, ev); err != nil {
		return Event{}, err
	}
	return s.GetFor(ctx, p, id)
}

// Cancel calls off event id before it starts, at the word of its
// creator or of a moderator (the only ones who may cancel the house's
// events): it leaves the lists, its players are told on their player
// streams (a "tournamentCancelled" line) and its page shows it
// cancelled, a join is refused, and it no longer counts among its
// creator's events of the day. An event under way is refused (409): its
// games are being played, and its players leave it one by one.
func (s *Service) Cancel(ctx context.Context, p *auth.Principal, id string) (Event, error) {
	if p == nil {
		return Event{}, refuse.Unauthorized("cancelling an event needs an identity: send your identity token or session")
	}
	ev, err := s.live(ctx, id)
	if err != nil {
		return Event{}, err
	}
	ev.mu.Lock()
	creator, name := ev.t.Creator, ev.t.Name
	ev.mu.Unlock()
	var log *store.ModAction
	if creator == "" || creator != p.Identity {
		// Asked before the event is locked: the role is the store's.
		mod, err := s.moderator(ctx, p.Identity)
		if err != nil {
			return Event{}, err
		}
		if !mod {
			return Event{}, refuse.Forbidden("only the player who created %s, or a moderator, may cancel it", name)
		}
		// A moderator's cancel goes in the moderators' log, with the
		// write: of the event's maker (none for the house's events).
		who, err := s.cfg.Store.Identity(ctx, p.Identity)
		if err != nil {
			return Event{}, refuse.ReadFailed(s.log, "your name", err)
		}
		log = &store.ModAction{Moderator: p.Identity, ModeratorName: who.Name, Action: "cancel-event", Subject: creator, Detail: name, At: s.now().UTC()}
	}
	if err := s.owned(ctx, ev); err != nil {
		return Event{}, err
	}
	defer ev.mu.Unlock()
	if err := ev.done(); err != nil {
		return Event{}, err
	}
	if ev.t.Status != store.TournamentCreated {
		return Event{}, refuse.Conflict("%s has started, and an event under way cannot be cancelled: its games are being played", ev.t.Name)
	}
	next := ev.t
	next.Status = store.TournamentCancelled
	if log != nil {
		log.SubjectName = ev.t.CreatorName
	}
	if err := s.write(ctx, ev, store.TournamentWrite{Event: &next, Log: log}); err != nil {
		return Event{}, err
	}
	ev.t.Status = next.Status
	ev.bump()
	s.log.Info("event cancelled", "event", ev.t.ID, "by", p.Identity, "creator", creator == p.Identity)
	if s.cfg.Streams != nil {
		for _, e := range ev.active() {
			s.cfg.Streams.Tell(e.Identity, social.StreamEvent{Type: "tournamentCancelled", Event: &game.Tournament{ID: ev.t.ID, Name: ev.t.Name}})
		}
	}
	e := s.viewFor(ev, p)
	s.forget(ev)
	return e, nil
}

// moderator reports whether identity holds the moderator role
// (Config.Moderator; false without it).
func (s *Service) moderator(ctx context.Context, identity string) (bool, error) {
	if s.cfg.Moderator == nil {
		return false, nil
	}
	on, err := s.cfg.Moderator(ctx, identity)
	if err != nil {
		return false, refuse.ReadFailed(s.log, "your role", err)
	}
	return on, nil
}

// done refuses a change of ev once it is over: finished or cancelled.
// ev.mu must be held.
func (ev *event) done() error {
	return over(ev.t)
}

// over refuses a change of event t once it is finished or cancelled, in
// words that say which (409).
func over(t store.Tournament) error {
	switch t.Status {
	case store.TournamentFinished:
		return refuse.Conflict("%s is over", t.Name)
	case store.TournamentCancelled:
		return refuse.Conflict("%s was cancelled, and will not be played", t.Name)
	}
	return nil
}

// cannotStart is why ev's creator could not start it now, in the
// words of the refusal: "" for an event that could start, one under way
// or over, or one of the house's, which nobody starts early. ev.mu must
// be held.
func (ev *event) cannotStart() string {
	if ev.t.Status != store.TournamentCreated || ev.t.Creator == "" {
		return ""
	}
	if err := ev.startable(); err != nil {
		return err.Error()
	}
	return ""
}

// startable refuses a Swiss its field cannot play. ev.mu must be held.
func (ev *event) startable() error {
	if ev.t.Kind != Swiss {
		return nil
	}
	n := len(ev.active())
	if n < ev.t.Seats {
		return refuse.Conflict("%s needs at least %d players to start; it has %d", ev.t.Name, ev.t.Seats, n)
	}
	if most := maxRounds(n, ev.t.Seats); ev.t.Rounds > most {
		return refuse.Conflict("%s cannot play %s without meeting again: at most %s; wait for more players, or for its start, when it plays the rounds its field can",
			game.Count(n, "player", "players"), game.Count(ev.t.Rounds, "round", "rounds"), game.Count(most, "round", "rounds"))
	}
	return nil
}

// live returns live event id, refusing one that is finished (409) or
// does not exist (404). On a node of a cluster, a live event no node runs
// is taken up here; one another node runs is refused for now (503: the
// cluster sends its requests to that node).
func (s *Service) live(ctx context.Context, id string) (*event, error) {
	if ev := s.event(id); ev != nil {
		return ev, nil
	}
	t, err := s.stored(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := over(t); err != nil {
		return nil, err
	}
	if !s.clustered() {
		// Stored live, yet not resumed at the start: its game or rules
		// are not this server's (the log says which).
		return nil, refuse.Unavailable("%s cannot run on this server: its game or rules are unknown here", t.Name)
	}
	ev, err := s.adopt(ctx, id)
	if err != nil {
		s.log.Warn("an event could not be taken up", "event", id, "err", err)
	}
	if ev != nil {
		return ev, nil
	}
	return nil, errElsewhere(t.Name)
}

// owned locks live event ev for a change and makes sure this node still
// runs it, refusing the change when another node took it over. On
// success ev.mu is held.
func (s *Service) owned(ctx context.Context, ev *event) error {
	ev.mu.Lock()
	if !s.hold(ctx, ev) {
		ev.mu.Unlock()
		return errElsewhere(ev.t.Name)
	}
	return nil
}

// seatedElsewhere reports whether identity sits at a live table of
// another event than id, on any node (Config.Seated).
func (s *Service) seatedElsewhere(ctx context.Context, identity, id string) bool {
	if s.cfg.Seated == nil {
		return false
	}
	ts, err := s.cfg.Seated(ctx, identity)
	if err != nil {
		// A node that did not answer is left out; the others' tables
		// still count.
		s.log.Warn("a player's tables on every node", "identity", identity, "err", err)
	}
	for _, t := range ts {
		if t.Event != nil && t.Event.ID != id {
			return true
		}
	}
	return false
}
