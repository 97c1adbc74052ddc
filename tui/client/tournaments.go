package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Tournament is an event, an arena or a Swiss, as GET
// /api/v1/tournaments lists it and GET /api/v1/tournaments/{id} reads it
// (docs/tournaments.md). A list leaves out Standings and Playing.
type Tournament struct {
	ID   string `json:"id"`
	Kind string `json:"kind"` // "arena" or "swiss"
	Name string `json:"name"`
	Game string `json:"game"`
	// Mode is the game's mode rated apart (Nymphabet's), when the event
	// sets one away from its default.
	Mode string `json:"mode,omitempty"`
	// ClockText is the games' clock as a player reads it ("3+2").
	ClockText string `json:"clock_text"`
	Rated     bool   `json:"rated"`
	// Starts is when it starts, or, once started, when it did; an arena
	// runs Minutes from then, a Swiss plays Rounds, Round being the
	// current one.
	Starts  time.Time `json:"starts"`
	Minutes int       `json:"minutes,omitempty"`
	// Ends is when a started arena stops pairing: its start and minutes,
	// later by any time the server was down while it ran.
	Ends   time.Time `json:"ends,omitzero"`
	Rounds int       `json:"rounds,omitempty"`
	Round  int       `json:"round,omitempty"`
	// Seats is the players a table; MinRatedGames the rated games in the
	// event's pool a player needs to join.
	Seats         int `json:"seats,omitempty"`
	MinRatedGames int `json:"min_rated_games,omitempty"`
	// RatedGames are the rated games in that pool of the account that
	// asked, when the event asks for some and the account is not in it.
	RatedGames *int `json:"rated_games,omitempty"`
	// CannotStart is why its maker could not start it now (a Swiss
	// whose field is too small), before its start; empty when they could.
	CannotStart string `json:"cannot_start,omitempty"`
	// MaxPlayers is the most players it takes.
	MaxPlayers int `json:"max_players,omitempty"`
	// Password says joining needs the event's password.
	Password bool `json:"password"`
	// Status is "created" (to come), "started" or "finished".
	Status  string `json:"status"`
	Players int    `json:"players"`
	// Description is its maker's words about it; Creator its maker's
	// name (none for the house's events), who may start it early.
	Description string `json:"description,omitempty"`
	Creator     string `json:"creator,omitempty"`
	// Winners are the first places' names, once finished.
	Winners   []string         `json:"winners,omitempty"`
	Standings []Standing       `json:"standings,omitempty"`
	Playing   []TournamentGame `json:"playing,omitempty"`
	// Games are every game, the newest first, those under way too.
	Games []TournamentGame `json:"games,omitempty"`
}

// Standing is one player's line of an event's standings, best first.
type Standing struct {
	Rank  int    `json:"rank"`
	Name  string `json:"name"`
	Score int    `json:"score"`
	Games int    `json:"games"`
	// Streak is set while an arena player's wins score double.
	Streak bool `json:"streak,omitempty"`
	// Left is set for a player who left (they keep their points).
	Left bool `json:"left,omitempty"`
	// Playing is the table where they play now.
	Playing string `json:"playing,omitempty"`
	// Byes are the Swiss rounds they sat out; Bye is set while they sit
	// out the round under way.
	Byes int  `json:"byes,omitempty"`
	Bye  bool `json:"bye,omitempty"`
	// Forfeits are the games they did not show up for.
	Forfeits int `json:"forfeits,omitempty"`
	// You marks the asker's own line (a guest's name is not unique).
	You bool `json:"you,omitempty"`
}

// TournamentGame is a game of an event: its table, its players in seat
// order, and once over, each one's points and when it ended.
type TournamentGame struct {
	Table   string   `json:"table"`
	Players []string `json:"players"`
	// Round is a Swiss's round (0 in an arena).
	Round  int       `json:"round,omitempty"`
	Points []int     `json:"points,omitempty"`
	Ended  time.Time `json:"ended,omitzero"`
}

// TournamentPairing is the pairing a "tournamentGame" line of the player
// stream brings: the event, its round (a Swiss's), and the table and seat
// where the player plays.
type TournamentPairing struct {
	Event string `json:"event"`
	Name  string `json:"name"`
	Round int    `json:"round,omitempty"`
	Table string `json:"table"`
	Seat  int    `json:"seat"`
	Game  string `json:"game"`
}

