package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"parlour/store"
	"parlour/store/sqlite"
)

// TestOneIdentityOneSeat sends eight joins at once with one identity's
// token, a hundred times: one of them may take a seat, never two.
func TestOneIdentityOneSeat(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	twin, err := f.s.NewIdentity(ctx, "Twin")
	if err != nil {
		t.Fatal(err)
	}
	p := f.principal(twin.Token)
	for trial := range 100 {
		host, err := f.s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open", "open"}, Name: "Host"})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		seated, refused := 0, 0
		for range 8 {
			wg.Go(func() {
				_, err := f.s.Join(ctx, p, host.Table, JoinRequest{})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					seated++
				case StatusOf(err) == http.StatusConflict:
					refused++
				default:
					t.Errorf("trial %d: join: %v", trial, err)
				}
			})
		}
		wg.Wait()
		u, err := f.s.View(ctx, nil, host.Table)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range u.Table.Seats {
			names = append(names, s.Name)
		}
		if seated != 1 || refused != 7 {
			t.Fatalf("trial %d: %d joins seated, %d refused; seats %q", trial, seated, refused, names)
		}
	}
}

// fillingStore is a store whose disk fills up: after room writes, every
// write is refused for lack of space (room < 0: never).
type fillingStore struct {
	store.Store
	mu     sync.Mutex
	room   int
	writes int
}

func (f *fillingStore) write() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.room >= 0 && f.writes >= f.room {
		return fmt.Errorf("fake disk: %w", store.ErrNoSpace)
	}
	f.writes++
	return nil
}

func (f *fillingStore) fill(room int) {
	f.mu.Lock()
	f.room, f.writes = room, 0
	f.mu.Unlock()
}

func (f *fillingStore) CreateIdentity(ctx context.Context, id store.Identity, c store.Credential) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.Store.CreateIdentity(ctx, id, c)
}

func (f *fillingStore) AddCredential(ctx context.Context, c store.Credential) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.Store.AddCredential(ctx, c)
}

func (f *fillingStore) CreateTable(ctx context.Context, t store.Table) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.Store.CreateTable(ctx, t)
}

func (f *fillingStore) UpdateTable(ctx context.Context, id string, st store.Status, meta []byte) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.Store.UpdateTable(ctx, id, st, meta)
}

func (f *fillingStore) AppendMove(ctx context.Context, id string, m store.Move, u *store.Update) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.Store.AppendMove(ctx, id, m, u)
}

func (f *fillingStore) Write(ctx context.Context, b store.Batch) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.Store.Write(ctx, b)
}

