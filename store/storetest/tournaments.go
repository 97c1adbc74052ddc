package storetest

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"parlour/store"
)

func tournamentTests() []test {
	return []test{
		{"Tournaments", testTournaments},
		{"TournamentLists", testTournamentLists},
		{"RenamedInEvents", testRenamedInEvents},
	}
}

// testTournaments: an event is stored once with its terms, its players,
// rounds and games come back in order with everything they were written
// with, a round is stored once, a write that fails part way leaves
// nothing, and all of it survives a restart.
func testTournaments(t *testing.T, e *env) {
	ctx := context.Background()
	ts := as[store.Tournaments](t, e.s)
	at := now()
	ev := store.Tournament{
		ID: "ev1", Kind: "swiss", Name: "Friday Swiss", Description: "three rounds", Game: "salvo",
		Rules: []byte(`{"fleet":"classic"}`), Clock: []byte(`{"kind":"fischer"}`), Rated: true,
		Starts: at.Add(time.Minute), Rounds: 3, Seats: 2, PasswordHash: "$argon2id$x", MinRatedGames: 5,
		Creator: "ann", CreatorName: "Ann", MaxPlayers: 64, Status: store.TournamentCreated, Created: at,
	}
	if err := ts.WriteTournament(ctx, ev.ID, store.TournamentWrite{Event: &ev, Create: true}); err != nil {
		t.Fatal(err)
	}
	if err := ts.WriteTournament(ctx, ev.ID, store.TournamentWrite{Event: &ev, Create: true}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("creating ev1 again: %v, want ErrConflict", err)
	}
	// A write that fails stores its moderators' log line no more than
	// its event; one that is made stores both.
	line := store.ModAction{Moderator: "mo", ModeratorName: "Mo", Action: "cancel-event", Subject: "ann", SubjectName: "Ann", Detail: "Friday Swiss", At: at}
	if err := ts.WriteTournament(ctx, "nope", store.TournamentWrite{Event: &ev, Log: &line}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("updating an event never made: %v, want ErrNotFound", err)
	}
	if ms, ok := e.s.(store.Moderation); ok {
		if err := ts.WriteTournament(ctx, ev.ID, store.TournamentWrite{Event: &ev, Log: &line}); err != nil {
			t.Fatal(err)
		}
		log, err := ms.ModLog(ctx, 10)
		if err != nil || len(log) != 1 || log[0].Action != "cancel-event" || log[0].SubjectName != "Ann" || log[0].Detail != "Friday Swiss" {
			t.Errorf("the moderators' log after a failed and a made write with a line: %+v, %v; want the one line", log, err)
		}
	}
	if _, err := ts.Tournament(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Tournament(nope): %v, want ErrNotFound", err)
	}
	players := []store.Entrant{
		{Identity: "bob", Name: "Bob", Rating: 1612.5, Joined: at},
		{Identity: "cat", Name: "Cat", Rating: 1500, Joined: at.Add(time.Second)},
		{Identity: "dan", Name: "Dan", Rating: 1400, Guest: true, Joined: at.Add(2 * time.Second)},
	}
	if err := ts.WriteTournament(ctx, ev.ID, store.TournamentWrite{Entrants: players}); err != nil {
		t.Fatal(err)
	}
	started := ev
	started.Status, started.Round, started.Starts = store.TournamentStarted, 1, at.Add(30*time.Second)
	round := store.TournamentRound{Number: 1, Pairing: []byte(`{"tables":[["bob","cat"]],"byes":["dan"]}`), Started: started.Starts}
	dan := players[2]
	dan.Points, dan.Byes, dan.Games = 2, 1, 1
	game := store.TournamentGame{Table: "t1", Round: 1, Players: []string{"bob", "cat"}, Started: started.Starts}
	if err := ts.WriteTournament(ctx, ev.ID, store.TournamentWrite{Event: &started, Entrants: []store.Entrant{dan}, Round: &round, Games: []store.TournamentGame{game}}); err != nil {
		t.Fatal(err)
	}
	// The same round again fails, and takes the rest of its write with it.
	again := started
	again.Name = "renamed"
	other := store.TournamentGame{Table: "t2", Round: 1, Players: []string{"cat", "dan"}, Started: started.Starts}
	if err := ts.WriteTournament(ctx, ev.ID, store.TournamentWrite{Event: &again, Round: &round, Games: []store.TournamentGame{other}}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("pairing round 1 twice: %v, want ErrConflict", err)
	}
	// The game ends: its points and the players' standings in one write.
	ended := game
	ended.Points, ended.Ended = []int{2, 0}, at.Add(time.Hour)
	bob, cat := players[0], players[1]
	bob.Points, bob.Games, bob.Streak = 2, 1, 1
	cat.Games, cat.Forfeits, cat.Left = 1, 1, true
	if err := ts.WriteTournament(ctx, ev.ID, store.TournamentWrite{Entrants: []store.Entrant{bob, cat}, Games: []store.TournamentGame{ended}}); err != nil {
		t.Fatal(err)
	}
	finished := started
	finished.Status, finished.Winners = store.TournamentFinished, []string{"bob", "dan"}
	if err := ts.WriteTournament(ctx, ev.ID, store.TournamentWrite{Event: &finished}); err != nil {
		t.Fatal(err)
	}

	want := finished
	want.Entrants = []store.Entrant{bob, cat, dan}
	want.Pairings = []store.TournamentRound{round}
	want.Games = []store.TournamentGame{ended}
	check := func(when string) {
		t.Helper()
		got, err := ts.Tournament(ctx, ev.ID)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the event reads\n%+v\nwant\n%+v", when, got, want)
		}
	}
	check("stored")
	ts = as[store.Tournaments](t, e.reopen())
	check("after a restart")

	// A winner's finished events, with the winners' names, for their
	// profile; the finished list names the winners too.
	names := []string{bob.Name, dan.Name}
	for _, c := range []struct {
		who  string
		want int
	}{{"dan", 1}, {"bob", 1}, {"cat", 0}, {"nobody", 0}} {
		placed, err := ts.TournamentsPlaced(ctx, c.who, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(placed) != c.want {
			t.Errorf("%s placed in %d events, want %d", c.who, len(placed), c.want)
			continue
		}
		if c.want == 1 && (placed[0].ID != ev.ID || !equal(placed[0].WinnerNames, names) || placed[0].Players != 3) {
			t.Errorf("%s placed in %+v, want %s won by %q with 3 players", c.who, placed[0], ev.ID, names)
		}
	}
	done, err := ts.ListTournaments(ctx, store.TournamentFinished, 10)
	if err != nil || len(done) != 1 || !equal(done[0].WinnerNames, names) {
		t.Errorf("the finished events: %+v, %v; want %s won by %q", done, err, ev.ID, names)
	}

	// An arena under way: its end is kept, and it is live until it
	// finishes.
	arena := store.Tournament{ID: "ar1", Kind: "arena", Name: "Hourly", Game: "quizl", Minutes: 30, Seats: 2,
		Starts: at, Ends: at.Add(30 * time.Minute), Status: store.TournamentStarted, Created: at}
	playing := store.TournamentGame{Table: "t9", Players: []string{"eve", "fay"}, Started: at}
	if err := ts.WriteTournament(ctx, arena.ID, store.TournamentWrite{Event: &arena, Create: true, Games: []store.TournamentGame{playing}}); err != nil {
		t.Fatal(err)
	}
	live, err := ts.LiveTournaments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(live) != 1 || live[0].ID != "ar1" || !live[0].Ends.Equal(arena.Ends) || len(live[0].Games) != 1 || live[0].Games[0].Points != nil || !live[0].Games[0].Ended.IsZero() {
		t.Errorf("live events: %+v, want ar1 alone with its game under way", live)
	}
}

