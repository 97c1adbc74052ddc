// The player's event stream: challenges to and from a player, and the
// starts and ends of the games they open, as they happen.

package social

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"parlour/game"
	"parlour/server/players"
	"parlour/server/table"
	"parlour/store"
)

// StreamKeepAlive is how often the player stream writes an empty line when
// it has nothing to say, so that proxies and clients see it alive.
const StreamKeepAlive = 7 * time.Second

// streamBuffer is how many events a stream may fall behind by before it is
// closed (the client reconnects and reads GET /api/v1/challenges).
const streamBuffer = 64

// StreamEvent is one line of the player stream. Type is "challenge",
// "challengeDeclined", "challengeCanceled", "gameStart", "gameFinish",
// "keyAdded", "followOnline", "followPlaying", "seek", "seekGone",
// "tournamentGame", "rematch", "tournamentCancelled" or "refund";
// Challenge is set for the first three, Table for the next two, Key and
// Follow for the three after, Seek for the two after, Tournament and
// Rematch for the two after, Event and Refund for the last two.
type StreamEvent struct {
	Type      string       `json:"type"`
	Challenge *Challenge   `json:"challenge,omitempty"`
	Table     *StreamTable `json:"table,omitempty"`
	// Key is the SSH key of a keyAdded: one was added to the account.
	Key *players.KeyInfo `json:"key,omitempty"`
	// Seek is the seek of a "seek" (waiting) or "seekGone" line (paired,
	// canceled, or its player left), as server/seek describes it.
	Seek json.RawMessage `json:"seek,omitempty"`
	// Follow is the followed player of a "followOnline" (they came
	// online) or a "followPlaying" (they began a game, named there).
	Follow *FollowNews `json:"follow,omitempty"`
	// Tournament is the game of a "tournamentGame": an event paired
	// the player at a table (server/tournament).
	Tournament *TournamentGame `json:"tournament,omitempty"`
	// Event is the event of a "tournamentCancelled": its id and name
	// (server/tournament).
	Event *game.Tournament `json:"event,omitempty"`
	// Rematch is the offer of a "rematch": another player of a
	// finished game asked for the next one.
	Rematch *Rematch `json:"rematch,omitempty"`
	// Refund is what a "refund" gave the player back in one pool: the
	// rating points they lost to an account a moderator has closed for
	// cheating (server/moderation).
	Refund *RefundNews `json:"refund,omitempty"`
}

// RefundNews is a refund told to the player it gave points back to.
type RefundNews struct {
	Pool   string  `json:"pool"`
	Points float64 `json:"points"`
	Games  int     `json:"games"`
}

// Rematch is a rematch offered to a player: From, who sat with them at
// the finished table Prev, asked for the next game, and its table waits
// at Table with the player's seat there. POST
// /api/v1/tables/{prev}/rematch takes that seat.
type Rematch struct {
	Table string `json:"table"`
	Prev  string `json:"prev"`
	Game  string `json:"game"`
	Seat  int    `json:"seat"`
	From  string `json:"from"`
	Rated bool   `json:"rated,omitempty"`
}

// TournamentGame is a player's pairing in an event: the event, its round
// (a Swiss's; 0 in an arena), and the table and seat where they play.
type TournamentGame struct {
	Event string `json:"event"`
	Name  string `json:"name"`
	Round int    `json:"round,omitempty"`
	Table string `json:"table"`
	Seat  int    `json:"seat"`
	Game  string `json:"game"`
}

// StreamTable is the table of a gameStart or gameFinish: the player's seat
// at it and, at the end, their result ("win", "loss" or "draw").
type StreamTable struct {
	ID        string `json:"id"`
	Game      string `json:"game"`
	Seat      int    `json:"seat"`
	Rated     bool   `json:"rated,omitempty"`
	Challenge string `json:"challenge,omitempty"`
	Result    string `json:"result,omitempty"`
}

// hub hands stream events to the streams open for each identity.
type hub struct {
	mu   sync.Mutex
	subs map[string]map[*subscriber]struct{}
}

type subscriber struct {
	c    chan StreamEvent
	gone bool // fell behind: c is closed
}