// tournamentList is the answer of GET /api/v1/tournaments.
type tournamentList struct {
	Tournaments []Tournament `json:"tournaments"`
}

// Tournaments lists the events in status: "created" (to come, the
// soonest first), "started" or "finished" (the newest first).
func (c *Client) Tournaments(ctx context.Context, status string) ([]Tournament, error) {
	var l tournamentList
	err := c.do(ctx, http.MethodGet, "/api/v1/tournaments?status="+url.QueryEscape(status), "", nil, &l)
	return l.Tournaments, err
}

// Tournament reads event id with its standings and games under way.
func (c *Client) Tournament(ctx context.Context, token, id string) (Tournament, error) {
	var t Tournament
	err := c.do(ctx, http.MethodGet, "/api/v1/tournaments/"+url.PathEscape(id), token, nil, &t)
	return t, err
}

// JoinTournament enters the identity of token in event id, with the
// event's password when it has one, and answers the event.
func (c *Client) JoinTournament(ctx context.Context, token, id, password string) (Tournament, error) {
	body := map[string]string{}
	if password != "" {
		body["password"] = password
	}
	var t Tournament
	err := c.do(ctx, http.MethodPost, "/api/v1/tournaments/"+url.PathEscape(id)+"/join", token, body, &t)
	return t, err
}

// LeaveTournament takes the identity of token out of event id (in an
// arena it keeps its points) and answers the event.
func (c *Client) LeaveTournament(ctx context.Context, token, id string) (Tournament, error) {
	var t Tournament
	err := c.do(ctx, http.MethodPost, "/api/v1/tournaments/"+url.PathEscape(id)+"/leave", token, struct{}{}, &t)
	return t, err
}

// eventChat is the answer of GET /api/v1/tournaments/{id}/chat (its
// "more" unread: the next read from Last brings the rest).
type eventChat struct {
	Chat []ChatLine `json:"chat"`
	Last int        `json:"last"`
}

// EventChat reads the chat of event id after message number since,
// oldest first, as the player of token reads it (without the lines of
// the players they block; "" reads as anybody); last is the number to
// ask from next.
func (c *Client) EventChat(ctx context.Context, token, id string, since int) (lines []ChatLine, last int, err error) {
	var ec eventChat
	err = c.do(ctx, http.MethodGet, fmt.Sprintf("/api/v1/tournaments/%s/chat?since=%d", url.PathEscape(id), since), token, nil, &ec)
	return ec.Chat, ec.Last, err
}

// EventSay writes text in the chat of event id (an account, or one of
// the event's players) and answers the message as stored.
func (c *Client) EventSay(ctx context.Context, token, id, text string) (ChatLine, error) {
	var l ChatLine
	err := c.do(ctx, http.MethodPost, "/api/v1/tournaments/"+url.PathEscape(id)+"/chat", token, map[string]string{"text": text}, &l)
	return l, err
}

// EventExport reads every finished game of event id, one record a line
// as RECORDS.md has it (GET /api/v1/tournaments/{id}/export), and counts
// them. A server that fails after the first line ends the stream with an
// {"error"} line: that is an error here, not a record.
func (c *Client) EventExport(ctx context.Context, id string) (records string, n int, err error) {
	return c.export(ctx, "", "/api/v1/tournaments/"+url.PathEscape(id)+"/export", "the event")
}

// export reads the records an export at path serves to token ("" for
// none), one a line, and counts them; a line that says the server failed
// part way is an error that says after how many. of names what the
// records are of.
func (c *Client) export(ctx context.Context, token, path, of string) (records string, n int, err error) {
	var text string
	if err := c.doUpTo(ctx, http.MethodGet, path, token, nil, &text, maxExport); err != nil {
		return "", 0, err
	}
	for line := range strings.Lines(text) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		// A record has many fields; the failure, only "error".
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			return "", n, fmt.Errorf("record %d of %s is not JSON: %w", n+1, of, err)
		}
		if msg, ok := m["error"]; ok && len(m) == 1 {
			var why string
			json.Unmarshal(msg, &why)
			records := fmt.Sprintf("%d records", n)
			if n == 1 {
				records = "1 record"
			}
			return "", n, fmt.Errorf("the server stopped after %s: %s", records, why)
		}
		n++
	}
	return text, n, nil
}

