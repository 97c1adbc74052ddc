// Package calendar reads the schedule of the events a server runs by
// itself: the hourly arenas and the weekly Swiss of a fresh install, or
// the events an operator lists in a file (parlour serve --tournaments
// FILE). It knows when each event starts and when it should be put up
// for players to join; the tournament service makes them, with the same
// body a player's POST /api/v1/tournaments takes.
//
// A calendar is JSON:
//
//	{"events": [
//	  {"every": "hour", "minute": 0,
//	   "event": {"kind": "arena", "name": "Hourly Salvo Arena", "game": "salvo",
//	             "clock": {"kind": "fischer", "initial": 180, "increment": 2},
//	             "rated": true, "minutes": 55}},
//	  {"every": "week", "weekday": "sunday", "time": "18:00", "ahead": "24h",
//	   "event": {"kind": "swiss", "game": "nymphabet", ...}}
//	]}
//
// Times are UTC. An event is put up Ahead before it starts (by default
// one period, at most a day), so that the next one of each entry is
// always listed for players to join.
package calendar

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"parlour/server/auth"
)

// Period is how often an entry's event comes round.
type Period string

// The periods an entry may have.
const (
	Hour Period = "hour"
	Day  Period = "day"
	Week Period = "week"
)

func (p Period) length() time.Duration {
	switch p {
	case Hour:
		return time.Hour
	case Day:
		return 24 * time.Hour
	case Week:
		return 7 * 24 * time.Hour
	}
	return 0
}

// MaxEntries caps a calendar: each entry puts up an event every period,
// and a file that listed thousands would fill the events page.
const MaxEntries = 100

// MaxSize caps a calendar file.
const MaxSize = 1 << 20

// Entry is one recurring event of a calendar.
type Entry struct {
	Every Period
	// Offset is when in each period the event starts: minutes past the
	// hour, a time of day, or a day and time of the week (from Sunday
	// 00:00 UTC).
	Offset time.Duration
	// Ahead is how long before its start each event is put up.
	Ahead time.Duration
	// Event is the body a POST /api/v1/tournaments would take, without
	// "starts", which the calendar sets.
	Event json.RawMessage
}

// Calendar is the list of a server's recurring events.
type Calendar struct {
	Entries []Entry
}

// entry is an Entry as a file writes it.
type entry struct {
	Every   Period          `json:"every"`
	Minute  *int            `json:"minute,omitempty"`
	Time    string          `json:"time,omitempty"`
	Weekday string          `json:"weekday,omitempty"`
	Ahead   string          `json:"ahead,omitempty"`
	Event   json.RawMessage `json:"event"`
}

//go:embed default.json
var defaultCalendar []byte

// Default returns the calendar of a server started without one: an arena
// of each game every hour, and a Swiss event every Sunday.
func Default() *Calendar {
	c, err := Parse(defaultCalendar)
	if err != nil {
		panic("calendar: the default calendar does not parse: " + err.Error())
	}
	return c
}

