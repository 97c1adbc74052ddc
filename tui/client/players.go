package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// PoolRating is an account's rating in one pool. Provisional is set while
// the deviation is too wide for the leaderboards.
type PoolRating struct {
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Games       int     `json:"games"`
	Provisional bool    `json:"provisional,omitempty"`
}

// Podium is an event a player finished among the first three of.
type Podium struct {
	Name  string `json:"name"`
	Game  string `json:"game"`
	Kind  string `json:"kind"`
	Place int    `json:"place"`
	Of    int    `json:"of"`
}

// Profile is an account's public profile: its ratings by pool with the
// rating after each of its latest rated games, how many games it
// finished, its podiums, and whether it was closed.
type Profile struct {
	Name    string                   `json:"name"`
	Created time.Time                `json:"created"`
	Ratings map[string]PoolRating    `json:"ratings"`
	History map[string][]RatingPoint `json:"history,omitempty"`
	Games   int                      `json:"games"`
	Podiums []Podium                 `json:"podiums,omitempty"`
	// Closed says a moderator closed the account: it plays no more.
	Closed bool `json:"closed,omitempty"`
}

// RatingPoint is a rating after one rated game, a point of a pool's
// history, which is oldest first.
type RatingPoint struct {
	Table  string    `json:"table"`
	At     time.Time `json:"at"`
	Rating float64   `json:"rating"`
	RD     float64   `json:"rd"`
}

// Leader is one line of a leaderboard.
type Leader struct {
	Rank   int     `json:"rank"`
	Name   string  `json:"name"`
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
	Games  int     `json:"games"`
}

type pools struct {
	Pools []string `json:"pools"`
}

type leaderboard struct {
	Pool    string   `json:"pool"`
	Players []Leader `json:"players"`
}

// Profile reads the profile of the account called name, as token's
// identity ("" for anyone) is shown it: a point of a private table's
// game names its table only to the table's players.
func (c *Client) Profile(ctx context.Context, token, name string) (Profile, error) {
	var p Profile
	err := c.do(ctx, http.MethodGet, "/api/v1/players/"+url.PathEscape(name), token, nil, &p)
	return p, err
}

type found struct {
	Players []struct {
		Name string `json:"name"`
	} `json:"players"`
}

// FindPlayers lists at most limit account names that begin with prefix,
// in any case, in the order of the names.
func (c *Client) FindPlayers(ctx context.Context, prefix string, limit int) ([]string, error) {
	var f found
	q := url.Values{"q": {prefix}, "limit": {strconv.Itoa(limit)}}
	if err := c.do(ctx, http.MethodGet, "/api/v1/players?"+q.Encode(), "", nil, &f); err != nil {
		return nil, err
	}
	names := make([]string, len(f.Players))
	for i, p := range f.Players {
		names[i] = p.Name
	}
	return names, nil
}

// Pools lists the rating pools: one for each game, and one for each
// variant rated apart ("nymphabet-cyclic").
func (c *Client) Pools(ctx context.Context) ([]string, error) {
	var p pools
	err := c.do(ctx, http.MethodGet, "/api/v1/leaderboards", "", nil, &p)
	return p.Pools, err
}

// Leaderboard lists pool's best players with settled ratings, best
// first.
func (c *Client) Leaderboard(ctx context.Context, pool string) ([]Leader, error) {
	var l leaderboard
	err := c.do(ctx, http.MethodGet, "/api/v1/leaderboards/"+url.PathEscape(pool), "", nil, &l)
	return l.Players, err
}
