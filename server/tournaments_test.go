package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/game"
	"parlour/server/internal/servertest"
	"parlour/server/moderation"
	"parlour/server/players"
	"parlour/server/social"
	"parlour/server/table"
	"parlour/server/tournament"
	"parlour/store"
)

// fastClock is a clock that lets a game of Nymphabet run two minutes at
// most: an arena of half an hour pairs for 28 of them.
const fastClock = `{"kind": "fischer", "initial": 60, "increment": 0}`

// eventFixture is a server with the real games and a stepped clock, and
// its players by name.
type eventFixture struct {
	*socialFixture
	t       *testing.T
	players map[string]*client
	streams map[string]*lineStream
}

func newEventFixture(t *testing.T, k *servertest.StoreKind, names ...string) *eventFixture {
	t.Helper()
	var sf *socialFixture
	if k != nil {
		sf = newSocialOn(t, *k)
	} else {
		sf = newSocial(t)
	}
	f := &eventFixture{socialFixture: sf, t: t, players: map[string]*client{}, streams: map[string]*lineStream{}}
	for _, n := range names {
		f.players[n] = signUp(t, sf.srv.URL, n)
	}
	return f
}

// online opens a player stream for each of names: they count as online
// however long the clock moves on.
func (f *eventFixture) online(names ...string) {
	for _, n := range names {
		f.streams[n] = openStream(f.t, f.srv.URL, f.players[n].token)
	}
}

// restartDown stops the server, moves the clock on by down, and starts
// the server again on the same data, its players' clients with it.
func (f *eventFixture) restartDown(down time.Duration) {
	f.close()
	f.srv.Close()
	f.clock.Advance(down)
	f.openSocial()
	for _, p := range f.players {
		p.base = f.srv.URL
	}
}

// create makes an event as name, failing the test unless it is made.
func (f *eventFixture) create(name, body string) tournament.Event {
	f.t.Helper()
	var ev tournament.Event
	if st, got := f.players[name].do("POST", "/api/v1/tournaments", body, &ev); st != 201 {
		f.t.Fatalf("%s creates %s: %d %s", name, body, st, got)
	}
	return ev
}

// join has each of names join event id.
func (f *eventFixture) join(id string, names ...string) {
	f.t.Helper()
	for _, n := range names {
		if st, got := f.players[n].do("POST", "/api/v1/tournaments/"+id+"/join", nil, nil); st != 200 {
			f.t.Fatalf("%s joins: %d %s", n, st, got)
		}
	}
}

// get reads event id over HTTP.
func (f *eventFixture) get(id string) tournament.Event {
	f.t.Helper()
	var ev tournament.Event
	if st, got := (&client{t: f.t, base: f.srv.URL}).do("GET", "/api/v1/tournaments/"+id, nil, &ev); st != 200 {
		f.t.Fatalf("reading event %s: %d %s", id, st, got)
	}
	return ev
}

// await waits until event id is as cond says, and returns it.
func (f *eventFixture) await(id, what string, cond func(tournament.Event) bool) tournament.Event {
	f.t.Helper()
	var ev tournament.Event
	servertest.Eventually(f.t, 10*time.Second, what, func() bool {
		var err error
		ev, err = f.s.Tournaments().Get(context.Background(), id)
		return err == nil && cond(ev)
	})
	return ev
}

// playing waits for n games of event id under way and returns them.
func (f *eventFixture) playing(id string, n int) []tournament.GameInfo {
	f.t.Helper()
	return f.await(id, fmt.Sprintf("%d games under way", n), func(ev tournament.Event) bool { return len(ev.Playing) == n }).Playing
}

// play plays game g of Nymphabet out: each seat writes a word, then the
// player who is not winner resigns.
func (f *eventFixture) play(g tournament.GameInfo, winner string) {
	f.t.Helper()
	for i, w := range []string{"apple", "bed"} {
		if st, got := f.players[g.Players[i]].do("POST", "/api/v1/tables/"+g.Table+"/moves", map[string]any{"move": w}, nil); st != 200 {
			f.t.Fatalf("%s plays %s at %s: %d %s", g.Players[i], w, g.Table, st, got)
		}
	}
	loser := g.Players[0]
	if loser == winner {
		loser = g.Players[1]
	}
	if st, got := f.players[loser].do("POST", "/api/v1/tables/"+g.Table+"/moves", map[string]any{"move": "resign"}, nil); st != 200 {
		f.t.Fatalf("%s resigns at %s: %d %s", loser, g.Table, st, got)
	}
}

// stronger plays out each of games, the player earlier in order winning.
func (f *eventFixture) stronger(games []tournament.GameInfo, order []string) {
	f.t.Helper()
	for _, g := range games {
		a, b := slices.Index(order, g.Players[0]), slices.Index(order, g.Players[1])
		if a < b {
			f.play(g, g.Players[0])
		} else {
			f.play(g, g.Players[1])
		}
	}
}

func standingOf(ev tournament.Event, name string) tournament.Standing {
	for _, s := range ev.Standings {
		if s.Name == name {
			return s
		}
	}
	return tournament.Standing{}
}

func pairOf(g tournament.GameInfo) [2]string {
	p := [2]string{g.Players[0], g.Players[1]}
	if p[0] > p[1] {
		p[0], p[1] = p[1], p[0]
	}
	return p
}

