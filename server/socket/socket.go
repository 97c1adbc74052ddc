// Package socket is the WebSocket door: one connection a browser keeps
// onto a table, over which the server pushes each change of the seat's
// view and the client plays, sets up and chats. The socket knows no game
// and no rule; it follows a table.Follower, writes the JSON the table
// encoded once, and corks a move's answer and update into one write. The
// HTTP API mounts it (Door.ServeHTTP) and shares its limits with it.
package socket

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"parlour/server/auth"
	"parlour/server/limit"
	"parlour/server/protocol"
	"parlour/server/refuse"
	"parlour/server/table"

	"github.com/coder/websocket"
	"github.com/prometheus/client_golang/prometheus"
)

// helloTimeout is how long a new socket has to say hello.
const helloTimeout = 10 * time.Second

// Close reasons the socket gives, as docs/protocol.md promises them.
const (
	reasonNoHello = "no hello within 10 seconds: say hello first"
	reasonBinary  = "binary messages are not accepted: send JSON as text"
	reasonTooBig  = "message too big"
	// reasonSessionEnded closes a socket whose session ended under it.
	reasonSessionEnded = auth.SessionEnded
	// reasonShutdown is also what a watcher and an event stream are told
	// when the server shuts down under them.
	reasonShutdown = table.ShuttingDown
)

// Config is what a Door is built from. Tables, Auth, Online, the
// functions and HTTP are required.
type Config struct {
	Tables *table.Service
	Auth   *auth.Auth
	// Online counts an open socket's player as online.
	Online Online
	Limits limit.Limits
	// PerIdentity is each identity's rate limit, shared with the HTTP
	// API: a player's messages and requests draw on one budget.
	PerIdentity *limit.Keyed
	// The HTTP API's own checks, shared with it so that a socket and a
	// request count alike. They are handed in as functions because the
	// API stands above the socket and mounts it: ChatAllowed checks an
	// address's chat rate, and sent counts a message once it is sent (a
	// refused one counts nothing); Hold takes a place for one long-lived answer
	// (a socket or an event stream) or refuses it, and release gives it
	// back; ClientAddr is the address a request counts against (behind
	// trusted proxies, the client's); Fail answers a refusal before the
	// upgrade.
	ChatAllowed func(addr string) (sent func(), err error)
	Hold        func(r *http.Request) (release func(), err error)
	ClientAddr  func(r *http.Request) string
	Fail        func(w http.ResponseWriter, r *http.Request, err error)
	// HTTP serves the HTTP equivalent of a message on a socket onto a
	// table another node runs: the whole HTTP door, which forwards it.
	HTTP http.Handler
	// Remote follows the tables other nodes run (nil on a single node).
	Remote Remote
	Logger *slog.Logger
	// Registerer takes the door's metrics.
	Registerer prometheus.Registerer
	// Closing ends when the server shuts down: every socket then closes.
	Closing context.Context
	// HelloWait is how long a new socket has to say hello (default 10
	// s, as docs/protocol.md promises; tests shorten it).
	HelloWait time.Duration
}

// Online is what the door needs of who is online: an open socket counts
// its player as online until release.
type Online interface {
	Hold(identity string) (release func())
}

// Remote follows the tables other nodes of a cluster run, for the doors
// of this one.
type Remote interface {
	// Follow opens a follower of table id, which another node runs, for
	// the bearer of token ("" for a spectator), from version from and
	// with the chat messages after number chat (-1: every one at hand).
	// It is primed: the owner's refusal is its error.
	Follow(ctx context.Context, id, token string, from, chat int) (table.Follower, error)
}

// Door serves the WebSockets onto the tables.
type Door struct {
	tables      *table.Service
	auth        *auth.Auth
	online      Online
	lim         limit.Limits
	perIdentity *limit.Keyed
	chatAllowed func(addr string) (sent func(), err error)
	holdStream  func(r *http.Request) (release func(), err error)
	clientAddr  func(r *http.Request) string
	fail        func(w http.ResponseWriter, r *http.Request, err error)
	http        http.Handler
	remote      Remote
	log         *slog.Logger
	metrics     *metricSet
	closing     context.Context
	helloWait   time.Duration

	mu       sync.Mutex
	sockets  map[*socket]struct{}
	draining bool
	// corks holds the buffers sockets cork their writes into (cork.go),
	// so that a socket keeps none while it is not writing.
	corks sync.Pool
}

