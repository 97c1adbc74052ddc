package players

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"parlour/glicko"
	"parlour/server/auth"
	"parlour/server/refuse"
	"parlour/store"
)

// FuzzParseBefore checks that a history cursor either reads back as
// itself or is a 400.
func FuzzParseBefore(f *testing.F) {
	f.Add("1795867500000000000.k3x9q2m7c8v4r6tw")
	f.Add("")
	f.Add("-1.k3x9q2m7c8v4r6tw")
	f.Add("12.")
	f.Fuzz(func(t *testing.T, s string) {
		at, id, err := parseBefore(s)
		if err != nil {
			if refuse.Status(err) != 400 {
				t.Fatalf("%q: %v is not a 400", s, err)
			}
			return
		}
		if !auth.ValidID(id) || at.UnixNano() <= 0 {
			t.Fatalf("%q gave %v %q", s, at, id)
		}
		if again := fmt.Sprintf("%d.%s", at.UnixNano(), id); again != s && !strings.HasPrefix(s, "+") && !strings.HasPrefix(s, "0") {
			t.Fatalf("%q read back as %q", s, again)
		}
	})
}

// TestAccountNamedAnyCase: a name finds its account in any case; a name
// nobody has is a 404 naming it.
func TestAccountNamedAnyCase(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	ctx := context.Background()
	f.signUp("Ann")
	if a, _, err := f.s.AccountNamed(ctx, "aNN"); err != nil || a.Name != "Ann" {
		t.Fatalf("aNN: %+v %v", a, err)
	}
	if _, _, err := f.s.AccountNamed(ctx, "Zed"); refuse.Status(err) != http.StatusNotFound || !strings.Contains(err.Error(), `"Zed"`) {
		t.Fatalf("Zed: %v, want a 404 naming Zed", err)
	}
}

// TestLeaderboardUnknownPool: a pool that does not exist is a 404 that
// lists the pools there are.
func TestLeaderboardUnknownPool(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	_, err := f.s.Leaderboard(context.Background(), "chess")
	if refuse.Status(err) != http.StatusNotFound || !strings.Contains(err.Error(), `"chess"`) {
		t.Fatalf("got %v, want a 404 naming chess", err)
	}
}

// TestProfileRatingAway: a profile shows a rating's RD as it stands now,
// grown by the time since the pool's last game, so a player who has
// stayed away a year reads as provisional again.
func TestProfileRatingAway(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	ctx := context.Background()
	ann, bob := f.signUp("Ann"), f.signUp("Bob")
	year := 365 * 24 * time.Hour
	for i, ago := range []time.Duration{year + time.Hour, year} {
		// Ann beats Bob twice, a year ago, an hour apart: RD 266.
		id, ended := fmt.Sprintf("t%d", i), time.Now().Add(-ago)
		if err := f.db.CreateTable(ctx, store.Table{ID: id, Game: "nymphabet", Status: store.Playing, Created: ended, Updated: ended, Meta: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
		end := &store.GameEnd{Game: "nymphabet", Ended: ended,
			Seats: []store.SeatEnd{{Identity: ann.Identity, Seat: 0, Result: store.Win}, {Identity: bob.Identity, Seat: 1, Result: store.Loss}},
			Rated: &store.RatedGame{Pool: "nymphabet-standard", Players: [2]string{ann.Identity, bob.Identity}, Score: glicko.Win}}
		if err := f.db.AppendMove(ctx, id, store.Move{Seq: 1, Seat: 1, Text: "resign", At: ended}, &store.Update{Status: store.Finished, Meta: []byte(`{}`), End: end}); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := f.db.Ratings(ctx, ann.Identity)
	if err != nil || len(rs) != 1 {
		t.Fatalf("Ann's stored ratings: %+v, %v", rs, err)
	}
	stored := glicko.Rating{Value: rs[0].Rating, RD: rs[0].RD, Volatility: rs[0].Volatility}
	want := glicko.System{}.Away(stored, year)
	p, err := f.s.Profile(ctx, nil, "Ann")
	if err != nil {
		t.Fatal(err)
	}
	got := p.Ratings["nymphabet-standard"]
	if math.Abs(got.RD-want.RD) > 0.1 || got.RD <= stored.RD+10 || math.Abs(got.Rating-stored.Value) > 0.05 {
		t.Errorf("Ann's profile rating %+v; want %.1f ± %.1f (stored ± %.1f, a year ago)", got, want.Value, want.RD, stored.RD)
	}
}
