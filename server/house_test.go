package server

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"parlour/server/tournament/calendar"
)

// TestHouseEvents: the server's calendar puts up each entry's next event
// within its time ahead, and the next one when that time comes; a second
// runner (another node, a restart) makes none twice; an entry the events
// refuse is passed over and the others go on.
func TestHouseEvents(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil)
	cal, err := calendar.Parse([]byte(`{"events": [
		{"every": "hour", "minute": 0, "event": {"kind": "arena", "name": "Hourly Nymphabet", "game": "nymphabet", "clock": ` + fastClock + `, "minutes": 50}},
		{"every": "hour", "minute": 30, "event": {"kind": "arena", "name": "Chess", "game": "chess", "clock": ` + fastClock + `, "minutes": 50}}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ts := f.s.Tournaments()
	log := slog.New(slog.DiscardHandler)
	listed := func() []string {
		t.Helper()
		evs, err := ts.List(ctx, "created")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range evs {
			if e.Name == "Hourly Nymphabet" && e.Creator == "" {
				out = append(out, e.Starts.Format(time.RFC3339))
			}
		}
		return out
	}
	a := startHouseEvents(ctx, ts, cal, f.clock, log)
	t.Cleanup(a.stop)
	first := listed()
	if len(first) != 1 {
		t.Fatalf("after the first look, the house's events are %v, want the next hour's", first)
	}
	b := startHouseEvents(ctx, ts, cal, f.clock, log)
	t.Cleanup(b.stop)
	if again := listed(); len(again) != 1 {
		t.Fatalf("a second runner made %v, want the one event", again)
	}
	// When the hour after it comes within its time ahead (at its start),
	// that event is up too, once; the timer set for the other entry's
	// change on the way (the half hour) is no call missed.
	start, _ := time.Parse(time.RFC3339, first[0])
	if next := cal.Next(f.clock.Now()); next.After(start) {
		t.Fatalf("the calendar's next change is %s, after %s", next, start)
	}
	f.clock.Advance(start.Sub(f.clock.Now()))
	want := start.Add(time.Hour).Format(time.RFC3339)
	n := 0
	for _, s := range listed() {
		if s == want {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("when the next hour comes within reach, the events to come are %v, want %s once", listed(), want)
	}
	if ev, err := ts.Get(ctx, calendar.Default().Upcoming(f.clock.Now())[0].Key); err == nil {
		t.Errorf("an event of a calendar this server does not run is up: %+v", ev)
	}
}

// TestHouseEventsDefault: every event of the default calendar is one the
// events accept, so that a fresh server lists them.
func TestHouseEventsDefault(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil)
	ctx := context.Background()
	cal := calendar.Default()
	h := startHouseEvents(ctx, f.s.Tournaments(), cal, f.clock, slog.New(slog.DiscardHandler))
	t.Cleanup(h.stop)
	due := cal.Upcoming(f.clock.Now())
	if len(due) < 4 {
		t.Fatalf("the default calendar has %d events due, want at least an arena of each game", len(due))
	}
	for _, d := range due {
		ev, err := f.s.Tournaments().Get(ctx, d.Key)
		if err != nil {
			t.Errorf("the default calendar's event %d starting %s was not made: %v", d.Entry+1, d.Starts, err)
			continue
		}
		if !ev.Starts.Equal(d.Starts) || ev.Creator != "" || !ev.Rated {
			t.Errorf("event %q starts %s, creator %q, rated %v; want %s, the house's, rated", ev.Name, ev.Starts, ev.Creator, ev.Rated, d.Starts)
		}
	}
}