// TestTournamentArena: on both stores, an arena starts at its time and
// pairs its four players; each stream says where to play; players whose
// games ended together are paired in one wave without an immediate
// rematch; a win scores 2 and, after two wins in a row, 4; the arena
// pairs no game it has not time for, ends when its time is up with its
// winners, and exports every game's record naming the event.
func TestTournamentArena(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		order := []string{"Ann", "Bob", "Cat", "Dan"}
		f := newEventFixture(t, &k, order...)
		f.online(order...)
		ev := f.create("Ann", `{"kind": "arena", "name": "Evening Arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 30}`)
		if ev.Status != store.TournamentCreated || ev.Kind != "arena" || ev.Seats != 2 || ev.ClockText != "1+0" || ev.Creator != "Ann" || ev.Password || !ev.Starts.Equal(f.clock.Now().Add(time.Minute).Truncate(time.Second)) {
			t.Fatalf("the new arena: %+v", ev)
		}
		f.join(ev.ID, order...)
		var listed struct{ Tournaments []tournament.Event }
		if st, got := (&client{t: t, base: f.srv.URL}).do("GET", "/api/v1/tournaments?status=created", nil, &listed); st != 200 || len(listed.Tournaments) != 1 || listed.Tournaments[0].Players != 4 {
			t.Fatalf("the list: %d %s", st, got)
		}

		f.clock.Advance(time.Minute)
		games := f.playing(ev.ID, 2)
		for _, g := range games {
			for seat, name := range g.Players {
				line := f.streams[name].next("tournamentGame")
				if tg := line.Tournament; tg == nil || tg.Event != ev.ID || tg.Table != g.Table || tg.Seat != seat || tg.Name != "Evening Arena" || tg.Game != "nymphabet" {
					t.Fatalf("%s's stream: %+v, want table %s seat %d", name, line.Tournament, g.Table, seat)
				}
			}
		}
		// A stream opened since (a new page, or one that fell behind)
		// hears the pairing again.
		first := games[0].Players[0]
		again := openStream(t, f.srv.URL, f.players[first].token)
		if line := again.next("tournamentGame"); line.Tournament == nil || line.Tournament.Event != ev.ID || line.Tournament.Table != games[0].Table ||
			line.Tournament.Seat != 0 || line.Tournament.Name != "Evening Arena" || line.Tournament.Game != "nymphabet" {
			t.Fatalf("%s's new stream opens with %+v, want table %s seat 0", first, line.Tournament, games[0].Table)
		}
		// The table is among the player's own, naming its event.
		if st, got := f.players[games[0].Players[0]].do("GET", "/api/v1/identity/tables", nil, nil); st != 200 || !strings.Contains(got, games[0].Table) || !strings.Contains(got, `"event":{"id":"`+ev.ID+`","name":"Evening Arena"}`) {
			t.Fatalf("identity/tables: %d %s", st, got)
		}
		last := map[string]string{}
		for wave := 1; wave <= 3; wave++ {
			for _, g := range games {
				if wave > 1 && (last[g.Players[0]] == g.Players[1]) {
					t.Fatalf("wave %d paired %s with %s again straight away", wave, g.Players[0], g.Players[1])
				}
				last[g.Players[0]], last[g.Players[1]] = g.Players[1], g.Players[0]
			}
			f.stronger(games, order)
			f.await(ev.ID, "the games scored", func(e tournament.Event) bool { return len(e.Playing) == 0 && len(e.Games) == 2*wave })
			if wave == 1 {
				// The event pairs its players again: a game of it has
				// no rematch.
				p := f.players[games[0].Players[0]]
				if st, got := p.do("POST", "/api/v1/tables/"+games[0].Table+"/rematch", map[string]any{}, nil); st != 409 || !strings.Contains(got, "Evening Arena pairs its own games") {
					t.Fatalf("a rematch of an event's game: %d %s", st, got)
				}
			}
			if wave < 3 {
				// Nobody is paired before the pause after a game.
				if e := f.get(ev.ID); len(e.Playing) != 0 {
					t.Fatalf("paired before the pause: %+v", e.Playing)
				}
				f.clock.Advance(tournament.ArenaPause)
				games = f.playing(ev.ID, 2)
			}
		}
		// Ann won three in a row: 2, 2, then 4 on her streak; Dan lost
		// every game.
		got := f.get(ev.ID)
		if ann := standingOf(got, "Ann"); ann.Score != 8 || !ann.Streak || ann.Wins != 3 || ann.Games != 3 || ann.Rank != 1 {
			t.Fatalf("Ann's standing: %+v", ann)
		}
		if dan := standingOf(got, "Dan"); dan.Score != 0 || dan.Losses != 3 {
			t.Fatalf("Dan's standing: %+v", dan)
		}
		total := 0
		for _, s := range got.Standings {
			total += s.Games
		}
		if total != 12 {
			t.Fatalf("standings count %d games, want 12: %+v", total, got.Standings)
		}
		// Two minutes before the end nothing new starts; at the end the
		// arena finishes with its winners.
		f.clock.Advance(got.Ends.Sub(f.clock.Now()) - time.Minute)
		if e := f.get(ev.ID); len(e.Playing) != 0 || e.Status != store.TournamentStarted {
			t.Fatalf("a minute before the end: %d games under way, %s", len(e.Playing), e.Status)
		}
		f.clock.Advance(time.Minute)
		done := f.await(ev.ID, "the arena over", func(e tournament.Event) bool { return e.Status == store.TournamentFinished })
		if len(done.Winners) != 3 || done.Winners[0] != "Ann" {
			t.Fatalf("winners %q", done.Winners)
		}
		// The finished list names the winners, and the winner's
		// profile shows the event.
		var list struct{ Tournaments []tournament.Event }
		if st, got := (&client{t: t, base: f.srv.URL}).do("GET", "/api/v1/tournaments?status=finished", nil, &list); st != 200 || len(list.Tournaments) != 1 || !slices.Equal(list.Tournaments[0].Winners, done.Winners) {
			t.Errorf("the finished events: %d %s, want %s won by %q", st, got, ev.ID, done.Winners)
		}
		var prof struct{ Podiums []players.Podium }
		if st, got := (&client{t: t, base: f.srv.URL}).do("GET", "/api/v1/players/Ann", nil, &prof); st != 200 || len(prof.Podiums) != 1 || prof.Podiums[0].Event != ev.ID || prof.Podiums[0].Place != 1 || prof.Podiums[0].Of != 4 {
			t.Errorf("Ann's profile: %d %s, want the arena won", st, got)
		}
		// Every game's record names the event.
		res, err := http.Get(f.srv.URL + "/api/v1/tournaments/" + ev.ID + "/export")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/x-ndjson" {
			t.Fatalf("export: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
		}
		n := 0
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			rec, err := game.DecodeBytes(sc.Bytes())
			if err != nil {
				t.Fatalf("export line %d: %v: %s", n+1, err, sc.Text())
			}
			if rec.Event == nil || rec.Event.ID != ev.ID || rec.Event.Name != "Evening Arena" {
				t.Fatalf("record %d's event: %+v", n+1, rec.Event)
			}
			n++
		}
		if n != 6 {
			t.Fatalf("exported %d records, want 6", n)
		}
	})
}