// testTournamentLists: events are listed by status, the soonest first
// (the newest first once finished) with how many are its players, a
// creator's events are counted from a time, and a cancelled event is
// neither live, nor listed among the others, nor counted.
func testTournamentLists(t *testing.T, e *env) {
	ctx := context.Background()
	ts := as[store.Tournaments](t, e.s)
	at := now()
	make := func(id, creator string, status store.TournamentStatus, starts, created time.Duration) {
		t.Helper()
		ev := store.Tournament{ID: id, Kind: "arena", Name: id, Game: "salvo", Minutes: 10, Seats: 2, Creator: creator,
			Status: status, Starts: at.Add(starts), Created: at.Add(created)}
		if err := ts.WriteTournament(ctx, id, store.TournamentWrite{Event: &ev, Create: true}); err != nil {
			t.Fatal(err)
		}
	}
	make("late", "ann", store.TournamentCreated, 2*time.Hour, -time.Hour)
	make("soon", "ann", store.TournamentCreated, time.Hour, -25*time.Hour)
	make("old", "", store.TournamentFinished, -3*time.Hour, -26*time.Hour)
	make("older", "bob", store.TournamentFinished, -4*time.Hour, -time.Minute)
	make("now", "ann", store.TournamentStarted, 0, 0)
	make("off", "ann", store.TournamentCancelled, 30*time.Minute, -time.Minute)
	// Of four who joined, Z left before playing, and is not one of its
	// players; W left after a game, and is.
	if err := ts.WriteTournament(ctx, "soon", store.TournamentWrite{Entrants: []store.Entrant{{Identity: "x", Name: "X", Joined: at}, {Identity: "y", Name: "Y", Joined: at},
		{Identity: "z", Name: "Z", Joined: at, Left: true}, {Identity: "w", Name: "W", Joined: at, Left: true, Games: 1}}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		status store.TournamentStatus
		want   []string
	}{
		{store.TournamentCreated, []string{"soon", "late"}},
		{store.TournamentStarted, []string{"now"}},
		{store.TournamentFinished, []string{"old", "older"}},
		{store.TournamentCancelled, []string{"off"}},
	} {
		got, err := ts.ListTournaments(ctx, c.status, 10)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, ev := range got {
			ids = append(ids, ev.ID)
		}
		if !equal(ids, c.want) {
			t.Errorf("%s events: %q, want %q", c.status, ids, c.want)
		}
		if c.status == store.TournamentCreated && len(got) > 0 && got[0].Players != 3 {
			t.Errorf("soon lists %d players, want 3 (Z left before playing)", got[0].Players)
		}
	}
	if got, err := ts.ListTournaments(ctx, store.TournamentCreated, 1); err != nil || len(got) != 1 {
		t.Errorf("a list of at most 1: %d events, %v", len(got), err)
	}
	live, err := ts.LiveTournaments(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, ev := range live {
		ids = append(ids, ev.ID)
	}
	if want := []string{"now", "soon", "late"}; !equal(ids, want) {
		t.Errorf("live events: %q, want %q (neither finished nor cancelled)", ids, want)
	}
	for _, c := range []struct {
		creator string
		since   time.Duration
		want    int
	}{
		{"ann", -24 * time.Hour, 2},
		{"ann", -48 * time.Hour, 3},
		{"bob", -24 * time.Hour, 1},
		{"cat", -24 * time.Hour, 0},
	} {
		if n, err := ts.TournamentsCreated(ctx, c.creator, at.Add(c.since)); err != nil || n != c.want {
			t.Errorf("TournamentsCreated(%s, %v) = %d, %v; want %d", c.creator, c.since, n, err, c.want)
		}
	}
}

// testRenamedInEvents: an account a moderator renames, or its owner
// deletes, goes by its new name in the events it made and played in.
func testRenamedInEvents(t *testing.T, e *env) {
	ctx := context.Background()
	ts := as[store.Tournaments](t, e.s)
	ms := as[store.Moderation](t, e.s)
	ps := as[store.Players](t, e.s)
	at := now()
	for _, a := range []store.Account{account("idb", "Bob", at), account("ida", "Ann", at)} {
		if _, err := ps.CreateAccount(ctx, a, store.Credential{Hash: []byte(a.Identity), Identity: a.Identity}, guest(a.Identity, at)); err != nil {
			t.Fatal(err)
		}
	}
	ev := store.Tournament{ID: "ev1", Kind: "arena", Name: "Bob's arena", Game: "quizl", Starts: at, Minutes: 30, Seats: 2,
		Creator: "idb", CreatorName: "Bob", Status: store.TournamentFinished, Created: at, Winners: []string{"idb", "ida"}}
	players := []store.Entrant{{Identity: "idb", Name: "Bob", Joined: at}, {Identity: "ida", Name: "Ann", Joined: at.Add(time.Second)}}
	if err := ts.WriteTournament(ctx, ev.ID, store.TournamentWrite{Event: &ev, Create: true, Entrants: players}); err != nil {
		t.Fatal(err)
	}
	names := func(when string, creator string, want ...string) {
		t.Helper()
		got, err := ts.Tournament(ctx, ev.ID)
		if err != nil {
			t.Fatal(err)
		}
		var entrants []string
		for _, en := range got.Entrants {
			entrants = append(entrants, en.Name)
		}
		if got.CreatorName != creator || !slices.Equal(entrants, want) {
			t.Errorf("%s: made by %q, played by %v; want %q and %v", when, got.CreatorName, entrants, creator, want)
		}
	}
	names("at first", "Bob", "Bob", "Ann")
	if err := ms.RenameAccount(ctx, "idb", "Robin", "robin", nil, store.ModAction{Moderator: "mo", Action: "rename", Subject: "idb", At: at}); err != nil {
		t.Fatal(err)
	}
	names("after Bob's renaming", "Robin", "Robin", "Ann")
	if _, err := ps.DeleteAccount(ctx, "ida", "deleted player", nil); err != nil {
		t.Fatal(err)
	}
	names("after Ann's deletion", "Robin", "Robin", "deleted player")
}
