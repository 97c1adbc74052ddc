package server_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"testing"
	"time"

	"parlour/games"
	"parlour/server"
	"parlour/server/auth"
	"parlour/server/table"
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
	a, err := s.Create(ctx, nil, table.CreateRequest{Game: "quizl", Seats: []string{"me", "open"}})
	if err != nil {
		return err
	}
	b, err := s.Join(ctx, nil, a.Table, table.JoinRequest{})
	if err != nil {
		return err
	}
	pa, _ := s.Auth().Authenticate(ctx, a.Token)
	pb, _ := s.Auth().Authenticate(ctx, b.Token)
	for _, p := range []*auth.Principal{pa, pb} {
		if _, err := s.Setup(ctx, p, a.Table, table.SetupRequest{Auto: true}); err != nil {
			return err
		}
	}
	ps := []*auth.Principal{pa, pb}
	turn := 0
	for i := 0; i < moves; i++ {
		sq := i / 2
		res, err := s.Move(ctx, ps[turn], a.Table, table.MoveRequest{Move: fmt.Sprintf("%d%d", 5+sq/5, sq%5)})
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
	return openServiceParking(tb, path, 0)
}

// openServiceParking is openService with the service's ParkAfter set to
// park (0: the default).
func openServiceParking(tb testing.TB, path string, park time.Duration) (*server.Service, *sqlite.Store, time.Duration) {
	tb.Helper()
	start := time.Now()
	db, err := sqlite.Open(context.Background(), path, sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		tb.Fatal(err)
	}
	s, err := server.New(context.Background(), server.Config{Store: db, Games: games.Registry(), NewBot: games.NewBot, ParkAfter: park})
	if err != nil {
		tb.Fatal(err)
	}
	return s, db, time.Since(start)
}

// idleHeapProfile names the file BenchmarkIdleTableHeap and
// BenchmarkIdleSocketMemory write a heap profile of the whole process to
// while their idle tables or sockets are held (run one benchmark at a
// time, with -test.memprofilerate=512 or so for enough samples).
var idleHeapProfile = flag.String("idle.heapprofile", "", "file for a heap profile taken while the idle benchmarks' tables or sockets are held")

// writeIdleHeapProfile writes the heap profile -idle.heapprofile asks for,
// if it asks for one, to its file's name followed by suffix.
func writeIdleHeapProfile(tb testing.TB, suffix string) {
	tb.Helper()
	if *idleHeapProfile == "" {
		return
	}
	f, err := os.Create(*idleHeapProfile + suffix)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		tb.Fatal(err)
	}
}

func heap() uint64 {
	h, _ := heapSpans()
	return h
}

// heapSpans returns, after two collections, the bytes of the heap's live
// objects and of the spans that hold them: the second counts the room
// between live objects that the garbage around them left, which a
// process's resident set pays for too.
func heapSpans() (objects, spans uint64) {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc, ms.HeapInuse
}