// TestTournamentArenaAway: a player who disconnects mid-arena is not
// paired while away, and is paired again once back.
func TestTournamentArenaAway(t *testing.T) {
	t.Parallel()
	order := []string{"Ann", "Bob", "Cat", "Dan"}
	f := newEventFixture(t, nil, order...)
	f.online(order...)
	ev := f.create("Ann", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 60}`)
	f.join(ev.ID, order...)
	var mine tournament.Event
	if st, got := f.players["Dan"].do("GET", "/api/v1/tournaments/"+ev.ID, nil, &mine); st != 200 || mine.Joined == nil || !*mine.Joined {
		t.Fatalf("Dan reads the event he joined: %d %s", st, got)
	}
	if f.get(ev.ID).Joined != nil {
		t.Fatal("a reader without a token is told whether they joined")
	}
	f.clock.Advance(time.Minute)
	f.stronger(f.playing(ev.ID, 2), order)
	f.await(ev.ID, "the games scored", func(e tournament.Event) bool { return len(e.Playing) == 0 && len(e.Games) == 2 })

	// Dan closes his stream and makes no request for longer than the
	// online window: he is away when the arena pairs again.
	dan, err := f.s.Auth().Authenticate(context.Background(), f.players["Dan"].token)
	if err != nil {
		t.Fatal(err)
	}
	f.streams["Dan"].res.Body.Close()
	servertest.Eventually(t, 10*time.Second, "Dan's stream closed", func() bool { return !f.s.social.Holding(dan.Identity) })
	f.clock.Advance(social.OnlineWindow + time.Second)
	games := f.playing(ev.ID, 1)
	f.clock.Advance(tournament.ArenaLook)
	if e := f.get(ev.ID); len(e.Playing) != 1 || slices.Contains(games[0].Players, "Dan") {
		t.Fatalf("Dan, away, was paired: %+v", e.Playing)
	}
	// Dan comes back; the arena's next look pairs him with the one
	// waiting.
	f.online("Dan")
	f.clock.Advance(tournament.ArenaLook)
	e := f.playing(ev.ID, 2)
	if !slices.ContainsFunc(e, func(g tournament.GameInfo) bool { return slices.Contains(g.Players, "Dan") }) {
		t.Fatalf("Dan, back, was not paired: %+v", e)
	}
}

// TestTournamentSwiss: on both stores, a Swiss of five players and three
// rounds: each round pairs two tables and gives the bye to a player who
// has not had one, no two players meet twice, a round starts when the
// last game of the one before ends, and the standings are in order of
// points, Buchholz and Sonneborn-Berger, with the strongest player first.
func TestTournamentSwiss(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		order := []string{"Ann", "Bob", "Cat", "Dan", "Eve"}
		f := newEventFixture(t, &k, order...)
		ev := f.create("Ann", `{"kind": "swiss", "game": "nymphabet", "clock": `+fastClock+`, "rounds": 3}`)
		f.join(ev.ID, order...)
		var started tournament.Event
		if st, got := f.players["Ann"].do("POST", "/api/v1/tournaments/"+ev.ID+"/start", nil, &started); st != 200 || started.Status != store.TournamentStarted || started.Round != 1 {
			t.Fatalf("Ann starts: %d %s", st, got)
		}
		met := map[[2]string]bool{}
		byes := map[string]bool{}
		for round := 1; round <= 3; round++ {
			e := f.await(ev.ID, fmt.Sprintf("round %d under way", round), func(e tournament.Event) bool { return e.Round == round && len(e.Playing) == 2 })
			for _, g := range e.Playing {
				if g.Round != round {
					t.Fatalf("a game of round %d in round %d", g.Round, round)
				}
				if p := pairOf(g); met[p] {
					t.Fatalf("round %d pairs %s again", round, p)
				} else {
					met[p] = true
				}
			}
			for _, s := range e.Standings {
				if s.Byes > 1 {
					t.Fatalf("%s has had %d byes", s.Name, s.Byes)
				}
				if s.Byes == 1 {
					byes[s.Name] = true
				}
			}
			if len(byes) != round {
				t.Fatalf("after round %d, byes went to %v", round, byes)
			}
			// The first game's end does not start the next round.
			f.stronger(e.Playing[:1], order)
			f.await(ev.ID, "the first game scored", func(e tournament.Event) bool { return len(e.Playing) == 1 })
			if e := f.get(ev.ID); e.Round != round {
				t.Fatalf("round %d began with a game of round %d under way", e.Round, round)
			}
			f.stronger(e.Playing[1:], order)
		}
		done := f.await(ev.ID, "the Swiss over", func(e tournament.Event) bool { return e.Status == store.TournamentFinished })
		var h players.History
		if st, body := f.players["Ann"].do("GET", "/api/v1/players/Ann/games", nil, &h); st != 200 {
			t.Fatalf("Ann's games: %d %s", st, body)
		}
		var rounds []int
		for _, g := range h.Games {
			if g.Event == nil || g.Event.ID != ev.ID || g.Event.Name != ev.Name {
				t.Fatalf("Ann's game %s of the Swiss names the event %+v", g.Table, g.Event)
			}
			rounds = append(rounds, g.Event.Round)
		}
		if slices.Sort(rounds); len(rounds) < 2 || rounds[0] < 1 || rounds[len(rounds)-1] > 3 || len(slices.Compact(slices.Clone(rounds))) != len(rounds) {
			t.Fatalf("Ann's games of the Swiss are of rounds %v", rounds)
		}
		// Ann won every game she played (a bye is a win too): 6 points,
		// which only a player who had the bye and never met her also
		// reaches, and then the tie-breaks order them.
		if ann := standingOf(done, "Ann"); len(done.Games) != 6 || ann.Score != 6 || ann.Rank > 2 || done.Winners[0] != done.Standings[0].Name || done.Standings[0].Score != 6 {
			t.Fatalf("games %d, winners %q, standings %+v", len(done.Games), done.Winners, done.Standings)
		}
		for i, s := range done.Standings {
			if s.Score != 2*(s.Wins+s.Byes) {
				t.Fatalf("%s scores %d from %d wins and %d byes", s.Name, s.Score, s.Wins, s.Byes)
			}
			if i == 0 {
				continue
			}
			p := done.Standings[i-1]
			if p.Score < s.Score || p.Score == s.Score && (p.Buchholz < s.Buchholz || p.Buchholz == s.Buchholz && p.SonnebornBerger < s.SonnebornBerger) {
				t.Fatalf("standings out of order at %d: %+v then %+v", i, p, s)
			}
		}
		// Buchholz is the sum of the opponents' scores.
		score := map[string]int{}
		for _, s := range done.Standings {
			score[s.Name] = s.Score
		}
		for _, s := range done.Standings {
			sum := 0
			for _, g := range done.Games {
				if i := slices.Index(g.Players, s.Name); i >= 0 {
					sum += score[g.Players[1-i]]
				}
			}
			if s.Byes == 0 && s.Buchholz != sum {
				t.Errorf("%s's Buchholz is %d, the opponents' scores sum to %d", s.Name, s.Buchholz, sum)
			}
		}
	})
}

// TestTournamentSwissForfeit: a Swiss player who does not show up loses
// each game by forfeit when their clock runs out, stays in after one,
// and is withdrawn after two: the third round pairs the others alone,
// and he may not join again.
func TestTournamentSwissForfeit(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Bob", "Cat", "Dan")
	ev := f.create("Ann", `{"kind": "swiss", "game": "nymphabet", "clock": `+fastClock+`, "rounds": 3}`)
	f.join(ev.ID, "Ann", "Bob", "Cat", "Dan")
	f.players["Ann"].do("POST", "/api/v1/tournaments/"+ev.ID+"/start", nil, nil)
	for round := 1; round <= 2; round++ {
		e := f.await(ev.ID, fmt.Sprintf("round %d", round), func(e tournament.Event) bool { return e.Round == round && len(e.Playing) == 2 })
		for _, g := range e.Playing {
			i := slices.Index(g.Players, "Dan")
			if i < 0 {
				f.play(g, g.Players[0])
				continue
			}
			// Dan's opponent makes the first move when it is theirs.
			if i == 1 {
				if st, got := f.players[g.Players[0]].do("POST", "/api/v1/tables/"+g.Table+"/moves", map[string]any{"move": "apple"}, nil); st != 200 {
					t.Fatalf("move: %d %s", st, got)
				}
			}
		}
		f.await(ev.ID, "the other game scored", func(e tournament.Event) bool { return len(e.Playing) == 1 })
		f.clock.Advance(61 * time.Second)
		e = f.await(ev.ID, "Dan's forfeit", func(e tournament.Event) bool { return standingOf(e, "Dan").Forfeits == round })
		dan := standingOf(e, "Dan")
		if dan.Score != 0 || dan.Left != (round == 2) {
			t.Fatalf("after round %d Dan stands %+v", round, dan)
		}
	}
	e := f.await(ev.ID, "round 3", func(e tournament.Event) bool { return e.Round == 3 && len(e.Playing) == 1 })
	if slices.Contains(e.Playing[0].Players, "Dan") || standingOf(e, "Dan").Byes != 0 {
		t.Fatalf("Dan, withdrawn, plays on: %+v", e.Playing)
	}
	total := 0
	for _, s := range e.Standings {
		total += s.Byes
	}
	if total != 1 {
		t.Fatalf("round 3 of three players gave %d byes", total)
	}
	// Withdrawn, Dan cannot join again to be paired and not show up.
	expect(t, f.players["Dan"], "POST", "/api/v1/tournaments/"+ev.ID+"/join", nil, 409, "withdrawn")
	if dan := standingOf(f.get(ev.ID), "Dan"); !dan.Left {
		t.Fatalf("after his refused join Dan stands %+v", dan)
	}
}

// TestTournamentRestart: on both stores, a server restarted mid-round
// comes back with the same standings, games and round, pairs nothing
// again, and carries on: the round's games end and the next is paired.
func TestTournamentRestart(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		order := []string{"Ann", "Bob", "Cat", "Dan", "Eve"}
		f := newEventFixture(t, &k, order...)
		ev := f.create("Ann", `{"kind": "swiss", "game": "nymphabet", "clock": `+fastClock+`, "rounds": 3}`)
		f.join(ev.ID, order...)
		f.players["Ann"].do("POST", "/api/v1/tournaments/"+ev.ID+"/start", nil, nil)
		before := f.await(ev.ID, "round 1", func(e tournament.Event) bool { return len(e.Playing) == 2 })
		f.stronger(before.Playing[:1], order)
		before = f.await(ev.ID, "a game scored", func(e tournament.Event) bool { return len(e.Playing) == 1 })

		f.restart()
		for _, c := range f.players {
			c.base = f.srv.URL
		}
		after := f.get(ev.ID)
		before.Version, after.Version = 0, 0
		a, _ := json.Marshal(before)
		b, _ := json.Marshal(after)
		if string(a) != string(b) {
			t.Fatalf("after a restart the event reads\n%s\nwas\n%s", b, a)
		}
		f.stronger(after.Playing, order)
		next := f.await(ev.ID, "round 2", func(e tournament.Event) bool { return e.Round == 2 && len(e.Playing) == 2 })
		if len(next.Games) != 4 {
			t.Fatalf("round 2 after a restart: %d games", len(next.Games))
		}
	})
}

// TestTournamentBadInput: each refusal is a 4xx that names the problem,
// and changes nothing.
func TestTournamentBadInput(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
	base := f.srv.URL
	guest := &client{t: t, base: base}
	var id struct{ Token string }
	guest.do("POST", "/api/v1/identity", `{"name": "Gus"}`, &id)
	guest.token = id.Token
	past := f.clock.Now().Add(-time.Hour).UTC().Format(time.RFC3339)

	arena := f.create("Ann", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 30, "max_players": 2}`)
	later := f.clock.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	locked := f.create("Ann", `{"kind": "swiss", "game": "nymphabet", "clock": `+fastClock+`, "rounds": 3, "password": "open sesame", "starts": "`+later+`"}`)
	other := f.create("Bob", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 30}`)
	lonely := f.create("Bob", `{"kind": "swiss", "game": "nymphabet", "clock": `+fastClock+`, "rounds": 3}`)
	// Cat and Dan play a game of another event.
	f.online("Cat", "Dan")
	f.join(other.ID, "Cat", "Dan")
	f.join(arena.ID, "Ann")
	f.clock.Advance(time.Minute)
	f.playing(other.ID, 1)
	// The lonely Swiss started with nobody and is over.
	f.await(lonely.ID, "the lonely Swiss over", func(e tournament.Event) bool { return e.Status == store.TournamentFinished })
	// The arena started too; its max is two.
	f.join(arena.ID, "Bob")

	for _, c := range []struct {
		name   string
		who    *client
		method string
		path   string
		body   string
		status int
		want   string
	}{
		{"guest creates", guest, "POST", "/api/v1/tournaments", `{"kind": "arena", "game": "salvo", "clock": 60, "minutes": 60}`, 403, "needs an account"},
		{"clock too short", f.players["Ann"], "POST", "/api/v1/tournaments", `{"kind": "arena", "game": "salvo", "clock": 5, "minutes": 60}`, 400, "clock"},
		{"no clock", f.players["Ann"], "POST", "/api/v1/tournaments", `{"kind": "arena", "game": "salvo", "minutes": 60}`, 400, "need a clock"},
		{"correspondence arena", f.players["Ann"], "POST", "/api/v1/tournaments", `{"kind": "arena", "game": "salvo", "clock": {"kind": "correspondence", "days": 1}, "minutes": 60}`, 400, "cannot"},
		{"arena shorter than a game", f.players["Ann"], "POST", "/api/v1/tournaments", `{"kind": "arena", "game": "salvo", "clock": {"kind": "fischer", "initial": 600, "increment": 5}, "minutes": 20}`, 400, "longer than the arena's 20 minutes"},
		{"arena too long", f.players["Ann"], "POST", "/api/v1/tournaments", `{"kind": "arena", "game": "salvo", "clock": 60, "minutes": 100000}`, 400, "at most 1440 minutes"},
		{"start in the past", f.players["Ann"], "POST", "/api/v1/tournaments", `{"kind": "arena", "game": "salvo", "clock": ` + fastClock + `, "minutes": 30, "starts": "` + past + `"}`, 400, "that start has passed (1 hour ago): choose a time from now on"},
		{"rounds below zero", f.players["Ann"], "POST", "/api/v1/tournaments", `{"kind": "swiss", "game": "salvo", "clock": 60, "rounds": -1}`, 400, "a Swiss plays 1 round or more, not -1"},
		{"minutes below zero", f.players["Ann"], "POST", "/api/v1/tournaments", `{"kind": "arena", "game": "salvo", "clock": 60, "minutes": -5}`, 400, "an arena runs for 1 minute or more, not -5"},
		{"rounds past a whole number", f.players["Ann"], "POST", "/api/v1/tournaments", `{"kind": "swiss", "game": "salvo", "clock": 60, "rounds": 99999999999999999999}`, 400, "is too large a number (99999999999999999999)"},
		{"room for less than a table", f.players["Ann"], "POST", "/api/v1/tournaments", `{"kind": "swiss", "game": "salvo", "clock": 60, "rounds": 1, "max_players": 1}`, 400, "needs room for at least 2 players, not 1"},
		{"too many rounds for the field", f.players["Ann"], "POST", "/api/v1/tournaments", `{"kind": "swiss", "game": "salvo", "clock": 60, "rounds": 5, "max_players": 4}`, 400, "at most 3 rounds"},
		{"seats a game does not take", f.players["Ann"], "POST", "/api/v1/tournaments", `{"kind": "swiss", "game": "nymphabet", "clock": 60, "rounds": 2, "seats": 4}`, 400, "played by 2 players, not 4"},
		{"a multi-seat arena", f.players["Ann"], "POST", "/api/v1/tournaments", `{"kind": "arena", "game": "quizl", "clock": 60, "minutes": 60, "seats": 3}`, 400, "two players a table"},
		{"an unknown game", f.players["Ann"], "POST", "/api/v1/tournaments", `{"kind": "arena", "game": "chess", "clock": 60, "minutes": 60}`, 400, "chess"},
		{"a password nobody can type", f.players["Ann"], "POST", "/api/v1/tournaments", `{"kind": "arena", "game": "salvo", "clock": ` + fastClock + `, "minutes": 30, "password": "open\nsesame"}`, 400, "control characters"},
		{"full", f.players["Cat"], "POST", "/api/v1/tournaments/" + arena.ID + "/join", ``, 409, "is full"},
		{"finished", f.players["Ann"], "POST", "/api/v1/tournaments/" + lonely.ID + "/join", ``, 409, "is over"},
		{"no password", f.players["Bob"], "POST", "/api/v1/tournaments/" + locked.ID + "/join", ``, 403, "has a password"},
		{"wrong password", f.players["Bob"], "POST", "/api/v1/tournaments/" + locked.ID + "/join", `{"password": "open sesame!"}`, 403, "not the password"},
		{"twice", f.players["Ann"], "POST", "/api/v1/tournaments/" + arena.ID + "/join", ``, 409, "already"},
		{"seated at another event's game", f.players["Cat"], "POST", "/api/v1/tournaments/" + locked.ID + "/join", `{"password": "open sesame"}`, 409, "another event"},
		{"an unknown field", f.players["Bob"], "POST", "/api/v1/tournaments/" + locked.ID + "/join", `{"pasword": "open sesame"}`, 400, "pasword"},
		{"leave what one is not in", f.players["Dan"], "POST", "/api/v1/tournaments/" + locked.ID + "/leave", ``, 409, "not in"},
		{"start another's event", f.players["Bob"], "POST", "/api/v1/tournaments/" + locked.ID + "/start", ``, 403, "only the player who created"},
		{"start with too few", f.players["Ann"], "POST", "/api/v1/tournaments/" + locked.ID + "/start", ``, 409, "at least 2 players"},
		{"an unknown event", f.players["Ann"], "GET", "/api/v1/tournaments/nope", ``, 404, "no event"},
		{"an unknown status", f.players["Ann"], "GET", "/api/v1/tournaments?status=over", ``, 400, `finished`},
	} {
		before := f.get(locked.ID)
		st, got := c.who.do(c.method, c.path, c.body, nil)
		if st != c.status || !strings.Contains(got, c.want) {
			t.Errorf("%s: %d %s, want %d saying %q", c.name, st, got, c.status, c.want)
		}
		if after := f.get(locked.ID); after.Players != before.Players || after.Status != before.Status {
			t.Errorf("%s changed the event: %+v", c.name, after)
		}
	}
	// The event says why its creator cannot start it yet, in the
	// refusal's words, so that a page offers no start it refuses.
	if got := f.get(locked.ID).CannotStart; !strings.Contains(got, "needs at least 2 players to start; it has 0") {
		t.Errorf("the Swiss without players says it cannot start: %q", got)
	}
	// Too many rounds for the field, at the start: two players cannot
	// play three rounds.
	for _, n := range []string{"Eve", "Fay"} {
		if st, got := f.players[n].do("POST", "/api/v1/tournaments/"+locked.ID+"/join", `{"password": "open sesame"}`, nil); st != 200 {
			t.Fatalf("%s joins with the password: %d %s", n, st, got)
		}
	}
	if got := f.get(locked.ID).CannotStart; !strings.Contains(got, "at most 1 round; wait for more players") {
		t.Errorf("the Swiss of two players for three rounds says it cannot start: %q", got)
	}
	if got := f.get(arena.ID).CannotStart; got != "" {
		t.Errorf("an arena under way says it cannot start: %q", got)
	}
	if st, got := f.players["Ann"].do("POST", "/api/v1/tournaments/"+locked.ID+"/start", nil, nil); st != 409 || !strings.Contains(got, "at most 1 round; wait for more players, or for its start, when it plays the rounds its field can") {
		t.Errorf("starting 3 rounds of 2 players: %d %s", st, got)
	}
	// A player makes at most five events a day: Bob has made two.
	for i := 0; i < 3; i++ {
		f.create("Bob", `{"kind": "arena", "game": "salvo", "clock": `+fastClock+`, "minutes": 30}`)
	}
	if st, got := f.players["Bob"].do("POST", "/api/v1/tournaments", `{"kind": "arena", "game": "salvo", "clock": `+fastClock+`, "minutes": 30}`, nil); st != 429 || !strings.Contains(got, "5 events") {
		t.Errorf("Bob's sixth event: %d %s", st, got)
	}
	// Past the cap, a mistake is still told as a mistake, not as the cap.
	if st, got := f.players["Bob"].do("POST", "/api/v1/tournaments", `{"kind": "arena", "game": "chess", "clock": `+fastClock+`, "minutes": 30}`, nil); st != 400 || !strings.Contains(got, "chess") {
		t.Errorf("Bob's sixth event, of an unknown game: %d %s, want 400 naming it", st, got)
	}
	var listed struct{ Tournaments []tournament.Event }
	(&client{t: t, base: base}).do("GET", "/api/v1/tournaments", nil, &listed)
	if len(listed.Tournaments) != 4 {
		t.Errorf("%d events to come, want 4 (locked and Bob's three)", len(listed.Tournaments))
	}
}

// TestTournamentFollow: a read with the version last seen waits for the
// event's next change and answers with it; with another version it
// answers at once.
func TestTournamentFollow(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Bob")
	ev := f.create("Ann", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 30}`)
	seen := f.get(ev.ID).Version
	got := make(chan tournament.Event, 1)
	go func() {
		var e tournament.Event
		if st, body := (&client{t: t, base: f.srv.URL}).do("GET", fmt.Sprintf("/api/v1/tournaments/%s?version=%d", ev.ID, seen), nil, &e); st != 200 {
			t.Errorf("following: %d %s", st, body)
		}
		got <- e
	}()
	f.join(ev.ID, "Bob")
	if e := <-got; e.Version == seen || e.Players != 1 {
		t.Fatalf("the answer after a join: version %d (was %d), %d players", e.Version, seen, e.Players)
	}
	var e tournament.Event
	if st, body := (&client{t: t, base: f.srv.URL}).do("GET", fmt.Sprintf("/api/v1/tournaments/%s?version=%d", ev.ID, seen), nil, &e); st != 200 || e.Players != 1 {
		t.Fatalf("an old version: %d %s", st, body)
	}
	if st, body := (&client{t: t, base: f.srv.URL}).do("GET", "/api/v1/tournaments/"+ev.ID+"?version=latest", nil, nil); st != 400 || !strings.Contains(body, "version") {
		t.Fatalf("a version that is no number: %d %s", st, body)
	}
}

