// Package reference is the reference server of Parlour's load tests: the
// smallest honest Go server doing Parlour's durable job, to measure
// Parlour against. It takes a move over net/http or a WebSocket
// (github.com/coder/websocket), checks it against the table's state in
// memory with the game's own referee (through package game's
// interfaces), appends it to SQLite with the settings of Parlour's store
// (WAL, synchronous FULL, the same group commit interval), and
// acknowledges it only after the commit. Then it sends each seat
// following the table its own view.
//
// It speaks as much of Parlour's HTTP API and WebSocket protocol
// (docs/protocol.md) as `parlour loadtest` uses: guest identities,
// tables made, joined and set up, moves, the socket's hello, acks and
// updates (with view tails), and the records read back for the
// durability check. Everything else Parlour does is left out on purpose
// (accounts, rate limits, hashed tokens, clocks, chat, spectators' and
// lobby's lists, strict request decoding, metrics beyond the store's
// commits): what Parlour spends a move beyond this server is the cost of
// those. It is a measuring tool, never a way to serve games: `parlour
// serve` does not offer it, and `parlour loadtest --target reference`
// runs it.
package reference

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
	"parlour/store/sqlite"
)

// Options tune a Server.
type Options struct {
	// Path is the SQLite database's file, made if need be.
	Path string
	// CommitInterval is the least time between the starts of two
	// commits; 0 means Parlour's store's default.
	CommitInterval time.Duration
}

// Server is the reference server: an http.Handler.
type Server struct {
	reg   *game.Registry
	lex   *lexicon.Lexicon
	store *store
	mux   *http.ServeMux

	mu     sync.Mutex
	idents map[string]string // identity token -> name
	seats  map[string]seatOf // seat token -> its table and seat
	tables map[string]*table // by id

	accepted, refused atomic.Int64
}

// seatOf is what a seat token acts for.
type seatOf struct {
	t    *table
	seat game.Seat
}

// New opens the store at o.Path and returns a server ready to serve.
func New(ctx context.Context, o Options) (*Server, error) {
	lex, err := lexicon.Load(lexicon.DefaultName)
	if err != nil {
		return nil, err
	}
	every := o.CommitInterval
	if every == 0 {
		every = sqlite.DefaultCommitInterval
	}
	st, err := openStore(ctx, o.Path, every)
	if err != nil {
		return nil, fmt.Errorf("reference server: %w", err)
	}
	s := &Server{reg: games.Registry(), lex: lex, store: st, mux: http.NewServeMux(),
		idents: map[string]string{}, seats: map[string]seatOf{}, tables: map[string]*table{}}
	s.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok\n")) })
	s.mux.HandleFunc("GET /metrics", s.metrics)
	s.mux.HandleFunc("POST /api/v1/identity", s.identity)
	s.mux.HandleFunc("POST /api/v1/tables", s.create)
	s.mux.HandleFunc("POST /api/v1/tables/{id}/join", s.join)
	s.mux.HandleFunc("POST /api/v1/tables/{id}/setup", s.setup)
	s.mux.HandleFunc("POST /api/v1/tables/{id}/moves", s.moveHTTP)
	s.mux.HandleFunc("GET /api/v1/tables/{id}/record", s.record)
	s.mux.HandleFunc("GET /api/v1/tables/{id}/socket", s.socket)
	return s, nil
}

// ServeHTTP serves the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Close stops the store's writer once it has committed what it was
// given. The sockets are the HTTP server's to close.
func (s *Server) Close() error { return s.store.close() }

// table is one table in memory.
type table struct {
	id    string
	g     game.Game
	mu    sync.Mutex
	cfg   game.Config
	by    []string // the identity token holding each seat ("" open)
	toks  []string // the seat tokens issued at this table
	set   []json.RawMessage
	st    game.State // nil until play starts
	seq   int        // moves stored
	ver   int        // changes
	socks []*sock
	// broken is set when a move was applied in memory but not stored:
	// the table then refuses everything rather than run ahead of its
	// record.
	broken bool
}

// status is the table's status in Parlour's words.
func (t *table) status() string {
	switch {
	case t.st != nil && t.st.Result().Status.Over():
		return "finished"
	case t.st != nil:
		return "playing"
	case contains(t.by, ""):
		return "open"
	}
	return "setup"
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// httpError is a refusal: its status and what is wrong in a player's
// words.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func refuse(status int, format string, args ...any) error {
	return &httpError{status, fmt.Sprintf(format, args...)}
}