// New returns the door cfg describes, its metrics registered.
func New(cfg Config) (*Door, error) {
	m, err := newMetrics(cfg.Registerer)
	if err != nil {
		return nil, fmt.Errorf("socket: registering metrics: %w", err)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Closing == nil {
		cfg.Closing = context.Background()
	}
	return &Door{
		tables: cfg.Tables, auth: cfg.Auth, online: cfg.Online, lim: cfg.Limits.WithDefaults(), perIdentity: cfg.PerIdentity,
		chatAllowed: cfg.ChatAllowed, holdStream: cfg.Hold, clientAddr: cfg.ClientAddr, fail: cfg.Fail,
		http: cfg.HTTP, remote: cfg.Remote, log: cfg.Logger, metrics: m, closing: cfg.Closing,
		helloWait: cmp.Or(cfg.HelloWait, helloTimeout),
		sockets:   map[*socket]struct{}{},
	}, nil
}

// socket is one browser's WebSocket onto one table.
type socket struct {
	d    *Door
	c    *websocket.Conn
	wmu  sync.Mutex
	lim  *limit.Bucket
	p    *auth.Principal
	over int // messages refused by the rate limit in a row
	// cookie is the token of the session cookie the socket was opened
	// with: a hello without a token acts for it.
	cookie string
	// addr is the client's address, for the per-address chat limit.
	addr string
	// cc is the connection, corked while a move's ack and its update are
	// written (nil when the socket was not upgraded through acceptSocket).
	cc *corkConn
	// wt follows the table for a socket on the table's own node. The
	// socket holds deliver while it pushes an update and while it plays a
	// move until the move's ack and update are written, so that the ack
	// comes first and both leave together.
	wt      table.Pushed
	deliver sync.Mutex
	// moving is set while the socket plays a move, whose update it then
	// polls itself.
	moving atomic.Bool
	// pushes holds the socket's pusher, a goroutine started by poke when
	// the table changes and ended once nothing is left to send (or run
	// by another socket's move: pushHeld).
	pushes pushes
	// heldPush is pushHeld as a func, made once, so that holding a push
	// (Watcher.Hold) at every move allocates nothing.
	heldPush func()
	// next is the table a later hello moved the socket on to, set by the
	// reader (handle) as it ends the socket's run on its table; leftID
	// is the id of the "leave" message that ended it with none to go to.
	next   *follow
	leftID string
}

// pushes is the state of a socket's pusher. A socket has no goroutine of
// its own waiting for the table to change: with thousands of sockets
// open, their idle pushers' stacks were most of what the collector had to
// scan. Its fields are guarded by
// mu; wg counts the pusher while it runs.
type pushes struct {
	mu      sync.Mutex
	running bool // a pusher runs
	again   bool // the table changed since the pusher last looked
	ended   bool // the socket is closing: no pusher starts
	closing closing
	ctx     context.Context
	stop    context.CancelFunc
	wg      sync.WaitGroup
}

// closing is the close code and reason a socket ends with.
type closing struct {
	code   websocket.StatusCode
	reason string
}

// UpdateHead and UpdateTail are the socket's message around an update's
// JSON, {"type":"update","update":...}: the root hands them to the table
// service (table.Config.Envelope), which encodes each update in them once
// for every socket of a view.
const (
	UpdateHead = `{"type":"update","update":`
	UpdateTail = `}`
)

// ServerMessage is one message the server sends over the WebSocket.
type ServerMessage struct {
	// Type is "update" (Update holds the seat's new view), "ack" (a move
	// or setup was accepted: Result holds a move's MoveResult, Setup a
	// setup as checked; a chat message: Chat holds it as stored; a mute:
	// Muted the channels now muted), "error" or "pong".
	Type    string            `json:"type"`
	ID      string            `json:"id,omitempty"`
	Update  *table.Update     `json:"update,omitempty"`
	Version int               `json:"version,omitempty"`
	Result  *table.MoveResult `json:"result,omitempty"`
	Setup   json.RawMessage   `json:"setup,omitempty"`
	Error   string            `json:"error,omitempty"`
	Status  int               `json:"status,omitempty"`
	Chat    *table.ChatLine   `json:"chat,omitempty"`
	Muted   []string          `json:"muted,omitempty"`
}

func (s *socket) send(ctx context.Context, m ServerMessage) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return s.write(ctx, b)
}

// write sends one encoded message, waiting at most about writeTimeout
// for the connection to take it (the socket's corkConn keeps a write
// deadline; no context a message). The end of ctx does not cut it short:
// the WebSocket library drops the connection when a write's context ends
// mid-frame; a socket that is done is closed properly by acceptSocket
// instead. Messages may be shared with other sockets
// (Watcher.PollPoked): b is only read.
func (s *socket) write(ctx context.Context, b []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.cc == nil {
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), writeTimeout)
		defer cancel()
		return lost(s.c.Write(wctx, websocket.MessageText, b))
	}
	// Corked, the frame's header and payload leave in one write through
	// the library's small writer (writeBuffer).
	s.cc.cork()
	err := s.c.Write(context.Background(), websocket.MessageText, b)
	if uerr := s.cc.uncork(); err == nil {
		err = uerr
	}
	return lost(err)
}

// errLost marks a message the connection did not take: its client went
// away, or the network or a slow reader's write timeout cut it off. The
// socket is over, and nothing went wrong on the server.
var errLost = errors.New("the connection was lost")

// lost marks err, a write's failure, as errLost.
func lost(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w: %w", errLost, err)
}

// writeCorked is write while the connection is corked, which only fills
// a buffer: no timeout is needed.
func (s *socket) writeCorked(b []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return s.c.Write(context.Background(), websocket.MessageText, b)
}

// sendError answers message id with err, in what a player may read of
// it (refuse.Said), and returns those words as a close reason for a
// refusal that ends the socket.
func (s *socket) sendError(ctx context.Context, id string, err error) string {
	msg := refuse.Said(s.d.log, err)
	s.send(ctx, ServerMessage{Type: "error", ID: id, Error: msg, Status: refuse.Status(err)})
	return clipReason(msg)
}