// TestTournamentArenaEarlyResign: a player who resigns before every
// player has moved (the table aborts the game) loses it, and the winner
// scores it, but they showed up: they stay in the arena and are paired
// again, unlike a player whose clock ran out before they moved.
func TestTournamentArenaEarlyResign(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Bob")
	f.online("Ann", "Bob")
	ev := f.create("Ann", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 60}`)
	f.join(ev.ID, "Ann", "Bob")
	f.clock.Advance(time.Minute)
	g := f.playing(ev.ID, 1)[0]
	// The first seat resigns at once: nobody has moved.
	quitter, other := g.Players[0], g.Players[1]
	if st, got := f.players[quitter].do("POST", "/api/v1/tables/"+g.Table+"/moves", map[string]any{"move": "resign"}, nil); st != 200 {
		t.Fatalf("%s resigns at once: %d %s", quitter, st, got)
	}
	e := f.await(ev.ID, "the game scored", func(e tournament.Event) bool { return len(e.Playing) == 0 && len(e.Games) == 1 })
	q, o := standingOf(e, quitter), standingOf(e, other)
	if q.Score != 0 || o.Score != 2 || q.Left || q.Forfeits != 0 || q.Losses != 1 || o.Wins != 1 {
		t.Fatalf("after %s resigned at once: %+v and %+v; want a loss that keeps them in, and a win", quitter, q, o)
	}
	// Each player's history names the event the aborted game counted in.
	for _, name := range []string{quitter, other} {
		var h players.History
		if st, body := f.players[name].do("GET", "/api/v1/players/"+name+"/games", nil, &h); st != 200 || len(h.Games) != 1 {
			t.Fatalf("%s's games: %d %s", name, st, body)
		}
		if g := h.Games[0]; g.Result != "aborted" || g.Event == nil || g.Event.ID != ev.ID || g.Event.Name != ev.Name || g.Event.Round != 0 {
			t.Fatalf("%s's game in the arena: %+v, event %+v", name, g, g.Event)
		}
	}
	f.clock.Advance(tournament.ArenaLook)
	if again := f.playing(ev.ID, 1); !slices.Contains(again[0].Players, quitter) {
		t.Fatalf("%s was not paired again: %+v", quitter, again)
	}
}

// TestTournamentClosedPlayerWithdrawn: a player whose account a moderator
// closes is withdrawn from the events they are in: out of one not yet
// started, paired no more in one under way.
func TestTournamentClosedPlayerWithdrawn(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Bob", "Cat", "Moe")
	grant(t, f.st, "Moe", true)
	swiss := f.create("Ann", `{"kind": "swiss", "game": "nymphabet", "clock": `+fastClock+`, "rounds": 1}`)
	arena := f.create("Ann", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 60}`)
	f.join(swiss.ID, "Ann", "Bob", "Cat")
	f.join(arena.ID, "Ann", "Bob")
	expect(t, f.players["Moe"], "POST", "/api/v1/moderation/close", `{"name": "Bob", "reason": "abuse"}`, 200, `"name":"Bob"`)
	for _, id := range []string{swiss.ID, arena.ID} {
		e := f.get(id)
		for _, s := range e.Standings {
			if s.Name == "Bob" && !s.Left {
				t.Errorf("event %s still counts Bob in: %+v", id, e.Standings)
			}
		}
	}
	// The Swiss starts without him: two players, one game, no bye.
	var started tournament.Event
	if st, got := f.players["Ann"].do("POST", "/api/v1/tournaments/"+swiss.ID+"/start", nil, &started); st != 200 {
		t.Fatalf("Ann starts: %d %s", st, got)
	}
	e := f.await(swiss.ID, "round 1 under way", func(e tournament.Event) bool { return len(e.Playing) == 1 })
	if p := pairOf(e.Playing[0]); p != [2]string{"Ann", "Cat"} {
		t.Errorf("round 1 pairs %v, want Ann and Cat", p)
	}
}

