package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"parlour/game"
	"parlour/pairing"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/store"
)

// The schedule: one timer, set for the soonest moment any event is due.

// due returns when ev is next due after now: a start, an arena's end or
// its next look at waiting players; zero when nothing is but games
// ending (an arena past its end finishes with its last game). ev.mu must
// be held.
func (ev *event) due(now time.Time) time.Time {
	switch {
	case ev.t.Status == store.TournamentCreated:
		if ev.lookAt.After(ev.t.Starts) {
			return ev.lookAt // its start failed: it tries again
		}
		return ev.t.Starts
	case ev.t.Status == store.TournamentStarted && ev.t.Kind == Arena:
		if !now.Before(ev.t.Ends) {
			if len(ev.underway()) == 0 {
				return now // over, and nothing to wait for
			}
			return time.Time{}
		}
		if !ev.lookAt.IsZero() && ev.lookAt.Before(ev.t.Ends) {
			return ev.lookAt
		}
		return ev.t.Ends
	}
	return time.Time{}
}

// arm sets the timer for the soonest moment an event is due. s.mu must
// be held; it reads each event's due moment as last noted (dueAt).
func (s *Service) arm() {
	if s.closed {
		return
	}
	var next time.Time
	for _, ev := range s.events {
		if at := ev.dueAt; !at.IsZero() && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	if next.Equal(s.timerAt) && s.timer != nil {
		return
	}
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.timerAt = next
	if next.IsZero() {
		return
	}
	s.timer = s.cfg.Clock.AfterFunc(next.Sub(s.now()), s.tick)
}

// noteDue notes when ev is due next and re-arms the timer. ev.mu must be
// held.
func (s *Service) noteDue(ev *event) {
	at := ev.due(s.now())
	s.mu.Lock()
	ev.dueAt = at
	s.arm()
	s.mu.Unlock()
}

// tick runs whatever is due, then sets the timer again.
func (s *Service) tick() {
	now := s.now()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.timer, s.timerAt = nil, time.Time{}
	var due []*event
	for _, ev := range s.events {
		if !ev.dueAt.IsZero() && !ev.dueAt.After(now) {
			due = append(due, ev)
			ev.dueAt = time.Time{}
		}
	}
	s.mu.Unlock()
	slices.SortFunc(due, func(a, b *event) int { return a.t.Created.Compare(b.t.Created) })
	for _, ev := range due {
		s.run(ev, now)
	}
	s.mu.Lock()
	s.arm()
	s.mu.Unlock()
}

// run does what is due of ev at now.
func (s *Service) run(ev *event, now time.Time) {
	ctx := s.ctx
	ev.mu.Lock()
	status := ev.t.Status
	ev.mu.Unlock()
	if status == store.TournamentCreated {
		if !now.Before(ev.starts()) {
			if err := s.start(ctx, ev); err != nil {
				s.log.Error("an event could not start", "event", ev.id(), "err", err)
				ev.mu.Lock()
				ev.lookAt = s.now().Add(ArenaLook)
				s.noteDue(ev)
				ev.mu.Unlock()
			}
		}
		return
	}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if ev.t.Status != store.TournamentStarted || ev.t.Kind != Arena {
		s.noteDue(ev)
		return
	}
	ev.lookAt = time.Time{}
	if !now.Before(ev.t.Ends) && len(ev.underway()) == 0 {
		s.finish(ctx, ev)
		return
	}
	s.wave(ev)
	s.noteDue(ev)
}

func (ev *event) starts() time.Time {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	return ev.t.Starts
}

func (ev *event) id() string { return ev.t.ID }

// start starts ev: an arena opens its pairing until its end, a Swiss
// pairs its first round. A Swiss its field cannot play when its time
// comes (too few players) ends at once without winners; one with more
// rounds than its field can play without meeting again plays as many as
// it can.
func (s *Service) start(ctx context.Context, ev *event) error {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if ev.t.Status != store.TournamentCreated || !s.hold(ctx, ev) {
		return nil
	}
	now := s.now()
	next := ev.t
	next.Status, next.Starts = store.TournamentStarted, now
	if next.Kind == Arena {
		next.Ends = now.Add(time.Duration(next.Minutes) * time.Minute)
	} else {
		n := len(ev.active())
		if n < next.Seats {
			s.log.Info("a Swiss had too few players to start", "event", next.ID, "players", n)
			next.Status = store.TournamentFinished
		} else if most := maxRounds(n, next.Seats); next.Rounds > most {
			next.Rounds = most
		}
	}
	if err := s.write(ctx, ev, store.TournamentWrite{Event: &next}); err != nil {
		return err
	}
	ev.t.Status, ev.t.Starts, ev.t.Ends, ev.t.Rounds = next.Status, next.Starts, next.Ends, next.Rounds
	ev.lookAt = time.Time{}
	ev.bump()
	s.log.Info("event started", "event", next.ID, "kind", next.Kind, "players", len(ev.active()))
	switch {
	case ev.t.Status == store.TournamentFinished:
		s.forget(ev)
	case ev.t.Kind == Arena:
		s.wave(ev)
	default:
		s.nextRound(ctx, ev)
	}
	s.noteDue(ev)
	return nil
}

// finish ends ev: its standings are final and its first places its
// winners (podium). ev.mu must be held.
func (s *Service) finish(ctx context.Context, ev *event) {
	next := ev.t
	next.Status = store.TournamentFinished
	next.Winners = podium(ev.t, ev.ranking())
	if err := s.write(ctx, ev, store.TournamentWrite{Event: &next}); err != nil {
		// The schedule tries again.
		ev.lookAt = s.now().Add(ArenaLook)
		return
	}
	ev.t.Status, ev.t.Winners = next.Status, next.Winners
	ev.bump()
	s.log.Info("event finished", "event", ev.t.ID, "winners", ev.names(ev.t.Winners))
	s.forget(ev)
}

// podium returns the winners of event t, whose entrants rank in order
// ranking: its first Podium places among those who played. A Swiss
// player withdrawn at the end (who left before they were paired in every
// round, or forfeited twice) is not among them, and those below move up:
// they did not play the event out, and their points are those of fewer
// rounds than the others'; their results stay in the standings, marked.
// One who left once their games were all played keeps their place: the
// page still offered them to withdraw while the last round's other games
// went on. Leaving an arena is a pause that keeps a player's points, and
// their place.
func podium(t store.Tournament, ranking []string) []string {
	may := map[string]bool{}
	for _, e := range t.Entrants {
		withdrawn := t.Kind == Swiss && e.Left && (e.Games+e.Byes < t.Round || e.Forfeits >= ForfeitsToWithdraw)
		may[e.Identity] = (e.Games > 0 || e.Byes > 0) && !withdrawn
	}
	var out []string
	for _, id := range ranking {
		if may[id] && len(out) < Podium {
			out = append(out, id)
		}
	}
	return out
}

// forget drops finished ev from memory: the store answers for it now.
// ev.mu must be held.
func (s *Service) forget(ev *event) {
	s.mu.Lock()
	delete(s.events, ev.t.ID)
	ev.dueAt = time.Time{}
	s.arm()
	s.mu.Unlock()
	s.lease.Release(s.ctx, ev.t.ID)
}

// The arena: a wave pairs the players waiting.

// wave has ev pair its waiting players, on a goroutine of its own, once
// at a time: a wave asked for while one runs runs again after it. ev.mu
// must be held.
func (s *Service) wave(ev *event) {
	if ev.waving {
		ev.again = true
		return
	}
	ev.waving = true
	s.goDo(func() { s.runWaves(ev) })
}

func (s *Service) runWaves(ev *event) {
	ctx := s.ctx
	for {
		began := time.Now()
		ev.mu.Lock()
		if !s.hold(ctx, ev) {
			ev.waving, ev.again = false, false
			ev.mu.Unlock()
			return
		}
		pairs := s.arenaPairs(ev)
		ev.mu.Unlock()
		groups := make([][]string, len(pairs))
		for i, pr := range pairs {
			groups[i] = pr[:]
		}
		s.seat(ctx, ev, groups, 0)
		if s.waved != nil {
			s.waved(len(pairs), time.Since(began))
		}
		ev.mu.Lock()
		if !ev.again {
			ev.waving = false
			s.noteDue(ev)
			ev.mu.Unlock()
			return
		}
		ev.again = false
		ev.mu.Unlock()
	}
}

// arenaPairs pairs ev's waiting players, marking each as playing until
// its table is made: those who have not left, are not at a game and are
// online, unless too little of the arena is left for a game to end in
// it. A player left waiting is looked at again within ArenaLook. ev.mu
// must be held.
func (s *Service) arenaPairs(ev *event) [][2]string {
	now := s.now()
	if ev.t.Status != store.TournamentStarted || now.Add(ExpectedLength(ev.clock, 2)).After(ev.t.Ends) {
		return nil
	}
	var waiting []pairing.Waiting
	s.mu.Lock()
	for _, e := range ev.t.Entrants {
		if until, ok := ev.busy[e.Identity]; ok && !now.Before(until) {
			delete(ev.busy, e.Identity)
		}
		if _, busy := s.playing[e.Identity]; e.Left || busy || ev.busy[e.Identity] != (time.Time{}) {
			continue
		}
		if s.cfg.Online != nil && !s.cfg.Online(e.Identity) {
			continue
		}
		waiting = append(waiting, pairing.Waiting{ID: e.Identity, Points: e.Points, Rating: e.Rating, Last: ev.last[e.Identity]})
	}
	s.mu.Unlock()
	// The blocks are read from the store, with the service's lock let
	// go: a player another event pairs meanwhile is left out below.
	ids := make([]string, len(waiting))
	for i, w := range waiting {
		ids[i] = w.ID
	}
	apart := s.apart(s.ctx, ids)
	for i := range waiting {
		waiting[i].Avoid = apart[waiting[i].ID]
	}
	pairs := pairing.Arena(waiting)
	s.mu.Lock()
	pairs = slices.DeleteFunc(pairs, func(p [2]string) bool {
		_, a := s.playing[p[0]]
		_, b := s.playing[p[1]]
		return a || b
	})
	for _, p := range pairs {
		s.playing[p[0]], s.playing[p[1]] = ev.t.ID, ev.t.ID
	}
	s.mu.Unlock()
	// Someone left waiting (an odd one out) or away is looked at again.
	if len(waiting) > 2*len(pairs) || len(waiting) < len(ev.active()) {
		ev.lookAt = now.Add(ArenaLook)
	}
	return pairs
}

// seatWorkers is how many of a wave's or a round's tables are made at
// once.
const seatWorkers = 16

// seat makes the tables of groups of players (each marked as playing)
// for ev's round, and then stores them all as games of the event at once
// and tells their players, so that whoever reads the event sees a wave
// or a round whole; a table that cannot be made lets its players go back
// to waiting. ev.mu must not be held.
func (s *Service) seat(ctx context.Context, ev *event, groups [][]string, round int) {
	// The tables are made seatWorkers at a time, so that their writes
	// share the store's commits: a first wave of a thousand pairs made
	// one after another waits for a thousand commits.
	ev.mu.Lock()
	busied := ev.busied
	ev.mu.Unlock()
	made := make([]store.TournamentGame, len(groups))
	ok := make([]bool, len(groups))
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(seatWorkers, len(groups)) {
		wg.Go(func() {
			for i := range work {
				made[i], ok[i] = s.makeTable(ctx, ev, groups[i], round)
			}
		})
	}
	for i := range groups {
		work <- i
	}
	close(work)
	wg.Wait()
	var games []store.TournamentGame
	for i, g := range made {
		if ok[i] {
			games = append(games, g)
		}
	}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if len(games) < len(groups) && ev.t.Kind == Arena {
		// Those whose table could not be made (a pair past its cap of
		// rated games together) wait for the next look; a wave runs
		// again at once for a free player whose opponent was found busy
		// elsewhere, without the busy one.
		ev.lookAt = s.now().Add(ArenaLook)
		if ev.busied > busied {
			ev.again = true
		}
	}
	s.keep(ctx, ev, games, round)
}

// keep stores games, made for ev's round, as the event's, and tells
// their players where they play. ev.mu must be held.
func (s *Service) keep(ctx context.Context, ev *event, games []store.TournamentGame, round int) {
	if len(games) == 0 {
		return
	}
	if err := s.write(ctx, ev, store.TournamentWrite{Games: games}); err != nil {
		// The tables go on; the event scores them when they end all
		// the same, since it knows them.
		s.log.Error("an event's games could not be stored", "event", ev.t.ID, "games", len(games), "err", err)
	}
	ev.t.Games = append(ev.t.Games, games...)
	s.mu.Lock()
	for _, g := range games {
		s.byTable[g.Table] = ev
	}
	s.mu.Unlock()
	for _, g := range games {
		s.awaitSetups(ev, g)
	}
	ev.bump()
	if s.cfg.Streams == nil {
		return
	}
	for _, g := range games {
		for seat, id := range g.Players {
			s.cfg.Streams.Tell(id, social.StreamEvent{Type: "tournamentGame", Tournament: &social.TournamentGame{
				Event: ev.t.ID, Name: ev.t.Name, Round: round, Table: g.Table, Seat: seat, Game: ev.t.Game}})
		}
	}
}

// makeTable makes the table of players for ev's round, reporting false
// (and letting them go back to waiting) when it cannot be made. ev.mu
// must not be held.
func (s *Service) makeTable(ctx context.Context, ev *event, players []string, round int) (store.TournamentGame, bool) {
	// A guest may have made an account since they joined: an account
	// sits at tables under its own name, as an account. Only guests are
	// looked up again, so a wave of accounts costs no reads.
	ev.mu.Lock()
	var guests []string
	for _, id := range players {
		if ev.entrant(id).Guest {
			guests = append(guests, id)
		}
	}
	ev.mu.Unlock()
	became := map[string]string{} // the guests now accounts, their names
	for _, id := range guests {
		if name, acct, err := s.tables.NameOf(ctx, &auth.Principal{Identity: id}); err == nil && acct {
			became[id] = name
		}
	}
	ev.mu.Lock()
	// The game's time to set up counts from here (awaitSetups), and its
	// table tells the players when it runs out.
	started := s.now()
	pr := table.Pairing{Game: ev.g, Rules: ev.rules, Rated: ev.t.Rated, Asker: players[0],
		Event: &game.Tournament{ID: ev.t.ID, Name: ev.t.Name, Round: round}}
	if ev.g.HasSetup() {
		pr.SetupBy = started.Add(SetupLimit(ev.clock))
	}
	for _, id := range players {
		e := ev.entrant(id)
		if name, ok := became[id]; ok {
			// Kept in memory, and stored with the game's score.
			e.Name, e.Guest = name, false
		}
		pr.Seats = append(pr.Seats, table.PairedSeat{Identity: id, Name: e.Name, Guest: e.Guest})
	}
	arena := ev.t.Kind == Arena
	ev.mu.Unlock()
	var seated table.Seated
	var err error
	if arena {
		var busy string
		if busy, err = s.busyElsewhere(ctx, ev.t.ID, players); busy != "" {
			// Left out of the waves until the next look; the other
			// player, free, is paired again at once (seat).
			ev.mu.Lock()
			ev.busy[busy] = s.now().Add(ArenaLook)
			ev.busied++
			ev.mu.Unlock()
		}
	}
	if err == nil {
		seated, err = s.tables.Pair(ctx, pr)
	}
	if errors.Is(err, errBusy) {
		s.log.Info("an arena pairing waits for a game elsewhere", "event", ev.id(), "players", players, "err", err)
	} else if err != nil {
		s.log.Warn("an event's table could not be made", "event", ev.id(), "players", players, "err", err)
	}
	if err != nil {
		s.mu.Lock()
		for _, id := range players {
			delete(s.playing, id)
		}
		s.mu.Unlock()
		return store.TournamentGame{}, false
	}
	// Pair seats the players in the order given or its reverse: the
	// asker's seat says which.
	order := slices.Clone(players)
	if seated.Seat != 0 {
		slices.Reverse(order)
	}
	return store.TournamentGame{Table: seated.Table, Round: round, Players: order, Started: started}, true
}

// errBusy is busyElsewhere's answer for a player at a game elsewhere.
var errBusy = errors.New("a player is at a real-time game elsewhere")

// busyElsewhere refuses an arena's pairing of players when one of them,
// busy, sits, on any node, at a real-time game outside event id (a seek's, a
// challenge's, a table of their own, another event's) that is under
// way: they would have two clocks running at once and lose on time at
// one. A correspondence game, whose moves take days, does not count, nor
// does a table still waiting for players. The two go back to waiting,
// and the arena looks at them again within ArenaLook.
func (s *Service) busyElsewhere(ctx context.Context, id string, players []string) (busy string, err error) {
	if s.cfg.Seated == nil {
		return "", nil
	}
	for _, p := range players {
		ts, err := s.cfg.Seated(ctx, p)
		if err != nil {
			// A node that did not answer is left out; the others'
			// tables still count.
			s.log.Warn("a player's tables on every node", "identity", p, "err", err)
		}
		for _, t := range ts {
			live := t.Status == store.Playing || t.Status == store.Setup
			realTime := t.Clock != nil && t.Clock.Kind != game.ClockCorrespondence
			if live && realTime && (t.Event == nil || t.Event.ID != id) {
				return p, fmt.Errorf("%w: %s at table %s", errBusy, p, t.ID)
			}
		}
	}
	return "", nil
}

// Swiss: rounds.

// nextRound pairs and seats ev's next round, or finishes ev when its
// rounds are played or no pairing is left. ev.mu must be held; it lets
// go of it while tables are made.
func (s *Service) nextRound(ctx context.Context, ev *event) {
	if !s.hold(ctx, ev) {
		return
	}
	n := ev.t.Round + 1
	field := ev.field(false)
	if n > ev.t.Rounds || len(field) < ev.t.Seats {
		s.finish(ctx, ev)
		return
	}
	// Players kept apart (a block) are not seated together, where the
	// field leaves another pairing; where it leaves none, they are, as
	// the event would otherwise end here.
	ids := make([]string, len(field))
	for i, e := range field {
		ids[i] = e.ID
	}
	apart := s.apart(ctx, ids)
	kept := slices.Clone(field)
	for i := range kept {
		kept[i].Avoid = apart[kept[i].ID]
	}
	var r pairing.Round
	var err error
	if ev.t.Seats > 2 {
		r, err = pairing.Groups(kept, ev.t.Seats)
	} else {
		r, err = pairing.Swiss(kept)
		if errors.Is(err, pairing.ErrNoPairing) && len(apart) > 0 {
			s.log.Info("a Swiss round seats players kept apart: no other pairing is left", "event", ev.t.ID, "round", n)
			r, err = pairing.Swiss(field)
		}
	}
	if err != nil {
		s.log.Info("a Swiss ends early: no pairing is left", "event", ev.t.ID, "round", n, "err", err)
		s.finish(ctx, ev)
		return
	}
	b, err := json.Marshal(r)
	if err != nil {
		s.log.Error("a round's pairing", "event", ev.t.ID, "err", err)
		return
	}
	next := ev.t
	next.Round = n
	var byes []store.Entrant
	for _, id := range r.Byes {
		e := *ev.entrant(id)
		e.Points += byePoints(ev.t.Seats)
		e.Byes++
		byes = append(byes, e)
	}
	err = s.write(ctx, ev, store.TournamentWrite{Event: &next, Entrants: byes, Round: &store.TournamentRound{Number: n, Pairing: b, Started: s.now()}})
	if errors.Is(err, store.ErrConflict) {
		s.log.Error("a round was paired twice", "event", ev.t.ID, "round", n)
		return
	}
	if err != nil {
		return
	}
	ev.t.Round = n
	ev.t.Pairings = append(ev.t.Pairings, store.TournamentRound{Number: n, Pairing: b, Started: s.now()})
	for _, e := range byes {
		*ev.entrant(e.Identity) = e
	}
	ev.bump()
	s.log.Info("round paired", "event", ev.t.ID, "round", n, "tables", len(r.Tables), "byes", len(r.Byes))
	s.seatRound(ctx, ev, false)
}

// seatRound makes the tables of ev's current round that are not made yet
// (all of them, or those a restart interrupted), as its stored pairing
// says; resumed (after a restart) it first looks for the tables made
// before it that were not stored as the event's, and returns those it
// found, stored as its games now. ev.mu must be held; it lets go of it
// while tables are made.
func (s *Service) seatRound(ctx context.Context, ev *event, resumed bool) (found []store.TournamentGame) {
	if ev.rounding || len(ev.t.Pairings) == 0 {
		return nil
	}
	last := ev.t.Pairings[len(ev.t.Pairings)-1]
	var r pairing.Round
	if err := json.Unmarshal(last.Pairing, &r); err != nil {
		s.log.Error("a round's stored pairing", "event", ev.t.ID, "err", err)
		return nil
	}
	var todo [][]string
	for _, tb := range r.Tables {
		made := slices.ContainsFunc(ev.t.Games, func(g store.TournamentGame) bool {
			return g.Round == last.Number && samePlayers(g.Players, tb)
		})
		if made {
			continue
		}
		if resumed {
			if g, ok := s.madeBefore(ctx, ev, tb, last.Number); ok {
				found = append(found, g)
				continue
			}
		}
		todo = append(todo, tb)
	}
	if len(found) > 0 {
		// Made before a restart that came before they were stored: the
		// round goes on at them, rather than seat their players twice.
		s.mu.Lock()
		for _, g := range found {
			for _, id := range g.Players {
				s.playing[id] = ev.t.ID
			}
		}
		s.mu.Unlock()
		s.keep(ctx, ev, found, last.Number)
	}
	if len(todo) == 0 {
		s.roundOver(ctx, ev)
		return found
	}
	ev.rounding = true
	s.mu.Lock()
	for _, tb := range todo {
		for _, id := range tb {
			s.playing[id] = ev.t.ID
		}
	}
	s.mu.Unlock()
	ev.mu.Unlock()
	s.seat(ctx, ev, todo, last.Number)
	ev.mu.Lock()
	ev.rounding = false
	// A table that could not be made is scored as a draw, so that the
	// round still ends.
	for _, tb := range todo {
		made := slices.ContainsFunc(ev.t.Games, func(g store.TournamentGame) bool {
			return g.Round == last.Number && samePlayers(g.Players, tb)
		})
		if !made {
			s.unplayed(ctx, ev, tb, last.Number, slices.IndexFunc(r.Tables, func(x []string) bool { return samePlayers(x, tb) }))
		}
	}
	s.roundOver(ctx, ev)
	return found
}

// madeBefore finds the table of ev's round where its pairing seats
// players, made but not stored as one of ev's games (the server stopped
// in between), under way or ended since, and returns it as the game it
// is. ev.mu must be held.
func (s *Service) madeBefore(ctx context.Context, ev *event, players []string, round int) (store.TournamentGame, bool) {
	known := ev.tables()
	var at table.SeatedTable
	for _, st := range s.unknownTables(ctx, ev, known, players[0]) {
		if st.Event.Round == round {
			at = st
			break
		}
	}
	if at.ID == "" || len(at.Seats) != len(players) {
		return store.TournamentGame{}, false
	}
	order := make([]string, len(players))
	for _, id := range players {
		tables := s.unknownTables(ctx, ev, known, id)
		i := slices.IndexFunc(tables, func(st table.SeatedTable) bool { return st.ID == at.ID })
		if i < 0 {
			return store.TournamentGame{}, false
		}
		seat := tables[i].Seat
		if seat < 0 || seat >= len(order) || order[seat] != "" {
			return store.TournamentGame{}, false
		}
		order[seat] = id
	}
	return store.TournamentGame{Table: at.ID, Round: round, Players: order, Started: at.Created.UTC().Truncate(time.Microsecond)}, true
}

// waveMadeBefore finds the tables of arena ev that its entrants sat at
// and that are not among its games: a wave's, made before a restart that
// came before they were stored as the event's, under way or ended since.
// It returns them as the games they are, each player in their seat.
// ev.mu must be held.
func (s *Service) waveMadeBefore(ctx context.Context, ev *event) []store.TournamentGame {
	known := ev.tables()
	type found struct {
		order   []string
		started time.Time
	}
	tables := map[string]*found{}
	var ids []string
	for _, e := range ev.t.Entrants {
		for _, st := range s.unknownTables(ctx, ev, known, e.Identity) {
			f := tables[st.ID]
			if f == nil {
				f = &found{order: make([]string, len(st.Seats)), started: st.Created.UTC().Truncate(time.Microsecond)}
				tables[st.ID] = f
				ids = append(ids, st.ID)
			}
			if st.Seat >= 0 && st.Seat < len(f.order) {
				f.order[st.Seat] = e.Identity
			}
		}
	}
	var out []store.TournamentGame
	for _, id := range ids {
		f := tables[id]
		if slices.Contains(f.order, "") {
			continue // a seat that is not an entrant's: not the event's pairing
		}
		out = append(out, store.TournamentGame{Table: id, Players: f.order, Started: f.started})
	}
	return out
}

// endedLook is how many of a player's last games of an event's game
// unknownTables reads from their history: a player sits at one of the
// event's tables at a time, and the server was down in between.
const endedLook = 4

// unknownTables returns the tables of ev, none of them known (by id),
// where identity holds a seat: those under way, on any node (in a
// cluster the node that made them may have died, and another taken them
// up), and those whose game ended while ev was not in memory to hear of
// it, read from identity's history (a move or a clock's timeout as the
// tables were back, before the event was taken up). ev.mu must be held.
func (s *Service) unknownTables(ctx context.Context, ev *event, known map[string]bool, identity string) []table.SeatedTable {
	var out []table.SeatedTable
	seated := s.tables.SeatedAt(identity)
	if s.cfg.Seated != nil {
		var err error
		if seated, err = s.cfg.Seated(ctx, identity); err != nil {
			// A node that did not answer is left out; what the
			// others hold is there all the same.
			s.log.Warn("an event's player's tables on every node", "event", ev.t.ID, "player", identity, "err", err)
		}
	}
	for _, st := range seated {
		if st.Event != nil && st.Event.ID == ev.t.ID && st.Status != store.Cancelled && !known[st.ID] {
			out = append(out, st)
		}
	}
	ended, err := s.pl.History(ctx, store.HistoryPage{Identity: identity, Game: ev.t.Game, Limit: endedLook})
	if err != nil {
		s.log.Warn("an event's player's last games cannot be read", "event", ev.t.ID, "player", identity, "err", err)
		return out
	}
	for _, pg := range ended {
		if pg.Ended.Before(ev.t.Starts) {
			break // newest first: the rest ended before the event began
		}
		if known[pg.Table] || slices.ContainsFunc(out, func(st table.SeatedTable) bool { return st.ID == pg.Table }) {
			continue
		}
		u, err := s.tables.View(ctx, nil, pg.Table)
		if err != nil {
			s.log.Warn("an event's player's last game cannot be read", "event", ev.t.ID, "table", pg.Table, "err", err)
			continue
		}
		if e := u.Table.Event; e != nil && e.ID == ev.t.ID {
			out = append(out, table.SeatedTable{Info: u.Table, Seat: pg.Seat})
		}
	}
	return out
}

// unplayed stores table i of round's pairing, which could not be made,
// as shared points. Its name in the event's games says which table of
// the round it was, and names none of its players: the API shows it to
// anybody, and keeps the players' identities to itself. ev.mu must be
// held.
func (s *Service) unplayed(ctx context.Context, ev *event, players []string, round, i int) {
	now := s.now()
	scores := make([]int, len(players))
	g := store.TournamentGame{Table: fmt.Sprintf("unplayed-%d-%d", round, i+1), Round: round, Players: players,
		Points: pairing.TablePoints(scores), Started: now, Ended: now}
	var es []store.Entrant
	for i, id := range players {
		e := *ev.entrant(id)
		e.Points += g.Points[i]
		e.Games++
		es = append(es, e)
	}
	if err := s.write(ctx, ev, store.TournamentWrite{Entrants: es, Games: []store.TournamentGame{g}}); err != nil {
		return
	}
	for _, e := range es {
		*ev.entrant(e.Identity) = e
	}
	ev.t.Games = append(ev.t.Games, g)
}

// roundOver pairs ev's next round once every game of its current round
// has ended. ev.mu must be held.
func (s *Service) roundOver(ctx context.Context, ev *event) {
	if ev.t.Kind != Swiss || ev.t.Status != store.TournamentStarted || ev.rounding {
		return
	}
	for _, g := range ev.t.Games {
		if g.Points == nil {
			return
		}
	}
	s.nextRound(ctx, ev)
}

func samePlayers(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// Games' ends.

// Started implements table.Observer: an event's tables are known from
// the moment they are made.
func (s *Service) Started(table.GameNote) {}

// Finished implements table.Observer: a game of an event is scored, and
// its players paired again (an arena) or the next round begun (a Swiss,
// when it was the round's last game), on a goroutine of the service's;
// the node that runs the event is told when it is another.
func (s *Service) Finished(n table.GameNote, _ *store.GameEnd) {
	s.mu.Lock()
	ev := s.byTable[n.Table]
	s.mu.Unlock()
	if ev == nil {
		if n.Event != "" && s.cfg.Peers != nil {
			// Another node runs the event (the table moved here).
			s.tellGameOver(n.Event, n.Table)
		}
		return
	}
	s.goDo(func() { s.gameOver(s.ctx, ev, n.Table) })
}

// Deserted implements table.DesertObserver: a player who left an event's
// table before play began did not show up, and forfeits the game, as one
// whose clock ran out before their first move does.
func (s *Service) Deserted(n table.GameNote, seat int) {
	s.mu.Lock()
	ev := s.byTable[n.Table]
	s.mu.Unlock()
	if ev == nil {
		if n.Event != "" && s.cfg.Peers != nil {
			// Another node runs the event: it reads who did not show
			// up from the closed table (outcome).
			s.tellGameOver(n.Event, n.Table)
		}
		return
	}
	s.goDo(func() {
		ev.mu.Lock()
		defer ev.mu.Unlock()
		forfeiters := []int{seat}
		if seats, ok := ev.absent[n.Table]; ok {
			// The event closed the table: every seat whose setup never
			// came forfeits, not only the one it closed it for.
			forfeiters = seats
			delete(ev.absent, n.Table)
		}
		s.score(s.ctx, ev, n.Table, game.Result{Status: game.Finished}, forfeiters...)
	})
}

// awaitSetups has the event look at game g's table once its players'
// time to set up has run out (SetupLimit), when its game has secret
// setups. ev.mu must be held.
func (s *Service) awaitSetups(ev *event, g store.TournamentGame) {
	if !ev.g.HasSetup() {
		return
	}
	// The time to set up stood still while the server was down, as
	// the table shows it.
	due := s.tables.Resumed(g.Started, g.Started.Add(SetupLimit(ev.clock))).Sub(s.now())
	s.cfg.Clock.AfterFunc(max(due, 0), func() { s.goDo(func() { s.setupsDue(ev, g.Table) }) })
}

// setupsDue closes the table id of ev's game when its players' time to
// set up ran out before every setup came, as if the first player without
// one had left it: every player without a setup did not show up, and
// forfeits the game (Deserted).
func (s *Service) setupsDue(ev *event, id string) {
	ctx := s.ctx
	u, err := s.tables.View(ctx, nil, id)
	if err != nil || u.Table.Status != store.Setup {
		return // begun, over, closed, or not this node's
	}
	ev.mu.Lock()
	if !s.hold(ctx, ev) {
		ev.mu.Unlock()
		return // another node runs the event now, and looks in its place
	}
	i := slices.IndexFunc(ev.t.Games, func(g store.TournamentGame) bool { return g.Table == id })
	if i < 0 || ev.t.Games[i].Points != nil || len(u.Table.Seats) != len(ev.t.Games[i].Players) {
		ev.mu.Unlock()
		return
	}
	players := ev.t.Games[i].Players
	var absent []int
	for seat, si := range u.Table.Seats {
		if !si.Ready {
			absent = append(absent, seat)
		}
	}
	if len(absent) == 0 {
		ev.mu.Unlock()
		return
	}
	ev.absent[id] = absent
	names := make([]string, len(absent))
	for i, seat := range absent {
		names[i] = u.Table.Seats[seat].Name
	}
	ev.mu.Unlock()
	why := fmt.Sprintf("%s did not set up in time", strings.Join(names, " and "))
	if _, err := s.tables.LeaveFor(ctx, players[absent[0]], id, why, absent...); err != nil {
		ev.mu.Lock()
		delete(ev.absent, id)
		ev.mu.Unlock()
		if refuse.Status(err) != http.StatusConflict {
			s.log.Warn("an event's table whose setups did not all come could not be closed", "event", ev.id(), "table", id, "err", err)
		}
		return
	}
	s.log.Info("an event's game closed: setups missing", "event", ev.id(), "table", id, "seats", absent)
}

// gameOver scores the ended game at table id of ev.
func (s *Service) gameOver(ctx context.Context, ev *event, id string) {
	res, forfeiters, err := s.outcome(ctx, id)
	if err != nil {
		s.log.Error("an event's game cannot be scored", "event", ev.id(), "table", id, "err", err)
		return
	}
	if !res.Status.Over() {
		return
	}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	s.score(ctx, ev, id, res, forfeiters...)
}

// outcome reads the result of the game at table id, and the seats that
// forfeited it by not showing up (the clock ran out, or a walk-away was
// claimed, before every player had moved; or the table closed before
// play began, as its record keeps them: table.Service.Deserters).
func (s *Service) outcome(ctx context.Context, id string) (game.Result, []int, error) {
	rec, err := s.tables.Record(ctx, nil, id)
	if refuse.Status(err) == http.StatusGone {
		// Its table closed before play began (Deserted). A table closed
		// before it kept who did not show up is scored for nobody, and
		// its players are free again.
		deserters, err := s.tables.Deserters(ctx, id)
		if err != nil {
			return game.Result{}, nil, err
		}
		return game.Result{Status: game.Finished}, deserters, nil
	}
	if err != nil {
		return game.Result{}, nil, err
	}
	lex, err := s.tables.Lexicon(rec.Lexicon)
	if err != nil {
		return game.Result{}, nil, err
	}
	_, st, _, err := game.Replay(s.cfg.Games, rec, lex)
	if err != nil {
		return game.Result{}, nil, fmt.Errorf("replaying table %s: %w", id, err)
	}
	forfeiter := -1
	if rec.Aborted != nil {
		forfeiter = slices.Index(rec.Players, rec.Aborted.By)
		// A player who resigned or asked to abort before every player
		// had moved loses the game, but showed up: only the clock's
		// abort (or a walk-away claim) is a no-show, which withdraws.
		u, err := s.tables.View(ctx, nil, id)
		if err != nil {
			return game.Result{}, nil, err
		}
		if a := u.Table.Aborted; a != nil && a.Why != table.AbortTimeout && a.Why != table.AbortClaim {
			return abandoned(st.Result(), len(rec.Players), forfeiter), nil, nil
		}
	}
	return st.Result(), []int{forfeiter}, nil
}

// abandoned is the result of a game seat gave up before every player had
// moved: the others win it.
func abandoned(res game.Result, seats, seat int) game.Result {
	res.Status, res.Winners, res.Scores = game.Finished, nil, nil
	for i := range seats {
		if i != seat {
			res.Winners = append(res.Winners, game.Seat(i))
		}
	}
	return res
}

// score stores the end of ev's game at table id, with result res and
// the seats that forfeited it (-1, or none: none), and carries the event
// on. ev.mu must be held.
func (s *Service) score(ctx context.Context, ev *event, id string, res game.Result, forfeiters ...int) {
	i := slices.IndexFunc(ev.t.Games, func(g store.TournamentGame) bool { return g.Table == id })
	if i < 0 || ev.t.Games[i].Points != nil {
		return // scored already
	}
	g := ev.t.Games[i]
	g.Points = gamePoints(len(g.Players), res, forfeiters...)
	g.Ended = s.now()
	var es []store.Entrant
	for seat, pid := range g.Players {
		e := *ev.entrant(pid)
		e.Games++
		pts := g.Points[seat]
		if ev.t.Kind == Arena && len(g.Players) == 2 {
			st := pairing.Streak{Wins: e.Streak}
			pts, _ = st.Score(pairing.Outcome(pts))
			e.Streak = st.Wins
		}
		e.Points += pts
		if slices.Contains(forfeiters, seat) {
			e.Forfeits++
			// An arena player who did not show is paired no more until
			// they join again; a Swiss player after two such games.
			if ev.t.Kind == Arena || e.Forfeits >= ForfeitsToWithdraw {
				e.Left = true
			}
		}
		es = append(es, e)
	}
	if err := s.write(ctx, ev, store.TournamentWrite{Entrants: es, Games: []store.TournamentGame{g}}); err != nil {
		return
	}
	ev.t.Games[i] = g
	for _, e := range es {
		*ev.entrant(e.Identity) = e
	}
	if len(g.Players) == 2 {
		ev.last[g.Players[0]], ev.last[g.Players[1]] = g.Players[1], g.Players[0]
	}
	s.mu.Lock()
	delete(s.byTable, id)
	for _, pid := range g.Players {
		if s.playing[pid] == ev.t.ID {
			delete(s.playing, pid)
		}
	}
	s.mu.Unlock()
	ev.bump()
	switch {
	case ev.t.Kind == Swiss:
		s.roundOver(ctx, ev)
	case !s.now().Before(ev.t.Ends):
		if len(ev.underway()) == 0 {
			s.finish(ctx, ev)
		}
	default:
		if at := s.now().Add(ArenaPause); ev.lookAt.IsZero() || at.Before(ev.lookAt) {
			ev.lookAt = at
		}
	}
	if ev.t.Status != store.TournamentFinished {
		s.noteDue(ev)
	}
}

// gamePoints returns each seat's points from a game of seats players
// that ended with res, forfeiters (-1, or none: none) having forfeited
// it: 2 a win, 1 a draw, 0 a loss at a table of two; by place at a table
// of more (pairing.TablePoints): its winners first, then the game's own
// scores where it keeps them (a Word Fight won by the others' resigning
// leaves every score 0: its winner still places first, not level with
// those who resigned). A forfeit loses to everyone else at the table and
// scores nothing; a table everybody forfeited scores nothing.
func gamePoints(seats int, res game.Result, forfeiters ...int) []int {
	forfeiters = slices.DeleteFunc(slices.Clone(forfeiters), func(f int) bool { return f < 0 || f >= seats })
	order := make([]int, seats)
	switch {
	case len(forfeiters) == seats:
		return order
	case len(forfeiters) > 0:
		for i := range order {
			if !slices.Contains(forfeiters, i) {
				order[i] = 1
			}
		}
	case seats > 2 && len(res.Scores) == seats:
		lo, hi := slices.Min(res.Scores), slices.Max(res.Scores)
		for i, sc := range res.Scores {
			order[i] = sc - lo
		}
		for _, w := range res.Winners {
			if int(w) < seats {
				order[w] += hi - lo + 1 // above every score
			}
		}
	default:
		for _, w := range res.Winners {
			if int(w) < seats {
				order[w] = 1
			}
		}
	}
	points := pairing.TablePoints(order)
	for _, f := range forfeiters {
		points[f] = 0 // several share the last places, and score none
	}
	return points
}

// resume carries ev on after a restart: its games that ended while the
// server was down are scored, a Swiss round whose tables were not all
// made is made as stored, and an arena looks at its waiting players.
func (s *Service) resume(ev *event) {
	ctx := s.ctx
	ev.mu.Lock()
	defer ev.mu.Unlock()
	s.resumeEnd(ctx, ev)
	s.scoreEnded(ctx, ev, ev.underway(), true)
	if ev.t.Status == store.TournamentStarted {
		var found []store.TournamentGame
		if ev.t.Kind == Swiss {
			found = s.seatRound(ctx, ev, true)
		} else {
			if found = s.waveMadeBefore(ctx, ev); len(found) > 0 {
				// A wave's tables made before the restart but not
				// stored as the event's: its players play on at them,
				// rather than be paired a second time.
				s.mu.Lock()
				for _, g := range found {
					for _, id := range g.Players {
						s.playing[id] = ev.t.ID
					}
				}
				s.mu.Unlock()
				s.keep(ctx, ev, found, 0)
			}
			ev.lookAt = s.now()
		}
		// Those whose game ended before the event was back to hear of
		// it are scored now; keep has those waiting for setups looked
		// at when their time runs out.
		s.scoreEnded(ctx, ev, found, false)
	}
	if ev.t.Status != store.TournamentFinished {
		s.noteDue(ev)
	}
}

// resumeEnd moves a started arena's end on by the time, since it
// started, that no server ran: nobody could be paired then, and the
// arena gives its players the minutes it promised, as the games' clocks
// stand still. The end is worked out from the start each time (never
// from the end stored, moved already), so a second restart moves it by
// its own time down alone. ev.mu must be held.
func (s *Service) resumeEnd(ctx context.Context, ev *event) {
	if ev.t.Status != store.TournamentStarted || ev.t.Kind != Arena {
		return
	}
	planned := ev.t.Starts.Add(time.Duration(ev.t.Minutes) * time.Minute)
	ends := s.tables.Resumed(ev.t.Starts, planned)
	// The store keeps times to the millisecond: less is no move.
	if ends.Sub(ev.t.Ends) < time.Millisecond {
		return
	}
	next := ev.t
	next.Ends = ends
	if err := s.write(ctx, ev, store.TournamentWrite{Event: &next}); err != nil {
		s.log.Warn("an arena's end cannot move on by the time the server was down", "event", ev.t.ID, "err", err)
		return
	}
	s.log.Info("an arena's end moved on by the time the server was down", "event", ev.t.ID, "down", ends.Sub(planned), "ends", ends)
	ev.t.Ends = ends
	ev.bump()
}

// scoreEnded scores those of ev's games that ended while the event was
// not in memory to hear of it, from their records; await, it has those
// still waiting for setups looked at when their time to set up runs out.
// ev.mu must be held.
func (s *Service) scoreEnded(ctx context.Context, ev *event, games []store.TournamentGame, await bool) {
	for _, g := range games {
		if ev.g.HasSetup() {
			// A table still waiting for setups has no game to read yet:
			// the time to set up runs on.
			if u, err := s.tables.View(ctx, nil, g.Table); err == nil && u.Table.Status == store.Setup {
				if await {
					s.awaitSetups(ev, g)
				}
				continue
			}
		}
		// A table that closed before play began, the server stopping
		// before it was scored (Deserted), is scored from its record:
		// its players who did not show up forfeit it.
		res, forfeiters, err := s.outcome(ctx, g.Table)
		if err != nil {
			s.log.Warn("a game of an event cannot be read", "event", ev.t.ID, "table", g.Table, "err", err)
			continue
		}
		if res.Status.Over() {
			s.score(ctx, ev, g.Table, res, forfeiters...)
		}
	}
}