// reason returns the close reason that says err: what a player may read of
// it (refuse.Said), cut to fit a close frame.
func (s *socket) reason(err error) string {
	if errors.Is(err, errLost) {
		// Nobody is there to read a reason, and the log needs none.
		s.d.log.Debug("a socket's connection was lost", "err", err)
		return ""
	}
	return clipReason(refuse.Said(s.d.log, err))
}

// ServeHTTP upgrades the request, GET /api/v1/tables/{id}/socket, to a
// WebSocket onto table id (the route's path value). The first message must be a
// hello, carrying the seat's token (none for a spectator) and the last
// version the client saw; from then on the server pushes an update at
// every change of the seat's view and answers moves and setups.
//
// A socket onto a table another node of a cluster runs is served here
// all the same, over a remote follower: updates come as the owner's
// changes are heard, and moves, setups, chat and mutes go to the owner
// as their HTTP requests.
func (d *Door) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	elsewhere, err := d.elsewhere(r.Context(), id)
	if err == nil && !elsewhere {
		err = d.tables.Exists(r.Context(), id)
	}
	if err != nil {
		d.fail(w, r, err)
		return
	}
	d.acceptSocket(w, r, func(ctx context.Context, s *socket) (*follow, websocket.StatusCode, string) {
		if elsewhere {
			return s.begin(ctx, id, s.remote(r.RemoteAddr))
		}
		return s.begin(ctx, id, s.watch)
	})
}

// elsewhere reports whether another node of the cluster runs table id.
func (d *Door) elsewhere(ctx context.Context, id string) (bool, error) {
	if d.remote == nil {
		return false, nil
	}
	owner, err := d.tables.Owner(ctx, id)
	return owner != "", err
}

// socketOpener opens the follower of table id a socket follows after hello,
// signed in as p: a Watcher for a table of this node (socket.watch), the
// cluster's remote follower for another node's (socket.remote).
// The follower carries the chat messages after the hello's number only.
// An error it returns is the hello's answer, and closes the socket.
type socketOpener func(ctx context.Context, p *auth.Principal, id string, hello protocol.ClientMessage) (*follow, error)

// watch opens a watcher of table id, which this node runs.
func (s *socket) watch(ctx context.Context, p *auth.Principal, id string, hello protocol.ClientMessage) (*follow, error) {
	wt, err := s.d.tables.Watch(ctx, p, id, helloFrom(hello))
	if err != nil {
		return nil, err
	}
	if hello.Chat != nil {
		wt.ChatFrom(*hello.Chat)
	}
	return &follow{id: id, hello: hello, p: p, wt: wt}, nil
}

// remote opens a follower of table id, which another node runs, primed,
// so that the owner's refusal answers the hello as a local Watch's does.
// The socket's messages are then forwarded (socket.forward), as from the
// address remote.
func (s *socket) remote(remote string) socketOpener {
	return func(ctx context.Context, p *auth.Principal, id string, hello protocol.ClientMessage) (*follow, error) {
		chat := -1
		if hello.Chat != nil {
			chat = *hello.Chat
		}
		wt, err := s.d.remote.Follow(ctx, id, hello.Token, helloFrom(hello), chat)
		if err != nil {
			return nil, err
		}
		handle := func(ctx context.Context, b []byte) (websocket.StatusCode, string) {
			s.forward(ctx, id, hello.Token, remote, b)
			return 0, ""
		}
		return &follow{id: id, hello: hello, p: p, wt: wt, handle: handle}, nil
	}
}

