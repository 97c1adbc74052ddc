package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

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

// errCancelled says that table id was closed before its game began.
func errCancelled(id string) error {
	return refuse(http.StatusGone, "table %s was closed before its game began: everyone seated at it left", id)
}

// Leave gives up p's seat at table id before its game starts: the seat
// is open again for anybody (an invite, the lobby) to take, and a setup
// given for it is forgotten. When nobody else is seated (computer seats
// aside) the table is cancelled instead: it leaves the lobby and every
// list of tables under way, its watchers are told, and it never opens
// again. Once play has begun a seat is given up by resigning.
func (s *Service) Leave(ctx context.Context, p *Principal, id string) (Left, error) {
	t, err := s.table(ctx, id)
	if err != nil {
		return Left{}, err
	}
	t.mu.Lock()
	left, err := s.leave(ctx, t, p)
	mark := t.mark()
	t.mu.Unlock()
	if left.Cancelled && s.cl != nil {
		// The table is out of memory, where the publisher of its
		// changes looks for it: the last change is told here, so that
		// watchers on other nodes read the table once more and end.
		s.cl.published(t.id, mark)
	}
	return left, err
}

// leave is Leave with t.mu held.
func (s *Service) leave(ctx context.Context, t *table, p *Principal) (Left, error) {
	if t.gone {
		return Left{}, errMoved
	}
	if t.m.Cancelled {
		return Left{}, errCancelled(t.id)
	}
	seat := t.seatOf(p)
	switch {
	case seat < 0:
		return Left{}, refuse(http.StatusForbidden, "you hold no seat at this table")
	case t.status == store.Finished:
		return Left{}, refuse(http.StatusConflict, "the game is over: there is no seat to leave")
	case t.m.Started:
		return Left{}, refuse(http.StatusConflict, "the game has begun: to give up your seat, resign")
	}
	t.lastUse = time.Now()
	old := t.m.clone()
	i := int(seat)
	t.m.Seats[i] = seatMeta{Name: uniqueName(t.m.Seats, fmt.Sprintf("Seat %d", i+1), i)}
	if slices.ContainsFunc(t.m.Seats, func(st seatMeta) bool { return st.Identity != "" }) {
		if err := s.changedWith(ctx, t, old, store.Batch{}); err != nil {
			t.cfg.Players = t.players()
			return Left{}, err
		}
		s.log.Info("seat left", "table", t.id, "seat", i)
		return Left{Table: t.id, Seat: i}, nil
	}
	t.m.Cancelled = true
	t.m.Changes++
	if err := s.persistMeta(ctx, t, old); err != nil {
		return Left{}, err
	}
	t.cfg.Players = t.players()
	s.mu.Lock()
	if s.tables[t.id] == t {
		delete(s.tables, t.id)
	}
	s.mu.Unlock()
	t.broadcast() // its watchers end, told why
	s.log.Info("table cancelled: its last player left", "table", t.id)
	return Left{Table: t.id, Seat: i, Cancelled: true}, nil
}

// cancelledRematch reports whether table id, a finished table's rematch,
// was cancelled since: its players left before it began, and a new
// rematch may be offered. t.mu of the finished table is held, not id's.
func (s *Service) cancelledRematch(ctx context.Context, id string) (bool, error) {
	s.mu.RLock()
	_, here := s.tables[id]
	s.mu.RUnlock()
	if here {
		return false, nil // cancelled tables leave memory at once
	}
	row, err := s.st.Table(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, s.readFailed("the rematch", err)
	}
	if row.Status == store.Cancelled {
		return true, nil
	}
	var m meta
	if err := json.Unmarshal(row.Meta, &m); err != nil {
		return false, fmt.Errorf("table %s: reading description: %w", id, err)
	}
	return m.Cancelled, nil
}

func (h *Handler) leave(w http.ResponseWriter, r *http.Request) {
	p, err := h.seated(r)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	res, err := h.s.Leave(r.Context(), p, r.PathValue("id"))
	h.reply(w, r, res, err)
}