// maxExport is the most of an export's records the client reads: a
// thousand games of the largest records, and more.
const maxExport = 256 << 20

// eventMuted answers a mute in an event's chat.
type eventMuted struct {
	Muted bool `json:"muted"`
}

// EventMute has the creator of event id keep the player called name from
// writing in its chat, or with muted false let them write again.
func (c *Client) EventMute(ctx context.Context, token, id, name string, muted bool) error {
	var m eventMuted
	return c.do(ctx, http.MethodPost, "/api/v1/tournaments/"+url.PathEscape(id)+"/chat/mute", token, map[string]any{"name": name, "muted": muted}, &m)
}

// NewEvent is what makes an event (POST /api/v1/tournaments): Kind
// "arena" (Minutes long) or "swiss" (Rounds), of Game on Clock (as a
// table takes it), rated or not, starting at Starts (zero: in a minute),
// with a Password to join when not empty.
type NewEvent struct {
	Kind        string    `json:"kind"`
	Name        string    `json:"name,omitempty"`
	Description string    `json:"description,omitempty"`
	Game        string    `json:"game"`
	Clock       any       `json:"clock"`
	Rated       bool      `json:"rated"`
	Starts      time.Time `json:"-"`
	Minutes     int       `json:"minutes,omitempty"`
	Rounds      int       `json:"rounds,omitempty"`
	Password    string    `json:"password,omitempty"`
	// Seats is the players a table (0: two); MinRatedGames the rated
	// games in the event's pool a player needs to join (0: none).
	Seats         int `json:"seats,omitempty"`
	MinRatedGames int `json:"min_rated_games,omitempty"`
	// MaxPlayers caps the players who may join (0: the server's most).
	MaxPlayers int `json:"max_players,omitempty"`
	// Rules are the game's rule options set away from their defaults
	// (Nymphabet's mode among them), nil for none.
	Rules map[string]any `json:"rules,omitempty"`
}

// CreateTournament makes an event as the account of token.
func (c *Client) CreateTournament(ctx context.Context, token string, ne NewEvent) (Tournament, error) {
	body := map[string]any{"kind": ne.Kind, "game": ne.Game, "clock": ne.Clock, "rated": ne.Rated}
	for k, v := range map[string]string{"name": ne.Name, "description": ne.Description, "password": ne.Password} {
		if v != "" {
			body[k] = v
		}
	}
	if ne.Minutes > 0 {
		body["minutes"] = ne.Minutes
	}
	if ne.Rounds > 0 {
		body["rounds"] = ne.Rounds
	}
	if ne.Seats > 0 {
		body["seats"] = ne.Seats
	}
	if ne.MinRatedGames > 0 {
		body["min_rated_games"] = ne.MinRatedGames
	}
	if ne.MaxPlayers > 0 {
		body["max_players"] = ne.MaxPlayers
	}
	if len(ne.Rules) > 0 {
		body["rules"] = ne.Rules
	}
	if !ne.Starts.IsZero() {
		body["starts"] = ne.Starts.UTC().Format(time.RFC3339)
	}
	var t Tournament
	err := c.do(ctx, http.MethodPost, "/api/v1/tournaments", token, body, &t)
	return t, err
}

// StartTournament has the event's creator start it now.
func (c *Client) StartTournament(ctx context.Context, token, id string) (Tournament, error) {
	var t Tournament
	err := c.do(ctx, http.MethodPost, "/api/v1/tournaments/"+url.PathEscape(id)+"/start", token, map[string]any{}, &t)
	return t, err
}

// CancelTournament has the event's creator (or a moderator) call it off
// before it starts.
func (c *Client) CancelTournament(ctx context.Context, token, id string) (Tournament, error) {
	var t Tournament
	err := c.do(ctx, http.MethodPost, "/api/v1/tournaments/"+url.PathEscape(id)+"/cancel", token, map[string]any{}, &t)
	return t, err
}
