package tournament_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"sync"
	"testing"
	"time"

	"parlour/game"
	"parlour/pairing"
	"parlour/server/auth"
	"parlour/server/internal/servertest"
	"parlour/server/protocol"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/server/table/tabletest"
	"parlour/server/tournament"
	"parlour/store"
	"parlour/store/sqlite"
)

// The simulation's size: a short run by default (200 players, ten
// minutes), so that it runs with every test; -arena.players 2000
// -arena.minutes 30 is the arena the service is built for.
var (
	arenaPlayers = flag.Int("arena.players", 200, "players in TestArenaSimulation's arena")
	arenaMinutes = flag.Int("arena.minutes", 10, "length of TestArenaSimulation's arena, in minutes of the stepped clock")
	arenaHeap    = flag.String("arena.heapprofile", "", "file for TestArenaSimulation's heap profile at the arena's end")
)

// simClock is the arena's clock: a minute of Fischer time with no
// increment, so that a game may run two minutes and the arena stops
// pairing two minutes before its end.
const simClock = `{"kind": "fischer", "initial": 60, "increment": 0}`

// simGame is a game the simulation has seen seated: its table, its
// players in seat order, and when and how the script ends it.
type simGame struct {
	table   string
	players [2]string // identities, in seat order
	ends    time.Time
	winner  int // the seat that wins
	over    bool
	started time.Time
}

// arenaSim is the simulated players around a real arena: the streams
// the service tells of games (Tell), who is online (online), and what
// it has seen.
type arenaSim struct {
	t     *testing.T
	clock *tabletest.Clock

	mu       sync.Mutex
	online   map[string]bool
	left     map[string]bool
	at       map[string]*simGame // identity → the game they sit at
	games    map[string]*simGame // by table
	fresh    []*simGame          // seated since the driver last looked
	faults   []string
	seatedAt map[string]int // games each identity was seated at
}

// Tell implements tournament.Teller: each tournamentGame is a seat at a
// new table, which must not find its player at another, away, or gone.
func (a *arenaSim) Tell(id string, ev social.StreamEvent) {
	tg := ev.Tournament
	if ev.Type != "tournamentGame" || tg == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	g := a.games[tg.Table]
	if g == nil {
		g = &simGame{table: tg.Table, started: a.clock.Now()}
		a.games[tg.Table] = g
		a.fresh = append(a.fresh, g)
	}
	if tg.Seat < 0 || tg.Seat > 1 || g.players[tg.Seat] != "" {
		a.faults = append(a.faults, fmt.Sprintf("table %s told seat %d twice or out of range", tg.Table, tg.Seat))
		return
	}
	g.players[tg.Seat] = id
	if other := a.at[id]; other != nil {
		a.faults = append(a.faults, fmt.Sprintf("%s seated at %s while at %s", id, tg.Table, other.table))
	}
	if !a.online[id] {
		a.faults = append(a.faults, fmt.Sprintf("%s paired while away", id))
	}
	if a.left[id] {
		a.faults = append(a.faults, fmt.Sprintf("%s paired after leaving", id))
	}
	a.at[id] = g
	a.seatedAt[id]++
}

// ended notes that the game at table id is over: its players are free.
func (a *arenaSim) ended(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	g := a.games[id]
	if g == nil || g.over {
		return
	}
	g.over = true
	for _, p := range g.players {
		if a.at[p] == g {
			delete(a.at, p)
		}
	}
}

// simObserver hands the tables' news to the events and to the
// simulation, which frees a game's players the moment it ends.
type simObserver struct {
	ts  *tournament.Service
	sim *arenaSim
}

func (o *simObserver) Started(n table.GameNote) {}
func (o *simObserver) Finished(n table.GameNote, end *store.GameEnd) {
	o.sim.ended(n.Table)
	if o.ts != nil {
		o.ts.Finished(n, end)
	}
}

