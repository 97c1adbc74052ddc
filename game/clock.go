package game

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// ClockOption is the table option that sets a table's clock. It is a
// rule option every game takes, as RECORDS.md has rule options, but no
// referee reads it: the table service keeps the clock, and a seat whose
// time runs out reaches the referee only as an ordinary move made on its
// behalf (see Forfeiter), so a record with a clock replays like any
// other.
//
// It is written as a number, the seconds each turn may take (the form
// records have always had), or as an object naming its kind (see Clock).
// Resolved rules hold a turn clock as that number (an int), so that
// records keep writing it as before, and the other kinds as a Clock.
const ClockOption = "clock"

// The bounds of ClockOption's seconds a turn: 10 seconds to 7 days.
const (
	ClockMin = 10
	ClockMax = 7 * 24 * 60 * 60
)

// The bounds of the other kinds of clock. The least time a clock gives is
// ClockMin everywhere: a player needs a moment to see that it is their
// turn at all.
const (
	// FischerInitialMax is the most time a Fischer clock gives for the
	// whole game: a day.
	FischerInitialMax = 24 * 60 * 60
	// FischerIncrementMax is the most a move may add: an hour.
	FischerIncrementMax = 60 * 60
	// CorrespondenceDaysMax is the most days a move may take.
	CorrespondenceDaysMax = 14
)

// ClockKind names a kind of clock.
type ClockKind string

// The kinds of clock.
const (
	// ClockTurn gives each turn the same time, Seconds.
	ClockTurn ClockKind = "turn"
	// ClockFischer gives each seat Initial seconds for the whole game,
	// and adds Increment seconds to a seat's time for each move it
	// makes on its turn ("5+3": 300 s and 3 s a move).
	ClockFischer ClockKind = "fischer"
	// ClockCorrespondence gives each turn Days days.
	ClockCorrespondence ClockKind = "correspondence"
)

// Clock is a table's clock as its rules write it. Only the fields of its
// Kind are set.
type Clock struct {
	Kind      ClockKind `json:"kind"`
	Seconds   int       `json:"seconds,omitempty"`   // turn
	Initial   int       `json:"initial,omitempty"`   // fischer
	Increment int       `json:"increment,omitempty"` // fischer; 0 is a clock without increment
	Days      int       `json:"days,omitempty"`      // correspondence
}

// MarshalJSON writes the fields of c's kind, a Fischer clock's increment
// even when it is 0 ("1+0").
func (c Clock) MarshalJSON() ([]byte, error) {
	switch c.Kind {
	case ClockFischer:
		return fmt.Appendf(nil, `{"kind":"fischer","initial":%d,"increment":%d}`, c.Initial, c.Increment), nil
	case ClockCorrespondence:
		return fmt.Appendf(nil, `{"kind":"correspondence","days":%d}`, c.Days), nil
	case ClockTurn:
		return fmt.Appendf(nil, `{"kind":"turn","seconds":%d}`, c.Seconds), nil
	}
	return nil, fmt.Errorf("a clock of unknown kind %q", c.Kind)
}

// String says c as a player reads it: "30 seconds a turn", "5+3",
// "2 days a move".
func (c Clock) String() string {
	switch c.Kind {
	case ClockFischer:
		return fmt.Sprintf("%s+%d", fischerMinutes(c.Initial), c.Increment)
	case ClockCorrespondence:
		return Count(c.Days, "day", "days") + " a move"
	case ClockTurn:
		return Count(c.Seconds, "second", "seconds") + " a turn"
	}
	return "no clock"
}

