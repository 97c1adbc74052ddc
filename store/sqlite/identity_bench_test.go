package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"parlour/store"
)

// BenchmarkIdentity reads one identity back, the read behind every table
// made or joined: on a quiet store, and with a move committed between
// reads, as under load; from the database (the store made to forget
// it first), and as the store remembers it.
func BenchmarkIdentity(b *testing.B) {
	for _, tc := range []struct{ busy, cached bool }{{false, false}, {true, false}, {true, true}} {
		busy := tc.busy
		b.Run(fmt.Sprintf("writes=%v/cached=%v", tc.busy, tc.cached), func(b *testing.B) {
			ctx := context.Background()
			s, err := Open(ctx, filepath.Join(b.TempDir(), "p.db"), Options{Synchronous: "NORMAL"})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			const n = 2000
			for i := range n {
				id := store.Identity{ID: fmt.Sprint("id", i), Name: fmt.Sprint("Player ", i), Created: time.Now()}
				if err := s.CreateIdentity(ctx, id, store.Credential{Hash: []byte(fmt.Sprint("h", i)), Identity: id.ID}); err != nil {
					b.Fatal(err)
				}
			}
			if err := s.CreateTable(ctx, store.Table{ID: "t", Game: "quizl", Status: store.Playing, Meta: []byte(`{}`)}); err != nil {
				b.Fatal(err)
			}
			i := 0
			var read time.Duration
			for b.Loop() {
				i++
				if busy {
					if err := s.AppendMove(ctx, "t", store.Move{Seq: i, Text: "72", At: time.Now()}, nil); err != nil {
						b.Fatal(err)
					}
				}
				id := fmt.Sprint("id", i%n)
				if !tc.cached {
					s.ids.changed(id)
				}
				start := time.Now()
				if _, err := s.Identity(ctx, id); err != nil {
					b.Fatal(err)
				}
				read += time.Since(start)
			}
			b.ReportMetric(float64(read.Nanoseconds())/float64(b.N), "read-ns/op")
		})
	}
}
