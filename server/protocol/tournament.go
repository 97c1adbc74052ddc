package protocol

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"parlour/internal/text"
	"parlour/server/refuse"
)

// The bounds of an event's words: long enough for a title and a few
// lines about it, short enough for a list to show.
const (
	TournamentNameMax        = 60
	TournamentDescriptionMax = 1000
	TournamentPasswordMax    = 200
)

// MinRatedGamesMax is the most rated games an event may ask of an
// entrant: more than any player has, it would be an event nobody may join.
const MinRatedGamesMax = 1000

// TournamentRequest is the body of POST /api/v1/tournaments: an arena
// ("minutes" long) or a Swiss ("rounds" rounds) of a game on a clock.
type TournamentRequest struct {
	Kind        string `json:"kind"`
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	Game        string `json:"game"`
	// Mode and Rules are as a seek takes them (SeekRequest).
	Mode  string                     `json:"mode,omitempty"`
	Rules map[string]json.RawMessage `json:"rules,omitempty"`
	// Clock is the clock of every game, as a table takes it, compacted.
	Clock json.RawMessage `json:"clock"`
	Rated bool            `json:"rated,omitempty"`
	// Starts is when the event starts, RFC 3339 ("": in a minute).
	Starts string `json:"starts,omitempty"`
	// At is Starts parsed (zero when Starts is empty).
	At            time.Time `json:"-"`
	Minutes       int       `json:"minutes,omitempty"`
	Rounds        int       `json:"rounds,omitempty"`
	Seats         int       `json:"seats,omitempty"`
	Password      string    `json:"password,omitempty"`
	MinRatedGames int       `json:"min_rated_games,omitempty"`
	// MaxPlayers caps the entrants (0: the most an event of its kind
	// takes).
	MaxPlayers int `json:"max_players,omitempty"`
}

// DecodeTournamentRequest reads the body of POST /api/v1/tournaments
// strictly, as DecodeJSON does, and checks its shape: a kind, a game, a
// clock, the length its kind needs (and not the other's), a start in RFC
// 3339, words within their bounds. What the terms mean (a clock's
// bounds, a start in the past, enough time for a game) is the
// tournaments' to check.
func DecodeTournamentRequest(r io.Reader, limit int64) (TournamentRequest, error) {
	var req TournamentRequest
	b, err := ReadBody(r, limit)
	if err != nil {
		return req, err
	}
	if err := DecodeBytes(b, &req); err != nil {
		return req, err
	}
	return req, req.check()
}

func (req *TournamentRequest) check() error {
	req.Kind = strings.ToLower(strings.TrimSpace(req.Kind))
	switch req.Kind {
	case "arena":
		if req.Rounds != 0 {
			return refuse.Bad(`an arena runs for "minutes", not a number of rounds: leave out rounds`)
		}
		if req.Minutes < 0 {
			return refuse.Bad(`an arena runs for 1 minute or more, not %d`, req.Minutes)
		}
		if req.Minutes < 1 {
			return refuse.Bad(`say how long the arena runs: "minutes" is a number of minutes`)
		}
	case "swiss":
		if req.Minutes != 0 {
			return refuse.Bad(`a Swiss plays a number of "rounds", not minutes: leave out minutes`)
		}
		if req.Rounds < 0 {
			return refuse.Bad(`a Swiss plays 1 round or more, not %d`, req.Rounds)
		}
		if req.Rounds < 1 {
			return refuse.Bad(`say how many rounds the Swiss plays: "rounds" is a number`)
		}
	case "":
		return refuse.Bad(`say what kind of event: "kind" is "arena" or "swiss"`)
	default:
		return refuse.Bad(`an event's kind is "arena" or "swiss", not %q`, refuse.Clip(req.Kind))
	}
	if strings.TrimSpace(req.Game) == "" {
		return refuse.Bad(`say which game the event plays: "game" is a game's name`)
	}
	c := bytes.TrimSpace(req.Clock)
	if len(c) == 0 || bytes.Equal(c, []byte("null")) {
		return refuse.Bad(`an event's games need a clock, so that every game ends: "clock" is seconds a turn, "5+3", "2d" or a clock object`)
	}
	var err error
	if req.Clock, err = compactClock(c); err != nil {
		return err
	}
	if req.Starts != "" {
		at, err := time.Parse(time.RFC3339, req.Starts)
		if err != nil {
			return refuse.Bad("the start is a time in RFC 3339 (2026-05-01T18:00:00Z), not %q", refuse.Clip(req.Starts))
		}
		req.At = at.UTC()
	}
	if req.Seats != 0 && (req.Seats < 2 || req.Seats > 4) {
		return refuse.Bad("an event seats 2, 3 or 4 players a table, not %d", req.Seats)
	}
	if req.MaxPlayers < 0 {
		return refuse.Bad("the most players an event takes is a number of players, not %d", req.MaxPlayers)
	}
	if req.MinRatedGames < 0 || req.MinRatedGames > MinRatedGamesMax {
		return refuse.Bad("the least number of rated games to enter is 0 to %d, not %d", MinRatedGamesMax, req.MinRatedGames)
	}
	req.Name, req.Description = strings.TrimSpace(req.Name), strings.TrimSpace(req.Description)
	for _, f := range []struct {
		what, s string
		max     int
	}{{"name", req.Name, TournamentNameMax}, {"description", req.Description, TournamentDescriptionMax}, {"password", req.Password, TournamentPasswordMax}} {
		if !utf8.ValidString(f.s) {
			return refuse.Bad("the %s is not UTF-8 text", f.what)
		}
		if n := utf8.RuneCountInString(f.s); n > f.max {
			return refuse.Bad("the %s is %d characters long; at most %d, please", f.what, n, f.max)
		}
	}
	// The name and the description are shown to every player (lists,
	// streams, the terminal, each game's record): they are checked as
	// any text one player writes for others is, the description line by
	// line, since it may have a few.
	name, err := text.Check(req.Name, text.Rules{Noun: "name", Max: TournamentNameMax, Collapse: true})
	if err != nil {
		return refuse.Bad("%v", err)
	}
	lines := strings.Split(strings.ReplaceAll(req.Description, "\r\n", "\n"), "\n")
	for i, l := range lines {
		if lines[i], err = text.Check(l, text.Rules{Noun: "description", Max: TournamentDescriptionMax, Collapse: true, Joiners: true}); err != nil {
			return refuse.Bad("%v", err)
		}
	}
	req.Name, req.Description = name, strings.TrimSpace(strings.Join(lines, "\n"))
	return nil
}

// JoinTournamentRequest is the body of POST /api/v1/tournaments/{id}/join:
// the event's password, when it has one. The body may be empty.
type JoinTournamentRequest struct {
	Password string `json:"password,omitempty"`
}

// DecodeJoinTournamentRequest reads the body of a join strictly; an empty
// body is a join without a password.
func DecodeJoinTournamentRequest(r io.Reader, limit int64) (JoinTournamentRequest, error) {
	var req JoinTournamentRequest
	b, err := ReadBody(r, limit)
	if err != nil || len(bytes.TrimSpace(b)) == 0 {
		return req, err
	}
	return req, DecodeBytes(b, &req)
}
