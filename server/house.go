package server

import (
	"bytes"
	"context"
	"log/slog"

	"parlour/server/protocol"
	"parlour/server/table"
	"parlour/server/tournament"
	"parlour/server/tournament/calendar"
)

// houseEvents puts up the events of the server's own calendar: each
// entry's next events, as each comes within its time ahead, on one timer.
// Every node of a cluster may run it: an event's id comes from its entry
// and start (calendar.Due.Key), so the second node to make it finds it
// made.
type houseEvents struct {
	rearm
	ts  *tournament.Service
	cal *calendar.Calendar
	log *slog.Logger
	ctx context.Context
}

// startHouseEvents puts up what cal has due now and sets its timer.
func startHouseEvents(ctx context.Context, ts *tournament.Service, cal *calendar.Calendar, clock table.Clock, log *slog.Logger) *houseEvents {
	h := &houseEvents{rearm: rearm{clock: clock}, ts: ts, cal: cal, log: log, ctx: ctx}
	h.tick()
	return h
}

// tick makes each event due that is not made yet, then waits for the
// next.
func (h *houseEvents) tick() {
	now := h.clock.Now()
	for _, d := range h.cal.Upcoming(now) {
		// The calendar's entries were checked when it was read; an entry
		// the events refuse (a game this server does not offer) is
		// logged, and the others go on.
		req, err := protocol.DecodeTournamentRequest(bytes.NewReader(d.Event), calendar.MaxSize)
		if err == nil {
			var made bool
			if _, made, err = h.ts.CreateHouse(h.ctx, d.Key, req); made {
				h.log.Info("scheduled event put up", "event", d.Key, "entry", d.Entry+1, "starts", d.Starts)
			}
		}
		if err != nil {
			h.log.Error("a scheduled event could not be put up", "entry", d.Entry+1, "starts", d.Starts, "err", err)
		}
	}
	if next := h.cal.Next(now); !next.IsZero() {
		h.after(next.Sub(now), h.tick)
	}
}
