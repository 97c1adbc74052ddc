package client

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Challenge is one account's challenge to another (GET, POST
// /api/v1/challenges). Status is "open", "accepted", "declined",
// "canceled" or "expired"; Table names the table an accepted one opened.
type Challenge struct {
	ID      string                     `json:"id"`
	From    string                     `json:"from"`
	To      string                     `json:"to"`
	Game    string                     `json:"game"`
	Rules   map[string]json.RawMessage `json:"rules,omitempty"`
	Rated   bool                       `json:"rated"`
	Lexicon string                     `json:"lexicon,omitempty"` // a word game's word list, when not the default
	Status  string                     `json:"status"`
	Table   string                     `json:"table,omitempty"`
	Created time.Time                  `json:"created"`
	Expires time.Time                  `json:"expires"`
}

// The answers that list challenges, tables and games.
type (
	challengeLists struct {
		In  []Challenge `json:"in"`
		Out []Challenge `json:"out"`
	}
	yourTables struct {
		Tables []YourTable `json:"tables"`
	}
	playedGames struct {
		Games []PlayedGame `json:"games"`
		Next  string       `json:"next,omitempty"`
	}
)

// StreamTable is a table in a line of the player stream.
type StreamTable struct {
	ID        string `json:"id"`
	Game      string `json:"game"`
	Seat      int    `json:"seat"`
	Rated     bool   `json:"rated,omitempty"`
	Challenge string `json:"challenge,omitempty"`
	Result    string `json:"result,omitempty"`
}

// PlayerEvent is one line of the player stream (GET /api/v1/stream):
// Type is "challenge", "challengeDeclined", "challengeCanceled",
// "gameStart", "gameFinish" or "tournamentGame" (an event paired the
// player at a table), among others.
type PlayerEvent struct {
	Type      string       `json:"type"`
	Challenge *Challenge   `json:"challenge,omitempty"`
	Table     *StreamTable `json:"table,omitempty"`
	// Follow is the followed player of a followOnline or followPlaying.
	Follow *FollowNews `json:"follow,omitempty"`
	// Tournament is the pairing of a tournamentGame.
	Tournament *TournamentPairing `json:"tournament,omitempty"`
	// Rematch is the offer of a "rematch": another player of a
	// finished game asked for the next one.
	Rematch *Rematch `json:"rematch,omitempty"`
	// Refund is what a "refund" gave back: rating points lost to a
	// player a moderator closed for cheating.
	Refund *RefundNews `json:"refund,omitempty"`
	Error  string      `json:"error,omitempty"`
}

// RefundNews is the rating points a refund gave back in one pool.
type RefundNews struct {
	Pool   string  `json:"pool"`
	Points float64 `json:"points"`
	Games  int     `json:"games"`
}

// Rematch is a rematch offered on the player stream: From asked for the
// game after the finished table Prev, and the player's seat waits at
// Table.
type Rematch struct {
	Table string `json:"table"`
	Prev  string `json:"prev"`
	Game  string `json:"game"`
	Seat  int    `json:"seat"`
	From  string `json:"from"`
	Rated bool   `json:"rated,omitempty"`
}

// Online is who is around (GET /api/v1/online): how many identities,
// guests included, and the signed-in players who do not hide.
type Online struct {
	Count   int `json:"count"`
	Players []struct {
		Name string `json:"name"`
	} `json:"players"`
}

// Online asks who is online, as the identity of token sees it (""
// anyone): a player who blocks it, or whom it blocks, is left out.
func (c *Client) Online(ctx context.Context, token string) (Online, error) {
	var o Online
	err := c.do(ctx, http.MethodGet, "/api/v1/online", token, nil, &o)
	return o, err
}

// Challenges lists the open challenges made to the account of token
// (in) and by it (out), newest first.
func (c *Client) Challenges(ctx context.Context, token string) (in, out []Challenge, err error) {
	var l challengeLists
	err = c.do(ctx, http.MethodGet, "/api/v1/challenges", token, nil, &l)
	return l.In, l.Out, err
}

// Proposal is what a challenge offers: the game, whether it is rated,
// its rules (the table's rule options, a "clock" among them; nil: the
// defaults) and a word game's word list ("": the server's default).
type Proposal struct {
	Game    string
	Rated   bool
	Rules   map[string]any
	Lexicon string
}

// Challenge challenges the account called to to the game p proposes.
func (c *Client) Challenge(ctx context.Context, token, to string, p Proposal) (Challenge, error) {
	var ch Challenge
	body := map[string]any{"to": to, "game": p.Game, "rated": p.Rated}
	if len(p.Rules) > 0 {
		body["rules"] = p.Rules
	}
	if p.Lexicon != "" {
		body["lexicon"] = p.Lexicon
	}
	err := c.do(ctx, http.MethodPost, "/api/v1/challenges", token, body, &ch)
	return ch, err
}

