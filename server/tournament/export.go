package tournament

import (
	"context"
	"net/http"
	"strings"

	"parlour/game"
	"parlour/server/refuse"
	"parlour/store"
)

// Export hands each finished game of event id to each, as its whole
// record, in the order the games started; games under way are left out
// (their records would give away what the players may not yet see), and
// so are those whose table closed before play began (a player left it,
// or did not set up in time), which have no game to record. It
// is refused with 404 for an event that does not exist; an error of
// each's stops it.
func (s *Service) Export(ctx context.Context, id string, each func(*game.Record) error) error {
	var games []store.TournamentGame
	if ev := s.event(id); ev != nil {
		ev.mu.Lock()
		games = append(games, ev.t.Games...)
		ev.mu.Unlock()
	} else {
		t, err := s.stored(ctx, id)
		if err != nil {
			return err
		}
		games = t.Games
	}
	for _, g := range games {
		if g.Points == nil || strings.HasPrefix(g.Table, "unplayed-") {
			continue
		}
		rec, err := s.tables.Record(ctx, nil, g.Table)
		if refuse.Status(err) == http.StatusGone {
			continue // its table closed before play began: no game was played
		}
		if err != nil {
			return err
		}
		if err := each(rec); err != nil {
			return err
		}
	}
	return nil
}
