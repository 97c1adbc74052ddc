package table

import (
	"context"
	"testing"

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
