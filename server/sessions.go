package server

import (
	"context"
	"log/slog"
	"time"

	"parlour/server/auth"
	"parlour/server/players"
	"parlour/server/table"
)

// sessionSweepEvery is how often the accounts' sessions unused for
// players.SessionIdle are ended: a session lasts at most this much
// longer.
const sessionSweepEvery = time.Hour

// sessionSweep ends the sessions unused for long, at the server's start
// and every sessionSweepEvery, on one timer. Every node of a cluster
// may run it: a session ended twice is ended once.
type sessionSweep struct {
	rearm
	auth    *auth.Auth
	players *players.Service
	log     *slog.Logger
	ctx     context.Context
}

// startSessionSweep sweeps at once and sets the timer of the next. Each
// sweep first notes the use of the sessions that connections still hold
// open (auth.NoteWatched).
func startSessionSweep(ctx context.Context, a *auth.Auth, ps *players.Service, clock table.Clock, log *slog.Logger) *sessionSweep {
	w := &sessionSweep{rearm: rearm{clock: clock}, auth: a, players: ps, log: log, ctx: ctx}
	w.tick()
	return w
}

func (w *sessionSweep) tick() {
	if err := w.auth.NoteWatched(w.ctx, w.clock.Now()); err != nil {
		// A session held open unused otherwise for a month may end
		// with its connections; the next day's note tries again.
		w.log.Warn("noting the sessions held open", "err", err)
	}
	switch n, err := w.players.ExpireSessions(w.ctx); {
	case err != nil:
		w.log.Warn("ending the sessions unused", "err", err)
	case n > 0:
		w.log.Info("sessions unused ended", "sessions", n, "unused_for", players.SessionIdle)
	}
	w.after(sessionSweepEvery, w.tick)
}
