package table

import (
	"context"
	"slices"
	"testing"
	"time"

	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// TestSpectatorsCounted: the lobby's list of games in play counts, for
// each table, the watchers who hold no seat there (a seated player's
// stream is not one, and one that closes counts no more), the updates
// pushed to the table's watchers leave the count out, a game filter
// keeps one game's tables, and the featured game is the most-watched
// when none is rated.
func TestSpectatorsCounted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	if _, err := f.s.Feature(ctx); refuse.Status(err) != 404 || err.Error() != NoLiveGame {
		t.Fatalf("the featured game with none in play: %v, want 404 %q", err, NoLiveGame)
	}
	solo := func(gameName string) (string, *auth.Principal) {
		t.Helper()
		a, err := f.s.Create(ctx, nil, CreateRequest{Game: gameName, Seats: []string{"me"}})
		if err != nil {
			t.Fatal(err)
		}
		return a.Table, f.principal(a.Token)
	}
	older, _ := solo("guess")
	id, player := solo("guess")
	other, _ := solo("tailguess")
	watchers := map[string]int{}
	lobby := func(gameName string) {
		t.Helper()
		rows, err := f.s.LobbyGame(ctx, store.Playing, gameName, 10)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]int{}
		for _, in := range rows {
			if in.Spectators == nil {
				t.Fatalf("table %s is listed without its spectators: %+v", in.ID, in)
			}
			seen[in.ID] = *in.Spectators
		}
		for _, tid := range []string{older, id, other} {
			n, ok := seen[tid]
			if want := gameName == "" || tid != other; ok != want || n != watchers[tid] {
				t.Errorf("lobby of %q: table %s listed %v with %d spectators, want listed %v with %d", gameName, tid, ok, n, want, watchers[tid])
			}
		}
	}
	lobby("")

	seated, err := f.s.Watch(ctx, player, id, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer seated.Close()
	lobby("") // the player's own stream is no spectator's

	guest, err := f.s.NewIdentity(ctx, "Watcher")
	if err != nil {
		t.Fatal(err)
	}
	var ws []*Watcher
	for _, p := range []*auth.Principal{nil, nil, f.principal(guest.Token)} {
		w, err := f.s.Watch(ctx, p, id, -1)
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	watchers[id] = 3
	lobby("")
	lobby("guess")
	u, err := ws[0].Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if u.Table.Spectators != nil || u.Table.Rating != nil {
		t.Errorf("a watcher's update carries the lobby's count: %+v", u.Table)
	}
	if fe, err := f.s.Feature(ctx); err != nil || fe.Table.ID != id || fe.Spectators != 3 || fe.Rating != nil {
		t.Errorf("featured %+v, %v; want table %s for its 3 spectators", fe, err, id)
	}

	ws[0].Close()
	ws[0].Close() // twice counts once
	watchers[id] = 2
	lobby("")
	for _, w := range ws[1:] {
		w.Close()
	}
	watchers[id] = 0
	lobby("")
	// None watched: the newest is featured.
	if fe, err := f.s.Feature(ctx); err != nil || fe.Table.ID != other || fe.Spectators != 0 {
		t.Errorf("featured %+v, %v; want the newest, %s", fe, err, other)
	}

	if _, err := f.s.LobbyGame(ctx, store.Playing, "chess", 10); refuse.Status(err) != 400 {
		t.Errorf("the lobby of a game the server lacks: %v, want a 400", err)
	}
}

// TestAbandonedGamesNotListed: a game in play whose every player has been
// away longer than the walk-away time leaves the lists of games to watch
// and is not featured, while a game whose player is connected stays; the
// abandoned game comes back once its player does.
func TestAbandonedGamesNotListed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := &handClock{now: time.Now()}
	f := &fixture{t: t, dir: t.TempDir(), clock: clock}
	f.open()
	t.Cleanup(f.close)
	solo := func() (string, *auth.Principal) {
		t.Helper()
		a, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me"}})
		if err != nil {
			t.Fatal(err)
		}
		return a.Table, f.principal(a.Token)
	}
	here, herePlayer := solo()
	left, leftPlayer := solo()
	w, err := f.s.Watch(ctx, herePlayer, here, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	listed := func(when string, want ...string) {
		t.Helper()
		rows, err := f.s.Lobby(ctx, store.Playing, 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, in := range rows {
			got = append(got, in.ID)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: the games to watch are %v, want %v", when, got, want)
		}
	}
	listed("at first", here, left)
	clock.Advance(f.s.cfg.WalkAway)
	listed("at the walk-away time", here, left)
	clock.Advance(time.Second)
	listed("once the player has walked away", here)
	if fe, err := f.s.Feature(ctx); err != nil || fe.Table.ID != here {
		t.Errorf("featured %+v, %v; want the game whose player is there, %s", fe, err, here)
	}
	if _, err := f.s.View(ctx, leftPlayer, left); err != nil {
		t.Fatal(err)
	}
	listed("once the player is back", here, left)
}

// TestParkedAbandoned: a parked game is abandoned once every person's
// seat was last seen longer ago than the walk-away time; computer seats
// and open seats do not count, and a game of computers alone is never.
func TestParkedAbandoned(t *testing.T) {
	t.Parallel()
	now := time.Now()
	away, fresh := now.Add(-6*time.Minute), now.Add(-time.Minute)
	person, computer := SeatInfo{Kind: "person"}, SeatInfo{Kind: "computer"}
	for _, c := range []struct {
		name  string
		who   []string
		kinds []SeatInfo
		seen  []time.Time
		want  bool
	}{
		{"both away", []string{"a", "b"}, []SeatInfo{person, person}, []time.Time{away, away}, true},
		{"one back", []string{"a", "b"}, []SeatInfo{person, person}, []time.Time{away, fresh}, false},
		{"against the computer, away", []string{"a", ""}, []SeatInfo{person, computer}, []time.Time{away, fresh}, true},
		{"against the computer, there", []string{"a", ""}, []SeatInfo{person, computer}, []time.Time{fresh, away}, false},
		{"computers alone", []string{"", ""}, []SeatInfo{computer, computer}, []time.Time{away, away}, false},
	} {
		p := &parked{in: Info{Seats: c.kinds}, who: c.who, seen: c.seen}
		if got := p.abandoned(now, DefaultWalkAway); got != c.want {
			t.Errorf("%s: abandoned %v, want %v", c.name, got, c.want)
		}
	}
}
