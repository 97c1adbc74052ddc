// Package client talks to a Parlour server through its documented HTTP API
// and event stream (docs/protocol.md), and nothing else: the terminal
// client, the SSH door and tests share it. It holds no game rules;
// views, events and setups pass through as JSON.
package client

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Client is one player's connection to one server. Its zero value is not
// usable: make it with New.
type Client struct {
	base string
	http *http.Client
	// Name is the display name sent when a request makes a guest.
	Name string
	// silence, when set, stands for StreamSilence (tests).
	silence time.Duration
}

// New returns a client of the server at base (e.g. "http://localhost:8080").
func New(base, name string) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(base, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not a server address: give one like http://localhost:8080", base)
	}
	return &Client{base: u.String(), http: &http.Client{}, Name: name}, nil
}

// WithHTTP makes the client send its requests with h (an SSH door's
// in-memory transport, say) and returns it.
func (c *Client) WithHTTP(h *http.Client) *Client {
	c.http = h
	return c
}

// Base is the server's address as given.
func (c *Client) Base() string { return c.base }

// Error is a request the server refused, with its words and status.
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string { return e.Message }

// Option is one rule option of a game, as GET /api/v1/games lists it.
type Option struct {
	Name    string   `json:"name"`
	Label   string   `json:"label"` // the name players read ("Strike limit")
	Kind    string   `json:"kind"`  // int, bool, choice, text
	Default any      `json:"default"`
	Choices []string `json:"choices,omitempty"`
	Help    string   `json:"help"`
	Min     *int     `json:"min,omitempty"`
	Max     *int     `json:"max,omitempty"`
}

// Game is one game the server offers.
type Game struct {
	Name       string `json:"name"`
	Title      string `json:"title"`
	MinPlayers int    `json:"min_players"`
	MaxPlayers int    `json:"max_players"`
	HasSetup   bool   `json:"has_setup"`
	// Words is set for a game that checks words against its table's
	// word list (its "lexicon").
	Words   bool     `json:"words,omitempty"`
	Options []Option `json:"options"`
	// ModeOption names the option whose choices are rated apart
	// (Nymphabet's "mode"), which a seek takes as its mode; "" for none.
	ModeOption string `json:"mode_option,omitempty"`
	// RatedOptions names the options a rated table may set away from
	// their defaults, the mode option among them; nil when the server
	// does not say (or never rates the game).
	RatedOptions []string `json:"rated_options"`
}

// Event is one thing a move revealed.
type Event struct {
	Kind string          `json:"kind"`
	Text string          `json:"text"`
	To   []int           `json:"to,omitempty"`
	Data json.RawMessage `json:"data,omitempty"`
}

// Move is one move of an update's moves list.
type Move struct {
	Version int     `json:"version"`
	Seat    int     `json:"seat"`
	Player  string  `json:"player"`
	Move    string  `json:"move"`
	Events  []Event `json:"events"`
}

// Seat is one seat of a table.
type Seat struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
	Kind string `json:"kind"`
	// Player is who holds the seat: "account", "guest" or "computer".
	Player string `json:"player,omitempty"`
	Level  string `json:"level,omitempty"`
	Ready  bool   `json:"ready"`
	// Deadline and TimeLeft (seconds, as of the table clock's Now) are
	// set for a seat to move at a table with a clock; AwaySince for a
	// person to move, away, at a table without one.
	Deadline  *time.Time `json:"deadline,omitempty"`
	TimeLeft  *float64   `json:"time_left,omitempty"`
	AwaySince *time.Time `json:"away_since,omitempty"`
	// ClaimAt is when the others may claim the game against that person,
	// if they stay away. Connected says, while the game is played,
	// whether a person's seat has a connection open.
	ClaimAt   *time.Time `json:"claim_at,omitempty"`
	Connected *bool      `json:"connected,omitempty"`
}

