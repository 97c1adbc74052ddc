package tournament

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"parlour/game"
	"parlour/pairing"
	"parlour/store"
)

// TestGamePoints: a game's points in the event's units, worked by hand:
// 2 a win, 1 a draw, 0 a loss at a table of two; by place at a table of
// more (6/4/2/0 for four, ties sharing), from the game's scores when it
// keeps them and its winners otherwise; a forfeit loses to everyone else.
func TestGamePoints(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name      string
		seats     int
		res       game.Result
		forfeiter []int
		want      []int
	}{
		{"a win", 2, game.Result{Status: game.Finished, Winners: []game.Seat{1}}, []int{-1}, []int{0, 2}},
		{"a draw", 2, game.Result{Status: game.Finished}, []int{-1}, []int{1, 1}},
		// A two-seat game with a margin still scores the win alone.
		{"a win by a margin", 2, game.Result{Status: game.Finished, Winners: []game.Seat{0}, Scores: []int{90, 10}}, []int{-1}, []int{2, 0}},
		{"a forfeit", 2, game.Result{Status: game.Aborted}, []int{0}, []int{0, 2}},
		// Places 1, 2, 3, 4 by score: 6, 4, 2, 0.
		{"four by score", 4, game.Result{Status: game.Finished, Winners: []game.Seat{2}, Scores: []int{10, 30, 50, 0}}, []int{-1}, []int{2, 4, 6, 0}},
		// Two tied first share places 1 and 2: (6+4)/2 = 5 each.
		{"four with a tie", 4, game.Result{Status: game.Finished, Winners: []game.Seat{0, 1}, Scores: []int{30, 30, 10, 5}}, []int{-1}, []int{5, 5, 2, 0}},
		// A winner above higher scores: the last fleet afloat (Salvo's
		// scores count ships sunk) places first.
		{"four, the winner not the top score", 4, game.Result{Status: game.Finished, Winners: []game.Seat{3}, Scores: []int{2, 5, 1, 3}}, []int{-1}, []int{2, 4, 0, 6}},
		// The others resigned: every score 0, and the winner still
		// places first, the others sharing 2nd to 4th: (4+2+0)/3 = 2.
		{"four, the others resigned", 4, game.Result{Status: game.Finished, Winners: []game.Seat{1}, Scores: []int{0, 0, 0, 0}}, []int{-1}, []int{2, 6, 2, 2}},
		// Three without scores: the winner first, the others share 2nd
		// and 3rd: (2+0)/2 = 1.
		{"three by winners", 3, game.Result{Status: game.Finished, Winners: []game.Seat{1}}, []int{-1}, []int{1, 4, 1}},
		// A forfeit at three: the others share 1st and 2nd, (4+2)/2 = 3.
		{"a forfeit at three", 3, game.Result{Status: game.Aborted}, []int{2}, []int{3, 3, 0}},
		// Two of three never set up: the third wins alone.
		{"two forfeits at three", 3, game.Result{Status: game.Finished}, []int{0, 2}, []int{0, 4, 0}},
		// Nobody set up: nobody scores (not a shared draw).
		{"everybody forfeits", 2, game.Result{Status: game.Finished}, []int{0, 1}, []int{0, 0}},
	} {
		if got := gamePoints(c.seats, c.res, c.forfeiter...); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestExpectedLength: a Fischer clock gives each player their time and
// TypicalTurns increments; a turn clock TypicalTurns full turns each.
func TestExpectedLength(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		clock game.Clock
		seats int
		want  time.Duration
	}{
		{game.Clock{Kind: game.ClockFischer, Initial: 180, Increment: 2}, 2, 2 * (180 + 40) * time.Second},
		{game.Clock{Kind: game.ClockFischer, Initial: 60}, 2, 2 * time.Minute},
		{game.Clock{Kind: game.ClockTurn, Seconds: 30}, 3, 3 * 20 * 30 * time.Second},
		{game.Clock{Kind: game.ClockCorrespondence, Days: 1}, 2, 2 * 20 * 24 * time.Hour},
	} {
		if got := ExpectedLength(c.clock, c.seats); got != c.want {
			t.Errorf("%s for %d: %v, want %v", c.clock, c.seats, got, c.want)
		}
	}
}

