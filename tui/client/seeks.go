package client

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"time"
)

// Seek is a request for a game on given terms, waiting for an opponent
// on the same terms (POST /api/v1/seeks).
type Seek struct {
	ID     string `json:"id"`
	Player string `json:"player"`
	Game   string `json:"game"`
	// Mode is the game's mode, when it has one; Rules the rule options
	// set away from their defaults, the clock apart.
	Mode    string                     `json:"mode,omitempty"`
	Rules   map[string]json.RawMessage `json:"rules,omitempty"`
	Rated   bool                       `json:"rated"`
	Clock   json.RawMessage            `json:"clock,omitempty"`
	Lexicon string                     `json:"lexicon,omitempty"`
	// Rating is the seeker's rating in the game's pool (accounts only),
	// RatingRange the opponents' ratings the seek takes.
	Rating      int        `json:"rating,omitempty"`
	RatingRange *SeekRange `json:"rating_range,omitempty"`
	Created     time.Time  `json:"created"`
	// Provisional is set while the seeker's rating is too uncertain for
	// the leaderboards (new to the pool, or back after long away).
	Provisional bool `json:"provisional,omitempty"`
	// OutOfRange is set, in a list read with a token, on a seek whose
	// range leaves the reader out: the seek would refuse them.
	OutOfRange bool `json:"out_of_range,omitempty"`
}

// SeekRange is the ratings a seek takes its opponent from, both bounds
// included.
type SeekRange struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// seekList is the answer of GET /api/v1/seeks.
type seekList struct {
	Seeks []Seek `json:"seeks"`
}

// SeekAnswer is a seek's answer: Status "waiting" with the Seek, or
// "paired" (with a person) or "computer" with the seat at the new table.
type SeekAnswer struct {
	Status string  `json:"status"`
	Seek   *Seek   `json:"seek,omitempty"`
	Table  *Seated `json:"table,omitempty"`
}

// SeekState is a seek as its player reads it back: Status "waiting" with
// the Seek, or "paired" with the table and seat it made (the identity's
// own token acts for that seat).
type SeekState struct {
	Status string  `json:"status"`
	Seek   *Seek   `json:"seek,omitempty"`
	Table  *Seated `json:"table,omitempty"`
}

// SeekRequest is what a seek asks for: a game of Game (in Mode, the
// choice of the game's mode option, when it has one and it is not ""),
// rated or not, on a Clock of seconds a turn (0: none); with Computer,
// a game against the computer at the player's level instead.
type SeekRequest struct {
	Game     string
	Mode     string
	Rated    bool
	Clock    int
	Computer bool
}

// SeekGame asks for the game r describes against anyone on the same
// terms, or against the computer.
func (c *Client) SeekGame(ctx context.Context, token string, r SeekRequest) (SeekAnswer, error) {
	body := map[string]any{"game": r.Game, "rated": r.Rated}
	if r.Mode != "" {
		body["mode"] = r.Mode
	}
	if r.Clock > 0 {
		body["clock"] = r.Clock
	}
	if r.Computer {
		body["opponent"] = "computer"
	}
	var a SeekAnswer
	err := c.do(ctx, http.MethodPost, "/api/v1/seeks", token, body, &a)
	if a.Table != nil {
		c.fullInvite(a.Table)
	}
	return a, err
}

// SeekStatus reads the player's seek id back; asking counts as the
// player being about, which keeps the seek waiting.
func (c *Client) SeekStatus(ctx context.Context, token, id string) (SeekState, error) {
	var s SeekState
	err := c.do(ctx, http.MethodGet, "/api/v1/seeks/"+url.PathEscape(id), token, nil, &s)
	return s, err
}

// CancelSeek withdraws the player's seek id.
func (c *Client) CancelSeek(ctx context.Context, token, id string) error {
	return c.do(ctx, http.MethodDelete, "/api/v1/seeks/"+url.PathEscape(id), token, nil, nil)
}

// Seeks lists the seeks waiting for an opponent, oldest first: the
// lobby's quick games. Read with the identity of token ("" for none), it
// leaves out the seeks of players kept apart from it by a block and marks
// those whose rating range leaves it out (OutOfRange).
func (c *Client) Seeks(ctx context.Context, token string) ([]Seek, error) {
	var l seekList
	err := c.do(ctx, http.MethodGet, "/api/v1/seeks", token, nil, &l)
	return l.Seeks, err
}

// AcceptSeek pairs the player with seek id on its terms; the answer
// holds the seat at the new table.
func (c *Client) AcceptSeek(ctx context.Context, token, id string) (SeekAnswer, error) {
	var a SeekAnswer
	err := c.do(ctx, http.MethodPost, "/api/v1/seeks/"+url.PathEscape(id)+"/accept", token, map[string]any{}, &a)
	if a.Table != nil {
		c.fullInvite(a.Table)
	}
	return a, err
}