// Clock is a table's clock: the seconds a turn may take and the server's
// time when the update was made. Kind is set for a clock other than
// seconds a turn: "fischer", with Initial seconds for the whole game and
// Increment a move (Turn 0), or "correspondence", with Days a move.
type Clock struct {
	Turn      int       `json:"turn"`
	Now       time.Time `json:"now"`
	Kind      string    `json:"kind,omitempty"`
	Initial   int       `json:"initial,omitempty"`
	Increment int       `json:"increment,omitempty"`
	Days      int       `json:"days,omitempty"`
}

// ChatLine is one chat message as the server stores it.
type ChatLine struct {
	Seq     int       `json:"seq"`
	Channel string    `json:"channel"`
	Seat    int       `json:"seat"`
	Name    string    `json:"name"`
	Text    string    `json:"text"`
	At      time.Time `json:"at"`
	// Player is who wrote it: "account", "guest" or "deleted" (an
	// account deleted since).
	Player string `json:"player,omitempty"`
}

// Reveal is one seat's setup shown at the end, with what proves it.
type Reveal struct {
	Salt       string          `json:"salt"`
	Setup      json.RawMessage `json:"setup"`
	Commitment string          `json:"commitment"`
}

// Result is a finished game's outcome.
type Result struct {
	Status  string `json:"status"`
	Winners []int  `json:"winners"`
	Scores  []int  `json:"scores"`
}

// Table is a table's description in an update.
type Table struct {
	ID          string          `json:"id"`
	Game        string          `json:"game"`
	Title       string          `json:"title"`
	Status      string          `json:"status"`
	Rules       json.RawMessage `json:"rules"`
	Lexicon     string          `json:"lexicon"`
	Code        string          `json:"code,omitempty"`
	Seats       []Seat          `json:"seats"`
	ToMove      []int           `json:"to_move"`
	Commitments []string        `json:"commitments,omitempty"`
	Result      *Result         `json:"result,omitempty"`
	// Abortable is set while some player has not yet moved: a seated
	// player may then abort the game (Abort). Aborted says who ended it
	// so, and why (abort, resign, timeout or claim).
	Abortable bool `json:"abortable,omitempty"`
	Aborted   *struct {
		Seat int    `json:"seat"`
		Name string `json:"name"`
		Why  string `json:"why"`
	} `json:"aborted,omitempty"`
	Reveal  []Reveal        `json:"reveal,omitempty"`
	Rematch string          `json:"rematch,omitempty"`
	Clock   *Clock          `json:"clock,omitempty"`
	Set     json.RawMessage `json:"set,omitempty"`
	// Rated says the game changes both players' ratings (in Pool).
	Rated bool   `json:"rated,omitempty"`
	Pool  string `json:"pool,omitempty"`
	// Paired says the table was made for its players (a seek, a
	// challenge, an event): one leaving before play begins closes it.
	Paired    bool `json:"paired,omitempty"`
	Solitaire *struct {
		Maker  string `json:"maker"`
		Random bool   `json:"random"`
	} `json:"solitaire,omitempty"`
	// Daily names the daily puzzle a player's attempt is at
	// ("quizl/2026-11-24").
	Daily string `json:"daily,omitempty"`
	// DayOver marks a daily attempt still under way whose day has ended:
	// it takes no move but a resignation.
	DayOver bool `json:"day_over,omitempty"`
	// Event is the tournament the game is of, if any: the event pairs
	// its players again, and its games have no rematch.
	Event *GameEvent `json:"event,omitempty"`
	// SetupBy, at an event's table in setup, is when every secret setup
	// is due: a player whose setup has not come by then forfeits.
	SetupBy *time.Time `json:"setup_by,omitempty"`
}

// Update is a seat's view of a table at a version: the answer of GET
// /api/v1/tables/{id} and each line of the event stream.
type Update struct {
	Version int             `json:"version"`
	Seat    int             `json:"seat"`
	Table   Table           `json:"table"`
	Setup   json.RawMessage `json:"setup,omitempty"`
	View    json.RawMessage `json:"view"`
	Moves   []Move          `json:"moves,omitempty"`
	// Chat holds the chat messages not sent before (keep them by Seq),
	// and Muted the channels the identity muted.
	Chat  []ChatLine `json:"chat,omitempty"`
	Muted []string   `json:"muted,omitempty"`
}

