package table

import (
	"context"
	"errors"
	"slices"
	"time"

	"parlour/analysis"
	"parlour/game"
	"parlour/lexicon"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// The copies of tables in memory: a node runs the tables its Placement
// gives it, and drops its copy of one that passed to another node.

// ErrMoved says that the table was handed to another node while the
// request waited for it here: nothing was done.
var ErrMoved = refuse.Unavailable("the table moved to another server just now; nothing was done: try again")

// MovedHeader marks the answer to a request another node forwarded that
// met ErrMoved, so that the node that took the request finds the table's
// new owner. It never leaves the cluster.
const MovedHeader = "Parlour-Table-Moved"

// Drop forgets table id: another node runs it now.
func (s *Service) Drop(id string) {
	s.mu.Lock()
	t, ok := s.tables[id]
	delete(s.tables, id)
	s.mu.Unlock()
	if ok {
		retire(t)
	}
}

// dropCopy forgets t if it is still the copy of its table in memory: it
// was made under a lease this node no longer holds, and another node
// may have changed the table since.
func (s *Service) dropCopy(t *table) {
	s.mu.Lock()
	ok := s.tables[t.id] == t
	if ok {
		delete(s.tables, t.id)
	}
	s.mu.Unlock()
	if ok {
		retire(t)
	}
}

// retire ends t, a copy taken out of memory: its clock stops, and its
// watchers here end, so that their clients connect again.
func retire(t *table) {
	t.mu.Lock()
	t.tc.stop()
	t.gone = true
	t.broadcast()
	t.unlock()
}

// fenced drops t from memory when err says the store refused its write
// because its lease's epoch has passed: the next request reads the table
// afresh, or finds its new owner. t.mu may be held.
func (s *Service) fenced(t *table, err error) {
	if errors.Is(err, store.ErrFenced) {
		s.place.Fenced(t.id)
		go s.dropCopy(t)
	}
}

// readOnly returns table id rebuilt from its record for a read on a node
// that does not own it (the lobby, a profile's games): it is not kept,
// runs no computer seat nor clock, and cannot be written (its writes
// carry no lease's epoch, which the store refuses).
func (s *Service) readOnly(ctx context.Context, id string) (*table, error) {
	row, err := s.st.Table(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse.NotFound("there is no table %q", id)
	}
	if err != nil {
		return nil, err
	}
	t, err := s.restore(row)
	if err != nil {
		return nil, err
	}
	// Another node runs it: a move that reaches it here (it was
	// forwarded to this node just as the table left) is refused as
	// moved, and found its way to the new owner.
	t.gone = true
	t.epoch = -1
	return t, nil
}

// mark is what the owner publishes of t at each change: its version plus
// the number of its last chat message, one more at every move, change
// and chat message. It only grows, on any owner, once t's chat is
// loaded. t.mu must be held.
func (t *table) mark() int { return t.version() + t.ch.Last() }

// StoreRetry is how long a loop that met the store away waits before it
// tries again.
const StoreRetry = storeRetry

// Load makes sure table id is in memory here, rebuilding it from its
// record if need be: the Placement has just given it to this node.
func (s *Service) Load(ctx context.Context, id string) error {
	_, err := s.table(ctx, id)
	return err
}

// InMemory returns how many tables are in memory here (every table under
// way on this node is).
func (s *Service) InMemory() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.tables)
}

// Loaded reports whether table id is in memory here.
func (s *Service) Loaded(id string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, ok := s.tables[id]
	return ok
}

// DropStale drops the copy of table id in memory if it was made under
// another epoch than epoch: it is behind whatever the owners between did,
// and the table is read again from its record.
func (s *Service) DropStale(id string, epoch int64) {
	s.mu.RLock()
	t, ok := s.tables[id]
	s.mu.RUnlock()
	if ok && t.epoch != epoch {
		s.dropCopy(t)
	}
}