func newHub() *hub { return &hub{subs: map[string]map[*subscriber]struct{}{}} }

// subscribe opens a stream of identity's events; the function it returns
// closes it.
func (h *hub) subscribe(identity string) (*subscriber, func()) {
	s := &subscriber{c: make(chan StreamEvent, streamBuffer)}
	h.mu.Lock()
	if h.subs[identity] == nil {
		h.subs[identity] = map[*subscriber]struct{}{}
	}
	h.subs[identity][s] = struct{}{}
	h.mu.Unlock()
	return s, func() {
		h.mu.Lock()
		delete(h.subs[identity], s)
		if len(h.subs[identity]) == 0 {
			delete(h.subs, identity)
		}
		h.mu.Unlock()
	}
}

// publish sends ev to every stream of identity. It never blocks: a stream
// too far behind is closed rather than let it hold up the others.
func (h *hub) publish(identity string, ev StreamEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs[identity] {
		if s.gone {
			continue
		}
		select {
		case s.c <- ev:
		default:
			s.gone = true
			close(s.c)
		}
	}
}

// Tell hands ev to identity's player streams: those on this node at
// once, and those on the other nodes, if any.
func (s *Service) Tell(identity string, ev StreamEvent) {
	s.hub.publish(identity, ev)
	if s.peers != nil {
		s.peers.StreamElsewhere(identity, ev)
	}
}

// Started and Finished make the Service a table.Observer: they tell the
// players' streams of their games ("gameStart", "gameFinish").

// Started tells the streams of the players of the table n describes that
// its game is theirs to play.
func (s *Service) Started(n table.GameNote) {
	for i, id := range n.Seats {
		if id != "" {
			s.Tell(id, StreamEvent{Type: "gameStart", Table: &StreamTable{ID: n.Table, Game: n.Game, Seat: i, Rated: n.Rated, Challenge: n.Challenge}})
		}
	}
	s.startedForFollowers(n)
}

// Finished tells the streams of the players of the table n describes how
// its game ended for each.
func (s *Service) Finished(n table.GameNote, end *store.GameEnd) {
	for _, se := range end.Seats {
		if se.Identity != "" {
			s.Tell(se.Identity, StreamEvent{Type: "gameFinish", Table: &StreamTable{
				ID: n.Table, Game: end.Game, Seat: se.Seat, Rated: n.Rated, Challenge: n.Challenge, Result: string(se.Result),
			}})
		}
	}
}

// Rematched makes the Service a table.RematchObserver: it tells the
// streams of the other players of a finished table that one of them
// asked for the next game ("rematch"), leaving out any who block the
// asker or whom the asker blocks. Unlike a follower's news, which may go
// to many, the blocks are read here, one indexed look a player, in the
// request that asked: the line then comes before the asker's answer.
func (s *Service) Rematched(n table.RematchNote) {
	asker := n.Seats[n.By]
	for i, id := range n.Seats {
		if id == "" || id == asker {
			continue
		}
		if s.rel != nil {
			ctx, cancel := context.WithTimeout(s.ctx, blockWait)
			blocked := s.rel.Blocked(ctx, id, asker)
			cancel()
			if blocked {
				continue
			}
		}
		s.Tell(id, StreamEvent{Type: "rematch", Rematch: &Rematch{Table: n.Next, Prev: n.Table, Game: n.Game, Seat: n.NextSeat(i), From: n.Name, Rated: n.Rated}})
	}
}

// blockWait bounds the look at the blocks before a rematch is told: a
// store that does not answer by then keeps the line back (Blocked
// answers true), and the player still finds the offer on the table's
// end screen.
const blockWait = 2 * time.Second

// Subscribe opens a player stream of identity's events; unsubscribe
// closes it.
func (s *Service) Subscribe(identity string) (events <-chan StreamEvent, unsubscribe func()) {
	sub, unsub := s.hub.subscribe(identity)
	return sub.c, unsub
}

// TellHere hands ev to identity's player streams on this node only: an
// event another node heard first.
func (s *Service) TellHere(identity string, ev StreamEvent) { s.hub.publish(identity, ev) }
