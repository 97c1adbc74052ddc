package calendar

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"parlour/server/auth"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestDefault: the default calendar puts up an arena of each game every
// hour and a Swiss event on Sundays, each with its start set.
func TestDefault(t *testing.T) {
	t.Parallel()
	c := Default()
	games := map[string]int{}
	kinds := map[string]int{}
	for _, d := range Default().Upcoming(at("2026-11-29T05:20:00Z")) {
		var ev struct{ Kind, Game, Starts string }
		if err := json.Unmarshal(d.Event, &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Starts != d.Starts.Format(time.RFC3339) {
			t.Errorf("event %s starts %q, due at %s", d.Key, ev.Starts, d.Starts)
		}
		games[ev.Game]++
		kinds[ev.Kind]++
	}
	for _, g := range []string{"quizl", "salvo", "wordfight", "nymphabet"} {
		if games[g] < 1 {
			t.Errorf("no %s event is up: %v", g, games)
		}
	}
	// 2026-11-29 is a Sunday: its 18:00 Swiss is within a day.
	if kinds["arena"] != 4 || kinds["swiss"] != 1 {
		t.Errorf("up at 05:20 on a Sunday: %v, want 4 arenas and a Swiss", kinds)
	}
	if len(c.Entries) != 5 {
		t.Errorf("%d entries", len(c.Entries))
	}
}

// TestUpcoming: each entry's next starts within its Ahead, keyed the same
// way each time they are asked for; Next is when the list changes.
func TestUpcoming(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(`{"events": [
		{"every": "hour", "minute": 30, "ahead": "90m", "event": {"kind": "arena"}},
		{"every": "week", "weekday": "Tuesday", "time": "20:15", "event": {"kind": "swiss"}},
		{"every": "day", "time": "07:00", "ahead": "1h", "event": {"kind": "arena", "game": "salvo"}}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	now := at("2026-11-30T06:10:00Z") // a Monday
	var got []string
	keys := map[string]bool{}
	for _, d := range c.Upcoming(now) {
		got = append(got, d.Starts.Format("Mon 15:04"))
		keys[d.Key] = true
		if !auth.ValidID(d.Key) {
			t.Errorf("key %q is not of an id's shape", d.Key)
		}
	}
	want := "Mon 06:30 Mon 07:30 Mon 07:00"
	if strings.Join(got, " ") != want {
		t.Errorf("upcoming at Mon 06:10: %q, want %q", strings.Join(got, " "), want)
	}
	for _, d := range c.Upcoming(now.Add(time.Minute)) {
		if !keys[d.Key] {
			t.Errorf("the event starting %s changed its key a minute later", d.Starts)
		}
	}
	// The hourly entry's 08:30 start enters its 90 minutes at 07:00; the
	// Tuesday Swiss enters its day at Mon 20:15.
	if n := c.Next(now); !n.Equal(at("2026-11-30T07:00:00Z")) {
		t.Errorf("next change after Mon 06:10 at %s, want 07:00", n)
	}
	if up := c.Upcoming(at("2026-11-30T20:15:00Z")); len(up) != 3 || up[2].Starts.Weekday() != time.Tuesday {
		t.Errorf("at Mon 20:15: %+v, want the Tuesday Swiss up", up)
	}
	if n := (&Calendar{}).Next(now); !n.IsZero() {
		t.Errorf("an empty calendar's next change: %s", n)
	}
}

// TestParseRefuses: each mistake in a calendar file is named.
func TestParseRefuses(t *testing.T) {
	t.Parallel()
	ev := `"event": {"kind": "arena"}`
	for _, tc := range []struct{ text, want string }{
		{``, "reading the calendar"},
		{`{"events": [], "x": 1}`, "unknown field"},
		{`{"events": []} {}`, "after its closing brace"},
		{`{"events": [{"every": "month", ` + ev + `}]}`, `"every" is "month"`},
		{`{"events": [{"every": "hour", "minute": 60, ` + ev + `}]}`, `"minute" is 60`},
		{`{"events": [{"every": "hour", "time": "10:00", ` + ev + `}]}`, `takes "minute"`},
		{`{"events": [{"every": "day", ` + ev + `}]}`, `needs "time"`},
		{`{"events": [{"every": "day", "time": "25:00", ` + ev + `}]}`, `"time" is "25:00"`},
		{`{"events": [{"every": "day", "time": "10:00", "weekday": "monday", ` + ev + `}]}`, `no "weekday"`},
		{`{"events": [{"every": "week", "time": "10:00", "weekday": "funday", ` + ev + `}]}`, `"weekday" is "funday"`},
		{`{"events": [{"every": "week", "time": "10:00", "weekday": "monday", "minute": 3, ` + ev + `}]}`, `takes "time"`},
		{`{"events": [{"every": "hour", "ahead": "1s", ` + ev + `}]}`, `"ahead" is "1s"`},
		{`{"events": [{"every": "hour"}]}`, `must be an object`},
		{`{"events": [{"every": "hour", "event": [1]}]}`, `must be an object`},
		{`{"events": [{"every": "hour", "event": {"starts": "2026-01-01T00:00:00Z"}}]}`, `must not set "starts"`},
		{`{"events": [` + strings.Repeat(`{"every": "hour", `+ev+`},`, MaxEntries) + `{"every": "hour", ` + ev + `}]}`, "at most 100 events"},
	} {
		_, err := Parse([]byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%.60q) = %v, want an error with %q", tc.text, err, tc.want)
		}
	}
}

// FuzzParse: no calendar file makes Parse panic, and what it accepts
// lists upcoming events that each carry their start.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"events": [{"every": "hour", "minute": 5, "event": {"kind": "arena"}}]}`))
	f.Add([]byte(`{"events": [{"every": "week", "weekday": "friday", "time": "23:59", "ahead": "168h", "event": {}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := Parse(b)
		if err != nil {
			return
		}
		now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
		for _, d := range c.Upcoming(now) {
			if !d.Starts.After(now) || d.Starts.After(now.Add(c.Entries[d.Entry].Ahead)) {
				t.Fatalf("due %s outside its window", d.Starts)
			}
			var ev map[string]any
			if json.Unmarshal(d.Event, &ev) != nil || ev["starts"] == nil {
				t.Fatalf("due event %s has no start", d.Event)
			}
		}
		if len(c.Entries) > 0 && !c.Next(now).After(now) {
			t.Fatalf("next change %s is not after now", c.Next(now))
		}
	})
}
