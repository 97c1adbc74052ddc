package table

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// Left is the answer to Leave: the seat given up, and whether that closed
// the table.
type Left struct {
	Table string `json:"table"`
	Seat  int    `json:"seat"`
	// Cancelled says the table is closed for good: nobody else was
	// seated at it.
	Cancelled bool `json:"cancelled"`
}

// Why a table was cancelled, in a player's words (meta.Cancelled).
const (
	whyLeft    = "everyone seated at it left"
	whyExpired = "it waited too long for its players"
)

// errCancelled says that table id was closed before its game began, and
// why (meta.Cancelled; "" for a table cancelled without a reason kept).
func errCancelled(id, why string) error {
	if why == "" {
		return refuse.Gone("table %s was closed before its game began", id)
	}
	return refuse.Gone("table %s was closed before its game began: %s", id, why)
}

// closed returns errCancelled for a cancelled table, nil for any other.
// t.mu must be held.
func (t *table) closed() error {
	if t.m.Cancelled == "" {
		return nil
	}
	return errCancelled(t.id, t.m.Cancelled)
}

// Leave gives up p's seat at table id before its game starts: the seat
// is open again for anybody (an invite, the lobby) to take, and a setup
// given for it is forgotten. When nobody else is seated (computer seats
// aside), or the table was made for its players (a seek, a challenge or
// an event paired them), the table is cancelled instead: it leaves the
// lobby and every list of tables under way, its watchers are told, and
// it never opens again. Once play has begun a seat is given up by
// resigning.
func (s *Service) Leave(ctx context.Context, p *auth.Principal, id string) (Left, error) {
	return s.leaveTable(ctx, p, id, whyLeft)
}

// LeaveFor gives up identity's seat at table id for them, as Leave does,
// at the word of the service that paired them: an event whose player did
// not set up in time. why, in the other players' words, is the reason a
// paired table closes with ("Dan did not set up in time"), where their
// own leaving would say they left.
// The table's description keeps seats, every seat that did not show up
// (the seat of identity among them), as Deserters says.
func (s *Service) LeaveFor(ctx context.Context, identity, id, why string, seats ...int) (Left, error) {
	return s.leaveTable(ctx, &auth.Principal{Identity: identity}, id, why, seats...)
}

// Deserters returns the seats of table id, a pairing's table closed
// before play began because its players there did not show up, as its
// stored description keeps them: an event that had not scored the
// closing when the server stopped reads who forfeits from here. It
// answers nil for a table that has not closed so, or that closed before
// the table kept its deserters.
func (s *Service) Deserters(ctx context.Context, id string) ([]int, error) {
	row, err := s.st.Table(ctx, id)
	if err != nil {
		return nil, s.readFailed("the table", err)
	}
	var m meta
	if err := json.Unmarshal(row.Meta, &m); err != nil {
		return nil, fmt.Errorf("table %s: reading description: %w", id, err)
	}
	if m.Cancelled == "" {
		return nil, nil
	}
	var seats []int
	for i, seat := range m.Seats {
		if seat.Deserted {
			seats = append(seats, i)
		}
	}
	return seats, nil
}

// Vacate gives up identity's seats at the tables whose game has not
// begun, as Leave does; a table left with nobody seated is cancelled
// for the reason why, in a player's words. The root calls it when a
// moderator closes an account: a table its player waits at would
// otherwise stay in the lobby, and nobody could join it. Games under way
// are left alone: their other players resign or claim them. It vacates
// the tables this node holds: on a cluster the root has every node vacate
// its own.
func (s *Service) Vacate(ctx context.Context, identity, why string) error {
	p := &auth.Principal{Identity: identity}
	var errs []error
	for _, st := range s.SeatedAt(identity) {
		if st.Status != store.Open && st.Status != store.Setup {
			continue
		}
		if _, err := s.leaveTable(ctx, p, st.ID, why); err != nil && refuse.Status(err) != http.StatusConflict {
			errs = append(errs, fmt.Errorf("leaving table %s: %w", st.ID, err))
		}
	}
	return errors.Join(errs...)
}

// leaveTable is Leave, a table left empty cancelled for the reason why;
// a pairing's table closed keeps absent, or else p's seat, as the seats
// that did not show up.
func (s *Service) leaveTable(ctx context.Context, p *auth.Principal, id, why string, absent ...int) (Left, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return Left{}, err
	}
	t.mu.Lock()
	left, err := s.leave(ctx, t, p, why, absent)
	mark := t.mark()
	t.unlock()
	if left.Cancelled {
		// The table is out of memory, where the publisher of its
		// changes looks for it: the last change is told here, so that
		// watchers on other nodes read the table once more and end.
		s.place.Changed(t.id, mark)
	}
	return left, err
}