// Seated is the answer of create, join and rematch.
type Seated struct {
	Table  string `json:"table"`
	Seat   int    `json:"seat"`
	Token  string `json:"token"`
	Invite string `json:"invite,omitempty"`
}

// Answer is the answer of a move or a setup.
type Answer struct {
	Version  int             `json:"version"`
	Status   string          `json:"status"`
	ToMove   []int           `json:"to_move"`
	Events   []Event         `json:"events"`
	Setup    json.RawMessage `json:"setup,omitempty"`
	Started  bool            `json:"started"`
	Waiting  string          `json:"waiting,omitempty"`
	TimedOut bool            `json:"timed_out"`
}

// Listed is one table of the lobby.
type Listed struct {
	ID     string                     `json:"id"`
	Game   string                     `json:"game"`
	Title  string                     `json:"title"`
	Status string                     `json:"status"`
	Rules  map[string]json.RawMessage `json:"rules,omitempty"`
	Seats  []Seat                     `json:"seats"`
	Rated  bool                       `json:"rated,omitempty"`
	// Spectators is how many follow the table without a seat; Rating,
	// for a rated game in play, its players' mean rating.
	Spectators *int     `json:"spectators,omitempty"`
	Rating     *float64 `json:"rating,omitempty"`
}

// Featured is the game the server features: the highest-rated game in
// play, or the most watched (GET /api/v1/tv).
type Featured struct {
	Table      Listed   `json:"table"`
	Rating     *float64 `json:"rating,omitempty"`
	Spectators int      `json:"spectators"`
}

// TV returns the featured game; a server with no game in play answers
// 404.
func (c *Client) TV(ctx context.Context) (Featured, error) {
	var f Featured
	err := c.do(ctx, http.MethodGet, "/api/v1/tv", "", nil, &f)
	return f, err
}

// The answers that wrap a client type: their own types, so that the
// wire test decodes the server's answers into the very types the
// client reads.
type (
	invite struct {
		Table string `json:"table"`
	}
	lobby struct {
		Tables []Listed `json:"tables"`
	}
	keyList struct {
		Keys []Key `json:"keys"`
	}
	mutedList struct {
		Muted []string `json:"muted"`
	}
	followList struct {
		Follows []Followed `json:"follows"`
	}
	blockList struct {
		Blocks []Relation `json:"blocks"`
	}
	lexiconList struct {
		Lexicons []Lexicon `json:"lexicons"`
		Default  string    `json:"default"`
	}
)

// errorAnswer is the server's answer to a request it refuses: why, in
// a player's words.
type errorAnswer struct {
	Error string `json:"error"`
}

// lastWord is the line a server ends a stream with: why, and for a
// stream whose session ended, the status a request would now be answered
// with, which tells the client not to open the stream again.
type lastWord struct {
	Error  string `json:"error"`
	Status int    `json:"status"`
}

// err is the line as an error: an *Error when it says a status.
func (l lastWord) err(stream string) error {
	if l.Status != 0 {
		return &Error{Status: l.Status, Message: l.Error}
	}
	return fmt.Errorf("the server ended %s: %s", stream, l.Error)
}

// maxAnswer caps the answer the client reads of one request, so that a
// server gone wrong cannot make it hold without bound; maxReplay the
// answer of a replay, every seat's view after every move of a game (the
// server sends at most 16 MiB of views).
const (
	maxAnswer = 8 << 20
	maxReplay = 20 << 20
)

// do sends a request and decodes the answer into out (when not nil); a
// *string out takes a text answer as it comes.
func (c *Client) do(ctx context.Context, method, path, token string, body, out any) error {
	return c.doUpTo(ctx, method, path, token, body, out, maxAnswer)
}

// doUpTo is do, reading at most limit bytes of the answer.
func (c *Client) doUpTo(ctx context.Context, method, path, token string, body, out any, limit int64) error {
	return c.send(ctx, method, path, token, "", body, out, limit)
}