// Mark returns the mark of table id (mark: its version plus the number
// of its last chat message) and a channel closed at its next change, if
// the table is in memory here; ok is false when it is not. The table's
// chat is read first, so that the marks of a new owner never fall below
// its predecessor's.
func (s *Service) Mark(ctx context.Context, id string) (mark int, changed <-chan struct{}, ok bool, err error) {
	s.mu.RLock()
	t, ok := s.tables[id]
	s.mu.RUnlock()
	if !ok {
		return 0, nil, false, nil
	}
	if err := s.loadChat(ctx, t); err != nil {
		return 0, nil, false, err
	}
	t.mu.Lock()
	defer t.unlock()
	return t.mark(), t.awaitChange(), true, nil
}

// HandOff gives table id, in memory here, to another node if nothing
// holds it here: nobody follows it here, its game is under way with no
// clock and no computer seat, and no write of it is in doubt. give hands
// the lease over, with the table's lock held so that nothing changes
// meanwhile; unless it says not to go on, the table is dropped from
// memory however the handing went (handed), and its watchers here end.
func (s *Service) HandOff(id string, give func() (goOn bool, err error)) (handed bool, err error) {
	s.mu.RLock()
	t, ok := s.tables[id]
	s.mu.RUnlock()
	if !ok {
		return false, nil
	}
	t.mu.Lock()
	if t.gone || t.watchers > 0 || t.status != store.Playing || t.tc.ticking() || t.computerSeats() || t.doubt {
		t.unlock()
		return false, nil
	}
	goOn, err := give()
	if !goOn {
		t.unlock()
		return false, nil
	}
	t.gone = true
	t.broadcast()
	t.unlock()
	s.mu.Lock()
	if s.tables[id] == t {
		delete(s.tables, id)
	}
	s.mu.Unlock()
	return true, err
}

// RemoteUpdate is what a watcher on another node asks of table id, run
// here: the update of the seat p holds from version since, with the chat
// messages after number chat it may read (all of them once the game is
// over and an update was sent before: sent and not yet ended), the mark
// of the table and the number of the last message sent.
func (s *Service) RemoteUpdate(ctx context.Context, p *auth.Principal, id string, since, chat int, ended, sent bool) (_ Update, last, mark int, err error) {
	t, err := s.read(ctx, p, id, false)
	if err != nil {
		return Update{}, 0, 0, err
	}
	if err := s.loadChat(ctx, t); err != nil {
		return Update{}, 0, 0, err
	}
	identity := ""
	if p != nil {
		identity = p.Identity
	}
	// A remote watcher asks at every change of the table, most of them
	// moves: the store is asked whom it blocks only when the table has
	// lines it may be sent now, those after chat, or any before the
	// watcher saw the end (which shows them all again). Lines written
	// after this look wait for its next update.
	t.mu.Lock()
	seen := t.ch.Last()
	lines := seen > chat || seen > 0 && !ended
	t.unlock()
	var hidden map[string]bool
	if lines {
		hidden = s.hiddenFrom(ctx, p)
	}
	t.mu.Lock()
	defer t.unlock()
	if err := t.closed(); err != nil {
		// Cancelled while this request waited for the table: an update
		// of it would pass for the last change, and the watcher would
		// wait on for the next.
		return Update{}, 0, 0, err
	}
	if since > t.version() {
		return Update{}, 0, 0, refuse.Bad("version %d is ahead of the table, which is at version %d", since, t.version())
	}
	t.lastUse = time.Now()
	seat := t.seatOf(p)
	t.touch(seat, s.now())
	from := chat
	if t.status == store.Finished && !ended && sent {
		from = 0 // the end opens every channel: see Watcher.poll
	}
	u, err := t.update(s.games, seat, since)
	u.Chat, last = t.chatAfter(from, seat, identity, hidden)
	mark = t.mark()
	if !lines && last > seen {
		// Written since the look above, without the blocks read: they
		// go with the next update, which the mark, short of them, asks
		// for.
		u.Chat = slices.DeleteFunc(u.Chat, func(l ChatLine) bool { return l.Seq > seen })
		last, mark = seen, t.version()+seen
	}
	u.Muted = t.ch.MutedBy(identity)
	return u, last, mark, err
}

// Touch notes that p, following table id from another node, is still
// there.
func (s *Service) Touch(ctx context.Context, p *auth.Principal, id string) error {
	t, err := s.table(ctx, id)
	if err != nil {
		return err
	}
	t.mu.Lock()
	t.touch(t.seatOf(p), s.now())
	t.unlock()
	return nil
}

