package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"parlour/bus"
	"parlour/server/auth"
	"parlour/server/protocol"
	"parlour/server/refuse"
	"parlour/server/table"
)

// remoteWatch follows a table another node owns, for one watcher here:
// it hears of every change on the bus and asks the owner for the
// watcher's own update since the version and chat message it has.
type remoteWatch struct {
	c       *cluster
	id      string
	token   string
	version int
	// chat is the number of the last chat message sent (-1: none yet),
	// mark the table's mark (see cluster.publish) the last update was
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
func (c *cluster) watchRemote(ctx context.Context, id, token string, from int) (*remoteWatch, error) {
	sub, err := c.b.Subscribe(ctx, id)
	if err != nil {
		return nil, refuse.Unavailable("the table's changes cannot be followed now; try again")
	}
	w := &remoteWatch{c: c, id: id, token: token, version: from, chat: -1, sub: sub, stop: make(chan struct{})}
	if token != "" {
		go w.heartbeat()
	}
	return w, nil
}

// Close stops following the table.
func (w *remoteWatch) Close() {
	close(w.stop)
	w.sub.Close()
}

// heartbeat tells the owner, every quarter of the walk-away time, that
// the watcher's seat is still at the table.
func (w *remoteWatch) heartbeat() {
	tick := time.NewTicker(max(100*time.Millisecond, w.c.s.cfg.WalkAway/4))
	defer tick.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-w.c.halted:
			return
		case <-tick.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), w.c.ttl)
		rq := relayRequest{Kind: "here", Table: w.id, Token: w.token}
		if w.c.owns(w.id) {
			w.c.serveHere(ctx, rq) // the table is this node's now
		} else {
			w.c.forward(ctx, "", rq)
		}
		cancel()
	}
}