// send is doUpTo, with key, when not "", sent as the request's
// Idempotency-Key: it tells Go's transport that the request may be sent
// again, which it then does when the kept-alive connection it chose
// turns out to have been closed by the server before answering.
func (c *Client) send(ctx context.Context, method, path, token, key string, body, out any, limit int64) error {
	var rd io.Reader
	if body != nil {
		j, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return &Unreachable{Base: c.base, Err: err}
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, limit))
	if err != nil {
		return fmt.Errorf("reading the server's answer: %w", err)
	}
	if res.StatusCode >= 300 {
		var e errorAnswer
		if json.Unmarshal(raw, &e) != nil || e.Error == "" {
			if res.StatusCode == http.StatusNotFound {
				return &Error{Status: res.StatusCode, Message: fmt.Sprintf("%s does not answer %s %s: is it a Parlour server of this version?", c.base, method, path)}
			}
			e.Error = fmt.Sprintf("the server answered %s", res.Status)
		}
		return &Error{Status: res.StatusCode, Message: e.Error}
	}
	if out == nil {
		return nil
	}
	if text, ok := out.(*string); ok {
		*text = string(raw)
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("the server at %s answered something other than Parlour's API (%v): is it another version?", c.base, err)
	}
	return nil
}

// Games lists the games the server offers. It doubles as the check that
// the server speaks this version of the API.
func (c *Client) Games(ctx context.Context) ([]Game, error) {
	var gs []Game
	if err := c.do(ctx, http.MethodGet, "/api/v1/games", "", nil, &gs); err != nil {
		return nil, err
	}
	if len(gs) == 0 {
		return nil, fmt.Errorf("the server at %s offers no games: is it a Parlour server of this version?", c.base)
	}
	return gs, nil
}

// Create opens a table. seats is in seat order, with one "me".
func (c *Client) Create(ctx context.Context, token, game string, rules map[string]any, seats []string, extra map[string]any) (Seated, error) {
	body := map[string]any{"game": game, "seats": seats}
	if len(rules) > 0 {
		body["rules"] = rules
	}
	if c.Name != "" {
		body["name"] = c.Name
	}
	for k, v := range extra {
		body[k] = v
	}
	var s Seated
	err := c.do(ctx, http.MethodPost, "/api/v1/tables", token, body, &s)
	c.fullInvite(&s)
	return s, err
}

// fullInvite makes an invite link absolute (a server that does not know
// its own address answers a path).
func (c *Client) fullInvite(s *Seated) {
	if s.Table == "" {
		return
	}
	if s.Invite == "" {
		s.Invite = "/t/" + s.Table
	}
	if strings.HasPrefix(s.Invite, "/") {
		s.Invite = c.base + s.Invite
	}
}

// InviteCode returns the invite code s holds, bare ("k7m-4px") or in a
// /j/CODE link, or "" when s holds a table id or an invite link instead.
// Anything shorter than a table id (16 characters) is taken for a code:
// the server reads it (GET /api/v1/invites/{code}) and says what is wrong
// with a mistyped one.
func InviteCode(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "/j/"); i >= 0 {
		s = s[i+3:]
		if j := strings.IndexAny(s, "/?#"); j >= 0 {
			s = s[:j]
		}
		return strings.TrimSpace(s)
	}
	if strings.Contains(s, "/") || len(s) >= 16 {
		return ""
	}
	return s
}

// FormatCode writes an invite code in two halves for reading aloud:
// "K7M-4PX".
func FormatCode(code string) string {
	if len(code) != 6 {
		return code
	}
	return code[:3] + "-" + code[3:]
}

// Resolve answers the id of the table an invite code stands for.
func (c *Client) Resolve(ctx context.Context, code string) (string, error) {
	var in invite
	err := c.do(ctx, http.MethodGet, "/api/v1/invites/"+url.PathEscape(code), "", nil, &in)
	return in.Table, err
}

// TableID takes a table id out of an invite link, or returns the id given.
func TableID(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "/t/"); i >= 0 {
		s = s[i+3:]
	}
	s = strings.TrimSuffix(s, "/join")
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// Join takes an open seat at table id.
func (c *Client) Join(ctx context.Context, token, id string) (Seated, error) {
	body := map[string]any{}
	if c.Name != "" {
		body["name"] = c.Name
	}
	var s Seated
	err := c.do(ctx, http.MethodPost, "/api/v1/tables/"+url.PathEscape(id)+"/join", token, body, &s)
	c.fullInvite(&s)
	return s, err
}

