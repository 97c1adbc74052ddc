package analyses_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/server/analyses"
	"parlour/server/refuse"
	"parlour/server/table"
)

// TestGetRefuses: no analysis of a table that does not exist, of a game
// that goes on (it could help a player), or of an aborted one; and none
// of them is computed.
func TestGetRefuses(t *testing.T) {
	t.Parallel()
	f := newFixture(t, t.TempDir())
	ctx := context.Background()
	going, err := f.tables.Create(ctx, nil, table.CreateRequest{Game: "nymphabet", Seats: []string{"me", "computer:easy"}})
	if err != nil {
		t.Fatal(err)
	}
	aborted := f.play("nymphabet", []string{"me", "computer:easy"}, nil)
	for _, c := range []struct {
		name, id string
		status   int
		says     string
	}{
		{"no such table", "nosuchtable", http.StatusNotFound, "no table"},
		{"a game going on", going.Table, http.StatusConflict, "has not ended"},
		{"an aborted game", aborted, http.StatusConflict, "aborted"},
	} {
		t.Run(c.name, func(t *testing.T) {
			body, err := f.cache.Get(ctx, nil, c.id)
			if err == nil || refuse.Status(err) != c.status || !strings.Contains(err.Error(), c.says) {
				t.Errorf("Get: %s, %v (status %d), want %d saying %q", body, err, refuse.Status(err), c.status, c.says)
			}
		})
	}
	if n := f.computed(); n != 0 {
		t.Errorf("computed %v analyses of games that may have none, want 0", n)
	}
}

// TestGetOnce: players asking at once as the game ends share one
// computation and get the same bytes, which later requests get from
// memory.
func TestGetOnce(t *testing.T) {
	t.Parallel()
	f := newFixture(t, t.TempDir())
	id := f.play("nymphabet", []string{"me", "computer:strong"}, nil, "apple")
	bodies := make([][]byte, 4)
	var wg sync.WaitGroup
	for i := range bodies {
		wg.Go(func() {
			b, err := f.cache.Get(context.Background(), nil, id)
			if err != nil {
				t.Errorf("Get: %v", err)
			}
			bodies[i] = b
		})
	}
	wg.Wait()
	if n := f.computed(); n != 1 {
		t.Errorf("four requests at once computed the analysis %v times, want once", n)
	}
	again, err := f.cache.Get(context.Background(), nil, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bodies {
		if !bytes.Equal(b, again) {
			t.Errorf("a request made at the same time got %s, want %s", b, again)
		}
	}
	if n := f.computed(); n != 1 {
		t.Errorf("after a later request: computed %v times, want once", n)
	}
	var got struct {
		Game    string `json:"game"`
		Moves   int    `json:"moves"`
		Winners []int  `json:"winners"`
	}
	if err := json.Unmarshal(again, &got); err != nil || got.Game != "nymphabet" || got.Moves != 3 || len(got.Winners) != 1 || got.Winners[0] != 1 {
		t.Errorf("analysis %s (%v)", again, err)
	}
}

// TestGetKeptWithTheRecord: an analysis is filed in the store beside the
// record, so that after a restart it is served from there, byte for byte,
// without computing it again.
func TestGetKeptWithTheRecord(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := newFixture(t, dir)
	id := f.play("nymphabet", []string{"me", "computer:easy"}, nil, "apple")
	first, err := f.cache.Get(context.Background(), nil, id)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.computed(); n != 1 {
		t.Fatalf("computed %v times, want once", n)
	}
	f.close()

	f = newFixture(t, dir)
	again, err := f.cache.Get(context.Background(), nil, id)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, first) {
		t.Errorf("after the restart: %s, want %s", again, first)
	}
	if n := f.computed(); n != 0 {
		t.Errorf("after the restart the analysis was computed %v times, want 0 (read from the store)", n)
	}
}

// TestGetEveryGame: a finished game of each of the four games, set up
// against the computer (Quizl alone, against its grid) and resigned, is
// analysed, with the game's own part of the object.
func TestGetEveryGame(t *testing.T) {
	t.Parallel()
	f := newFixture(t, t.TempDir())
	for _, c := range []struct {
		game  string
		setup *table.SetupRequest
		seats []string
		// first are the person's moves before the resignation.
		first []string
	}{
		{"quizl", nil, []string{"me"}, nil}, // solitaire: the computer's grid
		// Wait: the computer sets its fleet on its own goroutine, and a
		// resignation before both fleets are set is refused.
		{"salvo", &table.SetupRequest{Auto: true, Wait: true}, []string{"me", "computer:easy"}, []string{"fire A1 A2 A3 A4 A5"}},
		{"wordfight", nil, []string{"me", "computer:easy"}, []string{"declare cart", "place B2 across"}},
		{"nymphabet", nil, []string{"me", "computer:easy"}, []string{"apple"}},
	} {
		t.Run(c.game, func(t *testing.T) {
			id := f.play(c.game, c.seats, c.setup, c.first...)
			body, err := f.cache.Get(context.Background(), nil, id)
			if err != nil {
				t.Fatal(err)
			}
			var got map[string]json.RawMessage
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatalf("analysis %s: %v", body, err)
			}
			if string(got["game"]) != `"`+c.game+`"` || len(got[c.game]) == 0 || string(got[c.game]) == "null" {
				t.Errorf("the analysis of a %s game: game %s, its part %s", c.game, got["game"], got[c.game])
			}
		})
	}
}

// TestGetTooLong: a game the engines cannot analyse in the time is
// refused in the player's words (422), not as the server's failure, and
// the refusal is kept: asking again computes nothing.
func TestGetTooLong(t *testing.T) {
	t.Parallel()
	f := newFixture(t, t.TempDir())
	analyses.SetTimeout(f.cache, time.Nanosecond)
	id := f.play("nymphabet", []string{"me", "computer:strong"}, nil, "apple")
	for i := range 2 {
		body, err := f.cache.Get(context.Background(), nil, id)
		if refuse.Status(err) != http.StatusUnprocessableEntity || !strings.Contains(err.Error(), "too long") {
			t.Errorf("ask %d: %s, %v (status %d), want 422 saying the game is too long", i+1, body, err, refuse.Status(err))
		}
	}
	if n := f.computed(); n != 1 {
		t.Errorf("asked twice, computed %v times, want once", n)
	}
}
