package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"parlour/store"
)

// BenchAppend measures s appending moves from 16 goroutines per CPU to 64
// tables at once, as the server's tables do, and reports how many writes
// each commit held when s tells (CommitStats, as the server's metrics
// read it).
func BenchAppend(b *testing.B, s store.Store) {
	ctx := context.Background()
	const tables = 64
	for i := range tables {
		if err := s.CreateTable(ctx, store.Table{ID: fmt.Sprint("t", i), Game: "g", Status: store.Playing, Meta: []byte("{}")}); err != nil {
			b.Fatal(err)
		}
	}
	var mu sync.Mutex
	next := 0
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		mu.Lock()
		id := fmt.Sprint("t", next%tables)
		next++
		mu.Unlock()
		seq := 0
		for pb.Next() {
			seq++
			if err := s.AppendMove(ctx, id, store.Move{Seq: seq, Text: "72", At: time.Now()}, nil); err != nil {
				b.Error(err)
				return
			}
		}
	})
	if cs, ok := s.(interface {
		CommitStats() (commits, writes int64)
	}); ok {
		c, w := cs.CommitStats()
		b.ReportMetric(float64(w)/float64(max(c, 1)), "writes/commit")
	}
}
