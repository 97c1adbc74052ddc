package table

import (
	"context"
	"fmt"
	"sync"
	"time"

	"parlour/store"
)

// runBeat is how often a server notes in the store that it still runs
// (store.Runs.KeepRun): after a crash, the clocks stand still from the
// last note, so the player to move gets back at most this much of the
// time the server ran before it fell. One small write every few seconds
// is nothing beside the moves.
const runBeat = 5 * time.Second

// runGrace is how recent a run's last note must be for it to count as
// running still when a server starts (store.Gaps): another node of a
// cluster notes its run every runBeat. A server back within runGrace of
// a crash finds no gap, and its clocks ran on meanwhile.
const runGrace = 2 * runBeat

// runKeeper keeps the server's run in a store that keeps runs: it notes
// the run every runBeat and once more as the server stops, and holds the
// gaps between the runs before it, during which no clock ran.
type runKeeper struct {
	st   store.Runs // nil: the store keeps no runs
	id   int64
	gaps []store.Span // oldest first; read only once the service is made

	mu      sync.Mutex
	timer   Timer
	stopped bool
}

// startRun stores the server's run, when the store keeps runs, and
// starts noting it.
func (s *Service) startRun(ctx context.Context) error {
	st, ok := s.st.(store.Runs)
	if !ok {
		return nil
	}
	id, gaps, err := st.StartRun(ctx, s.now(), runGrace)
	if err != nil {
		return fmt.Errorf("server: storing the server's start: %w", err)
	}
	s.run.st, s.run.id, s.run.gaps = st, id, gaps
	s.run.mu.Lock()
	s.run.timer = s.cfg.Clock.AfterFunc(runBeat, s.keepRun)
	s.run.mu.Unlock()
	return nil
}

// keepRun notes that the server still runs, and arms the next note.
func (s *Service) keepRun() {
	if err := s.run.st.KeepRun(s.ctx, s.run.id, s.now()); err != nil && s.ctx.Err() == nil {
		// The next note makes up for it; until then, a crash would
		// charge the clocks a little more of the server's downtime.
		s.log.Warn("noting that the server runs", "err", err)
	}
	s.run.mu.Lock()
	defer s.run.mu.Unlock()
	if !s.run.stopped {
		s.run.timer = s.cfg.Clock.AfterFunc(runBeat, s.keepRun)
	}
}

// endRun notes the run's end, the time from which the clocks stand
// still until the next run.
func (s *Service) endRun() {
	if s.run.st == nil {
		return
	}
	s.run.mu.Lock()
	s.run.stopped = true
	if s.run.timer != nil {
		s.run.timer.Stop()
	}
	s.run.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.run.st.EndRun(ctx, s.run.id, s.now()); err != nil {
		s.log.Error("noting the server's stop: the clocks will stand still only from its last note", "err", err)
	}
}

// stoodStill returns the spans during which a table's clock stood still
// because no server ran: the gaps that end after play started at start,
// each begun no earlier than the last of times (start, and the times of
// the moves, in order) inside it, since a move stored after the server's
// last note of its run shows it ran until then.
func stoodStill(gaps []store.Span, start time.Time, times []time.Time) []store.Span {
	var out []store.Span
	i := 0
	for _, g := range gaps {
		if !g.To.After(start) {
			continue
		}
		from := maxTime(g.From, start)
		for i < len(times) && times[i].Before(g.To) {
			from = maxTime(from, times[i])
			i++
		}
		if g.To.After(from) {
			out = append(out, store.Span{From: from, To: g.To})
		}
	}
	return out
}

// stood returns how long, of the spans, had passed by at.
func stood(spans []store.Span, at time.Time) time.Duration {
	var d time.Duration
	for _, sp := range spans {
		if !at.After(sp.From) {
			break
		}
		end := sp.To
		if at.Before(end) {
			end = at
		}
		d += end.Sub(sp.From)
	}
	return d
}

// Resumed returns due, a deadline set at from, moved on by the time
// after from and before it during which no server ran: a deadline that
// stood still while the server was down, as the games' clocks do (an
// event's time to set up, say).
func (s *Service) Resumed(from, due time.Time) time.Time {
	for _, sp := range stoodStill(s.run.gaps, from, nil) {
		if !sp.From.Before(due) {
			break
		}
		due = due.Add(sp.To.Sub(sp.From))
	}
	return due
}

// Down returns how long, between from and to, no server ran: the time a
// clock kept from from stood still by to. A stretch in which something
// was stored at to began no later than to, and counts only up to it.
func (s *Service) Down(from, to time.Time) time.Duration {
	return stood(stoodStill(s.run.gaps, from, []time.Time{to}), to)
}