// statusOf returns the HTTP status of err.
func statusOf(err error) int {
	var he *httpError
	if errors.As(err, &he) {
		return he.status
	}
	return http.StatusInternalServerError
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"encoding the answer failed"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

func writeError(w http.ResponseWriter, err error) {
	writeJSON(w, statusOf(err), map[string]string{"error": err.Error()})
}

// readBody decodes the request's JSON body into v, refusing unknown
// fields.
func readBody(w http.ResponseWriter, r *http.Request, v any) error {
	d := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return refuse(http.StatusBadRequest, "malformed request: %v", err)
	}
	return nil
}

// bearer returns the request's bearer token, or "".
func bearer(r *http.Request) string {
	const p = "Bearer "
	h := r.Header.Get("Authorization")
	if len(h) > len(p) && h[:len(p)] == p {
		return h[len(p):]
	}
	return ""
}

// newToken returns 128 random bits, in hex.
func newToken() string {
	var b [16]byte
	crand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4")
	for _, m := range []struct {
		name string
		v    int64
	}{
		{"parlour_store_commits_total", s.store.commits.Load()},
		{"parlour_store_writes_total", s.store.written.Load()},
		{"parlour_moves_accepted_total", s.accepted.Load()},
		{"parlour_moves_refused_total", s.refused.Load()},
	} {
		fmt.Fprintf(w, "# TYPE %s counter\n%s %d\n", m.name, m.name, m.v)
	}
}

// identity makes a guest identity, kept in memory only.
func (s *Server) identity(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string `json:"name"`
	}
	if err := readBody(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Name == "" {
		req.Name = "Guest"
	}
	tok := newToken()
	s.mu.Lock()
	s.idents[tok] = req.Name
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]string{"identity": newToken()[:16], "name": req.Name, "token": tok})
}

// identityOf returns the name of the identity token tok.
func (s *Server) identityOf(tok string) (string, error) {
	s.mu.Lock()
	name, ok := s.idents[tok]
	s.mu.Unlock()
	if !ok {
		return "", refuse(http.StatusUnauthorized, "an identity token is needed")
	}
	return name, nil
}

// create makes a table of "me" and open seats, stored before the answer.
func (s *Server) create(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Game    string                     `json:"game"`
		Seats   []string                   `json:"seats"`
		Rules   map[string]json.RawMessage `json:"rules"`
		Private bool                       `json:"private"`
		Name    string                     `json:"name"`
	}
	if err := readBody(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	tok := bearer(r)
	name, err := s.identityOf(tok)
	if err != nil {
		writeError(w, err)
		return
	}
	t, seatTok, err := s.newTable(req.Game, req.Seats, req.Rules, tok, name)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"table": t.id, "seat": 0, "token": seatTok})
}

func (s *Server) newTable(name string, seats []string, raw map[string]json.RawMessage, tok, player string) (*table, string, error) {
	g, err := s.reg.Lookup(name)
	if err != nil {
		return nil, "", refuse(http.StatusBadRequest, "%v", err)
	}
	lo, hi := g.Players()
	if len(seats) < lo || len(seats) > hi || len(seats) < 2 || seats[0] != "me" {
		return nil, "", refuse(http.StatusBadRequest, "seats must be \"me\" and then open seats, %d to %d in all", max(lo, 2), hi)
	}
	for _, x := range seats[1:] {
		if x != "open" {
			return nil, "", refuse(http.StatusBadRequest, "this server seats only people: %q is not \"open\"", x)
		}
	}
	rules, err := game.ResolveFor(g, raw)
	if err != nil {
		return nil, "", refuse(http.StatusBadRequest, "%v", err)
	}
	t := &table{id: newToken()[:16], g: g, by: make([]string, len(seats)), set: make([]json.RawMessage, len(seats)),
		cfg: game.Config{Players: make([]string, len(seats)), Rules: rules, Lexicon: s.lex, Seed: rand.Uint64()}}
	for i := range t.cfg.Players {
		t.cfg.Players[i] = "Seat " + strconv.Itoa(i+1)
	}
	t.cfg.Players[0], t.by[0] = player, tok
	players, _ := json.Marshal(t.cfg.Players)
	if err := s.store.exec("INSERT INTO tables (id, game, players, setups, created) VALUES (?, ?, ?, '[]', ?)",
		t.id, g.Name(), string(players), time.Now().UnixNano()); err != nil {
		return nil, "", refuse(http.StatusServiceUnavailable, "the table could not be stored: %v", err)
	}
	t.ver = 1
	seatTok := newToken()
	t.toks = append(t.toks, seatTok)
	s.mu.Lock()
	s.tables[t.id] = t
	s.seats[seatTok] = seatOf{t, 0}
	s.mu.Unlock()
	return t, seatTok, nil
}

