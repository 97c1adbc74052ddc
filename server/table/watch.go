package table

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"parlour/game"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// Watcher follows one table for one asker, yielding an Update at every
// change of what that asker may see.
type Watcher struct {
	s       *Service
	t       *table
	p       *auth.Principal
	version int
	closed  bool
	// seat is the seat the watcher counts as present (chat.go, claim.go);
	// chat is the number of the last chat message it was sent.
	seat     game.Seat
	identity string
	chat     int
	// hidden holds the writers whose lines the watcher is not sent: the
	// players it blocked when it began to watch (read once, not at each
	// update; a block made meanwhile counts from the next watch).
	hidden map[string]bool
	ended  bool // an update showed the end
	sent   bool // an update was sent
	here   int  // the table's attendance gen at the last update sent
	// tails is set when the client takes views' logs in tails (ViewTails);
	// logSt, logSeat and logLen are then the state, seat and log length
	// of the last view sent (logSt nil: none with a log).
	tails   bool
	logSt   game.State
	logSeat game.Seat
	logLen  int
	// poke, when set (OnChange), is called at every change of the
	// table, with its lock held.
	poke func()
}

// Watch starts following table id from version from: the first Update
// carries every move after from (from < 0: none, just the table as it
// stands). A client that reconnects passes the last version it saw and
// misses nothing.
func (s *Service) Watch(ctx context.Context, p *auth.Principal, id string, from int) (*Watcher, error) {
	t, err := s.read(ctx, p, id, false)
	if err != nil {
		return nil, err
	}
	if err := s.loadChat(ctx, t); err != nil {
		return nil, err
	}
	hidden := s.hiddenFrom(ctx, p)
	t.mu.Lock()
	defer t.unlock()
	if v := t.version(); from > v {
		return nil, refuse.Bad("version %d is ahead of the table, which is at version %d", from, v)
	}
	t.watchers++
	s.metrics.watchers.Add(1)
	w := &Watcher{s: s, t: t, p: p, version: from, seat: t.seatOf(p), chat: -1, hidden: hidden}
	if p != nil {
		w.identity = p.Identity
	}
	if w.seat < 0 {
		t.spectators++
	}
	t.arrive(w.seat, s.now())
	t.forgetShared()
	return w, nil
}

// OnChange has poke called at every change of the table from now on,
// with the table's lock held (so it must only signal, or start a
// goroutine), until Close. A socket starts its pusher that way rather
// than keep one waiting on the channel every watcher of the table
// shares: the socket can then leave it unstarted while it answers a move
// itself, since it polls right after (socket.move).
func (w *Watcher) OnChange(poke func()) {
	w.t.mu.Lock()
	defer w.t.unlock()
	if w.closed || w.poke != nil {
		return
	}
	w.poke = poke
	w.t.pokes = append(w.t.pokes, w)
}

// Moving says that the watcher's door is answering a move of the table
// itself; done says it has, and runs the pushes held meanwhile (Hold),
// one after the other, on the caller's goroutine. Call done holding no
// lock another follower's push may take: two doors that push to each
// other must not wait on each other. Every mover runs what is held when
// it ends, whether or not others still play, so a push held during a
// move is run by that move's door at the latest.
func (w *Watcher) Moving() (done func()) {
	t := w.t
	t.mu.Lock()
	t.movers++
	t.unlock()
	return func() {
		t.mu.Lock()
		t.movers--
		held := t.held
		t.held = nil
		t.unlock()
		for _, push := range held {
			push()
		}
	}
}

// Hold keeps push for a mover to run (Moving) and reports true, if
// another follower is answering a move of the table and this watcher
// holds a seat; otherwise it reports false and the caller pushes as it
// would. A spectator's push is never held: anyone may follow as a
// spectator, and one that does not read must not hold up the players'
// moves. It is for the poke of OnChange, and like it runs with the
// table's lock held.
func (w *Watcher) Hold(push func()) bool {
	if w.t.movers == 0 || w.seat < 0 {
		return false
	}
	w.t.held = append(w.t.held, push)
	return true
}

// ChatFrom makes the watcher's first update carry only the chat messages
// after number n (by default it carries every one at hand): a client
// that reconnects passes the last it saw.
func (w *Watcher) ChatFrom(n int) { w.chat = n }

// ViewTails has the encoded updates (PollPoked) carry only the new
// entries of a view's log once the watcher was sent that view whole
// (game.TailAppender): the client puts them behind those it has. The log
// goes whole again whenever the watcher's seat or the table's play
// changes.
func (w *Watcher) ViewTails() { w.tails = true }

// Next returns the next Update: at once if the table changed since the
// last one (or this is the first), else when it changes or ctx ends.
func (w *Watcher) Next(ctx context.Context) (Update, error) {
	for {
		u, _, ch, err := w.poll(false)
		if err != nil || ch == nil {
			return u, err
		}
		if err := w.wait(ctx, ch); err != nil {
			return Update{}, err
		}
	}
}

// PollPoked is for a socket, woken by OnChange: it returns the next
// update encoded in the door's envelope (Config.Envelope) if there is one
// now, and otherwise nil (wait for the next poke).
// An update that carries no chat and no mutes is the same for every
// watcher of one view, so it is built and encoded once per version and
// view, and the other watchers of that view send the same bytes. A
// socket that answers a move polls right after it, so that its ack and
// the update showing the move leave together.
func (w *Watcher) PollPoked() ([]byte, error) {
	_, b, _, err := w.poll(true)
	return b, err
}

func (w *Watcher) wait(ctx context.Context, ch <-chan struct{}) error {
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-w.s.ctx.Done():
		return refuse.Unavailable(ShuttingDown)
	}
}