// TestTournamentArenaLeftAtSetup: a player who leaves an event's table
// while the fleets are placed does not show up: the table closes rather
// than open the seat to anybody, the other player wins by forfeit, and
// the leaver is paired no more.
func TestTournamentArenaLeftAtSetup(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Bob", "Cat")
	f.online("Ann", "Bob")
	ev := f.create("Ann", `{"kind": "arena", "game": "salvo", "clock": `+fastClock+`, "minutes": 60}`)
	f.join(ev.ID, "Ann", "Bob")
	f.clock.Advance(time.Minute)
	g := f.playing(ev.ID, 1)[0]
	quitter, other := g.Players[0], g.Players[1]
	var left struct{ Cancelled bool }
	if st, got := f.players[quitter].do("POST", "/api/v1/tables/"+g.Table+"/leave", nil, &left); st != 200 || !left.Cancelled {
		t.Fatalf("%s leaves at the setup: %d %s, want the table closed", quitter, st, got)
	}
	expect(t, f.players["Cat"], "POST", "/api/v1/tables/"+g.Table+"/join", `{}`, 410, quitter+" left before the game began")
	e := f.await(ev.ID, "the game scored", func(e tournament.Event) bool { return len(e.Playing) == 0 && len(e.Games) == 1 })
	q, o := standingOf(e, quitter), standingOf(e, other)
	if q.Score != 0 || o.Score != 2 || !q.Left || q.Forfeits != 1 || o.Wins != 1 {
		t.Fatalf("after %s left at the setup: %+v and %+v; want a forfeit that withdraws, and a win", quitter, q, o)
	}
	// The quitter comes back and plays a game, which the export holds;
	// the closed table, which holds no game, neither stops nor spoils it.
	f.join(ev.ID, quitter)
	f.clock.Advance(tournament.ArenaPause)
	g2 := f.playing(ev.ID, 1)[0]
	for _, n := range g2.Players {
		if st, got := f.players[n].do("POST", "/api/v1/tables/"+g2.Table+"/setup", `{"auto": true}`, nil); st != 200 {
			t.Fatalf("%s sets up: %d %s", n, st, got)
		}
	}
	if st, got := f.players[g2.Players[1]].do("POST", "/api/v1/tables/"+g2.Table+"/moves", map[string]any{"move": "resign"}, nil); st != 200 {
		t.Fatalf("%s resigns: %d %s", g2.Players[1], st, got)
	}
	f.await(ev.ID, "the second game scored", func(e tournament.Event) bool { return len(e.Playing) == 0 && len(e.Games) == 2 })
	res, err := http.Get(f.srv.URL + "/api/v1/tournaments/" + ev.ID + "/export")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	n := 0
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		n++
		if rec, err := game.DecodeBytes(sc.Bytes()); err != nil || rec.Event == nil || rec.Event.ID != ev.ID {
			t.Fatalf("export line %d: %v: %s", n, err, sc.Text())
		}
	}
	if res.StatusCode != 200 || n != 1 {
		t.Fatalf("export: %d, %d records; want the one game played", res.StatusCode, n)
	}
}

// TestTournamentLeaveFreesPlace: a player who joins a full event and
// leaves it before playing frees their place for a newcomer, and coming
// back to an event filled meanwhile is refused as any newcomer's join.
func TestTournamentLeaveFreesPlace(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Bob", "Cat")
	later := f.clock.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	ev := f.create("Ann", `{"kind": "swiss", "game": "nymphabet", "clock": `+fastClock+`, "rounds": 1, "max_players": 2, "starts": "`+later+`"}`)
	f.join(ev.ID, "Ann", "Bob")
	expect(t, f.players["Cat"], "POST", "/api/v1/tournaments/"+ev.ID+"/join", ``, 409, "is full")
	if st, got := f.players["Ann"].do("POST", "/api/v1/tournaments/"+ev.ID+"/leave", nil, nil); st != 200 {
		t.Fatalf("Ann leaves: %d %s", st, got)
	}
	f.join(ev.ID, "Cat")
	expect(t, f.players["Ann"], "POST", "/api/v1/tournaments/"+ev.ID+"/join", ``, 409, "is full")
	got := f.get(ev.ID)
	var names []string
	for _, s := range got.Standings {
		names = append(names, s.Name)
	}
	slices.Sort(names)
	if got.Players != 2 || !slices.Equal(names, []string{"Bob", "Cat"}) {
		t.Errorf("the event holds %d players, %v; want 2, Bob and Cat", got.Players, names)
	}
}

