package table

import (
	"context"
	"fmt"
	"sort"
	"time"

	"parlour/game"
	"parlour/lexicon"
	"parlour/server/auth"
	"parlour/store"
)

// SeatedTable is a table under way where the asker holds a seat.
type SeatedTable struct {
	Info
	// Seat is the asker's seat at it.
	Seat int `json:"seat"`
	// Challenge names the challenge whose acceptance opened the table, if
	// any: a player stream opened after the acceptance still tells the
	// challenger that this table answered their challenge.
	Challenge string `json:"challenge,omitempty"`
}

// ResultOf reads seat's result at finished table id from its record.
func (s *Service) ResultOf(ctx context.Context, id string, seat int) (string, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return "", err
	}
	t.mu.Lock()
	defer t.unlock()
	if t.st == nil || !t.st.Result().Status.Over() {
		return "", fmt.Errorf("table %s is in a history but not finished", id)
	}
	for _, e := range t.gameEnd(time.Time{}).Seats {
		if e.Seat == seat {
			return string(e.Result), nil
		}
	}
	return "", fmt.Errorf("table %s has no person at seat %d", id, seat)
}

// SeatedAt returns the tables under way where identity holds a seat,
// newest first. Every table under way is in memory, or parked. It takes
// each table's lock after s.mu, never under it (see loaded).
func (s *Service) SeatedAt(identity string) []SeatedTable {
	out := []SeatedTable{}
	p := &auth.Principal{Identity: identity}
	s.mu.RLock()
	ts := s.loaded()
	out = s.seatedParked(identity, out)
	s.mu.RUnlock()
	for _, t := range ts {
		t.mu.Lock()
		if seat := t.seatOf(p); seat >= 0 && t.status != store.Finished {
			out = append(out, SeatedTable{Info: t.info(), Seat: int(seat), Challenge: t.m.Challenge})
		}
		t.unlock()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Created.After(out[j].Created) })
	return out
}

// Forget drops tables ids from memory if they are there and finished, so
// that the store answers for them from now on: their stored description
// changed under them (an account deleted, its seats renamed).
func (s *Service) Forget(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		if t, ok := s.tables[id]; ok && t.status == store.Finished {
			delete(s.tables, id)
		}
	}
}

// Renamed gives identity the name name in what this node holds of its
// tables, as the store renamed it with its account (account false: it
// was deleted): its lines in the chat of the tables in memory, and its
// finished tables, which are dropped so that the store, which has their
// seats renamed, answers for them. Its tables under way keep their seats'
// names until they end (renaming and deleting refuse an account that
// holds one; a spectator's chat line has none).
func (s *Service) Renamed(identity, name string, account bool) {
	p := &auth.Principal{Identity: identity}
	// Each table's lock is taken after s.mu, never under it (see loaded).
	s.mu.RLock()
	ts := s.loaded()
	s.mu.RUnlock()
	var drop []*table
	for _, t := range ts {
		t.mu.Lock()
		t.ch.Rename(identity, name, account)
		if t.status == store.Finished && t.seatOf(p) >= 0 {
			drop = append(drop, t)
		}
		t.unlock()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range drop {
		if s.tables[t.id] == t {
			delete(s.tables, t.id)
		}
	}
}

// Tally returns the tally of the one-seat play at table id, a game of
// gameName, once it is over (over false until then), and when its last
// move was made (zero for none).
func (s *Service) Tally(ctx context.Context, id, gameName string) (_ game.Tally, end time.Time, over bool, err error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return game.Tally{}, time.Time{}, false, err
	}
	t.mu.Lock()
	defer t.unlock()
	if t.st == nil || t.st.Result().Status != game.Finished {
		return game.Tally{}, time.Time{}, false, nil
	}
	tl, ok := t.g.(game.Tallier)
	if !ok || t.g.Name() != gameName {
		return game.Tally{}, time.Time{}, false, fmt.Errorf("table %s of a daily %s holds a game of %s", id, gameName, t.g.Name())
	}
	r, err := tl.Tally(t.st)
	if err != nil {
		return game.Tally{}, time.Time{}, false, fmt.Errorf("tallying the daily table %s: %w", id, err)
	}
	if n := len(t.moves); n > 0 {
		end = t.moves[n-1].time()
	}
	return r, end, true, nil
}

// NameOf returns the name p's identity sits under at a new table (an
// account's name, or the guest's), and whether it is an account's.
func (s *Service) NameOf(ctx context.Context, p *auth.Principal) (name string, account bool, err error) {
	a, err := s.askerFor(ctx, p, "")
	return a.name, a.account, err
}

// Lexicon returns the shared lexicon called name ("" for the default).
func (s *Service) Lexicon(name string) (*lexicon.Lexicon, error) { return s.lexicon(name) }
