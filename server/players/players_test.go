package players

import (
	"context"
	"fmt"
	"net/http"
	"parlour/server/auth"
	"parlour/server/refuse"
	"strings"
	"testing"
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