// leave is leaveTable with t.mu held.
func (s *Service) leave(ctx context.Context, t *table, p *auth.Principal, why string, absent []int) (Left, error) {
	if t.gone {
		return Left{}, ErrMoved
	}
	if err := t.closed(); err != nil {
		return Left{}, err
	}
	seat := t.seatOf(p)
	switch {
	case seat < 0:
		return Left{}, refuse.Forbidden("you hold no seat at this table")
	case t.status == store.Finished:
		return Left{}, refuse.Conflict("the game is over: there is no seat to leave")
	case t.m.Started:
		return Left{}, refuse.Conflict("the game has begun: to give up your seat, resign")
	}
	t.lastUse = time.Now()
	old := t.m.clone()
	i := int(seat)
	if t.m.paired() {
		// The pairing chose its players: the table closes, the seats
		// kept as they were, rather than offer the seat to anybody.
		reason := t.m.Seats[i].Name + " left before the game began"
		if why != whyLeft {
			reason = why // the server's own reason: an account closed
		}
		if len(absent) == 0 {
			absent = []int{i}
		}
		for _, a := range absent {
			if a >= 0 && a < len(t.m.Seats) {
				t.m.Seats[a].Deserted = true
			}
		}
		if err := s.cancelTable(ctx, t, old, reason); err != nil {
			return Left{}, err
		}
		s.deserted(t, i)
		return Left{Table: t.id, Seat: i, Cancelled: true}, nil
	}
	name := t.m.Seats[i].Name
	t.m.Seats[i] = seatMeta{Name: uniqueName(t.m.Seats, fmt.Sprintf("Seat %d", i+1), i)}
	if slices.ContainsFunc(t.m.Seats, func(st seatMeta) bool { return st.Identity != "" }) {
		if err := s.changedWith(ctx, t, old, store.Batch{}); err != nil {
			t.cfg.Players = t.players()
			return Left{}, err
		}
		s.log.Info("seat left", "table", t.id, "seat", i)
		return Left{Table: t.id, Seat: i}, nil
	}
	if why == whyLeft {
		// The last player seated left: the reason names them, as a
		// paired table's does.
		why = name + " left before the game began, the last player seated"
	}
	if err := s.cancelTable(ctx, t, old, why); err != nil {
		return Left{}, err
	}
	return Left{Table: t.id, Seat: i, Cancelled: true}, nil
}

// cancelTable closes t for good, why given in a player's words: it is stored
// as cancelled, leaves memory, and its watchers end, told why. On failure
// t's description goes back to old. The caller tells the other nodes of
// a cluster (cluster.published), once t.mu is released. t.mu must be
// held.
func (s *Service) cancelTable(ctx context.Context, t *table, old meta, why string) error {
	t.m.Cancelled = why
	t.m.Changes++
	if err := s.persistMeta(ctx, t, old); err != nil {
		return err
	}
	t.cfg.Players = t.players()
	t.tc.stop()
	s.mu.Lock()
	if s.tables[t.id] == t {
		delete(s.tables, t.id)
	}
	s.mu.Unlock()
	t.broadcast() // its watchers end, told why
	s.log.Info("table cancelled before its game began", "table", t.id, "why", why)
	return nil
}

// DefaultOpenExpiry is how long a table whose game has not begun may go
// without a change (a join, a leave, a setup) before the server cancels
// it (Config.OpenExpiry): a month, far longer than friends take to sit
// down, so that only tables nobody will come back to are closed.
const DefaultOpenExpiry = 30 * 24 * time.Hour

// ExpireOpen cancels now, rather than at the janitor's next round, the
// tables whose game has not begun and that went Config.OpenExpiry without
// a change (expireOpen).
func (s *Service) ExpireOpen(ctx context.Context) { s.expireOpen(ctx) }

// expireOpen cancels the tables in memory whose game has not begun and
// which have not changed for s.cfg.OpenExpiry, as if their last player
// had left. A table in use is passed over until the next time
// (tablesWhere).
func (s *Service) expireOpen(ctx context.Context) {
	if s.cfg.OpenExpiry < 0 {
		return
	}
	now := s.now()
	stale := s.tablesWhere(func(t *table) bool { return t.waitedTooLong(now, s.cfg.OpenExpiry) })
	for _, t := range stale {
		t.mu.Lock()
		var err error
		expired := t.waitedTooLong(now, s.cfg.OpenExpiry) // it may have changed meanwhile
		if expired {
			err = s.cancelTable(ctx, t, t.m.clone(), whyExpired)
		}
		mark := t.mark()
		t.unlock()
		switch {
		case err != nil:
			s.log.Warn("cancelling a table that waited too long", "table", t.id, "err", err)
		case expired:
			s.place.Changed(t.id, mark)
		}
	}
}

// waitedTooLong reports whether t's game has not begun and t has not
// changed for longer than d, at now. t.mu must be held.
func (t *table) waitedTooLong(now time.Time, d time.Duration) bool {
	return !t.m.Started && t.m.Cancelled == "" && !t.gone && now.Sub(t.changedAt) > d
}

// cancelledRematch reports whether table id, a finished table's rematch,
// was no game after all: its players left before it began (cancelled),
// or it was aborted, ended without a result before every player had
// moved (one of them did not want it, or was not there to start it).
// Then a new rematch may be offered. It answers the rematch's seats too,
// as stored (nil when it is not found). It reads the store, which holds
// an abort before the table in memory does. t.mu of the finished table
// is held, not id's.
func (s *Service) cancelledRematch(ctx context.Context, id string) (bool, []seatMeta, error) {
	row, err := s.st.Table(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil, nil
	}
	if err != nil {
		return false, nil, s.readFailed("the rematch", err)
	}
	if row.Status == store.Cancelled {
		return true, nil, nil
	}
	var m meta
	if err := json.Unmarshal(row.Meta, &m); err != nil {
		return false, nil, fmt.Errorf("table %s: reading description: %w", id, err)
	}
	return m.Cancelled != "" || m.Aborted != nil, m.Seats, nil
}

// paired reports whether the table was made for the players seated at
// it: by a pairing (Paired), or, in a description written before Paired
// was kept, by a challenge or an event.
func (m *meta) paired() bool { return m.Paired || m.Challenge != "" || m.Event != nil }
