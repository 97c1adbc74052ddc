package cluster

// Requests about events (tournaments) between the nodes. One node runs
// each live event, the one that holds its lease (Events); the HTTP API's
// requests about a live event (/api/v1/tournaments/{id} and what lies
// under it, but its export, which the store answers anywhere) are
// carried to that node as a table's are to its owner, and a game of an
// event that ends on another node than the event's is told to it:
//
//   - "event": an HTTP request about an event, served by the node that
//     runs it, or answered NotOwner;
//   - "eventOver": the end of an event's game at a table, for the node
//     that runs the event (EventGames), or answered NotOwner.
//
// An event whose lease nobody holds (new, over, or its node dead and its
// lease run out) is served by the node the request came to, whose events
// service takes it up from the store.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"parlour/bus"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// eventWait is the longest a forwarded request about an event waits for
// its node's answer: a follower's GET with a version waits there up to
// 25 seconds for the event to change.
const eventWait = 35 * time.Second

// eventPath returns the event a request is about, when the node that
// runs the event serves it (/api/v1/tournaments/{id}[/{rest}], but the
// export).
func eventPath(p string) (id string, ok bool) {
	p, ok = strings.CutPrefix(p, "/api/v1/tournaments/")
	if !ok {
		return "", false
	}
	id, rest, _ := strings.Cut(p, "/")
	return id, auth.ValidID(id) && rest != "export"
}

// eventKind reports whether kind is one of the requests about events.
func eventKind(kind string) bool { return kind == "event" || kind == "eventOver" }

// decodeEvent checks a request about an event read by decodeRelay.
func decodeEvent(rq relayRequest) (relayRequest, error) {
	if !auth.ValidID(rq.Tournament) {
		return relayRequest{}, fmt.Errorf("a request about no event (%q)", refuse.Clip(rq.Tournament))
	}
	if len(rq.Identity) > 0 || rq.Event != nil || len(rq.Hashes) > 0 || rq.Status != "" || rq.Limit != 0 || rq.Token != "" || rq.Name != "" || len(rq.Identities) > 0 || rq.Epoch != 0 {
		return relayRequest{}, fmt.Errorf("a request about event %s with another request's fields", rq.Tournament)
	}
	switch rq.Kind {
	case "eventOver":
		if !auth.ValidID(rq.Table) || rq.Method != "" || rq.Path != "" || len(rq.Body) > 0 {
			return relayRequest{}, fmt.Errorf("the end of a game of event %s at no table (%q)", rq.Tournament, refuse.Clip(rq.Table))
		}
	case "event":
		if id, ok := eventPath(rq.Path); !ok || id != rq.Tournament || rq.Table != "" {
			return relayRequest{}, fmt.Errorf("a forwarded request for %q about event %s", refuse.Clip(rq.Path), rq.Tournament)
		}
		switch rq.Method {
		case http.MethodGet, http.MethodPost:
		default:
			return relayRequest{}, fmt.Errorf("a forwarded request with method %q", refuse.Clip(rq.Method))
		}
		if strings.ContainsAny(rq.Path, "?#") || strings.Contains(rq.Path, "..") {
			return relayRequest{}, fmt.Errorf("a forwarded request for %q", refuse.Clip(rq.Path))
		}
	}
	rq.Hashes, rq.Identities = nil, nil
	return rq, nil
}

// serveEvent answers a request about an event from another node.
func (c *Node) serveEvent(ctx context.Context, rq relayRequest) ([]byte, error) {
	if !c.Events().Holds(rq.Tournament) {
		return json.Marshal(relayReply{NotOwner: true})
	}
	if rq.Kind == "eventOver" {
		c.hmu.RLock()
		f := c.eventGames
		c.hmu.RUnlock()
		if f == nil || !f(ctx, rq.Tournament, rq.Table) {
			return json.Marshal(relayReply{NotOwner: true})
		}
		return json.Marshal(relayReply{Status: http.StatusOK})
	}
	rp, err := c.serveRelayed(ctx, rq)
	if err != nil {
		return nil, err
	}
	return json.Marshal(rp)
}

// EventGames sets what hears of the end of an event's game told by
// another node (the events service's GameOver): it reports whether this
// node runs the event.
func (c *Node) EventGames(f func(ctx context.Context, event, table string) bool) {
	c.hmu.Lock()
	c.eventGames = f
	c.hmu.Unlock()
}

// eventNode returns the node that holds event id's lease, "" when none
// does or it is this one.
func (c *Node) eventNode(ctx context.Context, id string) (string, error) {
	if c.Events().Holds(id) {
		return "", nil
	}
	l, err := c.leases.Lease(ctx, store.TournamentLease+id)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return "", nil
	case err != nil:
		return "", err
	case l.Owner == c.node:
		return "", nil
	}
	return l.Owner, nil
}

// GameOver tells the node that runs event id that its game at table
// ended (tournament.Peers).
func (c *Node) GameOver(ctx context.Context, id, table string) error {
	owner, err := c.eventNode(ctx, id)
	if err != nil {
		return err
	}
	if owner == "" {
		return fmt.Errorf("no other node runs event %s", id)
	}
	rp, err := c.forward(ctx, owner, relayRequest{Kind: "eventOver", Tournament: id, Table: table})
	if err != nil {
		return err
	}
	if rp.NotOwner {
		return fmt.Errorf("node %s no longer runs event %s", owner, id)
	}
	return nil
}

// serveEventHTTP serves r, about event id, when another node runs the
// event, and reports whether it did; otherwise the caller serves it
// here.
func (c *Node) serveEventHTTP(w http.ResponseWriter, r *http.Request, id string) bool {
	ctx := r.Context()
	owner, err := c.eventNode(ctx, id)
	if err != nil {
		c.fail(w, r, refuse.Unavailable("the event's server cannot be found just now; try again"))
		return true
	}
	if owner == "" {
		return false
	}
	body, ok := c.readBody(w, r)
	if !ok {
		return true
	}
	// The event's node may be late renewing its lease (a busy machine),
	// or gone, its lease not yet run out: the request asks again, more
	// slowly each time, for as long as a hand-over may take, rather than
	// answer that the event is changing servers at once.
	var h handOver
	for try := 0; !h.over(); try++ {
		if try > 0 {
			if !h.wait(ctx) {
				return true // the client went away
			}
			if owner, err = c.eventNode(ctx, id); err != nil || owner == "" {
				// Nobody runs it now, or the lease cannot be read: this
				// node serves it (and takes the event up if it may).
				return false
			}
		}
		rp, err := c.forward(ctx, owner, relayRequest{
			Kind: "event", Tournament: id, Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
			Header: pick(r.Header), Remote: r.RemoteAddr, Body: body,
		})
		switch {
		case errors.Is(err, bus.ErrUnavailable):
			c.fail(w, r, refuse.Unavailable("this server cannot reach the one that runs this event just now; nothing was done: try again in a moment"))
			return true
		case errors.Is(err, bus.ErrNoResponder), err == nil && rp.NotOwner:
			// Not received: the event's node is gone, let it go, or
			// has not renewed its lease in time.
			continue
		case err != nil && ctx.Err() == nil && r.Method == http.MethodGet:
			continue // a read is safe to ask again
		case err != nil && ctx.Err() == nil:
			c.fail(w, r, refuse.Unavailable("the server that runs this event stopped answering; what you asked may or may not have been done: look at the event before asking again"))
			return true
		case err != nil:
			return true // the client went away
		}
		rp.write(w)
		return true
	}
	// The event's node is gone and its lease not yet run out: this node
	// serves what it can (reads from the store) and refuses the rest
	// until the event is taken up.
	return false
}
