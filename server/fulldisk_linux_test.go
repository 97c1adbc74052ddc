package server

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"parlour/server/internal/servertest"
	"parlour/server/refuse"
	"parlour/server/table"
	"parlour/store/sqlite"
)

// TestRealFullDisk fills a small tmpfs and checks that the server answers
// 503 to every write it cannot make, and works again once there is room.
// It needs the right to mount a file system (root); without it, it skips.
func TestRealFullDisk(t *testing.T) {
	t.Parallel()
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
	s, err := New(ctx, Config{Store: db, Games: servertest.Registry(), NewBot: servertest.Bots, Lexicon: servertest.Lexicon, BotTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, err := s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "open", "open"}})
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
			_, err = s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me"}, Name: strings.Repeat("x", 20)})
		case 1:
			_, err = s.NewIdentity(ctx, "Cy")
		case 2:
			var b table.Seated
			if b, err = s.Join(ctx, nil, a.Table, table.JoinRequest{}); err == nil {
				if _, err := s.auth.Authenticate(ctx, b.Token); err != nil {
					t.Fatalf("a seat without its token: %v", err)
				}
				a, _ = s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me", "open", "open"}})
			}
		}
		if err != nil {
			if refuse.Status(err) != http.StatusServiceUnavailable {
				t.Fatalf("write %d on a full disk: status %d: %v", i, refuse.Status(err), err)
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
	if _, err := s.Create(ctx, nil, table.CreateRequest{Game: "guess", Seats: []string{"me"}}); err != nil {
		t.Fatalf("with room again: %v", err)
	}
	if _, err := s.NewIdentity(ctx, "Dee"); err != nil {
		t.Fatalf("with room again: %v", err)
	}
}
