package game

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// ClockOption is the table option that gives each seat a time limit per
// turn, in seconds. It is a rule option every game takes, as RECORDS.md
// has rule options, but no referee reads it: the table service keeps the
// clock, and a seat whose time runs out reaches the referee only as an
// ordinary move made on its behalf (see Forfeiter), so a record with a
// clock replays like any other.
const ClockOption = "clock"

// The bounds of ClockOption: 10 seconds to 7 days a turn.
const (
	ClockMin = 10
	ClockMax = 7 * 24 * 60 * 60
)

// TableOptions returns the options every game's tables take besides the
// game's own: the clock. Resolve accepts them for any game; a missing one
// means none (no clock).
func TableOptions() []Option {
	return []Option{{
		Name: ClockOption, Kind: Int, Default: 0, Min: ClockMin, Max: ClockMax,
		Help: `seconds each player has for a turn, 10 to 604800 (7 days); 0 or "none": no clock`,
	}}
}

// decodeTableOption decodes the table option called name, reporting
// false when there is none of that name.
func decodeTableOption(name string, b json.RawMessage) (any, bool, error) {
	if name != ClockOption {
		return nil, false, nil
	}
	b = bytes.TrimSpace(b)
	var s string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err == nil && strings.EqualFold(strings.TrimSpace(s), "none") {
			return 0, true, nil
		}
		return nil, true, fmt.Errorf(`want "none" or a number of seconds from %d to %d, got %s`, ClockMin, ClockMax, clip(b))
	}
	o := TableOptions()[0]
	if bytes.Equal(b, []byte("0")) {
		return 0, true, nil
	}
	v, err := o.decode(b)
	if err != nil {
		return nil, true, fmt.Errorf(`%w (seconds a turn, or "none")`, err)
	}
	return v, true, nil
}

// Forfeiter is a State that says what a seat whose time ran out plays on
// its behalf: the move that gives up least, as the game's notation has
// it (Sightless Word Fight: "cannot" for a word to place). A State
// without it forfeits with "resign", which every game's notation has.
type Forfeiter interface {
	Forfeit(seat Seat) string
}

// ForfeitMove returns the move st plays for seat when its time runs out.
func ForfeitMove(st State, seat Seat) string {
	if f, ok := st.(Forfeiter); ok {
		return f.Forfeit(seat)
	}
	return "resign"
}