// Attend notes, on the node that runs table id, that watcher (an id
// another node of the cluster chose for one of its watchers) follows the
// table there for p's seat until until, or, with until zero, that it
// stopped. While such a watcher lasts the seat counts as connected, as a
// watcher on this node makes it, and the others see it come and go; its
// node says so again before until passes, and a node that dies stops
// saying it.
func (s *Service) Attend(ctx context.Context, p *auth.Principal, id, watcher string, until time.Time) error {
	t, err := s.table(ctx, id)
	if err != nil {
		return err
	}
	t.mu.Lock()
	seat := t.seatOf(p)
	t.attend(seat, watcher, until, s.now())
	t.unlock()
	if seat < 0 {
		s.spectateElsewhere(id, watcher, until)
	}
	return nil
}

// spectateElsewhere notes that watcher, a spectator on another node,
// watches table id until until, or, with until zero, no longer.
func (s *Service) spectateElsewhere(id, watcher string, until time.Time) {
	s.elsewhereMu.Lock()
	defer s.elsewhereMu.Unlock()
	if until.IsZero() {
		delete(s.watchedElsewhere[id], watcher)
		if len(s.watchedElsewhere[id]) == 0 {
			delete(s.watchedElsewhere, id)
		}
		return
	}
	if s.watchedElsewhere == nil {
		s.watchedElsewhere = map[string]map[string]time.Time{}
	}
	if s.watchedElsewhere[id] == nil {
		s.watchedElsewhere[id] = map[string]time.Time{}
	}
	s.watchedElsewhere[id][watcher] = until
}

// spectatorsElsewhere counts the spectators other nodes vouch for at
// table id at now, and forgets those whose vouching ran out.
func (s *Service) spectatorsElsewhere(id string, now time.Time) int {
	s.elsewhereMu.Lock()
	defer s.elsewhereMu.Unlock()
	n := 0
	for w, until := range s.watchedElsewhere[id] {
		if now.Before(until) {
			n++
		} else {
			delete(s.watchedElsewhere[id], w)
		}
	}
	if n == 0 {
		delete(s.watchedElsewhere, id)
	}
	return n
}

// LobbyHere returns at most limit public tables in status that this node
// holds, newest first: what another node asks for its lobby.
func (s *Service) LobbyHere(status store.Status, limit int) []Info {
	return s.lobbyHere(status, "", limit, apart{})
}

// Exists refuses an id that names no table (404), loading the table
// where it runs.
func (s *Service) Exists(ctx context.Context, id string) error {
	_, err := s.table(ctx, id)
	return err
}

// Finished returns table id's whole record and lexicon, and the moves in
// it that the server played for a seat (a record holds them as ordinary
// moves), refusing a table that does not exist (404), whose game has not
// ended (409), or that is shut to p (403, the read gate).
func (s *Service) Finished(ctx context.Context, p *auth.Principal, id string) (*game.Record, *lexicon.Lexicon, []analysis.Forfeit, error) {
	t, err := s.read(ctx, p, id, true)
	if err != nil {
		return nil, nil, nil, err
	}
	t.mu.Lock()
	defer t.unlock()
	if t.st != nil && t.st.Result().Status == game.Aborted {
		return nil, nil, nil, refuse.Conflict("the game at table %s was aborted before every player had moved: there is nothing to analyse", id)
	}
	if t.st == nil || t.st.Result().Status != game.Finished {
		return nil, nil, nil, refuse.Conflict("the game at table %s has not ended: its analysis waits for the end", id)
	}
	var forfeits []analysis.Forfeit
	for _, f := range t.m.Forfeits {
		forfeits = append(forfeits, f.analysed())
	}
	return t.record(), t.cfg.Lexicon, forfeits, nil
}

// MayRead refuses p a read of table id that the read gate shuts, with
// whole as Service.read takes it.
func (s *Service) MayRead(ctx context.Context, p *auth.Principal, id string, whole bool) error {
	_, err := s.read(ctx, p, id, whole)
	return err
}
