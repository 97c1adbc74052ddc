package client

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"
)

// DailyResult is one attempt at a day's puzzle: the asker's own, or a
// leaderboard's entry. Moves counts Quizl's calls or Salvo's salvos,
// Wrong the wrong announcements or outlines; Share is the result as a
// player shares it, which says which squares were used, never what was
// on them.
type DailyResult struct {
	Game     string  `json:"game"`
	Day      string  `json:"day"`
	Name     string  `json:"name"`
	Ranked   bool    `json:"ranked"`
	Table    string  `json:"table,omitempty"`
	Finished bool    `json:"finished"`
	Solved   bool    `json:"solved"`
	Moves    int     `json:"moves"`
	Wrong    int     `json:"wrong"`
	Seconds  float64 `json:"seconds"`
	Share    string  `json:"share,omitempty"`
	Rank     int     `json:"rank,omitempty"`
}

// Daily is a game's puzzle of the day (GET /api/v1/daily/{game}): the
// day, when the next begins, and with a token the asker's attempt (nil
// before it) and streak.
type Daily struct {
	Game      string       `json:"game"`
	Title     string       `json:"title"`
	Day       string       `json:"day"`
	Next      time.Time    `json:"next"`
	Yesterday string       `json:"yesterday"`
	Attempt   *DailyResult `json:"attempt"`
	Streak    int          `json:"streak"`
}

// DailyBoard is a day's leaderboard: its best players with accounts who
// finished, best first. Over says the day has ended, and only then do the
// entries name their tables.
type DailyBoard struct {
	Game    string        `json:"game"`
	Day     string        `json:"day"`
	Over    bool          `json:"over"`
	Entries []DailyResult `json:"entries"`
}

// ErrNoDaily is the answer of Daily for a game the server has no daily
// puzzle of.
var ErrNoDaily = errors.New("no daily puzzle")

// Daily reads today's puzzle of game, and with token the asker's attempt
// at it. A game without daily puzzles answers ErrNoDaily.
func (c *Client) Daily(ctx context.Context, token, game string) (Daily, error) {
	var d Daily
	err := c.do(ctx, http.MethodGet, "/api/v1/daily/"+url.PathEscape(game), token, nil, &d)
	if e, ok := errors.AsType[*Error](err); ok && e.Status == http.StatusNotFound {
		return d, ErrNoDaily
	}
	return d, err
}

// StartDaily starts the asker's one attempt at today's puzzle of game: a
// one-seat table, played as any other.
func (c *Client) StartDaily(ctx context.Context, token, game string) (Seated, error) {
	var s Seated
	err := c.do(ctx, http.MethodPost, "/api/v1/daily/"+url.PathEscape(game), token, nil, &s)
	c.fullInvite(&s)
	return s, err
}

// DailyLeaderboard reads the leaderboard of game's puzzle of day
// (2006-01-02).
func (c *Client) DailyLeaderboard(ctx context.Context, game, day string) (DailyBoard, error) {
	var b DailyBoard
	err := c.do(ctx, http.MethodGet, "/api/v1/daily/"+url.PathEscape(game)+"/"+url.PathEscape(day)+"/leaderboard", "", nil, &b)
	return b, err
}

// DailyStats is an account's record at one game's daily puzzles: the
// days in a row it solved them (up to today or yesterday), its longest
// such run, and how many it played and solved.
type DailyStats struct {
	Streak int `json:"streak"`
	Best   int `json:"best"`
	Played int `json:"played"`
	Solved int `json:"solved"`
	// History is the attempts, the latest first; a day not over yet
	// names no table.
	History []DailyResult `json:"history"`
}

// PlayerDaily reads the account name's record at the daily puzzles, by
// game.
func (c *Client) PlayerDaily(ctx context.Context, name string) (map[string]DailyStats, error) {
	var d map[string]DailyStats
	err := c.do(ctx, http.MethodGet, "/api/v1/players/"+url.PathEscape(name)+"/daily", "", nil, &d)
	return d, err
}