// Accept accepts challenge id: the table it opens, with the accepter's
// seat.
func (c *Client) Accept(ctx context.Context, token, id string) (Seated, error) {
	var s Seated
	err := c.do(ctx, http.MethodPost, "/api/v1/challenges/"+url.PathEscape(id)+"/accept", token, nil, &s)
	c.fullInvite(&s)
	return s, err
}

// Withdraw withdraws challenge id, one the account of token made.
func (c *Client) Withdraw(ctx context.Context, token, id string) (Challenge, error) {
	var ch Challenge
	err := c.do(ctx, http.MethodDelete, "/api/v1/challenges/"+url.PathEscape(id), token, nil, &ch)
	return ch, err
}

// Decline declines challenge id.
func (c *Client) Decline(ctx context.Context, token, id string) (Challenge, error) {
	var ch Challenge
	err := c.do(ctx, http.MethodPost, "/api/v1/challenges/"+url.PathEscape(id)+"/decline", token, nil, &ch)
	return ch, err
}

// YourTable is a table under way where the identity of the token holds a
// seat (GET /api/v1/identity/tables).
type YourTable struct {
	Table
	Seat    int       `json:"seat"`
	Created time.Time `json:"created"`
}

// YourTables lists the tables under way where the token's identity holds
// a seat, newest first.
func (c *Client) YourTables(ctx context.Context, token string) ([]YourTable, error) {
	var l yourTables
	err := c.do(ctx, http.MethodGet, "/api/v1/identity/tables", token, nil, &l)
	return l.Tables, err
}

// PlayedGame is one finished game of an account's history.
type PlayedGame struct {
	Table  string    `json:"table"`
	Game   string    `json:"game"`
	Ended  time.Time `json:"ended"`
	Seat   int       `json:"seat"`
	Result string    `json:"result"`
	Rated  bool      `json:"rated,omitempty"`
	// Opponents are the other seats: Kind "account", "guest",
	// "computer" or "deleted".
	Opponents []struct {
		Name string `json:"name"`
		Kind string `json:"kind"`
		// Forfeited is as the game's, for this seat.
		Forfeited string `json:"forfeited,omitempty"`
	} `json:"opponents"`
	// Forfeited says the server played for the player: "timeout", their
	// time ran out, or "claim", they were away and the game was claimed.
	Forfeited string `json:"forfeited,omitempty"`
	// A rated game's pool, and the player's rating before and after it.
	Pool         string  `json:"pool,omitempty"`
	RatingBefore float64 `json:"rating_before,omitempty"`
	RatingAfter  float64 `json:"rating_after,omitempty"`
	// Daily names the daily puzzle the game was an attempt at,
	// "quizl/2026-12-03" ("" for any other game).
	Daily string `json:"daily,omitempty"`
	// Event names the event that paired the game (nil for any other).
	Event *GameEvent `json:"event,omitempty"`
}

// GameEvent names the event a game was played in: its id, its name, and
// the round, in a Swiss.
type GameEvent struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Round int    `json:"round,omitempty"`
}

// PlayerExport reads every finished game of the account name, newest
// first, as records, one a line (GET /api/v1/players/{name}/games/export),
// and counts them: a private table's game only when token's identity
// ("" for anyone) sat at it.
func (c *Client) PlayerExport(ctx context.Context, token, name string) (records string, n int, err error) {
	return c.export(ctx, token, "/api/v1/players/"+url.PathEscape(name)+"/games/export", name+"'s games")
}

// OwnGames lists the latest finished games of token's identity, a
// guest's as well as an account's, newest first.
func (c *Client) OwnGames(ctx context.Context, token string, limit int) ([]PlayedGame, error) {
	var l playedGames
	err := c.do(ctx, http.MethodGet, fmt.Sprintf("/api/v1/identity/games?limit=%d", limit), token, nil, &l)
	return l.Games, err
}

// PlayedGames lists the account name's latest finished games, newest
// first, as GamesBefore does.
func (c *Client) PlayedGames(ctx context.Context, token, name string, limit int) ([]PlayedGame, error) {
	gs, _, err := c.GamesBefore(ctx, token, name, "", limit)
	return gs, err
}

// GamesBefore lists a page of the account name's finished games, newest
// first: the latest when before is "", else those after the page whose
// next was before. next names the following page, "" after the last. A
// private table's game is listed only when token's identity ("" for
// anyone) sat at it.
func (c *Client) GamesBefore(ctx context.Context, token, name, before string, limit int) (games []PlayedGame, next string, err error) {
	q := url.Values{"limit": {strconv.Itoa(limit)}}
	if before != "" {
		q.Set("before", before)
	}
	var l playedGames
	err = c.do(ctx, http.MethodGet, "/api/v1/players/"+url.PathEscape(name)+"/games?"+q.Encode(), token, nil, &l)
	return l.Games, l.Next, err
}