// tableOf returns the table the request's path names.
func (s *Server) tableOf(r *http.Request) (*table, error) {
	return s.lookup(r.PathValue("id"))
}

func (s *Server) lookup(id string) (*table, error) {
	s.mu.Lock()
	t, ok := s.tables[id]
	s.mu.Unlock()
	if !ok {
		return nil, refuse(http.StatusNotFound, "no table %q", id)
	}
	return t, nil
}

// join seats the identity at the table's first open seat.
func (s *Server) join(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string `json:"name"`
	}
	if err := readBody(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	t, err := s.tableOf(r)
	if err != nil {
		writeError(w, err)
		return
	}
	tok := bearer(r)
	name, err := s.identityOf(tok)
	if err != nil {
		writeError(w, err)
		return
	}
	seat, seatTok, err := s.seat(t, tok, name)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"table": t.id, "seat": seat, "token": seatTok})
}

func (s *Server) seat(t *table, tok, name string) (game.Seat, string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if contains(t.by, tok) {
		return 0, "", refuse(http.StatusConflict, "you already hold a seat at this table")
	}
	seat := -1
	for i, b := range t.by {
		if b == "" {
			seat = i
			break
		}
	}
	if seat < 0 {
		return 0, "", refuse(http.StatusConflict, "the table is full")
	}
	// Names are unique at a table.
	unique := name
	for n := 2; contains(t.cfg.Players, unique); n++ {
		unique = fmt.Sprintf("%s (%d)", name, n)
	}
	players := append([]string(nil), t.cfg.Players...)
	players[seat] = unique
	b, _ := json.Marshal(players)
	if err := s.store.exec("UPDATE tables SET players = ? WHERE id = ?", string(b), t.id); err != nil {
		return 0, "", refuse(http.StatusServiceUnavailable, "the seat could not be stored: %v", err)
	}
	t.cfg.Players, t.by[seat] = players, tok
	t.ver++
	seatTok := newToken()
	t.toks = append(t.toks, seatTok)
	s.mu.Lock()
	s.seats[seatTok] = seatOf{t, game.Seat(seat)}
	s.mu.Unlock()
	if !t.g.HasSetup() && !contains(t.by, "") {
		if err := t.start(); err != nil {
			return 0, "", err
		}
	}
	return game.Seat(seat), seatTok, nil
}

// start starts play once every seat and setup is in. t.mu must be held.
func (t *table) start() error {
	var setups []json.RawMessage
	if t.g.HasSetup() {
		setups = t.set
	}
	st, err := t.g.New(t.cfg, setups)
	if err != nil {
		return refuse(http.StatusUnprocessableEntity, "%v", err)
	}
	t.st = st
	t.ver++
	return nil
}

// seatFor returns the table and seat that the request's seat token acts
// for at the table its path names.
func (s *Server) seatFor(r *http.Request) (*table, game.Seat, error) {
	s.mu.Lock()
	so, ok := s.seats[bearer(r)]
	s.mu.Unlock()
	if !ok {
		return nil, 0, refuse(http.StatusUnauthorized, "a seat token is needed")
	}
	if so.t.id != r.PathValue("id") {
		return nil, 0, refuse(http.StatusForbidden, "that token holds no seat at this table")
	}
	return so.t, so.seat, nil
}

// setup takes a seat's secret setup, checked by the game, stored before
// the answer; the last one starts play.
func (s *Server) setup(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Setup json.RawMessage `json:"setup"`
	}
	if err := readBody(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	t, seat, err := s.seatFor(r)
	if err != nil {
		writeError(w, err)
		return
	}
	ans, err := s.setupSeat(t, seat, req.Setup)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, ans)
}

func (s *Server) setupSeat(t *table, seat game.Seat, raw json.RawMessage) (map[string]any, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case !t.g.HasSetup():
		return nil, refuse(http.StatusConflict, "%s has no setups", t.g.Title())
	case t.st != nil:
		return nil, refuse(http.StatusConflict, "play has started: setups are closed")
	}
	checked, err := t.g.CheckSetup(t.cfg, seat, raw)
	if err != nil {
		return nil, refuse(http.StatusUnprocessableEntity, "%v", err)
	}
	set := append([]json.RawMessage(nil), t.set...)
	set[seat] = checked
	b, _ := json.Marshal(set)
	if err := s.store.exec("UPDATE tables SET setups = ? WHERE id = ?", string(b), t.id); err != nil {
		return nil, refuse(http.StatusServiceUnavailable, "the setup could not be stored: %v", err)
	}
	t.set = set
	t.ver++
	if !contains(t.by, "") && !containsNil(t.set) {
		if err := t.start(); err != nil {
			return nil, err
		}
	}
	toMove := []game.Seat{}
	if t.st != nil {
		toMove = t.st.ToMove()
	}
	return map[string]any{"version": t.ver, "setup": checked, "started": t.st != nil, "status": t.status(), "to_move": toMove}, nil
}

