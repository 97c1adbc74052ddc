package tournament

// Events on the nodes of a cluster. Each live event is in the memory of
// one node only, the one that holds its lease: that node runs its
// schedule, pairs it, scores its games and takes its players' joins (the
// cluster forwards every request about the event to it). The others
// read it from the store. Every Claim a node renews the leases of the
// events it runs and lets go of any it lost, and takes up the live
// events nobody runs: one whose node died mid-event is read back from
// the store as after a restart (resume), its games that ended meanwhile
// scored from their records and a Swiss round whose tables were not all
// made made as stored, so that the death costs no game and no point.

import (
	"context"
	"errors"
	"time"

	"parlour/server/refuse"
	"parlour/store"
)

// claimBatch is the most events of each status (created, started) a node
// looks at for one nobody runs, each Claim.
const claimBatch = 1000

// gameOverTries is how many times a node tells an event's node of the
// end of one of its games, a second apart, while that node cannot be
// reached (the event changing hands); past them the next node to take
// the event up scores the game from its record.
const gameOverTries = 5

// claimLoop runs claim every s.cfg.Claim until the service closes.
func (s *Service) claimLoop() {
	tick := time.NewTicker(s.cfg.Claim)
	defer tick.Stop()
	for {
		s.claim(s.ctx)
		select {
		case <-s.ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// claim renews this node's leases of the events it runs, drops the ones
// it lost, and takes up the live events no node runs.
func (s *Service) claim(ctx context.Context) {
	mine := s.running()
	for _, ev := range mine {
		ev.mu.Lock()
		s.hold(ctx, ev)
		ev.mu.Unlock()
	}
	for _, st := range []store.TournamentStatus{store.TournamentStarted, store.TournamentCreated} {
		ts, err := s.st.ListTournaments(ctx, st, claimBatch)
		if err != nil {
			if ctx.Err() == nil {
				s.log.Warn("looking for events nobody runs", "err", err)
			}
			return
		}
		for _, t := range ts {
			if ctx.Err() != nil {
				return
			}
			if s.event(t.ID) == nil {
				if _, err := s.adopt(ctx, t.ID); err != nil {
					s.log.Warn("an event could not be taken up", "event", t.ID, "err", err)
				}
			}
		}
	}
}

// adopt takes up live event id on this node when no other node runs it:
// it takes the event's lease, reads the event from the store and
// carries it on (resume). It returns the event in memory, or nil when
// another node runs it or it is over.
func (s *Service) adopt(ctx context.Context, id string) (*event, error) {
	s.adopting.Lock()
	defer s.adopting.Unlock()
	if ev := s.event(id); ev != nil {
		return ev, nil
	}
	epoch, ok, err := s.lease.Hold(ctx, id)
	if err != nil || !ok {
		return nil, err
	}
	t, err := s.st.Tournament(ctx, id)
	if err != nil {
		s.lease.Release(ctx, id)
		return nil, err
	}
	if t.Status.Over() {
		s.lease.Release(ctx, id)
		return nil, nil
	}
	ev, err := s.load(t)
	if err != nil {
		s.lease.Release(ctx, id)
		return nil, err
	}
	ev.epoch = epoch
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, nil
	}
	s.events[id] = ev
	for _, g := range t.Games {
		if g.Points == nil {
			s.byTable[g.Table] = ev
			for _, p := range g.Players {
				s.playing[p] = id
			}
		}
	}
	s.mu.Unlock()
	s.log.Info("event taken up", "event", id, "status", t.Status, "epoch", epoch)
	s.resume(ev)
	return ev, nil
}

// drop lets go of ev, whose lease another node holds now: it leaves
// memory without a word to the store, which the other node answers
// for. ev.mu must be held.
func (s *Service) drop(ev *event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.events[ev.t.ID] != ev {
		return
	}
	delete(s.events, ev.t.ID)
	for tb, e := range s.byTable {
		if e == ev {
			delete(s.byTable, tb)
		}
	}
	for p, id := range s.playing {
		if id == ev.t.ID {
			delete(s.playing, p)
		}
	}
	ev.dueAt = time.Time{}
	s.arm()
	s.log.Info("event left to another node", "event", ev.t.ID)
}

// clustered reports whether the service runs on a node of a cluster,
// where other nodes run some events.
func (s *Service) clustered() bool { return s.cfg.Claim > 0 }

// errElsewhere refuses a request about an event another node runs, or
// one changing hands: the cluster sends such requests to the event's
// node, so this is a passing state.
func errElsewhere(name string) error {
	return refuse.Unavailable("%s is changing servers just now; try again in a few seconds", name)
}

// GameOver is the end of event id's game at table, heard on another node
// (Peers.GameOver): it reports false when this node does not run the
// event.
func (s *Service) GameOver(ctx context.Context, id, table string) bool {
	ev := s.event(id)
	if ev == nil {
		return false
	}
	s.goDo(func() { s.gameOver(s.ctx, ev, table) })
	return true
}

// tellGameOver tells the node that runs event id of the end of its game
// at table, on a goroutine of the service's.
func (s *Service) tellGameOver(id, table string) {
	s.goDo(func() {
		for try := range gameOverTries {
			err := s.cfg.Peers.GameOver(s.ctx, id, table)
			if err == nil || s.ctx.Err() != nil {
				return
			}
			// The event may have come here meanwhile.
			if s.GameOver(s.ctx, id, table) {
				return
			}
			if try == gameOverTries-1 {
				s.log.Warn("an event's node could not be told of its game's end; the next to take it up scores it",
					"event", id, "table", table, "err", err)
				return
			}
			select {
			case <-s.ctx.Done():
				return
			case <-time.After(time.Second):
			}
		}
	})
}

// isFenced reports whether err says that this node lost an event's
// lease.
func isFenced(err error) bool { return errors.Is(err, store.ErrFenced) }