// fischerMinutes writes a Fischer clock's initial time in minutes, as
// "5+3" does, with the seconds when it is no whole number of minutes.
func fischerMinutes(s int) string {
	if s%60 == 0 {
		return fmt.Sprint(s / 60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// ClockOf returns the clock of resolved rules r, and false when they set
// none.
func ClockOf(r Rules) (Clock, bool) {
	switch v := r[ClockOption].(type) {
	case int:
		if v > 0 {
			return Clock{Kind: ClockTurn, Seconds: v}, true
		}
	case Clock:
		return v, true
	}
	return Clock{}, false
}

// TableOptions returns the options every game's tables take besides the
// game's own: the clock. Resolve accepts them for any game; a missing one
// means none (no clock). The option is described as its simplest form,
// seconds a turn; DecodeClock says what else it takes.
func TableOptions() []Option {
	return []Option{{
		Name: ClockOption, Label: "Clock", Kind: Int, Default: 0, Min: ClockMin, Max: ClockMax,
		Help: `seconds each player has for a turn, 10 to 604800 (7 days); 0 or "none": no clock; "5+3": 5 minutes each for the game and 3 seconds added a move; "2d": 2 days a move; or a clock object: {"kind": "fischer", "initial": 300, "increment": 3}, {"kind": "correspondence", "days": 2}`,
	}}
}

// decodeTableOption decodes the table option called name, reporting
// false when there is none of that name.
func decodeTableOption(name string, b json.RawMessage) (any, bool, error) {
	if name != ClockOption {
		return nil, false, nil
	}
	v, err := DecodeClock(b)
	return v, true, err
}

// DecodeClock decodes a clock as rules write it, strictly, into what
// resolved rules hold: 0 for none ("none" or 0), an int of seconds for a
// turn clock (given as a number or as {"kind": "turn", "seconds": N}), or
// a Clock of another kind, given as its object or as players write it
// ("5+3", "2d"). Its errors say in a player's words what is
// wrong: a kind it does not know, a field the kind does not have, a time
// out of its bounds.
func DecodeClock(b []byte) (any, error) {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err == nil {
			s = strings.TrimSpace(s)
			if strings.EqualFold(s, "none") {
				return 0, nil
			}
			if o, ok := clockText(s); ok {
				v, err := decodeClockObject(o)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", clip(b), err)
				}
				return v, nil
			}
		}
		return nil, fmt.Errorf(`want "none", a number of seconds from %d to %d, minutes and seconds a move ("5+3"), days a move ("2d"), or a clock object, got %s`, ClockMin, ClockMax, clip(b))
	case len(b) > 0 && b[0] == '{':
		return decodeClockObject(b)
	case bytes.Equal(b, []byte("0")):
		return 0, nil
	}
	o := TableOptions()[0]
	v, err := o.decode(b)
	if err != nil {
		return nil, fmt.Errorf(`%w (seconds a turn, "none", "5+3", "2d", or a clock object)`, err)
	}
	return v, nil
}

// clockText reads the short forms players write and Clock.String
// gives, as the clock object each stands for: "5+3" (a Fischer clock of
// 5 minutes and 3 seconds a move; "1:30+1" for a part of a minute) and
// "2d" (2 days a move). It reports false for anything else; the object
// it returns may still be out of its kind's bounds, which
// decodeClockObject then says.
func clockText(s string) ([]byte, bool) {
	// whole reads a run of at most six digits: more is no clock anybody
	// means, and could overflow the seconds.
	whole := func(d string) (int, bool) {
		if d == "" || len(d) > 6 || strings.Trim(d, "0123456789") != "" {
			return 0, false
		}
		n, err := strconv.Atoi(d)
		return n, err == nil
	}
	if days, ok := strings.CutSuffix(strings.ToLower(s), "d"); ok {
		n, ok := whole(days)
		return fmt.Appendf(nil, `{"kind":"correspondence","days":%d}`, n), ok
	}
	initial, inc, ok := strings.Cut(s, "+")
	if !ok {
		return nil, false
	}
	i, ok := whole(inc)
	if !ok {
		return nil, false
	}
	mins, secs, part := strings.Cut(initial, ":")
	m, ok := whole(mins)
	if !ok {
		return nil, false
	}
	sec := 0
	if part {
		if sec, ok = whole(secs); !ok || len(secs) != 2 || sec >= 60 {
			return nil, false
		}
	}
	return fmt.Appendf(nil, `{"kind":"fischer","initial":%d,"increment":%d}`, m*60+sec, i), true
}

// clockFields returns the fields a clock object of kind k may have
// besides its kind, and false for no kind of clock.
func clockFields(k ClockKind) ([]string, bool) {
	switch k {
	case ClockTurn:
		return []string{"seconds"}, true
	case ClockFischer:
		return []string{"initial", "increment"}, true
	case ClockCorrespondence:
		return []string{"days"}, true
	}
	return nil, false
}

// decodeClockObject decodes a clock written as an object.
func decodeClockObject(b []byte) (any, error) {
	var o map[string]jsontext.Value
	if err := DecodeJSON(b, &o); err != nil {
		return nil, fmt.Errorf("a clock object: %w", err)
	}
	var kind string
	if err := DecodeJSON(o["kind"], &kind); err != nil || o["kind"] == nil {
		return nil, fmt.Errorf(`a clock object needs a "kind": "turn", "fischer" or "correspondence"`)
	}
	k := ClockKind(kind)
	fields, ok := clockFields(k)
	if !ok {
		return nil, fmt.Errorf(`%q is no kind of clock: want "turn", "fischer" or "correspondence"`, clip([]byte(kind)))
	}
	for _, name := range slices.Sorted(maps.Keys(o)) {
		if name != "kind" && !slices.Contains(fields, name) {
			return nil, fmt.Errorf("a %s clock has no %q (it takes %s)", k, clip([]byte(name)), strings.Join(fields, " and "))
		}
	}
	// field decodes the whole number called name, between lo and hi; a
	// missing one is an error unless optional (then 0).
	field := func(name, what string, lo, hi int, optional bool) (int, error) {
		raw, ok := o[name]
		if !ok {
			if optional {
				return 0, nil
			}
			return 0, fmt.Errorf("a %s clock needs %q: %s", k, name, what)
		}
		v, err := Option{Name: name, Kind: Int, Min: lo, Max: hi}.decode(json.RawMessage(raw))
		if err != nil {
			return 0, fmt.Errorf("a %s clock's %s (%s): %w", k, name, what, err)
		}
		return v.(int), nil
	}
	var c Clock
	var err error
	c.Kind = k
	switch k {
	case ClockTurn:
		if c.Seconds, err = field("seconds", "seconds a turn", ClockMin, ClockMax, false); err != nil {
			return nil, err
		}
		return c.Seconds, nil // as records have always written it
	case ClockFischer:
		if c.Initial, err = field("initial", "seconds for the whole game", ClockMin, FischerInitialMax, false); err != nil {
			return nil, err
		}
		if c.Increment, err = field("increment", "seconds added for each move", 0, FischerIncrementMax, true); err != nil {
			return nil, err
		}
	case ClockCorrespondence:
		if c.Days, err = field("days", "days a move", 1, CorrespondenceDaysMax, false); err != nil {
			return nil, err
		}
	}
	return c, nil
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