// TestDue: the schedule runs an event at its start, an arena at its next
// look or its end, and an arena past its end only once its last game is
// over; a Swiss runs on its games' ends alone.
func TestDue(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 1, 18, 0, 0, 0, time.UTC)
	playing := []store.TournamentGame{{Table: "t1", Players: []string{"a", "b"}}}
	for _, c := range []struct {
		name string
		t    store.Tournament
		look time.Time
		want time.Time
	}{
		{"to start", store.Tournament{Kind: Arena, Status: store.TournamentCreated, Starts: now.Add(time.Hour)}, time.Time{}, now.Add(time.Hour)},
		{"a start that failed", store.Tournament{Kind: Swiss, Status: store.TournamentCreated, Starts: now.Add(-time.Second)}, now.Add(10 * time.Second), now.Add(10 * time.Second)},
		{"an arena under way", store.Tournament{Kind: Arena, Status: store.TournamentStarted, Ends: now.Add(time.Hour)}, time.Time{}, now.Add(time.Hour)},
		{"an arena looking", store.Tournament{Kind: Arena, Status: store.TournamentStarted, Ends: now.Add(time.Hour)}, now.Add(time.Second), now.Add(time.Second)},
		{"a look past the end", store.Tournament{Kind: Arena, Status: store.TournamentStarted, Ends: now.Add(time.Second)}, now.Add(time.Minute), now.Add(time.Second)},
		{"over with a game on", store.Tournament{Kind: Arena, Status: store.TournamentStarted, Ends: now, Games: playing}, time.Time{}, time.Time{}},
		{"over", store.Tournament{Kind: Arena, Status: store.TournamentStarted, Ends: now.Add(-time.Second)}, time.Time{}, now},
		{"a Swiss under way", store.Tournament{Kind: Swiss, Status: store.TournamentStarted, Games: playing}, time.Time{}, time.Time{}},
		{"finished", store.Tournament{Kind: Arena, Status: store.TournamentFinished}, time.Time{}, time.Time{}},
	} {
		ev := &event{t: c.t, lookAt: c.look}
		if got := ev.due(now); !got.Equal(c.want) {
			t.Errorf("%s: due %v, want %v", c.name, got, c.want)
		}
	}
}