// Parse reads a calendar. Its errors name the entry and the field at
// fault, in an operator's words.
func Parse(b []byte) (*Calendar, error) {
	if len(b) > MaxSize {
		return nil, fmt.Errorf("a calendar is at most %d KiB", MaxSize>>10)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	var f struct {
		Events []entry `json:"events"`
	}
	if err := d.Decode(&f); err != nil {
		return nil, fmt.Errorf("reading the calendar: %w", err)
	}
	if d.More() {
		return nil, errors.New("reading the calendar: text after its closing brace")
	}
	if len(f.Events) > MaxEntries {
		return nil, fmt.Errorf("a calendar lists at most %d events, not %d", MaxEntries, len(f.Events))
	}
	c := &Calendar{}
	for i, e := range f.Events {
		en, err := e.entry()
		if err != nil {
			return nil, fmt.Errorf("event %d of the calendar: %w", i+1, err)
		}
		c.Entries = append(c.Entries, en)
	}
	return c, nil
}

func (e entry) entry() (Entry, error) {
	en := Entry{Every: e.Every, Event: e.Event}
	var obj map[string]json.RawMessage
	if len(e.Event) == 0 || json.Unmarshal(e.Event, &obj) != nil || obj == nil {
		return Entry{}, errors.New(`"event" must be an object, the body of a new event`)
	}
	if _, ok := obj["starts"]; ok {
		return Entry{}, errors.New(`"event" must not set "starts": the calendar sets it`)
	}
	period := e.Every.length()
	if period == 0 {
		return Entry{}, fmt.Errorf(`"every" is %q; it must be "hour", "day" or "week"`, e.Every)
	}
	switch e.Every {
	case Hour:
		if e.Time != "" || e.Weekday != "" {
			return Entry{}, errors.New(`an hourly event takes "minute", not "time" or "weekday"`)
		}
		if e.Minute != nil {
			if *e.Minute < 0 || *e.Minute > 59 {
				return Entry{}, fmt.Errorf(`"minute" is %d; it must be 0 to 59`, *e.Minute)
			}
			en.Offset = time.Duration(*e.Minute) * time.Minute
		}
	case Day, Week:
		if e.Minute != nil {
			return Entry{}, fmt.Errorf(`a %s event takes "time", not "minute"`, periodAdjective(e.Every))
		}
		if e.Time == "" {
			return Entry{}, fmt.Errorf(`a %s event needs "time", as "18:00"`, periodAdjective(e.Every))
		}
		at, err := time.Parse("15:04", e.Time)
		if err != nil {
			return Entry{}, fmt.Errorf(`"time" is %q; write it as "18:00" (UTC)`, e.Time)
		}
		en.Offset = time.Duration(at.Hour())*time.Hour + time.Duration(at.Minute())*time.Minute
		if e.Every == Day && e.Weekday != "" {
			return Entry{}, errors.New(`a daily event takes no "weekday"`)
		}
		if e.Every == Week {
			wd, ok := weekday(e.Weekday)
			if !ok {
				return Entry{}, fmt.Errorf(`"weekday" is %q; it must be a day's name, as "sunday"`, e.Weekday)
			}
			en.Offset += time.Duration(wd) * 24 * time.Hour
		}
	}
	en.Ahead = min(period, 24*time.Hour)
	if e.Ahead != "" {
		a, err := time.ParseDuration(e.Ahead)
		if err != nil || a < time.Minute || a > 7*24*time.Hour {
			return Entry{}, fmt.Errorf(`"ahead" is %q; it must be a duration from "1m" to "168h"`, e.Ahead)
		}
		en.Ahead = a
	}
	return en, nil
}

func periodAdjective(p Period) string {
	if p == Day {
		return "daily"
	}
	return "weekly"
}

func weekday(s string) (time.Weekday, bool) {
	for d := time.Sunday; d <= time.Saturday; d++ {
		if strings.EqualFold(s, d.String()) {
			return d, true
		}
	}
	return 0, false
}

// next returns the first start of e strictly after t.
func (e Entry) next(t time.Time) time.Time {
	period := e.Every.length()
	// Periods count from a Sunday at midnight UTC, so that a week's
	// offset counts from Sunday.
	first := time.Date(2023, time.January, 1, 0, 0, 0, 0, time.UTC).Add(e.Offset)
	if t.Before(first) {
		return first
	}
	n := t.Sub(first)/period + 1
	return first.Add(n * period)
}

// Due is one event of a calendar to put up.
type Due struct {
	// Entry is the index of the calendar's entry.
	Entry int
	// Starts is when the event starts.
	Starts time.Time
	// Key names this event of this entry, the same on every node and
	// after a restart, so that it is made once however often it is
	// asked for: an id of the shape of every event's (auth.IDOf).
	Key string
	// Event is the body of the new event, "starts" set.
	Event json.RawMessage
}

// Upcoming returns the events that should be up at now: of each entry,
// each start after now and at most its Ahead away, earliest first within
// each entry.
func (c *Calendar) Upcoming(now time.Time) []Due {
	var out []Due
	for i, e := range c.Entries {
		for s := e.next(now); !s.After(now.Add(e.Ahead)); s = e.next(s) {
			out = append(out, e.due(i, s))
		}
	}
	return out
}

// Next returns the first moment after now at which Upcoming lists an
// event it does not list at now, so that one timer serves the calendar.
// It is the zero time for an empty calendar.
func (c *Calendar) Next(now time.Time) time.Time {
	var first time.Time
	for _, e := range c.Entries {
		// The first start beyond the window enters it Ahead before.
		t := e.next(now.Add(e.Ahead)).Add(-e.Ahead)
		if first.IsZero() || t.Before(first) {
			first = t
		}
	}
	return first
}

func (e Entry) due(i int, starts time.Time) Due {
	var obj map[string]json.RawMessage
	_ = json.Unmarshal(e.Event, &obj) // checked by Parse
	s, _ := json.Marshal(starts.UTC().Format(time.RFC3339))
	obj["starts"] = s
	body, _ := json.Marshal(obj)
	key := auth.IDOf(fmt.Sprintf("calendar\n%s\n%s", e.Event, starts.UTC().Format(time.RFC3339)))
	return Due{Entry: i, Starts: starts, Key: key, Event: body}
}
