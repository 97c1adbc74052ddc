package table

import "context"

// Follower follows one table for one asker: each door (the event stream,
// the WebSocket) serves a table through one, whichever node runs it. A
// Watcher follows a table of this node; the cluster hands out followers
// of tables other nodes run, which hear of changes on the bus and ask
// the owner for the asker's update.
type Follower interface {
	// Next returns the next Update: the first at once, then each when
	// what the asker may see changes, or an error when ctx ends or the
	// table can no longer be followed.
	Next(ctx context.Context) (Update, error)
	// ChatFrom makes the first update carry only the chat messages after
	// number n: a client that reconnects passes the last it saw. It is
	// called before the first Next.
	ChatFrom(n int)
	// Close stops following the table.
	Close()
}

// Pushed is the socket's fast path, which only a Watcher of this node's
// own table offers: the table pokes the socket at each change rather
// than keep a goroutine per socket waiting in Next, hands out the update
// already encoded and shared among the watchers of one view, and holds
// the pushes of the other players' sockets while one answers a move, so
// that its ack and the update showing the move leave together. A
// follower of a table another node runs learns of changes over the bus
// and fetches each update from the owner, so none of that applies to it:
// a door serves it through Next alone (and its updates carry whole views'
// logs: ViewTails is for the encoded updates only).
type Pushed interface {
	Follower
	OnChange(poke func())
	PollPoked() ([]byte, error)
	Moving() (done func())
	Hold(push func()) bool
	ViewTails()
}

var _ Pushed = (*Watcher)(nil)
