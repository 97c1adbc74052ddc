package server_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"parlour/games"
	"parlour/server"
	"parlour/store/sqlite"
)

// fillTables opens n two-player Quizl tables on s, each with random grids
// and moves calls made, using 8 workers so that the store's group commit
// has company.
func fillTables(tb testing.TB, s *server.Service, n, moves int) {
	tb.Helper()
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < n; i += 8 {
				if err := fillOne(ctx, s, moves); err != nil {
					errs <- err
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		tb.Fatal(err)
	}
}

func fillOne(ctx context.Context, s *server.Service, moves int) error {
	a, err := s.Create(ctx, nil, server.CreateRequest{Game: "quizl", Seats: []string{"me", "open"}})
	if err != nil {
		return err
	}
	b, err := s.Join(ctx, nil, a.Table, server.JoinRequest{})
	if err != nil {
		return err
	}
	pa, _ := s.Authenticate(ctx, a.Token)
	pb, _ := s.Authenticate(ctx, b.Token)
	for _, p := range []*server.Principal{pa, pb} {
		if _, err := s.Setup(ctx, p, a.Table, server.SetupRequest{Auto: true}); err != nil {
			return err
		}
	}
	ps := []*server.Principal{pa, pb}
	turn := 0
	for i := 0; i < moves; i++ {
		sq := i / 2
		res, err := s.Move(ctx, ps[turn], a.Table, fmt.Sprintf("%d%d", 5+sq/5, sq%5), nil)
		if err != nil {
			return err
		}
		if len(res.ToMove) == 0 {
			break
		}
		turn = int(res.ToMove[0])
	}
	return nil
}

func openService(tb testing.TB, path string) (*server.Service, *sqlite.Store, time.Duration) {
	tb.Helper()
	start := time.Now()
	db, err := sqlite.Open(context.Background(), path, sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		tb.Fatal(err)
	}
	s, err := server.New(context.Background(), server.Config{Store: db, Games: games.Registry(), NewBot: bots})
	if err != nil {
		tb.Fatal(err)
	}
	return s, db, time.Since(start)
}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkIdleTableHeap reports the heap one idle live table holds: a
// two-player Quizl game ten moves in, as a restart rebuilds it from the
// store (the target is at most 20 KB).
func BenchmarkIdleTableHeap(b *testing.B) {
	const n = 2000
	path := filepath.Join(b.TempDir(), "p.db")
	s, db, _ := openService(b, path)
	fillTables(b, s, n, 10)
	s.Close()
	db.Close()
	for i := 0; i < b.N; i++ {
		before := heap()
		s, db, _ := openService(b, path)
		after := heap()
		b.ReportMetric(float64(after-before)/n, "heap-bytes/table")
		runtime.KeepAlive(s)
		s.Close()
		db.Close()
	}
}

// BenchmarkRestart10k reports how long a server takes to be ready with
// 10,000 stored live tables (each ten moves in): open the store, read the
// tables and replay every record (the target is under 5 s). Filling the
// store takes a while before the timing starts.
func BenchmarkRestart10k(b *testing.B) {
	const n = 10000
	path := filepath.Join(b.TempDir(), "p.db")
	s, db, _ := openService(b, path)
	fillTables(b, s, n, 10)
	s.Close()
	db.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, db, took := openService(b, path)
		b.ReportMetric(took.Seconds(), "s/restart")
		s.Close()
		db.Close()
	}
}