// TestTournamentArenaDown: an arena's end moves on by the time the
// server was down while it ran, as the games' clocks stand still: the
// minutes it promised are played. Worked out from the start, a second
// restart moves it by its own time down only.
func TestTournamentArenaDown(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Bob")
	ev := f.create("Ann", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 30}`)
	f.join(ev.ID, "Ann", "Bob")
	f.players["Ann"].do("POST", "/api/v1/tournaments/"+ev.ID+"/start", nil, nil)
	started := f.get(ev.ID)
	if started.Status != store.TournamentStarted || started.Ends == nil {
		t.Fatalf("the arena did not start: %+v", started)
	}
	ends := *started.Ends
	for _, c := range []struct {
		name       string
		down, more time.Duration // down for, and the end moved on by
	}{
		{"down ten minutes", 10 * time.Minute, 10 * time.Minute},
		{"back at once", 0, 0},
		{"down five minutes", 5 * time.Minute, 5 * time.Minute},
	} {
		f.clock.Advance(time.Minute)
		f.restartDown(c.down)
		got := f.get(ev.ID)
		ends = ends.Add(c.more)
		if got.Status != store.TournamentStarted || got.Ends == nil || got.Ends.Sub(ends).Abs() > time.Millisecond {
			t.Fatalf("%s: the arena ends at %v (%s), want %v", c.name, got.Ends, got.Status, ends)
		}
	}
	// It ends at the end moved on, not before.
	f.clock.Advance(ends.Sub(f.clock.Now()) - time.Second)
	if e := f.get(ev.ID); e.Status != store.TournamentStarted {
		t.Fatalf("a second before its end moved on, the arena is %s", e.Status)
	}
	f.clock.Advance(time.Second)
	f.await(ev.ID, "the arena over", func(e tournament.Event) bool { return e.Status == store.TournamentFinished })
}

// TestTournamentSetupNoShow: at an event's Salvo table, a player whose
// fleet has not come when the time to set up runs out did not show up:
// the table closes and they forfeit, and the round ends. A player who
// set up wins; when nobody did, nobody scores. A restart meanwhile
// changes nothing, and the time the server was down does not count:
// the time to set up moves on by it, as the table says.
func TestTournamentSetupNoShow(t *testing.T) {
	t.Parallel()
	type tableInfo struct {
		Table struct {
			SetupBy *time.Time `json:"setup_by"`
		} `json:"table"`
	}
	for _, c := range []struct {
		name    string
		ready   int           // seats that set up, from seat 0
		restart bool          // the server restarts while they set up
		down    time.Duration // and is down this long
	}{
		{"one fleet placed", 1, false, 0},
		{"no fleet placed", 0, false, 0},
		{"one fleet placed, and a restart", 1, true, 0},
		{"one fleet placed, and the server down for ten minutes", 1, true, 10 * time.Minute},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := newEventFixture(t, nil, "Ann", "Bob")
			ev := f.create("Ann", `{"kind": "swiss", "game": "salvo", "clock": `+fastClock+`, "rounds": 1}`)
			f.join(ev.ID, "Ann", "Bob")
			f.players["Ann"].do("POST", "/api/v1/tournaments/"+ev.ID+"/start", nil, nil)
			g := f.playing(ev.ID, 1)[0]
			for _, n := range g.Players[:c.ready] {
				if st, got := f.players[n].do("POST", "/api/v1/tables/"+g.Table+"/setup", `{"auto": true}`, nil); st != 200 {
					t.Fatalf("%s sets up: %d %s", n, st, got)
				}
			}
			var before tableInfo
			f.players[g.Players[0]].do("GET", "/api/v1/tables/"+g.Table, nil, &before)
			f.clock.Advance(tournament.MinSetup - time.Second)
			if c.restart {
				f.restartDown(c.down)
			}
			if e := f.get(ev.ID); len(e.Playing) != 1 {
				t.Fatalf("the game closed before its time to set up ran out: %+v", e.Games)
			}
			var after tableInfo
			f.players[g.Players[0]].do("GET", "/api/v1/tables/"+g.Table, nil, &after)
			if b, a := before.Table.SetupBy, after.Table.SetupBy; b == nil || a == nil || !a.Equal(b.Add(c.down)) {
				t.Errorf("the setups due at %v, after %v down at %v", b, c.down, a)
			}
			f.clock.Advance(2 * time.Second)
			e := f.await(ev.ID, "the event over", func(e tournament.Event) bool { return e.Status == store.TournamentFinished })
			for i, n := range g.Players {
				s, want := standingOf(e, n), 0
				if i < c.ready {
					want = 2
				}
				if s.Score != want || (s.Forfeits == 1) == (i < c.ready) {
					t.Errorf("%s (set up: %v) stands %+v, want %d points and a forfeit only without a setup", n, i < c.ready, s, want)
				}
			}
			// The table closed, saying why.
			expect(t, f.players[g.Players[0]], "GET", "/api/v1/tables/"+g.Table, nil, 410, strings.Join(g.Players[c.ready:], " and ")+" did not set up in time")
		})
	}
}

// TestTournamentSetupBy: an event's table of a game with secret setups
// tells its players, while it is in setup, when their setups are due:
// the moment the event closes it for a setup missing. Once play begins
// it says so no more, and a game without setups never does.
func TestTournamentSetupBy(t *testing.T) {
	t.Parallel()
	type tableInfo struct {
		Status  string     `json:"status"`
		SetupBy *time.Time `json:"setup_by"`
	}
	for _, c := range []struct {
		game  string
		ready int // seats that set up, from seat 0
	}{
		{"salvo", 2},
		{"salvo", 1},
		{"quizl", 2},
		{"nymphabet", 0},
	} {
		t.Run(fmt.Sprintf("%s, %d set up", c.game, c.ready), func(t *testing.T) {
			t.Parallel()
			f := newEventFixture(t, nil, "Ann", "Bob")
			ev := f.create("Ann", `{"kind": "swiss", "game": "`+c.game+`", "clock": `+fastClock+`, "rounds": 1}`)
			f.join(ev.ID, "Ann", "Bob")
			f.players["Ann"].do("POST", "/api/v1/tournaments/"+ev.ID+"/start", nil, nil)
			g := f.playing(ev.ID, 1)[0]
			view := func() tableInfo {
				t.Helper()
				var u struct{ Table tableInfo }
				if st, got := f.players[g.Players[0]].do("GET", "/api/v1/tables/"+g.Table, nil, &u); st != 200 {
					t.Fatalf("the table: %d %s", st, got)
				}
				return u.Table
			}
			in := view()
			if c.game == "nymphabet" {
				if in.SetupBy != nil {
					t.Fatalf("a table without setups shows setups due by %v", in.SetupBy)
				}
				return
			}
			if in.Status != "setup" || in.SetupBy == nil || !in.SetupBy.After(f.clock.Now()) {
				t.Fatalf("the table in setup shows %+v, want the time its setups are due, to come", in)
			}
			due := *in.SetupBy
			for _, n := range g.Players[:c.ready] {
				if st, got := f.players[n].do("POST", "/api/v1/tables/"+g.Table+"/setup", `{"auto": true}`, nil); st != 200 {
					t.Fatalf("%s sets up: %d %s", n, st, got)
				}
			}
			if c.ready == len(g.Players) {
				if in := view(); in.Status != "playing" || in.SetupBy != nil {
					t.Fatalf("the table in play shows %+v, want no setups due", in)
				}
				return
			}
			// The time shown is the time the event keeps.
			f.clock.Advance(due.Sub(f.clock.Now()) - time.Second)
			if in := view(); in.Status != "setup" || in.SetupBy == nil || !in.SetupBy.Equal(due) {
				t.Fatalf("a second before its setups are due the table shows %+v, want setups due by %v", in, due)
			}
			f.clock.Advance(2 * time.Second)
			f.await(ev.ID, "the event over", func(e tournament.Event) bool { return e.Status == store.TournamentFinished })
		})
	}
}

// TestTournamentDeletedAccountLeaves: an account deleted while entered in
// events is out of them, as one a moderator closed is: a Swiss to come
// has its place free again, and a running arena pairs them no more.
func TestTournamentDeletedAccountLeaves(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Bob", "Zed")
	f.online("Ann", "Bob", "Zed")
	later := f.clock.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	swiss := f.create("Ann", `{"kind": "swiss", "game": "nymphabet", "clock": `+fastClock+`, "rounds": 1, "max_players": 2, "starts": "`+later+`"}`)
	arena := f.create("Ann", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 30}`)
	f.join(swiss.ID, "Ann", "Zed")
	f.join(arena.ID, "Ann", "Bob", "Zed")
	f.clock.Advance(time.Minute)
	// Of the three one waits; the game is played out, so that Zed, seated
	// or not, sits at no table and may delete the account.
	g := f.playing(arena.ID, 1)[0]
	f.play(g, g.Players[0])
	f.await(arena.ID, "the game scored", func(ev tournament.Event) bool { return len(ev.Games) == 1 && len(ev.Playing) == 0 })
	if st, got := f.players["Zed"].do("DELETE", "/api/v1/account", map[string]string{"password": testPassword}, nil); st != 204 {
		t.Fatalf("Zed deletes the account: %d %s", st, got)
	}
	if s := standingOf(f.get(swiss.ID), "Zed"); s.Name != "" {
		t.Errorf("the Swiss to come still holds Zed: %+v", s)
	}
	f.join(swiss.ID, "Bob")
	a := f.get(arena.ID)
	if s := standingOf(a, "Zed"); s.Name != "" && !s.Left {
		t.Errorf("the arena still pairs Zed: %+v", s)
	}
}