// TestArenaSimulation runs a whole arena of the real service, on SQLite,
// with simulated players (-arena.players and -arena.minutes: 200 for ten
// minutes by default; the arena is built for 2,000 for half an hour)
// and the test game (which has no draws), the clock stepped a second at a
// time: players join before and during it, are paired in waves, play
// each game to its end (the stronger of two wins three games in four,
// at any moment within the game's minute), some go away for a while and
// come back, some leave for good. At the end it checks that every game
// was scored once, each player's points are the recomputation of their
// games with the streak rule, nobody sat at two tables at once or was
// paired while away or gone, no pair met twice in a row when a third
// player waited in the same wave, leavers kept their points, the
// standings are in order and no game started too late to finish; and it
// reports the games, the waves, each wave's time (the service's whole
// wave: pairing, the tables made and the games stored and told), the
// memory and the run's wall time.
func TestArenaSimulation(t *testing.T) {
	t.Parallel()
	n, minutes := *arenaPlayers, *arenaMinutes
	began := time.Now()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "p.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	clock := tabletest.NewClock(time.Date(2026, 5, 1, 18, 0, 0, 0, time.UTC))
	sim := &arenaSim{t: t, clock: clock, online: map[string]bool{}, left: map[string]bool{}, at: map[string]*simGame{},
		games: map[string]*simGame{}, seatedAt: map[string]int{}}
	obs := &simObserver{sim: sim}
	tables, err := table.New(ctx, table.Config{Store: st, Games: servertest.Registry(), Lexicon: servertest.Lexicon, Clock: clock, Observers: []table.Observer{obs}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tables.Close)
	ts, err := tournament.New(ctx, tournament.Config{Store: st, Tables: tables, Games: servertest.Registry(), Streams: sim,
		Online: func(id string) bool {
			sim.mu.Lock()
			defer sim.mu.Unlock()
			return sim.online[id]
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ts.Close)
	obs.ts = ts
	var waves []time.Duration
	paired := 0
	tournament.OnWave(ts, func(pairs int, took time.Duration) {
		if pairs > 0 {
			waves = append(waves, took)
			paired += pairs
		}
	})

	ev, _, err := ts.CreateHouse(ctx, "simulated", protocol.TournamentRequest{Kind: "arena", Name: "Simulated Arena", Game: "guess",
		Clock: json.RawMessage(simClock), Minutes: minutes})
	if err != nil {
		t.Fatal(err)
	}

	// The players: each has a strength the script reads (not a rating:
	// every account starts at the same one), and a plan. One in twenty
	// joins in the arena's first third, one in twenty leaves in its
	// middle, one in ten goes away for one to four minutes once.
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	type plan struct {
		id, name         string
		p                *auth.Principal
		strength         float64
		joinAt, leaveAt  time.Duration // from the start; 0: before it, never
		awayAt, awayUpTo time.Duration
		joined           bool
	}
	plans := make([]*plan, n)
	byID := map[string]*plan{}
	byName := map[string]*plan{}
	length := time.Duration(minutes) * time.Minute
	ids := make([]table.Identity, n)
	var made sync.WaitGroup
	for w := range 16 {
		made.Go(func() {
			for i := w; i < n; i += 16 {
				id, err := tables.NewIdentity(ctx, fmt.Sprintf("P%04d", i+1))
				if err != nil {
					t.Error(err)
					return
				}
				ids[i] = id
			}
		})
	}
	made.Wait()
	if t.Failed() {
		t.FailNow()
	}
	for i := range plans {
		id := ids[i]
		pl := &plan{id: id.ID, name: id.Name, p: &auth.Principal{Identity: id.ID}, strength: rng.Float64()}
		switch r := rng.IntN(20); {
		case r == 0:
			pl.joinAt = time.Duration(1+rng.Int64N(int64(length/3/time.Second))) * time.Second
		case r == 1:
			pl.leaveAt = length/3 + time.Duration(rng.Int64N(int64(length/3/time.Second)))*time.Second
		case r < 4:
			pl.awayAt = time.Duration(1+rng.Int64N(int64(length*2/3/time.Second))) * time.Second
			pl.awayUpTo = pl.awayAt + time.Duration(60+rng.IntN(181))*time.Second
		}
		plans[i], byID[pl.id], byName[pl.name] = pl, pl, pl
		sim.online[pl.id] = true
	}
	for _, pl := range plans {
		if pl.joinAt == 0 {
			if _, err := ts.Join(ctx, pl.p, ev.ID, ""); err != nil {
				t.Fatalf("%s joins: %v", pl.name, err)
			}
			pl.joined = true
		}
	}
	tournament.Settle(ts)

	// play makes the moves that end g as scripted, on a goroutine of its
	// own (the games due at one moment are played at once, as their
	// players would): each seat hides 10 ×
	// its seat + 5 and guesses wrong once (a resignation before both
	// have moved would be a no-show's forfeit); then the first seat
	// guesses the second's number to win, or resigns to lose.
	play := func(g *simGame) {
		for seat, id := range g.players {
			if _, err := tables.Setup(ctx, byID[id].p, g.table, table.SetupRequest{Setup: json.RawMessage(fmt.Sprintf(`{"number": %d}`, 10*seat+5))}); err != nil {
				t.Errorf("%s's setup at %s: %v", byID[id].name, g.table, err)
				return
			}
		}
		last := "resign"
		if g.winner == 0 {
			last = "guess 15"
		}
		for i, mv := range []struct {
			seat int
			move string
		}{{0, "guess 1"}, {1, "guess 1"}, {0, last}} {
			if _, err := tables.Move(ctx, byID[g.players[mv.seat]].p, g.table, table.MoveRequest{Move: mv.move}); err != nil {
				t.Errorf("%s's move %d at %s: %v", byID[g.players[mv.seat]].name, i+1, g.table, err)
				return
			}
		}
	}

	clock.Advance(tournament.DefaultDelay)
	tournament.Settle(ts)
	start := clock.Now()
	e, err := ts.Get(ctx, ev.ID)
	if err != nil || e.Status != store.TournamentStarted {
		t.Fatalf("the arena at its start: %v, %+v", err, e.Status)
	}
	ends := *e.Ends
	last := map[string]string{}
	var underway []*simGame
	rematches, heapPeak := 0, uint64(0)
	var ms runtime.MemStats
	for step := 0; ; step++ {
		// Whoever the last step seated starts a game whose end is
		// scripted now; the wave that seated them is checked for
		// immediate rematches.
		sim.mu.Lock()
		fresh := sim.fresh
		sim.fresh = nil
		faults := slices.Clone(sim.faults)
		var idle int
		for _, pl := range plans {
			if pl.joined && !sim.left[pl.id] && sim.online[pl.id] && sim.at[pl.id] == nil {
				idle++
			}
		}
		sim.mu.Unlock()
		if len(faults) > 0 {
			t.Fatalf("at %v: %q", clock.Now().Sub(start), faults)
		}
		waiting := idle + 2*len(fresh)
		for _, g := range fresh {
			a, b := g.players[0], g.players[1]
			if a == "" || b == "" {
				t.Fatalf("table %s was told to one seat alone: %q", g.table, g.players)
			}
			if last[a] == b && waiting > 2 {
				rematches++
				t.Errorf("at %v %s and %s met again straight away with %d waiting", clock.Now().Sub(start), byID[a].name, byID[b].name, waiting)
			}
			last[a], last[b] = b, a
			if g.started.Add(tournament.ExpectedLength(game.Clock{Kind: game.ClockFischer, Initial: 60}, 2)).After(ends) {
				t.Errorf("table %s started at %v, too late to finish by the end", g.table, g.started.Sub(start))
			}
			g.ends = clock.Now().Add(time.Duration(5+rng.IntN(50)) * time.Second)
			stronger := 0
			if byID[b].strength > byID[a].strength {
				stronger = 1
			}
			g.winner = stronger
			if rng.IntN(4) == 0 {
				g.winner = 1 - stronger
			}
			underway = append(underway, g)
		}
		if !clock.Now().Before(ends) && len(underway) == 0 {
			break
		}
		if step > int(length/time.Second)+600 {
			t.Fatalf("the arena runs on past its end: %d games under way", len(underway))
		}
		// The games due end now; players come and go as planned.
		now := clock.Now()
		var ending sync.WaitGroup
		underway = slices.DeleteFunc(underway, func(g *simGame) bool {
			if g.ends.After(now) {
				return false
			}
			ending.Go(func() { play(g) })
			return true
		})
		ending.Wait()
		if t.Failed() {
			t.FailNow()
		}
		since := now.Sub(start)
		for _, pl := range plans {
			switch {
			case pl.joinAt != 0 && !pl.joined && since >= pl.joinAt:
				if _, err := ts.Join(ctx, pl.p, ev.ID, ""); err != nil {
					t.Fatalf("%s joins late: %v", pl.name, err)
				}
				pl.joined = true
			case pl.leaveAt != 0 && since >= pl.leaveAt && !sim.left[pl.id]:
				if _, err := ts.Leave(ctx, pl.p, ev.ID); err != nil {
					t.Fatalf("%s leaves: %v", pl.name, err)
				}
				sim.mu.Lock()
				sim.left[pl.id] = true
				sim.mu.Unlock()
			case pl.awayAt != 0:
				sim.mu.Lock()
				sim.online[pl.id] = since < pl.awayAt || since >= pl.awayUpTo
				sim.mu.Unlock()
			}
		}
		tournament.Settle(ts)
		clock.Advance(time.Second)
		tournament.Settle(ts)
		if step%60 == 0 {
			runtime.ReadMemStats(&ms)
			heapPeak = max(heapPeak, ms.HeapAlloc)
		}
	}
	servertest.Eventually(t, 10*time.Second, "the arena over", func() bool {
		e, err = ts.Get(ctx, ev.ID)
		return err == nil && e.Status == store.TournamentFinished
	})
	runtime.GC()
	runtime.ReadMemStats(&ms)
	heapPeak = max(heapPeak, ms.HeapAlloc)
	if *arenaHeap != "" {
		f, err := os.Create(*arenaHeap)
		if err != nil {
			t.Fatal(err)
		}
		if err := pprof.WriteHeapProfile(f); err != nil {
			t.Error(err)
		}
		f.Close()
	}

	// Every game seated was scored, once, as the script played it.
	sim.mu.Lock()
	seen := len(sim.games)
	sim.mu.Unlock()
	if len(e.Games) != seen || len(e.Playing) != 0 || seen == 0 {
		t.Fatalf("%d games seated, the event keeps %d (%d under way)", seen, len(e.Games), len(e.Playing))
	}
	tablesSeen := map[string]bool{}
	for _, g := range e.Games {
		if tablesSeen[g.Table] {
			t.Errorf("table %s counted twice", g.Table)
		}
		tablesSeen[g.Table] = true
		sg := sim.games[g.Table]
		if sg == nil || g.Ended == nil || len(g.Points) != 2 {
			t.Fatalf("game %+v is not as seated or not scored", g)
		}
		if g.Players[0] != byID[sg.players[0]].name || g.Players[1] != byID[sg.players[1]].name {
			t.Errorf("table %s seats %q, was told %q", g.Table, g.Players, sg.players)
		}
		if want := []int{2 * (1 - sg.winner), 2 * sg.winner}; !slices.Equal(g.Points, want) {
			t.Errorf("table %s scored %v, the script played %v", g.Table, g.Points, want)
		}
		if g.Ended.After(ends) {
			t.Errorf("table %s ended at %v, after the arena", g.Table, g.Ended.Sub(start))
		}
	}
	// Each player's points are their games' again, in the order they
	// ended, with the streak rule: 2 a win, 4 on a streak of two wins.
	byEnd := slices.Clone(e.Games)
	slices.SortFunc(byEnd, func(a, b tournament.GameInfo) int { return a.Ended.Compare(*b.Ended) })
	streaks := map[string]*pairing.Streak{}
	points, played := map[string]int{}, map[string]int{}
	for _, g := range byEnd {
		for seat, name := range g.Players {
			s := streaks[name]
			if s == nil {
				s = &pairing.Streak{}
				streaks[name] = s
			}
			pts, _ := s.Score(pairing.Outcome(g.Points[seat]))
			points[name] += pts
			played[name]++
		}
	}
	total, leavers, leaversPoints, onStreak := 0, 0, 0, 0
	for i, s := range e.Standings {
		if s.Score != points[s.Name] || s.Games != played[s.Name] {
			t.Errorf("%s stands at %d points from %d games; the games give %d from %d", s.Name, s.Score, s.Games, points[s.Name], played[s.Name])
		}
		if s.Games != sim.seatedAt[byName[s.Name].id] {
			t.Errorf("%s played %d games, was seated at %d", s.Name, s.Games, sim.seatedAt[byName[s.Name].id])
		}
		if s.Left != sim.left[byName[s.Name].id] {
			t.Errorf("%s: left %v, the script says %v", s.Name, s.Left, sim.left[byName[s.Name].id])
		}
		if s.Left {
			leavers++
			leaversPoints += s.Score
		}
		if s.Streak {
			onStreak++
		}
		total += s.Score
		if i > 0 && (e.Standings[i-1].Score < s.Score || e.Standings[i-1].Rank > s.Rank) {
			t.Errorf("standings out of order at %d: %+v then %+v", i, e.Standings[i-1], s)
		}
	}
	if len(e.Standings) != n || len(e.Winners) != tournament.Podium || e.Winners[0] != e.Standings[0].Name {
		t.Errorf("%d standings of %d players, winners %q", len(e.Standings), n, e.Winners)
	}
	if leavers == 0 || leaversPoints == 0 {
		t.Errorf("%d leavers with %d points: the simulation tests nobody leaving", leavers, leaversPoints)
	}

	slices.Sort(waves)
	var median, longest time.Duration
	if len(waves) > 0 {
		median, longest = waves[len(waves)/2], waves[len(waves)-1]
	}
	t.Logf("arena of %d players, %d minutes: %d games (%d pairs seated) in %d waves; %d points in all, %d leavers keeping %d, %d on a streak at the end, %d immediate rematches",
		n, minutes, len(e.Games), paired, len(waves), total, leavers, leaversPoints, onStreak, rematches)
	t.Logf("a wave (pairing, tables, games stored and told): median %v, max %v", median.Round(time.Microsecond), longest.Round(time.Microsecond))
	t.Logf("memory: heap %.1f MB at the end after GC, %.1f MB at most sampled, %.1f MB from the OS; wall time %v",
		float64(ms.HeapAlloc)/(1<<20), float64(heapPeak)/(1<<20), float64(ms.Sys)/(1<<20), time.Since(began).Round(time.Millisecond))
}