// TestFullDiskLeavesNothingHalfMade lets the disk fill after each number of
// writes in turn while a guest creates a table, a guest joins it and a new
// identity is made: each request either succeeds whole or answers 503 and
// leaves nothing behind.
func TestFullDiskLeavesNothingHalfMade(t *testing.T) {
	EachStore(t, func(t *testing.T, k StoreKind) {
		ctx := context.Background()
		db, _ := k.OpenFresh(t)
		fs := &fillingStore{Store: db, room: -1}
		s, err := New(ctx, Config{Store: fs, Games: testRegistry(), NewBot: guessBots, Lexicon: testLexicon, BotTimeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for room := range 8 {
			fs.fill(-1)
			before, _ := db.Recent(ctx, store.Open, 100)
			fs.fill(room)
			a, err := s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open", "open"}, Name: "Ann"})
			if err != nil {
				wantStatus(t, err, http.StatusServiceUnavailable)
				if !strings.Contains(err.Error(), "nothing changed") {
					t.Errorf("room for %d writes: create said %q", room, err)
				}
				if after, _ := db.Recent(ctx, store.Open, 100); len(after) != len(before) {
					t.Errorf("room for %d writes: a refused create left a table", room)
				}
				continue
			}
			if _, err := s.Authenticate(ctx, a.Token); err != nil {
				t.Fatalf("room for %d writes: the creator's token: %v", room, err)
			}
			b, err := s.Join(ctx, nil, a.Table, JoinRequest{Name: "Ben"})
			u, verr := s.View(ctx, nil, a.Table)
			if verr != nil {
				t.Fatal(verr)
			}
			if err != nil {
				wantStatus(t, err, http.StatusServiceUnavailable)
				if u.Table.Seats[1].Kind != "open" {
					t.Errorf("room for %d writes: a refused join took seat 1: %+v", room, u.Table.Seats[1])
				}
				stored, _ := db.Table(ctx, a.Table)
				if strings.Contains(string(stored.Meta), "Ben") {
					t.Errorf("room for %d writes: a refused join is stored: %s", room, stored.Meta)
				}
			} else if _, err := s.Authenticate(ctx, b.Token); err != nil {
				t.Errorf("room for %d writes: Ben holds a seat without a token: %v", room, err)
			}
			if _, err := s.NewIdentity(ctx, "Cy"); err != nil {
				wantStatus(t, err, http.StatusServiceUnavailable)
			}
		}
		// With room again, everything works.
		fs.fill(-1)
		solo, err := s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me"}})
		if err != nil {
			t.Fatal(err)
		}
		p, _ := s.Authenticate(ctx, solo.Token) // solitaire: play has started
		// A move the full disk refuses says so, and changes nothing.
		fs.fill(0)
		_, err = s.Move(ctx, p, solo.Table, MoveRequest{Move: "guess 50"})
		wantStatus(t, err, http.StatusServiceUnavailable)
		if !strings.Contains(err.Error(), "run out of room") {
			t.Errorf("a move refused for want of room said %q", err)
		}
		fs.fill(-1)
		if _, err := s.Move(ctx, p, solo.Table, MoveRequest{Move: "guess 50"}); err != nil {
			t.Fatalf("the move again, with room: %v", err)
		}
	})
}

// TestRealFullDisk fills a small tmpfs and checks that the server answers
// 503 to every write it cannot make, and works again once there is room.
// It needs to mount a file system (root on Linux); elsewhere it skips.
func TestRealFullDisk(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=4m"); err != nil {
		t.Skipf("cannot mount a small file system to fill: %v", err)
	}
	defer syscall.Unmount(dir, syscall.MNT_DETACH)
	db, err := sqlite.Open(ctx, filepath.Join(dir, "parlour.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := New(ctx, Config{Store: db, Games: testRegistry(), NewBot: guessBots, Lexicon: testLexicon, BotTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, err := s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open", "open"}})
	if err != nil {
		t.Fatal(err)
	}
	// Fill every byte left.
	filler, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	block := make([]byte, 4096)
	for {
		if _, err := filler.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	// The log may still have room from before: write until it has none.
	refused := 0
	for i := 0; i < 2000 && refused < 3; i++ {
		var err error
		switch i % 3 {
		case 0:
			_, err = s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me"}, Name: strings.Repeat("x", 20)})
		case 1:
			_, err = s.NewIdentity(ctx, "Cy")
		case 2:
			var b Seated
			if b, err = s.Join(ctx, nil, a.Table, JoinRequest{}); err == nil {
				if _, err := s.Authenticate(ctx, b.Token); err != nil {
					t.Fatalf("a seat without its token: %v", err)
				}
				a, _ = s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me", "open", "open"}})
			}
		}
		if err != nil {
			if StatusOf(err) != http.StatusServiceUnavailable {
				t.Fatalf("write %d on a full disk: status %d: %v", i, StatusOf(err), err)
			}
			if refused == 0 {
				t.Logf("after %d writes on a full disk: %v", i, err)
			}
			refused++
		}
	}
	if refused == 0 {
		t.Fatal("the disk never filled")
	}
	filler.Close()
	os.Remove(filler.Name())
	if _, err := s.Create(ctx, nil, CreateRequest{Game: "guess", Seats: []string{"me"}}); err != nil {
		t.Fatalf("with room again: %v", err)
	}
	if _, err := s.NewIdentity(ctx, "Dee"); err != nil {
		t.Fatalf("with room again: %v", err)
	}
}

// fillingSocialStore is a fillingStore that also keeps accounts and
// challenges, whose challenge writes take room on the same disk.
type fillingSocialStore struct {
	*fillingStore
	store.Players
	store.Challenges
}

func (f *fillingSocialStore) SettleChallenge(ctx context.Context, id string, st store.ChallengeStatus, table string) error {
	if err := f.write(); err != nil {
		return err
	}
	return f.Challenges.SettleChallenge(ctx, id, st, table)
}

// TestFullDiskAcceptsNothingHalfMade lets the disk fill after each number
// of writes in turn while Bob accepts Ann's challenge: the acceptance
// either opens the table with both seated and settles the challenge, or
// answers 503 and leaves the challenge open with no table behind it, so
// that Bob can accept it again once there is room.
func TestFullDiskAcceptsNothingHalfMade(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "parlour.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fs := &fillingSocialStore{fillingStore: &fillingStore{Store: db, room: -1}, Players: db, Challenges: db}
	s, err := New(ctx, Config{Store: fs, Games: testRegistry(), NewBot: guessBots, Lexicon: testLexicon, BotTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sign := func(name string) *Principal {
		se, err := s.SignUp(ctx, nil, name, testPassword)
		if err != nil {
			t.Fatal(err)
		}
		p, err := s.Authenticate(ctx, se.Token)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ann, bob := sign("Ann"), sign("Bob")
	tables := func() int {
		s.mu.RLock()
		defer s.mu.RUnlock()
		return len(s.tables)
	}
	for room := range 4 {
		fs.fill(-1)
		c, err := s.Challenge(ctx, ann, ChallengeRequest{To: "Bob", Game: "guess"})
		if err != nil {
			t.Fatal(err)
		}
		before, _ := db.Recent(ctx, store.Open, 100)
		inMemory := tables()
		fs.fill(room)
		seated, err := s.Accept(ctx, bob, c.ID)
		fs.fill(-1)
		stored, serr := db.Challenge(ctx, c.ID)
		if serr != nil {
			t.Fatal(serr)
		}
		if err != nil {
			wantStatus(t, err, http.StatusServiceUnavailable)
			if !strings.Contains(err.Error(), "nothing changed") {
				t.Errorf("room for %d writes: accept said %q", room, err)
			}
			if stored.Status != store.ChallengeOpen || stored.Table != "" {
				t.Errorf("room for %d writes: a refused acceptance left the challenge %s (table %q)", room, stored.Status, stored.Table)
			}
			if after, _ := db.Recent(ctx, store.Open, 100); len(after) != len(before) || tables() != inMemory {
				t.Errorf("room for %d writes: a refused acceptance left a table", room)
			}
			// With room again, the same challenge is accepted.
			if seated, err = s.Accept(ctx, bob, c.ID); err != nil {
				t.Fatalf("room for %d writes: accepting again with room: %v", room, err)
			}
			if stored, serr = db.Challenge(ctx, c.ID); serr != nil {
				t.Fatal(serr)
			}
		}
		if stored.Status != store.ChallengeAccepted || stored.Table != seated.Table {
			t.Errorf("room for %d writes: accepted, the challenge is %s with table %q, want accepted with %s", room, stored.Status, stored.Table, seated.Table)
		}
		if _, err := db.Table(ctx, seated.Table); err != nil {
			t.Errorf("room for %d writes: the accepted challenge's table is not stored: %v", room, err)
		}
		if _, err := s.Accept(ctx, bob, c.ID); StatusOf(err) != http.StatusConflict {
			t.Errorf("room for %d writes: accepting twice: %v, want 409", room, err)
		}
	}
}