func containsNil(s []json.RawMessage) bool {
	for _, x := range s {
		if x == nil {
			return true
		}
	}
	return false
}

// moveHTTP plays a move posted over HTTP.
func (s *Server) moveHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Move string `json:"move"`
	}
	if err := readBody(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	t, seat, err := s.seatFor(r)
	if err != nil {
		writeError(w, err)
		return
	}
	ans, _, pushes, err := s.play(t, seat, req.Move)
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(ans)
	push(pushes)
}

// play applies move for seat at t, stores it, and returns the answer to
// the mover and the updates for the sockets following t. The table stays
// locked until the commit returns, so that its moves are stored in order.
func (s *Server) play(t *table, seat game.Seat, text string) (ans []byte, version int, _ []pushed, _ error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.broken:
		return nil, 0, nil, refuse(http.StatusServiceUnavailable, "this table's store failed: try again later")
	case t.st == nil:
		return nil, 0, nil, refuse(http.StatusConflict, "the game has not started")
	}
	if n, ok := t.st.(game.Normalizer); ok {
		norm, err := n.Normalize(seat, text)
		if err != nil {
			s.refused.Add(1)
			return nil, 0, nil, refuse(http.StatusUnprocessableEntity, "%v", err)
		}
		text = norm
	}
	evs, err := t.st.Apply(seat, text)
	if err != nil {
		s.refused.Add(1)
		if errors.Is(err, game.ErrNotYourTurn) {
			return nil, 0, nil, refuse(http.StatusConflict, "%v", err)
		}
		return nil, 0, nil, refuse(http.StatusUnprocessableEntity, "%v", err)
	}
	if err := s.store.appendMove(&move{table: t.id, seq: t.seq + 1, seat: int(seat), text: text, at: time.Now()}); err != nil {
		t.broken = true
		return nil, 0, nil, refuse(http.StatusServiceUnavailable, "the move could not be stored: %v", err)
	}
	t.seq++
	t.ver++
	s.accepted.Add(1)
	ans, err = t.answer(seat, evs)
	if err != nil {
		return nil, 0, nil, err
	}
	if t.st.Result().Status.Over() {
		s.forget(t)
	}
	return ans, t.ver, t.updates(), nil
}

// forget drops a finished table and its seat tokens from memory, as
// Parlour lets its finished tables go: its record is in the store, and
// the sockets that follow it get its last update and move on.
func (s *Server) forget(t *table) {
	s.mu.Lock()
	delete(s.tables, t.id)
	for _, tok := range t.toks {
		delete(s.seats, tok)
	}
	s.mu.Unlock()
}

// answer encodes the answer to a move: the table's version, status and
// seats to move, and the events the move revealed to the mover.
func (t *table) answer(seat game.Seat, evs []game.Event) ([]byte, error) {
	b := append(make([]byte, 0, 512), `{"version":`...)
	b = strconv.AppendInt(b, int64(t.ver), 10)
	b = append(b, `,"status":"`...)
	b = append(b, t.status()...)
	b = append(b, `","to_move":`...)
	b = appendSeats(b, t.st.ToMove())
	b = append(b, `,"events":`...)
	vis := game.VisibleTo(evs, seat)
	if vis == nil {
		vis = []game.Event{}
	}
	e, err := json.Marshal(vis)
	if err != nil {
		return nil, fmt.Errorf("encoding the events: %w", err)
	}
	return append(append(b, e...), '}'), nil
}

func appendSeats(b []byte, seats []game.Seat) []byte {
	b = append(b, '[')
	for i, s := range seats {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(s), 10)
	}
	return append(b, ']')
}

// record answers a table's record as the store holds it.
func (s *Server) record(w http.ResponseWriter, r *http.Request) {
	rec, err := s.store.readRecord(r.Context(), r.PathValue("id"))
	switch {
	case errors.Is(err, errNoTable):
		writeError(w, refuse(http.StatusNotFound, "no table %q", r.PathValue("id")))
	case err != nil:
		writeError(w, refuse(http.StatusServiceUnavailable, "reading the record: %v", err))
	default:
		writeJSON(w, http.StatusOK, rec)
	}
}

// Serve serves s on ln until ctx is done, then closes every
// connection, the sockets too, and returns.
func Serve(ctx context.Context, s *Server, ln net.Listener) error {
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	stop := context.AfterFunc(ctx, func() { hs.Close() })
	defer stop()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