// TestAgo: a start that has passed is told as how long ago, in the
// largest whole unit that fits.
func TestAgo(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "moments ago"},
		{59 * time.Second, "moments ago"},
		{time.Minute, "1 minute ago"},
		{59*time.Minute + 59*time.Second, "59 minutes ago"},
		{time.Hour, "1 hour ago"},
		{47 * time.Hour, "47 hours ago"},
		{48 * time.Hour, "2 days ago"},
		{400 * 24 * time.Hour, "400 days ago"},
	} {
		if got := ago(c.d); got != c.want {
			t.Errorf("ago(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

// TestPodium: an event's winners are its first three among those who
// played, in the standings' order; a Swiss player withdrawn at the end
// is passed over (the next move up) while one who came back is not; an
// arena player who left keeps their place.
func TestPodium(t *testing.T) {
	t.Parallel()
	ranking := []string{"ann", "bob", "cat", "dan", "eve"}
	// Each played three games of rounds rounds but Eve, who joined and
	// never played; those in left left.
	entrants := func(kind string, rounds int, left ...string) store.Tournament {
		ev := store.Tournament{Kind: kind, Round: rounds}
		for _, id := range ranking {
			e := store.Entrant{Identity: id, Games: 3, Left: slices.Contains(left, id)}
			if id == "eve" {
				e.Games = 0 // joined, never played
			}
			ev.Entrants = append(ev.Entrants, e)
		}
		return ev
	}
	// Ann forfeited two of the three, and was withdrawn.
	forfeited := entrants(Swiss, 3, "ann")
	forfeited.Entrants[0].Forfeits = ForfeitsToWithdraw
	// Bob sat round four out with a bye, then left.
	bye := entrants(Swiss, 4, "bob")
	bye.Entrants[1].Byes = 1
	for _, c := range []struct {
		name string
		t    store.Tournament
		want []string
	}{
		{"a Swiss played out", entrants(Swiss, 3), []string{"ann", "bob", "cat"}},
		{"a Swiss, third withdrawn", entrants(Swiss, 4, "cat"), []string{"ann", "bob", "dan"}},
		{"a Swiss, first withdrawn", entrants(Swiss, 4, "ann"), []string{"bob", "cat", "dan"}},
		{"a Swiss, too few left to fill it", entrants(Swiss, 4, "ann", "bob"), []string{"cat", "dan"}},
		{"a Swiss, first left with every game played", entrants(Swiss, 3, "ann"), []string{"ann", "bob", "cat"}},
		{"a Swiss, second left after a last round's bye", bye, []string{"ann", "bob", "cat"}},
		{"a Swiss, first withdrawn for forfeits", forfeited, []string{"bob", "cat", "dan"}},
		{"an arena, third left", entrants(Arena, 0, "cat"), []string{"ann", "bob", "cat"}},
	} {
		if got := podium(c.t, ranking); !slices.Equal(got, c.want) {
			t.Errorf("%s: winners %q, want %q", c.name, got, c.want)
		}
	}
}

// TestViewDoubleForfeit: a game nobody showed up for (both forfeited,
// both took nothing) is a loss for each in the standings, not a draw.
// TestViewSameNames: entrants of one name (two guests called Gus, two
// deleted accounts) are told apart in the standings, the games and the
// winners, by a number after the name, in the order they joined; an
// account keeps its own name, though a guest's numbered one would be it.
func TestViewSameNames(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 5, 1, 18, 0, 0, 0, time.UTC)
	tr := store.Tournament{ID: "e", Kind: Arena, Name: "Arena", Seats: 2, Status: store.TournamentFinished,
		Entrants: []store.Entrant{
			{Identity: "g1", Name: "Gus", Games: 1, Points: 2, Guest: true},
			{Identity: "g2", Name: "gus", Games: 1, Guest: true},
			{Identity: "d1", Name: "deleted player", Games: 1, Points: 1},
			{Identity: "d2", Name: "deleted player", Games: 1, Points: 1},
			{Identity: "a1", Name: "Gus 2"},
		},
		Games: []store.TournamentGame{
			{Table: "t1", Players: []string{"g1", "g2"}, Points: []int{2, 0}, Started: at, Ended: at.Add(time.Minute)},
			{Table: "t2", Players: []string{"d1", "d2"}, Points: []int{1, 1}, Started: at.Add(time.Minute), Ended: at.Add(2 * time.Minute)},
		},
		Winners: []string{"g1", "d2"}}
	e := (&Service{}).view(tr, nil, 0, true)
	var got []string
	for _, st := range e.Standings {
		got = append(got, st.Name)
	}
	slices.Sort(got)
	if want := []string{"Gus", "Gus 2", "deleted player", "deleted player 2", "gus 3"}; !slices.Equal(got, want) {
		t.Errorf("the standings' names %q, want %q", got, want)
	}
	if len(e.Games) != 2 || !slices.Equal(e.Games[0].Players, []string{"deleted player", "deleted player 2"}) || !slices.Equal(e.Games[1].Players, []string{"Gus", "gus 3"}) {
		t.Errorf("the games' players: %+v", e.Games)
	}
	if !slices.Equal(e.Winners, []string{"Gus", "deleted player 2"}) {
		t.Errorf("the winners %q", e.Winners)
	}
	// The second Gus is told their own line, though the first Gus's name
	// is theirs too.
	markReader(&e, tr.Entrants, "g2")
	for _, st := range e.Standings {
		if st.You != (st.Name == "gus 3") {
			t.Errorf("to the second Gus, %q is theirs: %v", st.Name, st.You)
		}
	}
	other := (&Service{}).view(tr, nil, 0, true)
	markReader(&other, nil, "nobody")
	if slices.ContainsFunc(other.Standings, func(st Standing) bool { return st.You }) {
		t.Error("a reader not in the event is told a line is theirs")
	}
}

func TestViewDoubleForfeit(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 5, 1, 18, 0, 0, 0, time.UTC)
	tr := store.Tournament{ID: "e", Kind: Arena, Name: "Arena", Seats: 2, Status: store.TournamentStarted,
		Entrants: []store.Entrant{
			{Identity: "a", Name: "Ann", Games: 2, Points: 1, Forfeits: 1, Left: true},
			{Identity: "b", Name: "Bob", Games: 1, Forfeits: 1, Left: true},
			{Identity: "c", Name: "Cat", Games: 1, Points: 1},
		},
		Games: []store.TournamentGame{
			{Table: "t1", Players: []string{"a", "b"}, Points: []int{0, 0}, Started: at, Ended: at.Add(time.Minute)},
			{Table: "t2", Players: []string{"a", "c"}, Points: []int{1, 1}, Started: at.Add(2 * time.Minute), Ended: at.Add(3 * time.Minute)},
		}}
	e := (&Service{}).view(tr, nil, 0, true)
	want := map[string][3]int{"Ann": {0, 1, 1}, "Bob": {0, 0, 1}, "Cat": {0, 1, 0}}
	for _, st := range e.Standings {
		if got := [3]int{st.Wins, st.Draws, st.Losses}; got != want[st.Name] {
			t.Errorf("%s: wins, draws, losses %v, want %v", st.Name, got, want[st.Name])
		}
	}
}

// TestViewRoundBye: the standings mark the players who sit out the
// round under way with a bye, and nobody else: not one whose game of the
// round is over, nor one who came back after the round was paired, nor
// anybody once the event is over.
func TestViewRoundBye(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 5, 1, 18, 0, 0, 0, time.UTC)
	round := func(n int, tables [][]string, byes ...string) store.TournamentRound {
		b, err := json.Marshal(pairing.Round{Tables: tables, Byes: byes})
		if err != nil {
			t.Fatal(err)
		}
		return store.TournamentRound{Number: n, Pairing: b, Started: at}
	}
	tr := store.Tournament{ID: "e", Kind: Swiss, Name: "Swiss", Seats: 2, Status: store.TournamentStarted, Round: 2, Rounds: 3,
		Entrants: []store.Entrant{
			{Identity: "a", Name: "Ann", Games: 2, Points: 2},
			{Identity: "b", Name: "Bob", Games: 2, Points: 2},
			{Identity: "c", Name: "Cat", Games: 1, Points: 4, Byes: 1},
			{Identity: "d", Name: "Dan", Games: 1, Byes: 1}, // sat out round 1, left, came back
		},
		Pairings: []store.TournamentRound{round(1, [][]string{{"a", "b"}, {"c", "d"}}), round(2, [][]string{{"a", "b"}}, "c")},
		Games: []store.TournamentGame{
			{Table: "t1", Round: 1, Players: []string{"a", "b"}, Points: []int{2, 0}, Started: at, Ended: at.Add(time.Minute)},
			{Table: "t2", Round: 1, Players: []string{"c", "d"}, Points: []int{2, 0}, Started: at, Ended: at.Add(time.Minute)},
			{Table: "t3", Round: 2, Players: []string{"a", "b"}, Points: []int{0, 2}, Started: at.Add(2 * time.Minute), Ended: at.Add(3 * time.Minute)},
		}}
	for _, c := range []struct {
		status store.TournamentStatus
		want   map[string]bool
	}{
		{store.TournamentStarted, map[string]bool{"Cat": true}},
		{store.TournamentFinished, map[string]bool{}},
	} {
		tr.Status = c.status
		e := (&Service{}).view(tr, nil, 0, true)
		for _, st := range e.Standings {
			if st.Bye != c.want[st.Name] {
				t.Errorf("%s, %s: bye %v, want %v", c.status, st.Name, st.Bye, c.want[st.Name])
			}
		}
	}
}