// publicOrigin is the origin of the address players open the server at
// (--public-url), as a pattern websocket.Accept takes a page's Origin
// against besides the request's own host: behind a proxy that names the
// node as the host (nginx's $host drops the port), a page of the site
// is still the site's.
func (d *Door) publicOrigin() []string {
	u, err := url.Parse(d.tables.BaseURL())
	if err != nil || u.Host == "" {
		return nil
	}
	host := u.Host
	if p := u.Port(); p == "443" && u.Scheme == "https" || p == "80" && u.Scheme == "http" {
		host = strings.TrimSuffix(host, ":"+p) // a browser's Origin leaves it out
	}
	escape := strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`, "]", `\]`)
	return []string{escape.Replace(u.Scheme + "://" + host)}
}

// handshakeRefused says in a player's words why the WebSocket library
// refused a socket's opening request with status; err is its own
// account, kept where it names the header at fault.
func handshakeRefused(status int, err error) error {
	switch status {
	case http.StatusForbidden:
		return refuse.Forbidden("a page of another site may not open a socket here: open the game at this server's own address")
	case http.StatusUpgradeRequired, http.StatusMethodNotAllowed:
		return refuse.With(status, "this address takes WebSocket connections only: open it with a WebSocket client (a GET with Connection: Upgrade and Upgrade: websocket)")
	case http.StatusBadRequest:
		return refuse.Bad("this is not a WebSocket opening request of version 13 with one Sec-WebSocket-Key (%v)", err)
	}
	return refuse.With(status, "the socket could not be opened (%v)", err)
}

// acceptSocket upgrades the request to a WebSocket, counts it among the
// open sockets and has begin wait for its hello and open what it
// follows; then a goroutine of its own serves it (live), or it is closed
// at once with the code and reason begin returns (or if the server is
// shutting down). The handler returns once the socket follows its table:
// net/http's request, its connection's state and its 4 KiB buffers, all
// held for as long as a handler runs, are let go, and the socket's
// goroutine, started afresh past the hello's deep calls, holds a stack
// only as deep as an idle socket's wait (BenchmarkIdleSocketMemory).
func (d *Door) acceptSocket(w http.ResponseWriter, r *http.Request, begin func(context.Context, *socket) (*follow, websocket.StatusCode, string)) {
	release, err := d.holdStream(r)
	if err != nil {
		d.fail(w, r, err)
		return
	}
	hj := &corkHijacker{ResponseWriter: w, d: d}
	c, err := websocket.Accept(hj, r, &websocket.AcceptOptions{OriginPatterns: d.publicOrigin()})
	if err != nil {
		release()
		if hj.refused != 0 {
			d.fail(w, r, handshakeRefused(hj.refused, err))
		}
		return
	}
	// The socket's reader caps a message itself (read), so that the
	// close says why in the documented words rather than the library's.
	c.SetReadLimit(-1)
	s := &socket{d: d, c: c, cc: hj.conn, lim: limit.NewBucket(d.lim.PerConn, d.lim.PerConnBurst), cookie: auth.SessionToken(r), addr: d.clientAddr(r)}
	s.heldPush = s.pushHeld
	if !d.addSocket(s) {
		c.Close(websocket.StatusGoingAway, reasonShutdown)
		release()
		return
	}
	d.metrics.sockets.Add(1)
	ctx, cancel := context.WithCancel(context.Background())
	f, code, reason := begin(ctx, s)
	if f == nil {
		s.finish(cancel, release, code, reason)
		return
	}
	go s.live(ctx, f, cancel, release)
}

// live serves the socket from its first table on until it ends, and
// closes it (see acceptSocket).
func (s *socket) live(ctx context.Context, f *follow, cancel context.CancelFunc, release func()) {
	code, reason := s.serve(ctx, f)
	s.finish(cancel, release, code, reason)
}

// finish closes the socket with code and reason and lets go of what it
// held.
func (s *socket) finish(cancel context.CancelFunc, release func(), code websocket.StatusCode, reason string) {
	s.c.Close(code, reason)
	cancel()
	s.d.metrics.sockets.Add(-1)
	s.d.dropSocket(s)
	release()
}

// begin waits for the socket's hello and opens the follower of table id
// through open. It returns what the socket is to follow, or nil and the
// close code and reason to send.
func (s *socket) begin(ctx context.Context, id string, open socketOpener) (*follow, websocket.StatusCode, string) {
	hello, code, reason := s.hello(ctx)
	if code != 0 {
		return nil, code, reason
	}
	if hello.Table != "" && hello.Table != id {
		err := refuse.Bad("the hello names table %s, but the socket was opened onto %s", hello.Table, id)
		return nil, websocket.StatusPolicyViolation, s.sendError(ctx, hello.ID, err)
	}
	next, err := open(ctx, s.p, id, hello)
	if err != nil {
		return nil, websocket.StatusPolicyViolation, s.sendError(ctx, hello.ID, err)
	}
	return next, 0, ""
}

// serve runs the socket on the table next names until it ends, and
// returns the close code and reason to send. A later hello that names a
// table moves the socket on to that table (moveOn): it then serves that
// one (serveTable).
func (s *socket) serve(ctx context.Context, next *follow) (websocket.StatusCode, string) {
	for {
		var code websocket.StatusCode
		var reason string
		code, reason, next = s.serveTable(ctx, next)
		if code == statusLeave {
			next, code, reason = s.between(ctx)
		}
		if next == nil {
			return code, reason
		}
		s.d.metrics.follows.Inc()
	}
}

// between answers a "leave" once the socket has left its table (its
// watcher closed: nothing of that table comes after the ack) and waits,
// as for a first hello, for a hello naming the table to follow next. A
// socket that says anything else, or nothing within the hello's wait, is
// closed.
func (s *socket) between(ctx context.Context) (*follow, websocket.StatusCode, string) {
	s.send(ctx, ServerMessage{Type: "ack", ID: s.leftID})
	s.leftID = ""
	hello, code, reason := s.hello(ctx)
	if code != 0 {
		return nil, code, reason
	}
	next, err := s.moveOn(ctx, hello)
	if err != nil {
		return nil, websocket.StatusPolicyViolation, s.sendError(ctx, hello.ID, err)
	}
	return next, 0, ""
}

// helloFrom returns the version a hello's first update starts after (-1:
// none; the table as it stands).
func helloFrom(hello protocol.ClientMessage) int {
	if hello.Version != nil {
		return *hello.Version
	}
	return -1
}

// follow is a table a socket is to follow, as a hello asked: the table's
// id, the hello, who it signed in as and the follower already opened.
// handle, when set, answers the socket's messages instead of
// socket.handle: a remote follower's forwards them to the table's owner.
type follow struct {
	id     string
	hello  protocol.ClientMessage
	p      *auth.Principal
	wt     table.Follower
	handle func(context.Context, []byte) (websocket.StatusCode, string)
}

// statusFollow is the code with which handle ends the socket's run on
// its table when a later hello moved it on to another (socket.next). It
// is never sent.
const statusFollow websocket.StatusCode = -1

// statusLeave is the code with which handle ends the socket's run on its
// table at a "leave": the socket then waits for a hello naming the next
// table (socket.between). It is never sent.
const statusLeave websocket.StatusCode = -2

// serveTable runs the socket on the table f names until it ends, or
// until a later hello moves it on to another table, which it then
// returns. Whatever it returns, it has closed f's watcher.
func (s *socket) serveTable(ctx context.Context, f *follow) (websocket.StatusCode, string, *follow) {
	defer f.wt.Close()
	s.p = f.p
	if s.p != nil {
		defer s.d.online.Hold(s.p.Identity)() // an open socket counts as online
	}
	if s.p != nil && s.p.Table == "" && f.hello.Token != "" {
		// Signed in with a session or identity token: when it ends (a
		// sign-out, a new password, the account closed) the socket ends
		// too, as its requests would be refused, rather than go on
		// moving and reading the seat's secrets. A seat's own token
		// lasts as long as its seat.
		defer s.d.auth.Watch(ctx, f.hello.Token, func() {
			go s.c.Close(websocket.StatusPolicyViolation, reasonSessionEnded)
		})()
	}
	wt, ok := f.wt.(table.Pushed)
	if !ok {
		// A table another node runs: no later hello moves such a socket
		// on (its handle refuses one), and its updates are pulled.
		code, reason := s.runPulled(ctx, f)
		return code, reason, nil
	}
	s.wt = wt
	if f.hello.ViewTails {
		wt.ViewTails()
	}
	// The pusher is started at each change of the table (Watcher.OnChange,
	// changed), except while the socket answers a move and polls for
	// itself (socket.move), or another socket's move will push (pushHeld);
	// the reader runs here.
	code, reason := s.runPushed(ctx, func(ctx context.Context, b []byte) (websocket.StatusCode, string) { return s.handle(ctx, f.id, b) })
	next := s.next
	s.next = nil
	if code != statusFollow {
		if next != nil {
			next.wt.Close() // the socket closed before it could move on
		}
		return code, reason, nil
	}
	return 0, "", next
}

// moveOn checks a later hello, which names the table the socket is to
// follow now: it signs in with the hello's token (or the session
// cookie's) and opens a watcher on that table. An error leaves the
// socket where it was.
func (s *socket) moveOn(ctx context.Context, m protocol.ClientMessage) (*follow, error) {
	if m.Table == "" {
		return nil, refuse.Bad(`hello was already said: to follow another table, name it in "table"`)
	}
	// A socket moves on only to a table its node runs; the node takes a
	// table no node runs, as a new socket onto it would.
	if elsewhere, err := s.d.elsewhere(ctx, m.Table); err != nil {
		return nil, err
	} else if elsewhere {
		return nil, errElsewhere
	}
	if m.Token == "" {
		m.Token = s.cookie
	}
	var p *auth.Principal
	if m.Token != "" {
		var err error
		if p, err = s.d.auth.Authenticate(ctx, m.Token); err != nil {
			return nil, err
		}
	}
	return s.watch(ctx, p, m.Table, m)
}

// errElsewhere refuses a later hello that names a table another node of
// the cluster runs: only a socket opened onto that table reaches it.
var errElsewhere = refuse.With(http.StatusMisdirectedRequest, "that table is run by another server of the cluster: open a new socket onto it")

// hello reads and checks the socket's first message, a "hello", and signs
// the socket in with its token (or the session cookie) when it gives one.
// A non-zero code closes the socket, with reason.
func (s *socket) hello(ctx context.Context) (protocol.ClientMessage, websocket.StatusCode, string) {
	// The hello is read without a deadline on the read itself: a read
	// whose context ends drops the connection without a close frame.
	// The timer closes it properly instead, with the reason.
	late := time.AfterFunc(s.d.helloWait, func() {
		s.c.Close(websocket.StatusPolicyViolation, reasonNoHello)
	})
	typ, b, err := s.c.Read(ctx)
	if !late.Stop() {
		return protocol.ClientMessage{}, websocket.StatusPolicyViolation, reasonNoHello
	}
	if err != nil {
		return protocol.ClientMessage{}, websocket.StatusNormalClosure, ""
	}
	if typ != websocket.MessageText {
		return protocol.ClientMessage{}, websocket.StatusUnsupportedData, reasonBinary
	}
	hello, err := protocol.DecodeClientMessage(b)
	if err == nil && hello.Type != "hello" {
		err = refuse.Bad(`the first message must be a "hello"`)
	}
	if err != nil {
		return hello, websocket.StatusPolicyViolation, s.sendError(ctx, hello.ID, err)
	}
	if hello.Token == "" {
		hello.Token = s.cookie
	}
	if hello.Token != "" {
		p, err := s.d.auth.Authenticate(ctx, hello.Token)
		if err != nil {
			return hello, websocket.StatusPolicyViolation, s.sendError(ctx, hello.ID, err)
		}
		s.p = p
	}
	return hello, 0, ""
}

// run runs the socket after its hello: push sends the updates until it
// fails, and each message read is answered by handle, whose non-zero code
// closes the socket. It returns the close code and reason to send. A
// socket that follows a table of its own node uses runPushed instead.
func (s *socket) run(ctx context.Context, push func(context.Context) error, handle func(context.Context, []byte) (websocket.StatusCode, string)) (websocket.StatusCode, string) {
	// The pusher runs here and the reader in one goroutine of its own,
	// which answers each message itself, in the order they came. When
	// the reader ends it stops the pusher through ctx.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	rctx, _ := s.readContext(ctx)
	done := make(chan closing, 1)
	go func() {
		defer stop()
		done <- s.read(ctx, rctx, handle)
	}()
	err := push(ctx)
	select {
	case c := <-done:
		return c.code, c.reason // the reader ended first, and stopped push
	default:
	}
	if errors.Is(err, context.Canceled) {
		return websocket.StatusNormalClosure, ""
	}
	return websocket.StatusGoingAway, s.reason(err)
}

// runPulled runs the socket on f, a follower without the fast path
// (table.Pushed): the pusher sends each update Next returns, and f.handle
// answers the messages read. It returns the close code and reason to
// send.
func (s *socket) runPulled(ctx context.Context, f *follow) (websocket.StatusCode, string) {
	push := func(ctx context.Context) error {
		for {
			u, err := f.wt.Next(ctx)
			if err != nil {
				return err
			}
			if err := s.send(ctx, ServerMessage{Type: "update", Update: &u}); err != nil {
				return err
			}
			// A client that reads slowly is sent the latest update once
			// it has taken the last, not each one made meanwhile.
			if !s.caughtUp(ctx) {
				return ctx.Err()
			}
		}
	}
	return s.run(ctx, push, f.handle)
}

// runPushed runs the socket after its hello, as run does, for a socket
// whose watcher pokes it (Watcher.OnChange): the reader runs in the
// calling goroutine, and a pusher runs only while there are updates to
// send (poke). It returns the close code and reason to send.
func (s *socket) runPushed(ctx context.Context, handle func(context.Context, []byte) (websocket.StatusCode, string)) (websocket.StatusCode, string) {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	ps := &s.pushes
	ps.mu.Lock()
	// A socket moved on from another table (serveTable) starts afresh:
	// the last run's pusher is done, and its watcher closed, so that
	// nothing of it wakes the socket any more.
	ps.ctx, ps.stop = ctx, stop
	ps.again, ps.ended, ps.closing = false, false, closing{}
	ps.mu.Unlock()
	shut := context.AfterFunc(s.d.closing, func() {
		s.end(websocket.StatusGoingAway, reasonShutdown)
	})
	defer shut()
	s.wt.OnChange(s.changed)
	s.poke() // the first update goes at once
	rctx, unwatch := s.readContext(ctx)
	c := s.read(ctx, rctx, handle)
	// A socket moving on to another table reads on: ctx, ended below,
	// must not stop it. Had ctx ended already, the socket was closing
	// (end was called first), and it does not move on.
	unwatch()
	s.end(c.code, c.reason)
	ps.wg.Wait() // the pusher is done with the watcher and the connection
	return ps.closing.code, ps.closing.reason
}

// end closes the socket with code and reason, unless it is already
// closing: it stops the reader and keeps any pusher from starting.
func (s *socket) end(code websocket.StatusCode, reason string) {
	ps := &s.pushes
	ps.mu.Lock()
	if !ps.ended {
		ps.ended = true
		ps.closing = closing{code, reason}
	}
	ps.mu.Unlock()
	ps.stop()
}

// readContext returns the context the reader reads with: one that never
// ends, given one that can, the WebSocket library would watch it with a
// new callback at every message. The end of ctx stops the reader through
// the connection's read deadline instead, which leaves the connection
// able to send its close frame. unwatch undoes that, for a socket that
// goes on reading after ctx (one moved on to another table).
func (s *socket) readContext(ctx context.Context) (rctx context.Context, unwatch func() bool) {
	if s.cc == nil {
		return ctx, func() bool { return true }
	}
	unwatch = context.AfterFunc(ctx, s.cc.stopReading) // ctx always ends: the callers stop it
	return context.WithoutCancel(ctx), unwatch
}

// read answers each message read with handle, in the order they came,
// until reading fails or handle returns a non-zero code; it returns the
// close code and reason to send.
func (s *socket) read(ctx, rctx context.Context, handle func(context.Context, []byte) (websocket.StatusCode, string)) closing {
	// One buffer serves every message: handle keeps nothing of b. A
	// message is read up to a byte past the cap, which tells one too big.
	var buf bytes.Buffer
	var capped io.LimitedReader
	for {
		typ, r, err := s.c.Reader(rctx)
		if err == nil {
			buf.Reset()
			capped.R, capped.N = r, s.d.lim.MaxMessage+1
			_, err = buf.ReadFrom(&capped)
		}
		if err == nil && int64(buf.Len()) > s.d.lim.MaxMessage {
			err = errTooBig
		}
		if err == nil && typ != websocket.MessageText {
			err = errBinary
		}
		if err != nil {
			switch {
			case errors.Is(err, errBinary):
				return closing{websocket.StatusUnsupportedData, reasonBinary}
			case errors.Is(err, errTooBig):
				return closing{websocket.StatusMessageTooBig, reasonTooBig}
			default:
				return closing{websocket.StatusNormalClosure, ""}
			}
		}
		if code, reason := handle(ctx, buf.Bytes()); code != 0 {
			return closing{code, reason}
		}
		if buf.Cap() > 8<<10 {
			buf = bytes.Buffer{} // a rare big message: don't keep its room
		}
	}
}

// handle answers one client message; a non-zero code closes the socket.
func (s *socket) handle(ctx context.Context, id string, b []byte) (websocket.StatusCode, string) {
	if !s.lim.Allow(time.Now()) || (s.p != nil && !s.d.perIdentity.Allow(s.p.Identity)) {
		s.d.tables.RateLimited()
		s.over++
		if s.over > 100 {
			return websocket.StatusPolicyViolation, "too many messages"
		}
		s.sendError(ctx, "", refuse.TooMany("too many messages: slow down"))
		return 0, ""
	}
	s.over = 0
	m, err := protocol.DecodeClientMessage(b)
	if err != nil {
		s.sendError(ctx, m.ID, err)
		return 0, ""
	}
	switch m.Type {
	case "ping":
		s.send(ctx, ServerMessage{Type: "pong", ID: m.ID})
	case "hello":
		next, err := s.moveOn(ctx, m)
		if err != nil {
			s.sendError(ctx, m.ID, err)
			return 0, ""
		}
		s.next = next
		return statusFollow, ""
	case "leave":
		s.leftID = m.ID
		return statusLeave, ""
	case "move":
		if s.p == nil {
			s.sendError(ctx, m.ID, refuse.Unauthorized("spectators cannot move: say hello with your seat's token"))
			return 0, ""
		}
		s.move(ctx, id, m)
	case "setup":
		if s.p == nil {
			s.sendError(ctx, m.ID, refuse.Unauthorized("spectators have no setup: say hello with your seat's token"))
			return 0, ""
		}
		res, err := s.d.tables.Setup(ctx, s.p, id, table.SetupRequest{Setup: m.Setup, Auto: m.Auto, Computer: m.Computer})
		if err != nil {
			s.sendError(ctx, m.ID, err)
			return 0, ""
		}
		s.send(ctx, ServerMessage{Type: "ack", ID: m.ID, Version: res.Version, Setup: res.Setup})
	case "chat":
		sent, err := s.d.chatAllowed(s.addr)
		var line table.ChatLine
		if err == nil {
			line, err = s.d.tables.Chat(ctx, s.p, id, table.ChatRequest{Channel: m.Channel, Text: m.Text})
		}
		if err != nil {
			s.sendError(ctx, m.ID, err)
			return 0, ""
		}
		sent()
		s.send(ctx, ServerMessage{Type: "ack", ID: m.ID, Chat: &line})
	case "mute":
		muted, err := s.d.tables.Mute(ctx, s.p, id, table.MuteRequest{Channel: m.Channel, Muted: m.Muted})
		if err != nil {
			s.sendError(ctx, m.ID, err)
			return 0, ""
		}
		s.send(ctx, ServerMessage{Type: "ack", ID: m.ID, Muted: append(muted, []string{}...)})
	}
	return 0, ""
}

// move plays m and answers it. On the table's own node the ack and the
// update that shows the move to this seat are written together, the ack
// first, and then the other seats' sockets are pushed to from here
// (pushHeld).
func (s *socket) move(ctx context.Context, id string, m protocol.ClientMessage) {
	if s.wt == nil || s.cc == nil {
		res, err := s.d.tables.Move(ctx, s.p, id, table.MoveRequest{Move: m.Move, Version: m.Version})
		if err != nil {
			s.sendError(ctx, m.ID, err)
			return
		}
		s.send(ctx, ServerMessage{Type: "ack", ID: m.ID, Version: res.Version, Result: &res})
		return
	}
	// The pushes held while the move is played run after the deliver
	// lock is let go (Watcher.Moving).
	defer s.wt.Moving()()
	s.deliver.Lock()
	defer s.deliver.Unlock()
	// The changes made while the move is played (the move's own above
	// all) need not wake the pusher: the update polled below shows them.
	s.moving.Store(true)
	res, err := s.d.tables.Move(ctx, s.p, id, table.MoveRequest{Move: m.Move, Version: m.Version})
	s.moving.Store(false)
	if err != nil {
		s.sendError(ctx, m.ID, err)
		s.poke() // no update is polled here: the pusher looks
		return
	}
	ack, err := appendAck(make([]byte, 0, 256), m.ID, &res)
	if err != nil {
		s.sendError(ctx, m.ID, err)
		return
	}
	// The update is polled after the ack is made: an error polling it
	// ends nothing here; the pusher, woken, meets it again and closes the
	// socket (the change behind it, a hand-over say, came while the
	// socket held its pusher back).
	upd, perr := s.wt.PollPoked()
	if perr != nil {
		s.poke()
	}
	s.cc.cork()
	err = s.writeCorked(ack)
	if err == nil && upd != nil {
		err = s.writeCorked(upd)
	}
	if uerr := s.cc.uncork(); err == nil && uerr != nil {
		s.d.log.Debug("socket: writing an ack", "err", uerr)
	}
}

// poke has the socket's pusher look for an update, starting it if it is
// not running, unless the socket is answering a move, which polls for
// the update itself once the move is played.
func (s *socket) poke() { s.wake(false) }

// changed is poke as the table calls it, with its lock held, at every
// change (Watcher.OnChange). While another socket answers a move of the
// table, a seat's socket is left for that socket to push to (pushHeld)
// rather than given a goroutine. A spectator's always gets one: anyone
// may open a spectator's socket, and one that does not read must not
// hold up the players' moves.
func (s *socket) changed() { s.wake(true) }

func (s *socket) wake(mayHold bool) {
	if s.moving.Load() {
		return
	}
	ps := &s.pushes
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if ps.ended {
		return
	}
	ps.again = true
	if ps.running {
		return
	}
	ps.running = true
	ps.wg.Add(1)
	s.d.metrics.pushing.Inc()
	if mayHold && s.wt.Hold(s.heldPush) {
		return
	}
	s.d.metrics.pushersStarted.Inc()
	go s.push(ps.ctx, false)
}

// pushHeld runs the socket's push held by another socket's move
// (Watcher.Hold), on that socket's goroutine.
func (s *socket) pushHeld() {
	s.d.metrics.pushesHeld.Inc()
	s.pushes.mu.Lock()
	ctx := s.pushes.ctx
	s.pushes.mu.Unlock()
	s.push(ctx, true)
}

// push is the socket's pusher: it sends the updates there are, and looks
// again while the table changed meanwhile. An error writing or polling
// closes the socket. Run inline by another socket's move (pushHeld), it
// hands what is left to a goroutine of its own as soon as the socket's
// connection falls behind its client, rather than wait for that client.
func (s *socket) push(ctx context.Context, inline bool) {
	ps := &s.pushes
	for {
		ps.mu.Lock()
		if !ps.again || ps.ended {
			ps.running = false
			s.d.metrics.pushing.Dec()
			ps.mu.Unlock()
			ps.wg.Done()
			return
		}
		ps.again = false
		ps.mu.Unlock()
		handOff, err := s.pushPending(ctx, inline)
		if err != nil {
			s.end(websocket.StatusGoingAway, s.reason(err))
		}
		if handOff {
			ps.mu.Lock()
			ps.again = true
			ps.mu.Unlock()
			s.d.metrics.pushersStarted.Inc()
			go s.push(ctx, false) // it counts in ps.wg in this one's place
			return
		}
	}
}

// pushPending writes the updates there are now. While the socket's
// connection has yet to send what it was sent before, it waits (or, run
// inline, says to hand off): the update it then sends is the latest, not
// each one made meanwhile.
func (s *socket) pushPending(ctx context.Context, inline bool) (handOff bool, err error) {
	for {
		if ch := s.backlogged(); ch != nil {
			if inline {
				return true, nil
			}
			select {
			case <-ch:
			case <-ctx.Done():
				return false, nil // the socket is closing
			}
		}
		s.deliver.Lock()
		b, err := s.wt.PollPoked()
		if err == nil && b != nil {
			err = s.write(ctx, b)
		}
		s.deliver.Unlock()
		if err != nil || b == nil {
			return false, err
		}
	}
}

// backlogged returns a channel closed once the socket's connection has
// sent what it was given, or nil when it has (corkConn.backlogged).
func (s *socket) backlogged() <-chan struct{} {
	if s.cc == nil {
		return nil
	}
	return s.cc.backlogged()
}

// caughtUp waits until the socket's connection has sent what it was
// given, so that what is pushed next is the latest update rather than
// one more behind it; false when ctx ended first.
func (s *socket) caughtUp(ctx context.Context) bool {
	if ch := s.backlogged(); ch != nil {
		select {
		case <-ch:
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// errBinary stops the reader at a binary message, errTooBig at one over
// the size cap.
var (
	errBinary = errors.New("binary message")
	errTooBig = errors.New("message too big")
)

func clipReason(s string) string {
	// A close reason must fit a control frame (123 bytes).
	if len(s) > 120 {
		return s[:120]
	}
	return s
}

func (d *Door) addSocket(s *socket) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.draining {
		return false
	}
	d.sockets[s] = struct{}{}
	return true
}

func (d *Door) dropSocket(s *socket) {
	d.mu.Lock()
	delete(d.sockets, s)
	d.mu.Unlock()
}

// CloseSockets closes every WebSocket with reason and refuses new ones;
// call it when shutting down (http.Server.Shutdown does not know about
// upgraded connections).
func (d *Door) CloseSockets(reason string) {
	d.mu.Lock()
	d.draining = true
	all := make([]*socket, 0, len(d.sockets))
	for s := range d.sockets {
		all = append(all, s)
	}
	d.mu.Unlock()
	for _, s := range all {
		s.c.Close(websocket.StatusGoingAway, reason)
	}
}

// forward answers one message of a socket onto a table another node
// runs by serving its HTTP equivalent through the socket's handler, which
// sends it to the table's owner (or serves it here, should the table have
// come to this node meanwhile), as from remote.
func (s *socket) forward(ctx context.Context, id, token, remote string, b []byte) {
	if !s.lim.Allow(time.Now()) {
		s.d.tables.RateLimited()
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
	rec := &answer{header: http.Header{}}
	s.d.http.ServeHTTP(rec, r)
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

// answer keeps the answer to a socket message's HTTP equivalent.
type answer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *answer) Header() http.Header { return r.header }

func (r *answer) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

func (r *answer) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}