// ChatFrom makes the first update carry only the chat messages after
// number n (see Watcher.ChatFrom).
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
// over if its owner is gone.
func (w *remoteWatch) fetch(ctx context.Context) (table.Update, error) {
	rq := relayRequest{Kind: "update", Table: w.id, Token: w.token, Since: w.version, Chat: w.chat, Sent: w.sent, Ended: w.ended}
	for try := 0; try < 4; try++ {
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
			time.Sleep(20 * time.Millisecond)
			continue
		}
		return w.read(rp)
	}
	return table.Update{}, refuse.Unavailable("the table is changing hands; try again")
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
func (c *cluster) updateHere(ctx context.Context, rq relayRequest) (relayReply, error) {
	if err := c.s.Load(ctx, rq.Table); err != nil {
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

// follow opens followers of table id, which another node owns, for the
// event stream (Handler.follow). Each is primed: the owner's refusal (no
// such table, not the asker's to see, a version ahead of the table) is
// the stream's answer, as a local Watch's is.
func (c *cluster) follow(id string) streamOpener {
	return func(r *http.Request, p *auth.Principal, from, chat int) (table.Follower, error) {
		token := ""
		if p != nil {
			token, _, _ = requestToken(r) // checked already: p signed in with it
		}
		wt, err := c.watchRemote(r.Context(), id, token, from)
		if err != nil {
			return nil, err
		}
		if chat >= 0 {
			wt.ChatFrom(chat)
		}
		if err := wt.prime(r.Context()); err != nil {
			wt.Close()
			return nil, err
		}
		return wt, nil
	}
}

// remoteSocket is the WebSocket of a table another node owns, served as
// any socket is (socket.serve) over a remote follower: updates come as
// the owner's changes are heard, and moves, setups, chat and mutes go to
// the owner as their HTTP requests (socketMessage).
func (c *cluster) remoteSocket(w http.ResponseWriter, r *http.Request, id string) {
	c.handler().acceptSocket(w, r, func(ctx context.Context, s *socket) (websocket.StatusCode, string) {
		return s.serve(ctx, id, c.socketFollower(s, r.RemoteAddr))
	})
}

// socketFollower opens socket s's follower of a table another node owns,
// primed, so that the owner's refusal answers the hello as a local
// Watch's does. The socket's messages are forwarded, as from remote.
func (c *cluster) socketFollower(s *socket, remote string) socketOpener {
	return func(ctx context.Context, p *auth.Principal, id string, hello protocol.ClientMessage) (*follow, error) {
		wt, err := c.watchRemote(ctx, id, hello.Token, helloFrom(hello))
		if err != nil {
			return nil, err
		}
		if hello.Chat != nil {
			wt.ChatFrom(*hello.Chat)
		}
		if err := wt.prime(ctx); err != nil {
			wt.Close()
			return nil, err
		}
		handle := func(ctx context.Context, b []byte) (websocket.StatusCode, string) {
			c.socketMessage(ctx, s, id, hello.Token, remote, b)
			return 0, ""
		}
		return &follow{id: id, hello: hello, p: p, wt: wt, handle: handle}, nil
	}
}

// socketMessage answers one message of a remote socket by forwarding
// its HTTP equivalent to the owner.
func (c *cluster) socketMessage(ctx context.Context, s *socket, id, token, remote string, b []byte) {
	if !s.lim.Allow(time.Now()) {
		s.h.s.RateLimited()
		s.sendError(ctx, "", refuse.TooMany("too many messages: slow down"))
		return
	}
	m, err := protocol.DecodeClientMessage(b)
	if err != nil {
		s.sendError(ctx, m.ID, err)
		return
	}
	var path string
	var body any
	switch m.Type {
	case "ping":
		s.send(ctx, ServerMessage{Type: "pong", ID: m.ID})
		return
	case "hello", "leave":
		// Moving on to another table (socket.moveOn), or leaving one for
		// the next, is for a socket onto a table its node runs.
		s.sendError(ctx, m.ID, refuse.With(http.StatusMisdirectedRequest, "this socket reaches its table through another server of the cluster, and cannot move on to another table: open a new socket onto it"))
		return
	case "move":
		if s.p == nil {
			s.sendError(ctx, m.ID, refuse.Unauthorized("spectators cannot move: say hello with your seat's token"))
			return
		}
		path, body = "moves", table.MoveRequest{Move: m.Move, Version: m.Version}
	case "setup":
		if s.p == nil {
			s.sendError(ctx, m.ID, refuse.Unauthorized("spectators have no setup: say hello with your seat's token"))
			return
		}
		path, body = "setup", table.SetupRequest{Setup: m.Setup, Auto: m.Auto, Computer: m.Computer}
	case "chat":
		path, body = "chat", table.ChatRequest{Channel: m.Channel, Text: m.Text}
	case "mute":
		path, body = "chat/mute", table.MuteRequest{Channel: m.Channel, Muted: m.Muted}
	default:
		return
	}
	data, _ := json.Marshal(body)
	r, _ := http.NewRequestWithContext(ctx, http.MethodPost, "/api/v1/tables/"+id+"/"+path, bytes.NewReader(data))
	r.Header.Set("Content-Type", "application/json")
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	r.RemoteAddr = remote
	rec := &recorder{header: http.Header{}}
	s.h.ServeHTTP(rec, r) // forwarded, or served here if this node owns the table now
	if rec.status != http.StatusOK && rec.status != http.StatusCreated {
		var e struct {
			Error string `json:"error"`
		}
		json.Unmarshal(rec.body.Bytes(), &e)
		s.send(ctx, ServerMessage{Type: "error", ID: m.ID, Error: e.Error, Status: rec.status})
		return
	}
	ack := ServerMessage{Type: "ack", ID: m.ID}
	var err2 error
	switch m.Type {
	case "move":
		var res table.MoveResult
		err2 = json.Unmarshal(rec.body.Bytes(), &res)
		ack.Version, ack.Result = res.Version, &res
	case "setup":
		var res table.SetupResult
		err2 = json.Unmarshal(rec.body.Bytes(), &res)
		ack.Version, ack.Setup = res.Version, res.Setup
	case "chat":
		var line table.ChatLine
		err2 = json.Unmarshal(rec.body.Bytes(), &line)
		ack.Chat = &line
	case "mute":
		var res struct {
			Muted []string `json:"muted"`
		}
		err2 = json.Unmarshal(rec.body.Bytes(), &res)
		ack.Muted = append(res.Muted, []string{}...)
	}
	if err2 != nil {
		s.sendError(ctx, m.ID, err2)
		return
	}
	s.send(ctx, ack)
}