// PlayerStream follows the player stream of token, sending each line on
// out until ctx ends. While it is open the server counts the player
// online and delivers their challenges. When the connection drops it
// opens the stream again (which starts with the open challenges and the
// tables under way, so nothing is missed for long), waiting a little
// longer after each failure; each failure is reported on errs (when not
// nil), and a nil error once the stream is open again. A refusal (a
// token the server no longer knows) ends it.
func (c *Client) PlayerStream(ctx context.Context, token string, out chan<- PlayerEvent, errs chan<- error) {
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
		err := c.playerStreamOnce(ctx, token, out, func() {
			if failed {
				report(nil)
				failed = false
			}
			wait = 200 * time.Millisecond
		})
		if ctx.Err() != nil {
			return
		}
		if err == nil {
			err = errors.New("the server closed the player stream")
		}
		var apiErr *Error
		if errors.As(err, &apiErr) && apiErr.Status >= 400 && apiErr.Status < 500 && apiErr.Status != http.StatusTooManyRequests {
			report(err)
			return
		}
		failed = true
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

// StreamSilence is how long the player stream, or a table's event
// stream, may say nothing, not even its keep-alive (an empty line after
// 7 s of quiet), before the client takes the connection for dead and
// opens the stream again. A connection cut without a word (a laptop
// waking from sleep, a router forgetting it, a server's host lost)
// otherwise leaves the stream waiting for good: the player offline to
// the others, their challenges unseen, the other players' moves never
// shown.
const StreamSilence = 30 * time.Second

// playerStreamOnce reads one connection of the player stream; opened is
// called once the server answers. It gives the connection up when the
// server says nothing for c.silence (StreamSilence unless a test says).
func (c *Client) playerStreamOnce(ctx context.Context, token string, out chan<- PlayerEvent, opened func()) error {
	w := c.watchSilence(ctx, "the player stream")
	defer w.stop()
	err := c.readPlayerStream(w.ctx, token, out, opened, w.heard)
	if w.silent() {
		return w.err
	}
	return err
}

// silenceWatch ends a stream's context once the server has said nothing
// for the silence allowed.
type silenceWatch struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	quiet  *time.Timer
	every  time.Duration
	err    error // the cause, naming the stream
}

// watchSilence watches one connection of stream (named for the report)
// for c.silence, StreamSilence unless a test says: read the stream with
// w.ctx, call w.heard(true) whenever a line came or the reader listens
// again, w.heard(false) while a line waits for the stream's own reader
// (which is not the server's silence), and w.stop when done.
func (c *Client) watchSilence(ctx context.Context, stream string) *silenceWatch {
	w := &silenceWatch{every: cmp.Or(c.silence, StreamSilence)}
	w.ctx, w.cancel = context.WithCancelCause(ctx)
	w.err = fmt.Errorf("heard nothing from the server at %s for %v: opening %s again", c.base, w.every, stream)
	w.quiet = time.AfterFunc(w.every, func() { w.cancel(w.err) })
	return w
}

func (w *silenceWatch) heard(listen bool) {
	if listen {
		w.quiet.Reset(w.every)
	} else {
		w.quiet.Stop()
	}
}

// silent reports whether the connection was given up for its silence.
func (w *silenceWatch) silent() bool { return context.Cause(w.ctx) == w.err }

func (w *silenceWatch) stop() {
	w.quiet.Stop()
	w.cancel(nil)
}

// readPlayerStream reads one connection of the player stream, calling
// heard(false) before it hands a line over and heard(true) when it
// listens again.
func (c *Client) readPlayerStream(ctx context.Context, token string, out chan<- PlayerEvent, opened func(), heard func(listen bool)) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/api/v1/stream", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := c.http.Do(req)
	if err != nil {
		return &Unreachable{Base: c.base, Err: err}
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(io.LimitReader(res.Body, 1<<16))
		var e errorAnswer
		json.Unmarshal(raw, &e)
		if e.Error == "" {
			e.Error = "the player stream answered " + res.Status
		}
		return &Error{Status: res.StatusCode, Message: e.Error}
	}
	opened()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			heard(true)
			continue // the stream's keep-alive
		}
		var ev PlayerEvent
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			return fmt.Errorf("a line of the player stream is not an event: %w", err)
		}
		if ev.Error != "" {
			var l lastWord
			json.Unmarshal(sc.Bytes(), &l)
			if l.Status != 0 {
				return l.err("the player stream")
			}
			return errors.New(ev.Error)
		}
		heard(false)
		select {
		case out <- ev:
		case <-ctx.Done():
			return ctx.Err()
		}
		heard(true)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("lost the player stream: %w", err)
	}
	return nil
}