// Get answers the seat's current view of the table.
func (c *Client) Get(ctx context.Context, token, id string) (Update, error) {
	var u Update
	if err := c.do(ctx, http.MethodGet, "/api/v1/tables/"+url.PathEscape(id), token, nil, &u); err != nil {
		return Update{}, err
	}
	if err := u.Check(); err != nil {
		return Update{}, err
	}
	return u, nil
}

// Check reports an update whose seat numbers name seats its table does
// not have: the client's own seat (-1 for a spectator), the seats to
// move, the winners and the moves' seats. A front end indexes its seats
// with them, and an update that came over the network must not be able
// to make it fail; the server never sends one.
func (u Update) Check() error {
	n := len(u.Table.Seats)
	bad := func(what string, s int) error {
		seats := fmt.Sprintf("%d seats", n)
		if n == 1 {
			seats = "1 seat"
		}
		return fmt.Errorf("the server sent an update this client cannot read: %s: seat %d, at a table of %s", what, s, seats)
	}
	if u.Seat < -1 || u.Seat >= n {
		return bad("its seat", u.Seat)
	}
	for i, s := range u.Table.Seats {
		if s.Seat != i {
			return bad(fmt.Sprintf("the seat in place %d", i), s.Seat)
		}
	}
	for _, s := range u.Table.ToMove {
		if s < 0 || s >= n {
			return bad("the seats to move", s)
		}
	}
	if r := u.Table.Result; r != nil {
		for _, s := range r.Winners {
			if s < 0 || s >= n {
				return bad("the winners", s)
			}
		}
	}
	for _, m := range u.Moves {
		if m.Seat < -1 || m.Seat >= n {
			return bad("a move", m.Seat)
		}
	}
	return nil
}

// CloseIdleConnections closes the connections the client keeps alive
// between requests, so that the next request opens a new one: after the
// network changed or the server restarted, a kept connection may be dead,
// and a move sent on one fails (only a conditional move is sent again by
// itself, see Move).
func (c *Client) CloseIdleConnections() { c.http.CloseIdleConnections() }

// Move plays a move in the game's notation. version, when above zero,
// makes it conditional on the table's version; such a move is sent again
// on a new connection when the kept-alive one it was sent on was closed
// before any answer.
func (c *Client) Move(ctx context.Context, token, id, move string, version int, wait bool) (Answer, error) {
	body := map[string]any{"move": move}
	if version > 0 {
		body["version"] = version
	}
	if wait {
		body["wait"] = true
	}
	// A move conditional on a version is played at most once however
	// often it is sent (the server answers a repeat as made), so it may
	// be sent again on a fresh connection.
	key := ""
	if version > 0 {
		key = id + "@" + strconv.Itoa(version)
	}
	var a Answer
	err := c.send(ctx, http.MethodPost, "/api/v1/tables/"+url.PathEscape(id)+"/moves", token, key, body, &a, maxAnswer)
	return a, err
}

// Setup hands in a secret setup (setup not nil) or asks the server for one
// (auto, made by the computer at level when level is not empty).
func (c *Client) Setup(ctx context.Context, token, id string, setup json.RawMessage, level string) (Answer, error) {
	body := map[string]any{}
	if setup != nil {
		body["setup"] = setup
	} else {
		body["auto"] = true
		if level != "" {
			body["computer"] = level
		}
	}
	var a Answer
	err := c.do(ctx, http.MethodPost, "/api/v1/tables/"+url.PathEscape(id)+"/setup", token, body, &a)
	return a, err
}

// Rematch seats the player at the next table of the series.
func (c *Client) Rematch(ctx context.Context, token, id string) (Seated, error) {
	var s Seated
	err := c.do(ctx, http.MethodPost, "/api/v1/tables/"+url.PathEscape(id)+"/rematch", token, map[string]any{}, &s)
	c.fullInvite(&s)
	return s, err
}