// poll returns the next update if there is one now, with a nil channel;
// otherwise no update and a channel closed at the table's next change.
// With encode (for a socket, woken by OnChange rather than the channel)
// the update comes encoded, and there is no channel.
func (w *Watcher) poll(encode bool) (Update, []byte, <-chan struct{}, error) {
	w.t.mu.Lock()
	if w.t.gone {
		w.t.unlock()
		return Update{}, nil, nil, refuse.Unavailable("the table has moved to another server: connect again")
	}
	if err := w.t.closed(); err != nil {
		w.t.unlock()
		return Update{}, nil, nil, err
	}
	v := w.t.version()
	seat := w.t.seatOf(w.p)
	from := w.chat
	if w.t.status == store.Finished && !w.ended {
		// At the end every channel opens to everyone: an update that
		// shows the end after earlier ones carries every message at
		// hand, those the watcher could not read before included.
		if w.sent {
			from = 0
		}
		w.ended = true
	}
	chat, last := w.t.chatAfter(from, seat, w.identity, w.hidden)
	// The first update comes at once, even when the watcher already
	// has the version the table is at (it then lists no moves).
	// A player who came or went changes no version, but the others
	// should see it at once.
	here := w.t.here.gen
	if !w.sent || v > w.version || len(chat) > 0 || here != w.here {
		w.here = here
		since := w.version
		w.t.lastUse = time.Now()
		muted := w.t.ch.MutedBy(w.identity)
		st := w.t.st
		if encode && len(chat) == 0 && len(muted) == 0 {
			tail := -1
			if w.tails && st != nil && st == w.logSt && seat == w.logSeat {
				tail = w.logLen
			}
			b, logLen, err := w.shared(seat, since, tail)
			if err != nil {
				return Update{}, nil, nil, err
			}
			w.version, w.chat, w.sent = v, last, true
			w.sentLog(st, seat, logLen)
			return Update{}, b, nil, nil
		}
		u, err := w.t.update(w.s.games, seat, since)
		u.Chat, u.Muted = chat, muted
		w.t.unlock()
		if err != nil {
			return Update{}, nil, nil, err
		}
		w.version, w.chat, w.sent = u.Version, last, true
		logLen := -1
		if ta, ok := u.View.(game.TailAppender); ok {
			logLen = ta.LogLen()
		}
		w.sentLog(st, seat, logLen)
		if !encode {
			return u, nil, nil, nil
		}
		b, err := encodeUpdate(u, w.s.cfg.Envelope)
		w.s.metrics.updatesEncoded.Inc()
		return Update{}, b, nil, err
	}
	w.chat = last // nothing new this watcher may see
	var ch <-chan struct{}
	if !encode {
		ch = w.t.awaitChange()
	}
	w.t.unlock()
	return Update{}, nil, ch, nil
}

// sentLog notes the view just sent: of play st, to seat, its log logLen
// entries long (-1: no log).
func (w *Watcher) sentLog(st game.State, seat game.Seat, logLen int) {
	w.logSt, w.logSeat, w.logLen = st, seat, logLen
	if logLen < 0 {
		w.logSt = nil
	}
}

// shared returns the encoded update of seat from version since (with the
// view's log from entry tail on, -1: whole), made by this watcher or by
// another of the same view, and the length of the view's log (-1: none).
// It is called with t.mu held, and releases it: the update is built under
// the lock (it reads the state), encoded outside it.
func (w *Watcher) shared(seat game.Seat, since, tail int) ([]byte, int, error) {
	now := time.Now()
	e, first := w.t.sharedUpdate(seat, since, tail, now)
	if !first {
		w.t.unlock()
		// The first watcher holds ready until its encoding is done.
		e.ready.Lock()
		//lint:ignore SA2001 the empty critical section waits for that.
		e.ready.Unlock()
		w.s.metrics.updatesShared.Inc()
		return e.msg, e.logLen, e.err
	}
	enc, logLen, err := w.t.updateMessage(w.s.games, w.s.cfg.Envelope, seat, since, tail, now)
	e.logLen = logLen
	w.t.unlock()
	if err == nil {
		e.msg, err = enc()
		w.s.metrics.updatesEncoded.Inc()
	}
	e.err = err
	e.ready.Unlock()
	return e.msg, e.logLen, err
}

// Envelope is a door's message around an update: Head, the update's
// JSON, then Tail (for the WebSocket, `{"type":"update","update":` and
// `}`).
type Envelope struct{ Head, Tail string }

// encodeUpdate encodes u in env, the bytes PollPoked returns.
func encodeUpdate(u Update, env Envelope) ([]byte, error) {
	b, err := json.Marshal(&u)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(env.Head)+len(b)+len(env.Tail))
	return append(append(append(out, env.Head...), b...), env.Tail...), nil
}

// Version reports the last version Next returned.
func (w *Watcher) Version() int { return w.version }

// Finished reports whether the table's game is over.
func (w *Watcher) Finished() bool {
	w.t.mu.Lock()
	defer w.t.unlock()
	return w.t.status == "finished"
}

// Close stops following the table.
func (w *Watcher) Close() {
	if w.closed {
		return
	}
	w.closed = true
	w.t.mu.Lock()
	if w.poke != nil {
		w.t.pokes = slices.DeleteFunc(w.t.pokes, func(o *Watcher) bool { return o == w })
		w.poke = nil
	}
	w.t.watchers--
	if w.seat < 0 {
		w.t.spectators--
	}
	w.t.leave(w.seat, w.s.now())
	w.t.forgetShared()
	w.s.noteIdle(w.t)
	w.t.unlock()
	w.s.metrics.watchers.Add(-1)
}
