package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"parlour/bus"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/server/table"
)

// remoteWatch follows a table another node owns, for one watcher here:
// it hears of every change on the bus and asks the owner for the
// watcher's own update since the version and chat message it has.
type remoteWatch struct {
	c       *Node
	id      string
	token   string
	version int
	// watcher names this watcher to the owner, which counts its seat as
	// connected, or it among the spectators, while the watcher's
	// heartbeat lasts (see heartbeat).
	watcher string
	// chat is the number of the last chat message sent (-1: none yet),
	// mark the table's mark (see Node.publish) the last update was
	// made at; sent and ended are as a local Watcher's.
	chat        int
	mark        int
	sent, ended bool
	sub         bus.Subscription
	stop        chan struct{} // closed by Close
	// first is the first update, when prime asked for it before Next.
	first *table.Update
}

var _ table.Follower = (*remoteWatch)(nil)

// watchRemote subscribes to table id's changes, before the first update
// is read, so that no change falls between.
func (c *Node) watchRemote(ctx context.Context, id, token string, from int) (*remoteWatch, error) {
	sub, err := c.b.Subscribe(ctx, id)
	if err != nil {
		return nil, refuse.Unavailable("the table's changes cannot be followed now; try again")
	}
	w := &remoteWatch{c: c, id: id, token: token, version: from, chat: -1, sub: sub, watcher: auth.NewID(), stop: make(chan struct{})}
	go w.heartbeat()
	return w, nil
}

// Close stops following the table.
func (w *remoteWatch) Close() {
	close(w.stop)
	w.sub.Close()
}

// heartbeat tells the owner that the watcher is at the table: at once,
// then every hereEvery, and that it has gone once the watcher closes. The
// owner counts the watcher's seat as connected (a spectator among those
// watching) until remoteHold after the latest word, so a node that dies
// stops vouching for its watchers soon after (and a table that changed
// hands learns of them within hereEvery).
func (w *remoteWatch) heartbeat() {
	tell := func(gone bool) {
		ctx, cancel := context.WithTimeout(context.Background(), w.c.ttl)
		defer cancel()
		rq := relayRequest{Kind: "here", Table: w.id, Token: w.token, Watcher: w.watcher, Gone: gone}
		if w.c.owns(w.id) {
			w.c.serveHere(ctx, rq) // the table is this node's now
		} else {
			w.c.forward(ctx, "", rq)
		}
	}
	tell(false)
	tick := time.NewTicker(w.c.hereEvery())
	defer tick.Stop()
	for {
		select {
		case <-w.stop:
			tell(true)
			return
		case <-w.c.halted:
			return
		case <-tick.C:
		}
		tell(false)
	}
}

// hereEvery is how often a watcher's node vouches for it to the table's
// owner: a quarter of the walk-away time, so that a player watching is
// never taken for away, and at most every maxHereEvery, so that the
// others see soon whether they are connected.
func (c *Node) hereEvery() time.Duration {
	return max(100*time.Millisecond, min(c.walkAway/4, maxHereEvery))
}

// maxHereEvery is the longest between a watcher's node's words to the
// table's owner.
const maxHereEvery = 20 * time.Second

// remoteHold is how long after its node's latest word a watcher on
// another node keeps its seat connected: long enough for a word or two
// to be late.
func (c *Node) remoteHold() time.Duration { return 3 * c.hereEvery() }

// ChatFrom makes the first update carry only the chat messages after
// number n (see table.Watcher.ChatFrom).
func (w *remoteWatch) ChatFrom(n int) { w.chat = n }

// prime asks the owner for the watcher's first update now, which Next
// then returns: a door that primes its follower before it answers can
// refuse with the owner's error (no such table, not the asker's to see)
// as a local Watch would.
func (w *remoteWatch) prime(ctx context.Context) error {
	u, err := w.fetch(ctx)
	if err != nil {
		return err
	}
	w.first = &u
	return nil
}

// Next returns the next update: the first at once (primed, or asked of
// the owner now), then each time a change newer than the one the watcher
// has is heard of: a new version, or a chat line it may read.
func (w *remoteWatch) Next(ctx context.Context) (table.Update, error) {
	if u := w.first; u != nil {
		w.first = nil
		return *u, nil
	}
	// As a local watcher, it ends as this node stops, saying so, rather
	// than hold its stream open until the server gives up on it.
	ctx, cancel := w.c.untilClose(ctx)
	defer cancel()
	u, err := w.next(ctx)
	if err != nil && closing(ctx) {
		return table.Update{}, refuse.Unavailable(table.ShuttingDown)
	}
	return u, err
}