// Record answers the game record as the seat may see it, as raw JSON.
func (c *Client) Record(ctx context.Context, token, id string) (json.RawMessage, error) {
	var r json.RawMessage
	err := c.do(ctx, http.MethodGet, "/api/v1/tables/"+url.PathEscape(id)+"/record", token, nil, &r)
	return r, err
}

// AnalysisText answers the engines' analysis of the finished game at
// table id in words: each move with its verdict, as `parlour analyse`
// prints it.
func (c *Client) AnalysisText(ctx context.Context, token, id string) (string, error) {
	var text string
	err := c.do(ctx, http.MethodGet, "/api/v1/tables/"+url.PathEscape(id)+"/analysis?format=text", token, nil, &text)
	return text, err
}

// Lobby lists the public tables with the given status. Read with the
// identity of token ("" for none), the open tables leave out those where
// a player sits whom a block keeps apart from it.
func (c *Client) Lobby(ctx context.Context, token, status string) ([]Listed, error) {
	var l lobby
	err := c.do(ctx, http.MethodGet, "/api/v1/tables?status="+url.QueryEscape(status), token, nil, &l)
	return l.Tables, err
}

// Helper calls one of the server's editors' helpers under /api/v1/tools/ (check-setup,
// random-setup, fill-setup, preview, replay) and decodes its answer.
func (c *Client) Helper(ctx context.Context, path string, body, out any) error {
	return c.do(ctx, http.MethodPost, path, "", body, out)
}

// Stream follows a table's event stream from version from, sending each
// update on out until ctx ends or the game is over. When the connection
// drops it reconnects from the last version it passed on, so nothing is
// lost or repeated. Each failure is reported on errs (when not nil), and a
// nil error once the server answers again; Stream waits a little longer
// after each failure before trying again.
func (c *Client) Stream(ctx context.Context, token, id string, from int, out chan<- Update, errs chan<- error) {
	report := func(err error) {
		if errs != nil {
			select {
			case errs <- err:
			case <-ctx.Done():
			}
		}
	}
	wait := 200 * time.Millisecond
	failed := false
	for ctx.Err() == nil {
		// The stream answers its first line at once only when the table
		// moved past from; a table still at from (a new table at 0, or
		// one resumed with nothing new) waits for its next change. So
		// look first: that says whether the server is back, and a table
		// still at version 0 is followed from its start without from.
		u, err := c.Get(ctx, token, id)
		withFrom := true
		if err == nil {
			if failed {
				report(nil)
				failed = false
			}
			if u.Version == 0 && from == 0 {
				withFrom = false
			}
			var finished bool
			finished, err = c.streamOnce(ctx, token, id, &from, withFrom, out)
			if finished || ctx.Err() != nil {
				return
			}
			if err == nil {
				err = errors.New("the server closed the event stream")
			}
		}
		var apiErr *Error
		if errors.As(err, &apiErr) && apiErr.Status >= 400 && apiErr.Status < 500 && apiErr.Status != http.StatusTooManyRequests {
			report(err)
			return
		}
		failed = true
		// The connections kept alive for moves most likely went the way
		// of the stream's: let the next request open a new one rather
		// than fail on a dead one.
		c.CloseIdleConnections()
		report(err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		if wait < 5*time.Second {
			wait *= 2
		}
	}
}

// streamOnce reads one connection of the stream; it answers whether the
// game is over. It asks for keep-alives and gives the connection up when
// the server says nothing for c.silence (StreamSilence unless a test
// says), as the player stream does.
func (c *Client) streamOnce(ctx context.Context, token, id string, from *int, withFrom bool, out chan<- Update) (bool, error) {
	w := c.watchSilence(ctx, "the table's event stream")
	defer w.stop()
	finished, err := c.readStream(w.ctx, token, id, from, withFrom, out, w.heard)
	if w.silent() {
		return false, w.err
	}
	return finished, err
}

// readStream reads one connection of the table's event stream, calling
// heard(false) before it hands an update over and heard(true) when it
// listens again.
func (c *Client) readStream(ctx context.Context, token, id string, from *int, withFrom bool, out chan<- Update, heard func(listen bool)) (bool, error) {
	q := url.Values{"keepalive": {"1"}}
	if withFrom {
		q.Set("from", strconv.Itoa(*from))
	}
	path := fmt.Sprintf("%s/api/v1/tables/%s/events?%s", c.base, url.PathEscape(id), q.Encode())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, path, nil)
	if err != nil {
		return false, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return false, &Unreachable{Base: c.base, Err: err}
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(io.LimitReader(res.Body, 1<<16))
		var e errorAnswer
		json.Unmarshal(raw, &e)
		if e.Error == "" {
			e.Error = "the event stream answered " + res.Status
		}
		return false, &Error{Status: res.StatusCode, Message: e.Error}
	}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		heard(true)
		if len(sc.Bytes()) == 0 {
			continue // the stream's keep-alive
		}
		if bytes.HasPrefix(sc.Bytes(), []byte(`{"error"`)) {
			// The server's last word: it is shutting down, or the
			// session the stream signed in with has ended.
			var l lastWord
			if json.Unmarshal(sc.Bytes(), &l) == nil && l.Error != "" {
				return false, l.err("the event stream")
			}
		}
		var u Update
		if err := json.Unmarshal(sc.Bytes(), &u); err != nil {
			return false, fmt.Errorf("a line of the event stream is not an update: %w", err)
		}
		if err := u.Check(); err != nil {
			return false, err
		}
		if u.Version < *from {
			continue
		}
		// An update at the version already seen is no move, but may
		// still be news: a player who came or went, a claim that may
		// now be made, a chat line.
		*from = u.Version
		heard(false)
		select {
		case out <- u:
		case <-ctx.Done():
			return false, ctx.Err()
		}
		heard(true)
		if u.Table.Status == "finished" {
			return true, nil
		}
	}
	if err := sc.Err(); err != nil {
		return false, fmt.Errorf("lost the event stream: %w", err)
	}
	return false, nil
}