// TestTournamentLeaverAtTableStands: a player who leaves an arena while
// their first game is under way stays in the standings, at that table,
// and keeps their place under the cap: the game will count.
func TestTournamentLeaverAtTableStands(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Bob", "Cat")
	f.online("Ann", "Bob", "Cat")
	ev := f.create("Ann", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 30, "max_players": 2}`)
	f.join(ev.ID, "Ann", "Bob")
	f.clock.Advance(time.Minute)
	g := f.playing(ev.ID, 1)[0]
	if st, got := f.players["Bob"].do("POST", "/api/v1/tournaments/"+ev.ID+"/leave", nil, nil); st != 200 {
		t.Fatalf("Bob leaves: %d %s", st, got)
	}
	e := f.get(ev.ID)
	if bob := standingOf(e, "Bob"); bob.Name == "" || !bob.Left || bob.Playing != g.Table || e.Players != 2 {
		t.Errorf("after Bob left at his table: %d players, Bob stands %+v; want 2, Bob left and playing at %s", e.Players, bob, g.Table)
	}
	expect(t, f.players["Cat"], "POST", "/api/v1/tournaments/"+ev.ID+"/join", ``, 409, "is full")
}

// TestTournamentGuestSignsUp: a guest in a casual arena who makes an
// account meanwhile sits at the arena's tables as that account, under
// its name, as an account always does, and the standings name them so.
func TestTournamentGuestSignsUp(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann")
	guest := &client{t: t, base: f.srv.URL}
	var id struct{ Token string }
	guest.do("POST", "/api/v1/identity", `{"name": "Gus"}`, &id)
	guest.token = id.Token
	f.players["Gus"] = guest
	f.online("Ann", "Gus")
	ev := f.create("Ann", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 30}`)
	f.join(ev.ID, "Ann", "Gus")
	var s players.Session
	if st, got := guest.do("POST", "/api/v1/accounts", map[string]string{"name": "Gustav", "password": testPassword}, &s); st != 201 {
		t.Fatalf("Gus signs up: %d %s", st, got)
	}
	guest.token = s.Token
	f.clock.Advance(time.Minute)
	g := f.playing(ev.ID, 1)[0]
	var u struct {
		Table struct {
			Seats []struct{ Name, Player string }
		}
	}
	if st, got := guest.do("GET", "/api/v1/tables/"+g.Table, nil, &u); st != 200 {
		t.Fatalf("reading the table: %d %s", st, got)
	}
	for _, seat := range u.Table.Seats {
		if seat.Player != "account" || seat.Name == "Gus" {
			t.Errorf("seat %+v, want Ann and Gustav, both accounts", seat)
		}
	}
	if st := standingOf(f.get(ev.ID), "Gustav"); st.Name == "" {
		t.Errorf("the standings do not name Gustav: %+v", f.get(ev.ID).Standings)
	}
}

// TestTournamentCancel: the creator of an event not yet started cancels
// it (anybody else but a moderator is refused, changing nothing); its
// players hear of it on their streams, it leaves the list of events to
// come, a join is refused saying so, and it no longer counts among its
// creator's five events of the day. A moderator cancels another's event;
// an event under way is refused.
func TestTournamentCancel(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Bob", "Cat", "Moe")
	grant(t, f.st, "Moe", true)
	f.online("Bob")
	later := f.clock.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	body := `{"kind": "arena", "game": "nymphabet", "clock": ` + fastClock + `, "minutes": 30, "starts": "` + later + `"}`
	ev := f.create("Ann", body)
	f.join(ev.ID, "Bob")
	cancel := "/api/v1/tournaments/" + ev.ID + "/cancel"
	expect(t, f.players["Bob"], "POST", cancel, nil, 403, "only the player who created")
	expect(t, &client{t: t, base: f.srv.URL}, "POST", cancel, nil, 401, "")
	if e := f.get(ev.ID); e.Status != store.TournamentCreated || e.Players != 1 {
		t.Fatalf("refused cancels changed the event: %+v", e)
	}
	var got tournament.Event
	if st, ans := f.players["Ann"].do("POST", cancel, nil, &got); st != 200 || got.Status != store.TournamentCancelled {
		t.Fatalf("Ann cancels: %d %s", st, ans)
	}
	if line := f.streams["Bob"].next("tournamentCancelled"); line.Event == nil || line.Event.ID != ev.ID || line.Event.Name != ev.Name {
		t.Errorf("Bob's stream says %+v", line)
	}
	if e := f.get(ev.ID); e.Status != store.TournamentCancelled {
		t.Errorf("the event reads %s after its cancel", e.Status)
	}
	expect(t, f.players["Cat"], "POST", "/api/v1/tournaments/"+ev.ID+"/join", nil, 409, "was cancelled")
	expect(t, f.players["Ann"], "POST", cancel, nil, 409, "was cancelled")
	var listed struct{ Tournaments []tournament.Event }
	(&client{t: t, base: f.srv.URL}).do("GET", "/api/v1/tournaments", nil, &listed)
	if len(listed.Tournaments) != 0 {
		t.Errorf("events to come: %+v, want none", listed.Tournaments)
	}

	// The cancelled event does not count: Ann makes five more.
	var last tournament.Event
	for range tournament.MaxCreatedADay {
		last = f.create("Ann", body)
	}
	expect(t, f.players["Ann"], "POST", "/api/v1/tournaments", body, 429, "5 events")
	// A moderator cancels another's event, in the moderators' log; a
	// maker's own cancel is not a moderator's act.
	expect(t, f.players["Moe"], "POST", "/api/v1/tournaments/"+last.ID+"/cancel", nil, 200, `"status":"cancelled"`)
	var log []moderation.LogLine
	if st, body := f.players["Moe"].do("GET", "/api/v1/moderation/log", nil, &log); st != 200 || len(log) < 2 ||
		log[0].Moderator != "Moe" || log[0].Action != "cancel-event" || log[0].Name != "Ann" || log[0].Detail != last.Name || log[1].Action != "grant" {
		t.Errorf("the moderators' log after Moe's cancel: %d %s", st, body)
	}
	// An event under way is not cancelled.
	soon := f.create("Ann", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 30}`)
	f.clock.Advance(time.Minute)
	f.await(soon.ID, "the arena started", func(e tournament.Event) bool { return e.Status == store.TournamentStarted })
	expect(t, f.players["Ann"], "POST", "/api/v1/tournaments/"+soon.ID+"/cancel", nil, 409, "has started")
	if e := f.get(soon.ID); e.Status != store.TournamentStarted {
		t.Errorf("a refused cancel left the arena %s", e.Status)
	}
}

// TestTournamentAnswersSayJoined: the answers to a join, a leave, a
// start and a cancel are the event as its reader sees it, joined
// included, as a read with the same token says.
func TestTournamentAnswersSayJoined(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Bob")
	later := f.clock.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	body := `{"kind": "arena", "game": "nymphabet", "clock": ` + fastClock + `, "minutes": 30, "starts": "` + later + `"}`
	ev, off := f.create("Ann", body), f.create("Ann", body)
	for _, c := range []struct {
		name, who, path string
		want            bool
	}{
		{"Bob joins", "Bob", ev.ID + "/join", true},
		{"Bob leaves", "Bob", ev.ID + "/leave", false},
		{"Ann joins", "Ann", ev.ID + "/join", true},
		{"Ann starts", "Ann", ev.ID + "/start", true},
		{"Ann cancels another, not in it", "Ann", off.ID + "/cancel", false},
	} {
		var got tournament.Event
		if st, ans := f.players[c.who].do("POST", "/api/v1/tournaments/"+c.path, nil, &got); st != 200 || got.Joined == nil || *got.Joined != c.want {
			t.Errorf("%s: %d %s, want joined %v", c.name, st, ans, c.want)
		}
	}
}

// TestTournamentTellsRatedGames: an event that asks for rated games tells
// an account not in it how many it has played in the event's pool, so
// that a front end offers no join the event refuses; a guest, a reader
// without an identity and a player in the event are told nothing. The
// join is refused to those short of the games, and changes nothing.
func TestTournamentTellsRatedGames(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Bob", "Cat", "Dan")
	playNymphabet(t, f.players["Ann"], f.players["Bob"], map[string]any{"rated": true}, 1)
	guest := &client{t: t, base: f.srv.URL}
	var id struct{ Token string }
	guest.do("POST", "/api/v1/identity", `{"name": "Gus"}`, &id)
	guest.token = id.Token
	later := f.clock.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	ev := f.create("Cat", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 30, "min_rated_games": 1, "starts": "`+later+`"}`)
	open := f.create("Cat", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 30, "starts": "`+later+`"}`)
	read := func(who *client, id string) *int {
		t.Helper()
		var got tournament.Event
		if st, body := who.do("GET", "/api/v1/tournaments/"+id, nil, &got); st != 200 {
			t.Fatalf("reading the event: %d %s", st, body)
		}
		return got.RatedGames
	}
	for _, c := range []struct {
		name  string
		who   *client
		games int // -1: not told
	}{
		{"Ann, one rated game", f.players["Ann"], 1},
		{"Bob, one rated game", f.players["Bob"], 1},
		{"Dan, none", f.players["Dan"], 0},
		{"a guest", guest, -1},
		{"a reader without an identity", &client{t: t, base: f.srv.URL}, -1},
	} {
		got := read(c.who, ev.ID)
		if c.games < 0 && got != nil || c.games >= 0 && (got == nil || *got != c.games) {
			t.Errorf("%s: told %v rated games, want %d", c.name, got, c.games)
		}
		if got := read(c.who, open.ID); got != nil {
			t.Errorf("%s: told %d rated games by an event that asks for none", c.name, *got)
		}
	}
	for _, c := range []struct {
		name   string
		who    *client
		status int
		want   string
	}{
		{"Dan, short of the games", f.players["Dan"], 403, "asks for 1 rated game in its pool; you have played 0"},
		{"a guest", guest, 403, "a guest has none: sign up or sign in first"},
		{"Ann, with the game", f.players["Ann"], 200, ""},
	} {
		st, body := c.who.do("POST", "/api/v1/tournaments/"+ev.ID+"/join", nil, nil)
		if st != c.status || !strings.Contains(body, c.want) {
			t.Errorf("%s joins: %d %s, want %d saying %q", c.name, st, body, c.status, c.want)
		}
	}
	if after := f.get(ev.ID); after.Players != 1 {
		t.Errorf("%d players after one join and two refusals", after.Players)
	}
	if got := read(f.players["Ann"], ev.ID); got != nil {
		t.Errorf("Ann, in the event, told %d rated games", *got)
	}
}

// TestTournamentRenamed: an account a moderator renames goes by its new
// name in the event it made and plays in, held in memory as stored, and
// keeps it once the event writes its players again.
func TestTournamentRenamed(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Bob", "Moe")
	grant(t, f.st, "Moe", true)
	later := f.clock.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	ev := f.create("Bob", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 30, "starts": "`+later+`"}`)
	f.join(ev.ID, "Bob", "Ann")
	expect(t, f.players["Moe"], "POST", "/api/v1/moderation/rename", `{"name": "Bob", "new_name": "Robin", "reason": "offensive name"}`, 200, `"name":"Robin"`)
	names := func(when string) {
		t.Helper()
		e := f.get(ev.ID)
		var got []string
		for _, s := range e.Standings {
			got = append(got, s.Name)
		}
		slices.Sort(got)
		if e.Creator != "Robin" || !slices.Equal(got, []string{"Ann", "Robin"}) {
			t.Errorf("%s: made by %q, standings %v; want Robin, and Ann and Robin", when, e.Creator, got)
		}
	}
	names("after the renaming")
	// Ann leaves and comes back: the event writes its players again.
	expect(t, f.players["Ann"], "POST", "/api/v1/tournaments/"+ev.ID+"/leave", nil, 200, "")
	f.join(ev.ID, "Ann")
	names("after the event wrote its players again")
}

