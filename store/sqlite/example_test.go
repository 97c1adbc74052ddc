package sqlite_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"parlour/store"
	"parlour/store/sqlite"
)

func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "parlour")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(dir, "parlour.db"), sqlite.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	now := time.Now()
	db.CreateTable(ctx, store.Table{ID: "t1", Game: "nymphabet", Status: store.Playing, Created: now, Updated: now, Meta: []byte(`{}`)})
	// AppendMove returns once the move is durable.
	db.AppendMove(ctx, "t1", store.Move{Seq: 1, Seat: 0, Text: "abdicated", At: now}, nil)
	t, _ := db.Table(ctx, "t1")
	fmt.Println(t.Status, len(t.Moves), t.Moves[0].Text)
	// Output: playing 1 abdicated
}