// Identity is a guest identity: its name and the token that acts for it,
// and for every seat it takes.
type Identity struct {
	ID    string `json:"identity"`
	Name  string `json:"name"`
	Token string `json:"token"`
}

// NewIdentity makes a guest identity called name (POST /api/v1/identity).
// Its token, sent with creates and joins, binds every seat this client
// takes to one guest; a seat's own token acts for that seat alone.
func (c *Client) NewIdentity(ctx context.Context, name string) (Identity, error) {
	var id Identity
	body := map[string]string{}
	if name != "" {
		body["name"] = name
	}
	err := c.do(ctx, "POST", "/api/v1/identity", "", body, &id)
	return id, err
}

// Session is an account's session: its name and bearer token.
type Session struct {
	Name  string `json:"name"`
	Token string `json:"token"`
}

// SignIn signs in to the account name with password (POST
// /api/v1/sessions).
func (c *Client) SignIn(ctx context.Context, name, password string) (Session, error) {
	var s Session
	err := c.do(ctx, "POST", "/api/v1/sessions", "", map[string]string{"name": name, "password": password}, &s)
	return s, err
}

// AskReset asks for a link to choose a new password for the account
// called name, mailed to its confirmed address (POST
// /api/v1/password-reset), and returns the server's answer, which is the
// same whether it mailed one or not.
func (c *Client) AskReset(ctx context.Context, name string) (string, error) {
	var a resetAsked
	err := c.do(ctx, "POST", "/api/v1/password-reset", "", map[string]string{"name": name}, &a)
	return a.Status, err
}

// ResetOffered says whether the server mails links to choose a new
// password (GET /api/v1/password-reset): only a server that sends mail
// does.
func (c *Client) ResetOffered(ctx context.Context) (bool, error) {
	var o resetOffer
	err := c.do(ctx, "GET", "/api/v1/password-reset", "", nil, &o)
	return o.Offered, err
}

// resetOffer answers ResetOffered.
type resetOffer struct {
	Offered bool `json:"offered"`
}

// resetAsked answers AskReset.
type resetAsked struct {
	Status string `json:"status"`
}

// SignUp makes the account name (POST /api/v1/accounts); with token, a
// guest's, the guest's games become the account's.
func (c *Client) SignUp(ctx context.Context, token, name, password string) (Session, error) {
	var s Session
	err := c.do(ctx, "POST", "/api/v1/accounts", token, map[string]string{"name": name, "password": password}, &s)
	return s, err
}

