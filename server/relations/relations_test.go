package relations

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/server/refuse"
	"parlour/store"
	"parlour/store/sqlite"
)

// failing is a store whose relations cannot be read.
type failing struct{ *sqlite.Store }

func (failing) Blocking(context.Context, string, string) (bool, error) {
	return false, errors.New("the disk is gone")
}

// TestBlocks: Blocked and Blocking see a block either way; MayChat keeps
// a player out of the chat of a table where one who blocks them sits,
// without saying so; Followers leaves out those the player blocks; and a
// store that cannot answer keeps players apart.
func TestBlocks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := servertest.SQLite(t)
	at := time.Now()
	for _, r := range []struct {
		kind     store.Relation
		from, to string
	}{{store.Block, "ann", "ben"}, {store.Follow, "ben", "ann"}, {store.Follow, "cat", "ann"}} {
		if _, err := st.Relate(ctx, r.kind, r.from, r.to, at); err != nil {
			t.Fatal(err)
		}
	}
	s := New(Config{Store: st})
	for _, c := range []struct {
		a, b string
		want bool
	}{{"ann", "ben", true}, {"ben", "ann", true}, {"ann", "cat", false}, {"ben", "cat", false}, {"ann", "", false}} {
		if got := s.Blocked(ctx, c.a, c.b); got != c.want {
			t.Errorf("Blocked(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
	if b, err := s.Blocks(ctx, "ben", "ann"); err != nil || b {
		t.Errorf("Blocks(ben, ann) = %v, %v; the block is Ann's", b, err)
	}
	for _, c := range []struct {
		writer string
		seated []string
		ok     bool
	}{
		{"ben", []string{"ann", ""}, false},
		{"ben", []string{"cat", "ann"}, false},
		{"ben", []string{"cat", ""}, true},
		{"ann", []string{"ben"}, true}, // the blocker may write at the blocked's table
		{"cat", []string{"ann"}, true},
	} {
		err := s.MayChat(ctx, c.writer, c.seated)
		if (err == nil) != c.ok {
			t.Errorf("MayChat(%s, %q) = %v, want ok %v", c.writer, c.seated, err, c.ok)
		}
		if err != nil && (refuse.Status(err) != 403 || strings.Contains(strings.ToLower(err.Error()), "block")) {
			t.Errorf("MayChat's refusal: %d %v; want 403 that does not tell of the block", refuse.Status(err), err)
		}
	}
	fs, err := s.Followers(ctx, "ann")
	if err != nil || !slices.Equal(fs, []string{"cat"}) {
		t.Errorf("Ann's followers as she may be seen: %q, %v; want cat (she blocks Ben)", fs, err)
	}
	if !New(Config{Store: failing{st}}).Blocked(ctx, "ann", "cat") {
		t.Error("a store that cannot say let two players through as not blocked")
	}
}
