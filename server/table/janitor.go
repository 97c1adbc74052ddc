package table

// The janitor: finished tables leave memory once nobody has used them
// for Config.IdleEvict, games in play that may be parked leave it after
// Config.ParkAfter (park.go), tables that stay shed what they can make
// again after ShedAfter (shed.go), and tables whose game has not begun
// are cancelled after Config.OpenExpiry without a change. Each is done by
// a single timer armed only while there is something to do, set to the
// next table due: a server holding a thousand live tables that have shed
// and no finished one wakes for none of them. Rounds of every table at a
// fixed pace cost a busy walk of the tables a few times a second while
// nothing happened.

import (
	"sync"
	"time"

	"parlour/store"
)

// janitor is the state of the service's two timers. Its mu is taken
// after a table's and after the service's, never before them.
type janitor struct {
	mu     sync.Mutex
	closed bool
	// idle holds the finished tables nobody watches and the games in
	// play that may be parked, each with the time it may leave memory if
	// it is not used before (its table's evictQueued is set meanwhile):
	// one entry a table, so that a table that left memory is not held
	// by an entry it no longer needs. first is the earliest of those
	// times (zero when idle is empty), kept as tables are queued so that
	// queueing one more does not walk the queue. evictAt is when
	// evictTimer is set to fire (zero: it is not).
	idle  map[*table]time.Time
	first time.Time
	// most is the most entries idle has held since it was made: a Go map
	// keeps the room it grew to, so once it holds a quarter of that the
	// janitor copies it to one of its size (a burst of ten thousand
	// tables left some 80 bytes a table behind).
	most       int
	evictAt    time.Time
	evictTimer *time.Timer
	// expireAt is when expireTimer (on the service's clock) is set to
	// fire (zero: it is not).
	expireAt    time.Time
	expireTimer Timer
}

// minShrink is the fewest entries the janitor's queue must have held
// before it is copied to a smaller map: a small map costs little to keep.
const minShrink = 1024

// shrink gives back the room the queue grew into once it holds a quarter
// of the most it held, or nothing. j.mu must be held.
func (j *janitor) shrink() {
	switch n := len(j.idle); {
	case n == 0:
		j.idle, j.most = nil, 0
	case j.most >= minShrink && n <= j.most/4:
		m := make(map[*table]time.Time, n)
		for t, at := range j.idle {
			m[t] = at
		}
		j.idle, j.most = m, n
	}
}

// idleTable is a table in the janitor's queue and when the janitor
// looks at it.
type idleTable struct {
	t  *table
	at time.Time
}

// evictRetry is how soon the janitor looks again at a finished table it
// found in use (its lock held by a request), and how long it lets the
// tables due after the first gather (armEvict).
func (s *Service) evictRetry() time.Duration { return max(100*time.Millisecond, s.cfg.IdleEvict/2) }

// noteIdle queues t to leave memory once it has gone unused for
// Config.IdleEvict, when it is finished and nobody watches it or plays a
// computer's seat at it, or for Config.ParkAfter, when it is a game in
// play that may be parked. t.mu must be held. It is called wherever one
// of those may have become true: at a game's end or a move, when a
// watcher leaves, a computer's move ends, or a table is read back into
// memory.
func (s *Service) noteIdle(t *table) {
	at, ok := s.leavesAt(t)
	if !ok || t.evictQueued && !at.Before(t.queuedAt) {
		return
	}
	// A game queued to be parked that has just ended is queued again,
	// for the sooner time of a finished table.
	t.evictQueued, t.queuedAt = true, at
	s.queueEvict(idleTable{t, at})
}

// leavesAt returns when the janitor should next look at t if nobody uses
// it before: when t may leave memory, or sooner when it may shed what it
// keeps only to answer sooner; and whether there is anything to look at.
// t.mu must be held.
func (s *Service) leavesAt(t *table) (time.Time, bool) {
	var at time.Time
	switch {
	case t.status == store.Finished && t.watchers == 0 && !t.botWorking():
		at = t.lastUse.Add(s.cfg.IdleEvict)
	case s.mayPark(t):
		at = t.usedAt().Add(s.cfg.ParkAfter)
	}
	if t.sheddable() {
		if shed := t.usedAt().Add(ShedAfter); at.IsZero() || shed.Before(at) {
			at = shed
		}
	}
	return at, !at.IsZero()
}

// queueEvict adds tables to the janitor's queue, each at the sooner of
// its time and the one it is queued for already, and sets the timer to
// the earliest.
func (s *Service) queueEvict(ts ...idleTable) {
	j := &s.jan
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return
	}
	if j.idle == nil {
		j.idle = map[*table]time.Time{}
	}
	for _, e := range ts {
		if at, ok := j.idle[e.t]; !ok || e.at.Before(at) {
			j.idle[e.t] = e.at
		}
		j.most = max(j.most, len(j.idle))
		if j.first.IsZero() || e.at.Before(j.first) {
			j.first = e.at
		}
	}
	s.armEvict()
}

// armEvict sets the eviction timer a little after the earliest time in
// the queue, or stops it when the queue is empty. The tables due in that
// little while leave together, so that under load, with games ending
// every few milliseconds, the janitor takes the service's lock a few
// times a second rather than once a table: a table leaves memory
// between IdleEvict and IdleEvict plus evictRetry after its last use.
// s.jan.mu must be held.
func (s *Service) armEvict() {
	j := &s.jan
	next := j.first
	if !next.IsZero() {
		next = next.Add(s.evictRetry())
	}
	switch {
	case j.closed || next.IsZero():
		if j.evictTimer != nil {
			j.evictTimer.Stop()
		}
		j.evictAt = time.Time{}
	case next.Equal(j.evictAt):
	case j.evictTimer == nil:
		j.evictAt = next
		j.evictTimer = time.AfterFunc(time.Until(next), func() { s.evict(time.Now()) })
	default:
		j.evictAt = next
		j.evictTimer.Reset(time.Until(next))
	}
}