// next is Next after the first update.
func (w *remoteWatch) next(ctx context.Context) (table.Update, error) {
	if !w.sent {
		return w.fetch(ctx)
	}
	for {
		ch, err := w.sub.Next(ctx)
		if err != nil {
			return table.Update{}, err
		}
		if ch.Gap || ch.Version > w.mark {
			had := w.version
			u, err := w.fetch(ctx)
			if err != nil {
				return table.Update{}, err
			}
			if u.Version > had || len(u.Chat) > 0 || ch.Gap && ch.Version == 0 {
				return u, nil
			}
		}
	}
}

// fetch asks the owner for the update since w.version, taking the table
// over if its owner is gone. Between two owners it asks again, more
// slowly each time, for as long as a hand-over may take (changingHands,
// as a forwarded request does), so that a hand-over does not close the
// sockets that follow the table through other nodes.
func (w *remoteWatch) fetch(ctx context.Context) (table.Update, error) {
	rq := relayRequest{Kind: "update", Table: w.id, Token: w.token, Since: w.version, Chat: w.chat, Sent: w.sent, Ended: w.ended}
	var h handOver
	for try := 0; ; try++ {
		if try > 0 {
			if h.over() {
				return table.Update{}, errHanding
			}
			if !h.wait(ctx) {
				return table.Update{}, ctx.Err()
			}
		}
		if w.c.owns(w.id) {
			// The table came to this node (taken over, or handed to it):
			// the update is made here, not asked of itself over the bus.
			rp, err := w.c.updateHere(ctx, rq)
			if err != nil {
				return table.Update{}, err
			}
			return w.read(rp)
		}
		rp, err := w.c.forward(ctx, "", rq)
		if err != nil || rp.NotOwner {
			w.c.forget(w.id)
		}
		switch {
		case errors.Is(err, bus.ErrNoResponder):
			// The owner is gone: take the table over, or let another
			// node do it, then ask again.
			if owner, cerr := w.c.claim(ctx, w.id); cerr == nil && owner != "" {
				if terr := w.c.takeover(ctx, w.id); terr != nil {
					return table.Update{}, terr
				}
			}
			continue
		case errors.Is(err, bus.ErrUnavailable):
			return table.Update{}, errNoBus
		case err != nil:
			return table.Update{}, refuse.Unavailable("the server that runs this table did not answer in time; connect again")
		case rp.NotOwner:
			continue
		}
		return w.read(rp)
	}
}

// read takes in the owner's answer to an update.
func (w *remoteWatch) read(rp relayReply) (table.Update, error) {
	if rp.Status != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		json.Unmarshal(rp.Body, &e)
		return table.Update{}, refuse.With(rp.Status, "%s", e.Error)
	}
	var u table.Update
	if err := json.Unmarshal(rp.Body, &u); err != nil {
		return table.Update{}, err
	}
	w.version, w.chat, w.mark, w.sent = u.Version, rp.Chat, rp.Mark, true
	if u.Table.Status == "finished" {
		w.ended = true
	}
	return u, nil
}

// updateHere answers rq, a remote watcher's ask for its update, on this
// node, which owns the table.
func (c *Node) updateHere(ctx context.Context, rq relayRequest) (relayReply, error) {
	if err := c.tables.Load(ctx, rq.Table); err != nil {
		return relayReply{}, err
	}
	b, err := c.serveUpdate(ctx, rq)
	if err != nil {
		return relayReply{}, err
	}
	var rp relayReply
	err = json.Unmarshal(b, &rp)
	return rp, err
}

// Follow opens a follower of table id, which another node owns, for the
// bearer of token ("" for a spectator), from version from and with the
// chat messages after number chat (-1: every one at hand). It is
// primed: the owner's refusal (no such table, not the asker's to see, a
// version ahead of the table) is its error, as a local Watch's is. Both
// doors follow another node's tables through it.
func (c *Node) Follow(ctx context.Context, id, token string, from, chat int) (table.Follower, error) {
	wt, err := c.watchRemote(ctx, id, token, from)
	if err != nil {
		return nil, err
	}
	if chat >= 0 {
		wt.ChatFrom(chat)
	}
	if err := wt.prime(ctx); err != nil {
		wt.Close()
		return nil, err
	}
	return wt, nil
}