// TestTournamentSwissFieldFixed: a Swiss plays with the field it started
// with. A player who joined and left before the start was never in it,
// and may not come in once it has started, any more than a newcomer; a
// player in the field who left after playing may come back.
func TestTournamentSwissFieldFixed(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann", "Bob", "Cat", "Dan", "Eve")
	ev := f.create("Ann", `{"kind": "swiss", "game": "nymphabet", "clock": `+fastClock+`, "rounds": 2}`)
	f.join(ev.ID, "Ann", "Bob", "Cat", "Eve")
	expect(t, f.players["Cat"], "POST", "/api/v1/tournaments/"+ev.ID+"/leave", nil, 200, "")
	expect(t, f.players["Ann"], "POST", "/api/v1/tournaments/"+ev.ID+"/start", nil, 200, "")
	f.playing(ev.ID, 1)
	for _, n := range []string{"Cat", "Dan"} {
		expect(t, f.players[n], "POST", "/api/v1/tournaments/"+ev.ID+"/join", nil, 409, "has started")
	}
	if e := f.get(ev.ID); standingOf(e, "Cat").Name != "" || e.Players != 3 {
		t.Fatalf("after the refused joins: %d players, standings %+v", e.Players, e.Standings)
	}
	// Ann, in the field, leaves and comes back.
	expect(t, f.players["Ann"], "POST", "/api/v1/tournaments/"+ev.ID+"/leave", nil, 200, "")
	expect(t, f.players["Ann"], "POST", "/api/v1/tournaments/"+ev.ID+"/join", nil, 200, "")
}

// TestTournamentDailyCapAtOnce: a player's events of the day are capped
// however they are sent: ten made at once make five, and the rest are
// refused with 429.
func TestTournamentDailyCapAtOnce(t *testing.T) {
	t.Parallel()
	f := newEventFixture(t, nil, "Ann")
	body := `{"kind": "arena", "game": "nymphabet", "clock": ` + fastClock + `, "minutes": 30}`
	const n = 2 * tournament.MaxCreatedADay
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { codes[i], _ = f.players["Ann"].do("POST", "/api/v1/tournaments", body, nil) })
	}
	wg.Wait()
	made, refused := 0, 0
	for _, c := range codes {
		switch c {
		case 201:
			made++
		case 429:
			refused++
		}
	}
	if made != tournament.MaxCreatedADay || refused != n-made {
		t.Errorf("%d events sent at once: %d made, %d refused (%v); want %d made, the rest refused", n, made, refused, codes, tournament.MaxCreatedADay)
	}
}

// TestTournamentArenaBusyElsewhere: a player at a real-time game outside
// the arena is not paired in it until that game ends, and the arena
// pairs the four others at once meanwhile; once it ends, the next look
// pairs her.
func TestTournamentArenaBusyElsewhere(t *testing.T) {
	t.Parallel()
	order := []string{"Ann", "Bob", "Cat", "Dan", "Fay"}
	f := newEventFixture(t, nil, append(order, "Eve")...)
	f.online(order...)
	ev := f.create("Bob", `{"kind": "arena", "game": "nymphabet", "clock": `+fastClock+`, "minutes": 60}`)
	f.join(ev.ID, order...)

	// Ann sits down to a timed game with Eve, outside the arena.
	var own, eve table.Seated
	if st, got := f.players["Ann"].do("POST", "/api/v1/tables", `{"game": "nymphabet", "seats": ["me", "open"], "rules": {"clock": {"kind": "fischer", "initial": 3600, "increment": 0}}}`, &own); st != 201 {
		t.Fatalf("Ann's own table: %d %s", st, got)
	}
	if st, got := f.players["Eve"].do("POST", "/api/v1/tables/"+own.Table+"/join", `{}`, &eve); st != 200 {
		t.Fatalf("Eve joins: %d %s", st, got)
	}
	f.clock.Advance(time.Minute)
	games := f.playing(ev.ID, 2)
	for _, g := range games {
		if slices.Contains(g.Players, "Ann") {
			t.Fatalf("Ann, at a game elsewhere, was paired: %+v", games)
		}
	}
	f.clock.Advance(tournament.ArenaLook)
	if e := f.get(ev.ID); len(e.Playing) != 2 {
		t.Fatalf("the arena's next look, Ann's game still on: %+v", e.Playing)
	}
	// Her game over, the next look pairs her: a game of the four ends
	// meanwhile, so that somebody is free to meet her.
	if st, got := (&client{t: t, base: f.srv.URL, token: own.Token}).do("POST", "/api/v1/tables/"+own.Table+"/moves", `{"move": "resign"}`, nil); st != 200 {
		t.Fatalf("Ann resigns her own game: %d %s", st, got)
	}
	f.play(games[0], games[0].Players[0])
	f.await(ev.ID, "the game scored", func(e tournament.Event) bool { return len(e.Playing) == 1 })
	f.clock.Advance(tournament.ArenaLook)
	e := f.await(ev.ID, "Ann paired", func(e tournament.Event) bool {
		return slices.ContainsFunc(e.Playing, func(g tournament.GameInfo) bool { return slices.Contains(g.Players, "Ann") })
	}).Playing
	if !slices.ContainsFunc(e, func(g tournament.GameInfo) bool { return slices.Contains(g.Players, "Ann") }) {
		t.Fatalf("Ann, free, was not paired: %+v", e)
	}
}
