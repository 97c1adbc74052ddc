package protocol

import (
	"bytes"
	"encoding/json"
	"io"

	"parlour/game"
	"parlour/server/refuse"
)

// SeekRequest is the body of POST /api/v1/seeks: a game asked for on
// terms that another player's seek on the same terms pairs at once.
type SeekRequest struct {
	// Game is the game's name ("salvo").
	Game string `json:"game"`
	// Mode is the choice of the game's mode option (the option whose
	// choices are rated apart, Nymphabet's "mode"); the default when
	// empty. It may also be given in Rules.
	Mode string `json:"mode,omitempty"`
	// Rules are rule options as the new-table form takes them; missing
	// ones take their defaults.
	Rules map[string]json.RawMessage `json:"rules,omitempty"`
	Rated bool                       `json:"rated,omitempty"`
	// Clock is the clock as a table takes it (today a number: seconds a
	// turn); it is handed to the table as its rules' clock, compacted.
	// Two seeks pair only when their clocks are the same bytes.
	Clock json.RawMessage `json:"clock,omitempty"`
	// RatingRange limits the opponent's rating.
	RatingRange *RatingRange `json:"rating_range,omitempty"`
	// Lexicon names the word list; the default when empty.
	Lexicon string `json:"lexicon,omitempty"`
	// Opponent is "anyone" (the default: a person) or "computer": a
	// table against the computer at once, at the level the player's
	// rating suggests. A rated seek is with a person.
	Opponent string `json:"opponent,omitempty"`
}

// RatingRange is the opponents a seek takes: those rated from Min to Max,
// or within Within points of the seeker's own rating.
type RatingRange struct {
	Min    *int `json:"min,omitempty"`
	Max    *int `json:"max,omitempty"`
	Within *int `json:"within,omitempty"`
}

// MaxRating bounds the ratings a range may name: no Glicko rating comes
// near it.
const MaxRating = 4000

// DecodeSeekRequest reads the body of POST /api/v1/seeks strictly, as
// DecodeJSON does, and checks its shape: a clock that is a number or an
// object, a rating range that is either bounds (min, max, or both) or within, an
// opponent that is "anyone" or "computer". What the terms mean for a game
// (a clock's bounds, a rule's choices) is the game's to check.
func DecodeSeekRequest(r io.Reader, limit int64) (SeekRequest, error) {
	var req SeekRequest
	b, err := ReadBody(r, limit)
	if err != nil {
		return req, err
	}
	if err := DecodeBytes(b, &req); err != nil {
		return req, err
	}
	return req, req.check()
}

// compactClock checks the start of a clock as a request gives it (the
// rules check the rest, where it is used), and returns it compacted.
// A string is a clock as players write it ("5+3"), or "none", checked
// here whole: what else a string says is no clock.
func compactClock(c []byte) ([]byte, error) {
	if c[0] == '"' {
		if _, err := game.DecodeClock(c); err != nil {
			return nil, refuse.Bad("the clock: %v", err)
		}
	} else if c[0] != '{' && c[0] != '-' && (c[0] < '0' || c[0] > '9') {
		return nil, refuse.Bad(`the clock is seconds a turn, minutes and seconds a move ("5+3"), days a move ("2d") or a clock object, not %s`, refuse.Clip(string(c)))
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, c); err != nil {
		return nil, refuse.Bad("the clock is not JSON: %v", err)
	}
	return buf.Bytes(), nil
}

func (req *SeekRequest) check() error {
	if req.Game == "" {
		return refuse.Bad(`say which game you seek: "game" is a game's name`)
	}
	var err error
	if c := bytes.TrimSpace(req.Clock); len(c) > 0 {
		if bytes.Equal(c, []byte("null")) {
			req.Clock = nil
		} else if req.Clock, err = compactClock(c); err != nil {
			return err
		}
	}
	if rr := req.RatingRange; rr != nil {
		switch {
		case rr.Within != nil && (rr.Min != nil || rr.Max != nil):
			return refuse.Bad("a rating range is either bounds (min, max) or within, not both")
		case rr.Within != nil && (*rr.Within < 1 || *rr.Within > MaxRating):
			return refuse.Bad("a rating range's within is a number of points from 1 to %d", MaxRating)
		case rr.Within == nil && rr.Min == nil && rr.Max == nil:
			return refuse.Bad("a rating range needs a min, a max or within: {\"min\": 1300} takes anybody rated 1300 or more")
		}
		for _, v := range []*int{rr.Min, rr.Max} {
			if v != nil && (*v < 0 || *v > MaxRating) {
				return refuse.Bad("a rating range's bounds are ratings from 0 to %d; %d is not", MaxRating, *v)
			}
		}
		if rr.Min != nil && rr.Max != nil && *rr.Min > *rr.Max {
			return refuse.Bad("a rating range's min (%d) is above its max (%d)", *rr.Min, *rr.Max)
		}
	}
	switch req.Opponent {
	case "", "anyone", "computer":
	default:
		return refuse.Bad(`the opponent is "anyone" or "computer", not %q`, refuse.Clip(req.Opponent))
	}
	return nil
}