// SignOut ends the session token (DELETE /api/v1/sessions).
func (c *Client) SignOut(ctx context.Context, token string) error {
	return c.do(ctx, "DELETE", "/api/v1/sessions", token, nil, nil)
}

type ended struct {
	Ended int `json:"ended"`
}

// EndOtherSessions signs the account of session token out everywhere
// else, and returns how many of its other sessions ended.
func (c *Client) EndOtherSessions(ctx context.Context, token string) (int, error) {
	var e ended
	err := c.do(ctx, "DELETE", "/api/v1/account/sessions", token, nil, &e)
	return e.Ended, err
}

// Key is one of an account's SSH keys, as GET /api/v1/keys lists it.
type Key struct {
	Fingerprint string     `json:"fingerprint"`
	Type        string     `json:"type"`
	Comment     string     `json:"comment,omitempty"`
	Added       time.Time  `json:"added"`
	Used        *time.Time `json:"used,omitempty"`
	// Confirmed says the key signs in: a key pasted signs in once its
	// holder has come through the SSH door with it and typed the
	// account's password there.
	Confirmed bool `json:"confirmed"`
}

// Keys lists the SSH keys of the account of token, oldest first.
func (c *Client) Keys(ctx context.Context, token string) ([]Key, error) {
	var out keyList
	err := c.do(ctx, "GET", "/api/v1/keys", token, nil, &out)
	return out.Keys, err
}

// AddKey adds an SSH public key, one authorized_keys line, to the
// account of token (POST /api/v1/keys), given the account's password, and
// returns it as the account now holds it: unconfirmed, unless the
// account had confirmed it already.
func (c *Client) AddKey(ctx context.Context, token, key, password string) (Key, error) {
	var k Key
	err := c.do(ctx, "POST", "/api/v1/keys", token, map[string]string{"key": key, "password": password}, &k)
	return k, err
}

// Chat writes text in a table's chat channel ("players" or "spectators")
// and answers the message as stored.
func (c *Client) Chat(ctx context.Context, token, id, channel, text string) (ChatLine, error) {
	var l ChatLine
	err := c.do(ctx, http.MethodPost, "/api/v1/tables/"+url.PathEscape(id)+"/chat", token,
		map[string]string{"channel": channel, "text": text}, &l)
	return l, err
}

// Mute mutes (or unmutes) a table's chat channel for the identity and
// answers the channels now muted.
func (c *Client) Mute(ctx context.Context, token, id, channel string, muted bool) ([]string, error) {
	var out mutedList
	err := c.do(ctx, http.MethodPost, "/api/v1/tables/"+url.PathEscape(id)+"/chat/mute", token,
		map[string]any{"channel": channel, "muted": muted}, &out)
	return out.Muted, err
}

// Left is the answer to Leave.
type Left struct {
	Table string `json:"table"`
	Seat  int    `json:"seat"`
	// Cancelled says the table closed: nobody else was seated.
	Cancelled bool `json:"cancelled"`
}

// Leave gives up the seat of token at table id before its game begins.
func (c *Client) Leave(ctx context.Context, token, id string) (Left, error) {
	var l Left
	err := c.do(ctx, http.MethodPost, "/api/v1/tables/"+url.PathEscape(id)+"/leave", token, struct{}{}, &l)
	return l, err
}

// Abort ends the game at table id without a result, while some player
// has not yet moved.
func (c *Client) Abort(ctx context.Context, token, id string) error {
	return c.do(ctx, http.MethodPost, "/api/v1/tables/"+url.PathEscape(id)+"/abort", token, struct{}{}, nil)
}

// Claim claims the game against the players to move who have been away
// too long; the server decides, and says why not.
func (c *Client) Claim(ctx context.Context, token, id string) (Answer, error) {
	var a Answer
	err := c.do(ctx, http.MethodPost, "/api/v1/tables/"+url.PathEscape(id)+"/claim", token, struct{}{}, &a)
	return a, err
}
