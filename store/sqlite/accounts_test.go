package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"parlour/glicko"
	"parlour/store"
)

// TestUpgradeFrom001 opens a database that only migration 001 made, with
// identities, a finished table and a live one with their moves, and finds
// everything still there after the upgrade, the finished game in its
// players' histories.
func TestUpgradeFrom001(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	init, err := migrations.ReadFile("migrations/001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().UnixNano()
	finished := `{"game":"nymphabet","lexicon":"en","seed":7,"seats":[{"name":"Ann","identity":"ida"},{"name":"Ben","identity":"idb"},{"name":"Computer (easy)","computer":"easy"}],"changes":1,"started":true,"start":1}`
	for _, q := range []string{
		string(init),
		"PRAGMA user_version = 1",
		`INSERT INTO identities VALUES ('ida', 'Ann', 1), ('idb', 'Ben', 2)`,
		`INSERT INTO credentials VALUES (x'0102', 'ida', '', 0)`,
		`INSERT INTO tables VALUES ('done', 'nymphabet', 'finished', 10, ` + itoa(now) + `, CAST('` + finished + `' AS BLOB))`,
		`INSERT INTO tables VALUES ('live', 'quizl', 'playing', 20, 20, CAST('{"seats":[{"name":"Ann","identity":"ida"}]}' AS BLOB))`,
		`INSERT INTO moves VALUES ('done', 1, 0, 'apple', 11), ('done', 2, 1, 'resign', 12), ('live', 1, 0, '55', 21)`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%.60s: %v", q, err)
		}
	}
	db.Close()

	s := open(t, path)
	defer s.Close()
	var applied int
	s.db.QueryRow("SELECT count(*) FROM schema_migrations WHERE name = '002_accounts.sql'").Scan(&applied)
	if applied != 1 {
		t.Fatalf("002_accounts.sql is not among the applied migrations after the upgrade")
	}
	done, err := s.Table(ctx, "done")
	if err != nil || done.Status != store.Finished || len(done.Moves) != 2 || done.Moves[1].Text != "resign" || string(done.Meta) != finished {
		t.Fatalf("finished table after the upgrade: %+v, %v", done, err)
	}
	live, err := s.LiveTables(ctx)
	if err != nil || len(live) != 1 || live[0].ID != "live" || len(live[0].Moves) != 1 {
		t.Fatalf("live tables after the upgrade: %+v, %v", live, err)
	}
	if c, err := s.Credential(ctx, []byte{1, 2}); err != nil || c.Identity != "ida" {
		t.Fatalf("credential after the upgrade: %+v, %v", c, err)
	}
	for i, id := range []string{"ida", "idb"} {
		h, err := s.History(ctx, store.HistoryPage{Identity: id, Limit: 10})
		if err != nil || len(h) != 1 || h[0].Table != "done" || h[0].Seat != i || h[0].Result != "" || h[0].Game != "nymphabet" {
			t.Fatalf("history of %s after the upgrade: %+v, %v", id, h, err)
		}
	}
	// A guest of before the upgrade becomes an account with its game.
	if _, err := s.CreateAccount(ctx, store.Account{Identity: "ida", Name: "Ann", Key: "ann", Hash: "h", Created: time.Now()}, store.Credential{Hash: []byte{3}, Identity: "ida"}, nil); err != nil {
		t.Fatal(err)
	}
	if n, err := s.FinishedGames(ctx, "ida"); n != 1 || err != nil {
		t.Fatalf("Ann's games after becoming an account: %d %v", n, err)
	}
	// The latest write stands for the end of the last run, which the
	// database, made before the runs were kept, does not know: the first
	// run finds the gap from then, and the clocks stand still through the
	// upgrade rather than run on.
	start := time.Now().Add(time.Hour)
	if _, gaps, err := s.StartRun(ctx, start, 10*time.Second); err != nil || len(gaps) != 1 || !gaps[0].From.Equal(fromNanos(now)) || !gaps[0].To.Equal(start) {
		t.Fatalf("the first run's gaps after the upgrade: %+v, %v; want one from the last write to the start", gaps, err)
	}
	// Reopening applies nothing twice.
	s.Close()
	s = open(t, path)
	if n, _ := s.FinishedGames(ctx, "idb"); n != 1 {
		t.Fatalf("Ben's games after a second open: %d", n)
	}
}

// TestNewDatabaseHasNoRunBefore: a new database's first run finds no gap:
// there was no server before it.
func TestNewDatabaseHasNoRunBefore(t *testing.T) {
	t.Parallel()
	s := open(t, filepath.Join(t.TempDir(), "new.db"))
	defer s.Close()
	if _, gaps, err := s.StartRun(context.Background(), time.Now(), 10*time.Second); err != nil || len(gaps) != 0 {
		t.Errorf("a new database's first run: gaps %+v, %v; want none", gaps, err)
	}
}

func itoa(n int64) string {
	b := []byte{}
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// TestRatedEndsShareACommit ends two rated games of one player in one
// transaction of the writer: each reads the rating the other left, so
// both count.
func TestRatedEndsShareACommit(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "p.db"), Options{Synchronous: "NORMAL", CommitInterval: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Now()
	for _, id := range []string{"a", "b", "c"} {
		if err := s.CreateIdentity(ctx, store.Identity{ID: id, Name: id, Created: now}, store.Credential{Hash: []byte(id), Identity: id}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tb := range []string{"t1", "t2"} {
		if err := s.CreateTable(ctx, store.Table{ID: tb, Game: "nymphabet", Status: store.Playing, Created: now, Updated: now, Meta: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	before := s.Stats().Commits
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, g := range []struct{ table, other string }{{"t1", "b"}, {"t2", "c"}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			end := &store.GameEnd{Game: "nymphabet", Ended: now,
				Seats: []store.SeatEnd{{Identity: "a", Seat: 0, Result: store.Win}, {Identity: g.other, Seat: 1, Result: store.Loss}},
				Rated: &store.RatedGame{Pool: "nymphabet-standard", Players: [2]string{"a", g.other}, Score: 1}}
			errs[i] = s.AppendMove(ctx, g.table, store.Move{Seq: 1, Seat: 1, Text: "resign", At: now}, &store.Update{Status: store.Finished, Meta: []byte(`{}`), End: end})
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if c := s.Stats().Commits - before; c != 1 {
		t.Logf("the two ends took %d commits (the test wants them in one, but it proves the same either way)", c)
	}
	rs, err := s.Ratings(ctx, "a")
	if err != nil || len(rs) != 1 || rs[0].Games != 2 {
		t.Fatalf("a's ratings: %+v, %v", rs, err)
	}
	first, _, _ := glicko.System{}.Game(glicko.New(), glicko.New(), glicko.Win)
	second, _, _ := glicko.System{}.Game(first, glicko.New(), glicko.Win)
	if math.Abs(rs[0].Rating-second.Value) > 1e-9 || math.Abs(rs[0].RD-second.RD) > 1e-9 {
		t.Fatalf("a after two wins: %+v, want %v", rs[0], second)
	}
	h, _ := s.RatingHistory(ctx, "a", "nymphabet-standard", 10, "")
	if len(h) != 2 || h[1].Rating != rs[0].Rating {
		t.Fatalf("a's rating history: %+v", h)
	}
	board, err := s.Leaderboard(ctx, "nymphabet-standard", 0, 400, 10, time.Now())
	if err != nil || len(board) != 0 {
		t.Fatalf("leaderboard without accounts: %+v %v", board, err)
	}
}