// evict drops the queued finished tables idle at now, parks the queued
// games in play unused since ParkAfter, makes those that stay and have
// gone unused since ShedAfter shed, and queues again those used since
// they were queued. A table with nothing left to do (watched, or played
// by a computer, and shed) leaves the queue: noteIdle queues it again
// when that changes.
func (s *Service) evict(now time.Time) {
	j := &s.jan
	j.mu.Lock()
	var due []idleTable
	j.first = time.Time{}
	for t, at := range j.idle {
		if at.After(now) {
			if j.first.IsZero() || at.Before(j.first) {
				j.first = at
			}
			continue
		}
		due = append(due, idleTable{t, at})
		delete(j.idle, t)
	}
	j.shrink()
	j.evictAt = time.Time{} // the timer fired, or is to be set again below
	if len(due) == 0 {
		s.armEvict()
		j.mu.Unlock()
		return
	}
	j.mu.Unlock()
	var again []idleTable
	left, shed := 0, 0
	s.mu.Lock()
	for _, e := range due {
		t := e.t
		// A table whose lock is held is in use: waiting for it, held
		// by a write on its way to the disk, would hold up every lookup
		// behind the service's lock.
		if !t.mu.TryLock() {
			again = append(again, idleTable{t, now.Add(s.evictRetry())})
			continue
		}
		switch {
		case s.tables[t.id] != t: // it left memory otherwise
			t.evictQueued = false
		case t.idle(now, s.cfg.IdleEvict):
			delete(s.tables, t.id)
			t.evictQueued = false
			left++
		case s.mayPark(t) && now.Sub(t.usedAt()) > s.cfg.ParkAfter:
			s.park(t)
			t.evictQueued = false
			left++
		default:
			if now.Sub(t.usedAt()) >= ShedAfter && t.sheddable() {
				t.shed()
				shed++
			}
			if at, ok := s.leavesAt(t); ok {
				t.queuedAt = at
				again = append(again, idleTable{t, at}) // used since
			} else {
				t.evictQueued = false
			}
		}
		t.unlock()
	}
	s.mu.Unlock()
	s.queueEvict(again...)
	if left > 0 || shed > 0 {
		s.log.Debug("tables left memory or shed", "left", left, "shed", shed, "parked", s.Parked())
		if s.cfg.LeftMemory != nil {
			s.cfg.LeftMemory(uint64(left)*tableBytes + uint64(shed)*shedBytes)
		}
	}
}

// idle reports whether t is finished and nobody has used it for d, so
// that it may leave memory. t.mu must be held.
func (t *table) idle(now time.Time, d time.Duration) bool {
	return t.status == store.Finished && t.watchers == 0 && !t.botWorking() && now.Sub(t.lastUse) > d
}

// noteOpen sets the expiry timer for t, when t's game has not begun and
// it would expire before the time the timer is set to. t.mu must be
// held. A table's expiry only moves later (each change puts it off), so
// it is called only where a table comes into memory: made, or read back.
func (s *Service) noteOpen(t *table) {
	if s.cfg.OpenExpiry < 0 || t.m.Started || t.m.Cancelled != "" {
		return
	}
	s.armExpiry(t.changedAt.Add(s.cfg.OpenExpiry))
}

// armExpiry sets the expiry timer to at, unless it is set to fire
// sooner.
func (s *Service) armExpiry(at time.Time) {
	j := &s.jan
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed || !j.expireAt.IsZero() && !at.Before(j.expireAt) {
		return
	}
	if j.expireTimer != nil {
		j.expireTimer.Stop()
	}
	j.expireAt = at
	j.expireTimer = s.cfg.Clock.AfterFunc(at.Sub(s.now()), s.expireDue)
}

// expireDue cancels the tables that waited too long, then sets the
// timer to the next table's expiry.
func (s *Service) expireDue() {
	j := &s.jan
	j.mu.Lock()
	j.expireAt, j.expireTimer = time.Time{}, nil
	j.mu.Unlock()
	if s.ctx.Err() != nil {
		return
	}
	s.expireOpen(s.ctx)
	if next := s.nextExpiry(); !next.IsZero() {
		s.armExpiry(next)
	}
}

// nextExpiry returns when the first table in memory whose game has not
// begun expires (zero: none waits). A table in use counts as due a
// moment from now, to be looked at again.
func (s *Service) nextExpiry() time.Time {
	now := s.now()
	soon := now.Add(min(max(100*time.Millisecond, s.cfg.OpenExpiry/4), time.Minute))
	var next time.Time
	earlier := func(at time.Time) {
		if next.IsZero() || at.Before(next) {
			next = at
		}
	}
	s.mu.RLock()
	for _, t := range s.tables {
		if !t.mu.TryLock() {
			earlier(soon)
			continue
		}
		if !t.m.Started && t.m.Cancelled == "" && !t.gone {
			// One found stale and passed over (in use as expireOpen
			// looked) is looked at again in a moment, not at once.
			earlier(maxTime(t.changedAt.Add(s.cfg.OpenExpiry), soon))
		}
		t.unlock()
	}
	s.mu.RUnlock()
	return next
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// stopJanitor stops both timers for good.
func (s *Service) stopJanitor() {
	j := &s.jan
	j.mu.Lock()
	defer j.mu.Unlock()
	j.closed = true
	j.idle, j.first, j.most = nil, time.Time{}, 0
	if j.evictTimer != nil {
		j.evictTimer.Stop()
	}
	if j.expireTimer != nil {
		j.expireTimer.Stop()
	}
}