// TestViewByeMidFirstRound: a bye in a Swiss at tables of three counts
// against two virtual opponents as strong as its player, as the docs
// say, from the moment it is given: in the first round too, before any
// table of three has finished to show the event's seats.
func TestViewByeMidFirstRound(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 5, 1, 18, 0, 0, 0, time.UTC)
	b, err := json.Marshal(pairing.Round{Tables: [][]string{{"a", "b", "c"}}, Byes: []string{"d"}})
	if err != nil {
		t.Fatal(err)
	}
	tr := store.Tournament{ID: "e", Kind: Swiss, Name: "Swiss", Seats: 3, Status: store.TournamentStarted, Round: 1, Rounds: 2,
		Entrants: []store.Entrant{
			{Identity: "a", Name: "Ann"}, {Identity: "b", Name: "Bob"}, {Identity: "c", Name: "Cat"},
			{Identity: "d", Name: "Dan", Points: byePoints(3), Byes: 1},
		},
		Pairings: []store.TournamentRound{{Number: 1, Pairing: b, Started: at}},
		Games:    []store.TournamentGame{{Table: "t1", Round: 1, Players: []string{"a", "b", "c"}, Started: at}},
	}
	e := (&Service{}).view(tr, nil, 0, true)
	i := slices.IndexFunc(e.Standings, func(st Standing) bool { return st.Name == "Dan" })
	if i < 0 {
		t.Fatalf("Dan is not in the standings: %+v", e.Standings)
	}
	// Two opponents, each as strong as Dan's 2.
	if got := e.Standings[i].Buchholz; got != 2*byePoints(3) {
		t.Errorf("Dan's Buchholz is %d, want %d", got, 2*byePoints(3))
	}
}