// BenchmarkIdleTableHeap reports the heap one idle live table holds: a
// two-player Quizl game ten moves in, as a restart rebuilds it from the
// store (heap-bytes/table), as its moves were played
// (played-heap-bytes/table, which counts the identities and credentials
// the players were given too), once it has shed what it keeps only to
// answer sooner (shed-heap-bytes/table for the rebuilt table,
// played-shed-heap-bytes/table for the played one, the state the load
// tool's idle tables are measured in; table.ShedAfter later), and once
// it has left memory unused (parked-heap-bytes/table: what stays to list
// it). With -idle.heapprofile FILE the profiles are FILE, FILE.played,
// FILE.playedshed, FILE.shed and FILE.parked.
func BenchmarkIdleTableHeap(b *testing.B) {
	const n = 2000
	path := filepath.Join(b.TempDir(), "p.db")
	s, db, _ := openService(b, path)
	before, spans0 := heapSpans()
	fillTables(b, s, n, 10)
	after := heap()
	writeIdleHeapProfile(b, ".played")
	time.Sleep(table.ShedAfter + time.Second)
	playedShed, spans1 := heapSpans()
	writeIdleHeapProfile(b, ".playedshed")
	s.Close()
	db.Close()
	for i := 0; i < b.N; i++ {
		b.ReportMetric(float64(after-before)/n, "played-heap-bytes/table")
		b.ReportMetric(float64(playedShed-before)/n, "played-shed-heap-bytes/table")
		b.ReportMetric(float64(spans1-spans0)/n, "played-shed-span-bytes/table")
		before := heap()
		s, db, _ := openService(b, path)
		after := heap()
		b.ReportMetric(float64(after-before)/n, "heap-bytes/table")
		writeIdleHeapProfile(b, "")
		// Unused for table.ShedAfter, the tables shed (the janitor
		// looks within half a second more).
		time.Sleep(table.ShedAfter + time.Second)
		b.ReportMetric(float64(heap()-before)/n, "shed-heap-bytes/table")
		writeIdleHeapProfile(b, ".shed")
		runtime.KeepAlive(s)
		s.Close()
		db.Close()

		before = heap()
		s, db, _ = openServiceParking(b, path, time.Millisecond)
		// Every live table is parked (a few of the games ended within
		// their ten moves, and are not live).
		for deadline := time.Now().Add(time.Minute); s.Parked() == 0 || s.InMemory() > 0; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatalf("%d tables still in memory after a minute, %d parked", s.InMemory(), s.Parked())
			}
		}
		after = heap()
		b.ReportMetric(float64(after-before)/float64(s.Parked()), "parked-heap-bytes/table")
		writeIdleHeapProfile(b, ".parked")
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

// BenchmarkMove measures one accepted move through the service, from the
// seat's call to its durable commit, with many tables moving at once.
func BenchmarkMove(b *testing.B) {
	ctx := context.Background()
	s, db, _ := openService(b, filepath.Join(b.TempDir(), "p.db"))
	defer db.Close()
	defer s.Close()
	type tbl struct {
		id    string
		ps    [2]*auth.Principal
		turn  int
		calls [2]int
	}
	const n = 64
	var ts []*tbl
	for i := 0; i < n; i++ {
		a, err := s.Create(ctx, nil, table.CreateRequest{Game: "quizl", Seats: []string{"me", "open"}})
		if err != nil {
			b.Fatal(err)
		}
		j, _ := s.Join(ctx, nil, a.Table, table.JoinRequest{})
		pa, _ := s.Auth().Authenticate(ctx, a.Token)
		pb, _ := s.Auth().Authenticate(ctx, j.Token)
		for _, p := range []*auth.Principal{pa, pb} {
			s.Setup(ctx, p, a.Table, table.SetupRequest{Auto: true})
		}
		ts = append(ts, &tbl{id: a.Table, ps: [2]*auth.Principal{pa, pb}})
	}
	var mu sync.Mutex
	next := 0
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		mu.Lock()
		t := ts[next%n]
		next++
		mu.Unlock()
		for pb.Next() {
			if t.calls[t.turn] >= 25 {
				t.calls, t.turn = [2]int{}, 0
				// A fresh game on the same table is not possible: rematch.
				r, err := s.Rematch(ctx, t.ps[0], t.id)
				if err != nil {
					b.Error(err)
					return
				}
				r2, _ := s.Rematch(ctx, t.ps[1], t.id)
				p1, _ := s.Auth().Authenticate(ctx, r.Token)
				p2, _ := s.Auth().Authenticate(ctx, r2.Token)
				t.id = r.Table
				t.ps[r.Seat], t.ps[r2.Seat] = p1, p2
				for _, p := range t.ps {
					s.Setup(ctx, p, t.id, table.SetupRequest{Auto: true})
				}
			}
			sq := t.calls[t.turn]
			res, err := s.Move(ctx, t.ps[t.turn], t.id, table.MoveRequest{Move: fmt.Sprintf("%d%d", 5+sq/5, sq%5)})
			if err != nil {
				b.Error(err)
				return
			}
			t.calls[t.turn]++
			if len(res.ToMove) == 0 {
				t.calls = [2]int{25, 25}
				continue
			}
			t.turn = int(res.ToMove[0])
		}
	})
}
