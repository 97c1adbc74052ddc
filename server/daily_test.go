package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"

	"parlour/game"
	"parlour/games"
	"parlour/games/salvo"
	"parlour/lexicon"
	"parlour/server/daily"
	"parlour/server/internal/servertest"
	"parlour/server/players"
	"parlour/server/table"
	"parlour/store"
)

// account signs up name on e and answers its token.
func (e *clockEnv) account(name string) string {
	e.t.Helper()
	st, b := e.call("POST", "/api/v1/accounts", "", map[string]string{"name": name, "password": testPassword})
	if st != 201 {
		e.t.Fatalf("sign up %s: %d %s", name, st, b)
	}
	var s players.Session
	json.Unmarshal(b, &s)
	return s.Token
}

// daily answers GET /api/v1/daily/{g} for token.
func (e *clockEnv) daily(g, token string) daily.Today {
	e.t.Helper()
	st, b := e.call("GET", "/api/v1/daily/"+g, token, nil)
	if st != 200 {
		e.t.Fatalf("daily %s: %d %s", g, st, b)
	}
	var d daily.Today
	json.Unmarshal(b, &d)
	return d
}

// board answers the leaderboard of g's puzzle of day.
func (e *clockEnv) board(g, day string) daily.Board {
	e.t.Helper()
	st, b := e.call("GET", "/api/v1/daily/"+g+"/"+day+"/leaderboard", "", nil)
	if st != 200 {
		e.t.Fatalf("leaderboard %s %s: %d %s", g, day, st, b)
	}
	var d daily.Board
	json.Unmarshal(b, &d)
	return d
}

// playDaily starts token's attempt at today's g and plays moves, each
// accepted; it answers the table and the seat's token.
func (e *clockEnv) playDaily(g, token string, moves ...string) (string, string) {
	e.t.Helper()
	st, b := e.call("POST", "/api/v1/daily/"+g, token, nil)
	if st != 201 {
		e.t.Fatalf("start the daily %s: %d %s", g, st, b)
	}
	var s table.Seated
	json.Unmarshal(b, &s)
	for _, m := range moves {
		e.move(s.Table, s.Token, m)
	}
	return s.Table, s.Token
}

// move plays m at table id with the seat's token; it must be accepted.
func (e *clockEnv) move(id, token, m string) {
	e.t.Helper()
	if st, b := e.call("POST", "/api/v1/tables/"+id+"/moves", token, map[string]any{"move": m}); st != 200 {
		e.t.Fatalf("move %q: %d %s", m, st, b)
	}
}

// puzzle reads the stored daily puzzle of game on day.
func (e *clockEnv) puzzle(game, day string) string {
	e.t.Helper()
	p, err := e.db.(store.Dailies).PutDailyPuzzle(context.Background(), store.DailyPuzzle{Game: game, Day: day, Setup: []byte("{}")})
	if err != nil {
		e.t.Fatal(err)
	}
	return string(p.Setup)
}

// password reads the stored daily Quizl password of day.
func (e *clockEnv) password(day string) string {
	e.t.Helper()
	p, err := e.db.(store.Dailies).PutDailyPuzzle(context.Background(), store.DailyPuzzle{Game: "quizl", Day: day, Setup: []byte("{}")})
	if err != nil {
		e.t.Fatal(err)
	}
	var s struct{ Password string }
	if err := json.Unmarshal(p.Setup, &s); err != nil || s.Password == "" {
		e.t.Fatalf("the stored puzzle of %s: %s (%v)", day, p.Setup, err)
	}
	return s.Password
}

// TestDailyAcrossDays plays daily puzzles over three days of an injected
// clock: one puzzle a day for everyone, one attempt each, the ranking,
// guests unranked, streaks, the day's end opening its tables, a clock
// set back that reopens nothing, and the bad inputs.
func TestDailyAcrossDays(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t) // 2026-03-01 12:00 UTC
	ann, ben, gus := e.account("Ann"), e.account("Ben"), e.identity("Gus")

	d := e.daily("quizl", ann)
	if d.Day != "2026-03-01" || d.Attempt != nil || d.Yesterday != "2026-02-28" || !d.Next.Equal(time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("today before playing: %+v", d)
	}
	// A start with a body it does not take spends nothing.
	if st, b := e.call("POST", "/api/v1/daily/quizl", ann, map[string]any{"level": "easy"}); st != 400 || !strings.Contains(string(b), "takes no body") {
		t.Errorf("a daily start with a body: %d %s, want a 400", st, b)
	}
	if d := e.daily("quizl", ann); d.Attempt != nil {
		t.Fatalf("a refused start began an attempt: %+v", d.Attempt)
	}
	// Ann: two calls then the password; Ben three calls; Gus, a guest,
	// one call: the best, but unranked.
	annTable, annSeat := e.playDaily("quizl", ann, "50", "51")
	pw := e.password("2026-03-01")
	benTable, _ := e.playDaily("quizl", ben, "52", "53", "54", "say "+pw)
	e.playDaily("quizl", gus, "60", "say "+pw)

	d = e.daily("quizl", ben)
	if d.Attempt == nil || !d.Attempt.Finished || !d.Attempt.Solved || d.Attempt.Moves != 3 || d.Attempt.Wrong != 0 || d.Attempt.Table != benTable || d.Streak != 1 {
		t.Fatalf("Ben's result: %+v", d)
	}
	if strings.Contains(d.Attempt.Share, pw) || !strings.Contains(d.Attempt.Share, "solved: 3 calls, 0 wrong announcements") {
		t.Errorf("Ben's share text:\n%s", d.Attempt.Share)
	}
	// The share text tells his three calls and the right announcement
	// in order, a symbol each, and never which squares he called.
	lines := strings.Split(d.Attempt.Share, "\n")
	if len(lines) != 3 || utf8.RuneCountInString(lines[2]) != 4 || strings.Trim(lines[2], "■□") != "✓" {
		t.Errorf("Ben's share trail:\n%s", d.Attempt.Share)
	}

	// While the day lasts, nobody but Ben sees his finished game: it
	// would show the grid.
	for _, path := range []string{"", "/record", "/analysis", "/events?since=0"} {
		if st, b := e.call("GET", "/api/v1/tables/"+benTable+path, gus, nil); st != 403 || !strings.Contains(string(b), "today's daily quizl") {
			t.Errorf("Gus reads Ben's table%s today: %d %s", path, st, clip(b))
		}
		if st, b := e.call("GET", "/api/v1/tables/"+benTable+path, "", nil); st != 403 {
			t.Errorf("a stranger reads Ben's table%s today: %d %s", path, st, clip(b))
		}
	}
	// Ben sees his finished game, but not the grid whole, nor its record
	// or analysis, which hold it, until the day ends: a player who
	// resigned at once would learn the answer for an account to solve.
	if st, b := e.call("GET", "/api/v1/tables/"+benTable, ben, nil); st != 200 || !strings.Contains(string(b), `"finished"`) || strings.Contains(string(b), `"reveal"`) {
		t.Errorf("Ben reads his own finished table: %d %s", st, clip(b))
	}
	for _, path := range []string{"/record", "/analysis"} {
		if st, b := e.call("GET", "/api/v1/tables/"+benTable+path, ben, nil); st != 403 || !strings.Contains(string(b), "when the day ends") {
			t.Errorf("Ben reads his own table%s today: %d %s", path, st, clip(b))
		}
	}
	// Ben's archive leaves his attempt out until the day ends.
	if recs := e.archive("Ben"); len(recs) != 0 {
		t.Errorf("the players of Ben's exported games today: %q, want none", recs)
	}
	hal := e.identity("Hal")
	halTable, halSeat := e.playDaily("quizl", hal, "resign")
	for _, u := range []string{"/api/v1/tables/" + halTable, "/api/v1/tables/" + halTable + "/events?from=0"} {
		st, b := e.call("GET", u, halSeat, nil)
		if st != 200 || strings.Contains(string(b), pw) || strings.Contains(string(b), `"reveal"`) {
			t.Errorf("Hal, who resigned at once, reads %s: %d %s; the password %s must not be there", u, st, clip(b), pw)
		}
	}

	// The invite link of an attempt opens to its own player, and to
	// nobody else while the day lasts.
	for _, c := range []struct {
		who, token string
		st         int
	}{{"Hal", halSeat, 200}, {"nobody", "", 403}, {"Ann", ann, 403}} {
		if st, b := e.call("GET", "/t/"+halTable, c.token, nil); st != c.st || strings.Contains(string(b), pw) {
			t.Errorf("%s follows Hal's invite link: %d %s, want %d without the password", c.who, st, clip(b), c.st)
		}
	}

	// A second attempt is refused with the first result.
	st, b := e.call("POST", "/api/v1/daily/quizl", ben, nil)
	var refusal daily.Refusal
	json.Unmarshal(b, &refusal)
	if st != 409 || refusal.Attempt.Moves != 3 || !refusal.Attempt.Solved || !strings.Contains(refusal.Err, "already played") {
		t.Fatalf("a second attempt: %d %s", st, b)
	}

	// Today's leaderboard: Ben only (Ann still playing, Gus a guest),
	// with no table to spoil the puzzle.
	bd := e.board("quizl", "2026-03-01")
	if bd.Over || len(bd.Entries) != 1 || bd.Entries[0].Name != "Ben" || bd.Entries[0].Table != "" || bd.Entries[0].Rank != 1 {
		t.Fatalf("today's leaderboard: %+v", bd)
	}
	g := e.daily("quizl", gus)
	if g.Attempt == nil || !g.Attempt.Solved || g.Attempt.Ranked || g.Attempt.Moves != 1 {
		t.Errorf("the guest's result: %+v", g.Attempt)
	}

	// Ann finishes after Ben, with fewer calls: she ranks first.
	e.move(annTable, annSeat, "say "+pw)
	bd = e.board("quizl", "2026-03-01")
	if len(bd.Entries) != 2 || bd.Entries[0].Name != "Ann" || bd.Entries[0].Moves != 2 || bd.Entries[1].Name != "Ben" {
		t.Fatalf("the leaderboard after Ann: %+v", bd)
	}

	// Salvo: one salvo, then a resignation.
	salvoTable, salvoSeat := e.playDaily("salvo", ann, "fire A1 B2 C3 D4 E5", "resign")
	if st, b := e.call("GET", "/api/v1/tables/"+salvoTable, salvoSeat, nil); st != 200 || strings.Contains(string(b), `"fleets"`) || strings.Contains(string(b), `"reveal"`) {
		t.Errorf("Ann's resigned Salvo today: %d %s; the fleet must stay hidden", st, clip(b))
	}
	s := e.daily("salvo", ann)
	if s.Attempt == nil || !s.Attempt.Finished || s.Attempt.Solved || s.Attempt.Moves != 1 || strings.Count(s.Attempt.Marks, "#") != 5 || s.Streak != 0 {
		t.Fatalf("Ann's salvo: %+v", s.Attempt)
	}

	// Midnight UTC: a new day and a new puzzle; yesterday's tables open.
	e.clock.Advance(12 * time.Hour)
	d = e.daily("quizl", ann)
	if d.Day != "2026-03-02" || d.Attempt != nil || d.Streak != 1 {
		t.Fatalf("the next day: %+v", d)
	}
	bd = e.board("quizl", "2026-03-01")
	if !bd.Over || len(bd.Entries) != 2 || bd.Entries[0].Table != annTable {
		t.Fatalf("yesterday's leaderboard: %+v", bd)
	}
	for _, path := range []string{"", "/record", "/analysis"} {
		if st, b := e.call("GET", "/api/v1/tables/"+annTable+path, gus, nil); st != 200 {
			t.Errorf("yesterday's table%s: %d %s", path, st, clip(b))
		}
	}
	if recs := e.archive("Ben"); !slices.Equal(recs, []string{"Ben"}) {
		t.Errorf("the players of Ben's exported games once the day is over: %q, want his daily attempt's", recs)
	}
	if st, b := e.call("GET", "/api/v1/tables/"+halTable, halSeat, nil); st != 200 || !strings.Contains(string(b), pw) || !strings.Contains(string(b), `"reveal"`) {
		t.Errorf("Hal's table once the day is over: %d %s, want the grid shown", st, clip(b))
	}
	tb, tok := e.playDaily("quizl", ann, "50")
	e.move(tb, tok, "say "+e.password("2026-03-02"))
	if e.puzzle("quizl", "2026-03-02") == e.puzzle("quizl", "2026-03-01") {
		t.Errorf("the 1st and the 2nd share their puzzle %s", e.puzzle("quizl", "2026-03-01"))
	}
	if d := e.daily("quizl", ann); d.Streak != 2 {
		t.Errorf("Ann's streak after two days: %d", d.Streak)
	}

	// The server's clock goes back a day: today stays the 2nd, nothing
	// reopens. Ben, who played on the 1st, plays the 2nd's puzzle.
	e.clock.Advance(-24 * time.Hour)
	if d := e.daily("quizl", ben); d.Day != "2026-03-02" || d.Attempt != nil {
		t.Fatalf("after the clock went back: %+v", d)
	}
	tb, tok = e.playDaily("quizl", ben, "51")
	e.move(tb, tok, "say "+e.password("2026-03-02"))
	if d := e.daily("quizl", ben); d.Attempt == nil || d.Attempt.Day != "2026-03-02" || d.Streak != 2 {
		t.Fatalf("Ben's attempt after the clock went back: %+v", d)
	}
	if st, b := e.call("POST", "/api/v1/daily/quizl", ann, nil); st != 409 {
		t.Errorf("Ann again after the clock went back: %d %s", st, b)
	}

	// Two days on, a restart: the results and streaks stay; a day missed
	// ends the streak.
	e.clock.Advance(72 * time.Hour) // 2026-03-04 12:00
	e.stop()
	e.start()
	if d := e.daily("quizl", ann); d.Day != "2026-03-04" || d.Streak != 0 {
		t.Errorf("after a missed day: %+v", d)
	}
	st, b = e.call("GET", "/api/v1/players/Ann/daily", "", nil)
	var prof map[string]daily.Record
	json.Unmarshal(b, &prof)
	if st != 200 || prof["quizl"].Best != 2 || prof["quizl"].Played != 2 || len(prof["quizl"].History) != 2 || prof["quizl"].History[0].Table == "" || prof["salvo"].Played != 1 {
		t.Errorf("Ann's daily profile: %d %s", st, b)
	}

	// Bad input.
	for _, c := range []struct {
		method, path, token string
		status              int
	}{
		{"GET", "/api/v1/daily/chess", ann, 404},
		{"POST", "/api/v1/daily/nymphabet", ann, 404},
		{"POST", "/api/v1/daily/quizl", "", 401},
		{"GET", "/api/v1/daily/quizl/yesterday/leaderboard", "", 400},
		{"GET", "/api/v1/daily/quizl/2026-02-30/leaderboard", "", 400},
		{"GET", "/api/v1/daily/quizl/2026-03-05/leaderboard", "", 404},
		{"GET", "/api/v1/daily/chess/2026-03-01/leaderboard", "", 404},
		{"GET", "/api/v1/players/Nobody/daily", "", 404},
	} {
		if st, b := e.call(c.method, c.path, c.token, nil); st != c.status || !strings.Contains(string(b), `"error"`) {
			t.Errorf("%s %s: %d %s, want %d", c.method, c.path, st, b, c.status)
		}
	}
}

// TestDailyTimeStandsStillWhileDown: an attempt's time is the time the
// server ran while it lasted, from its start to its last move: a restart
// in the middle leaves out the time the server was down.
func TestDailyTimeStandsStillWhileDown(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	ann, ben := e.account("Ann"), e.account("Ben")
	e.clock.Advance(time.Second)
	annTable, annSeat := e.playDaily("quizl", ann)
	benTable, benSeat := e.playDaily("quizl", ben)
	pw := e.password("2026-03-01")
	e.clock.Advance(10 * time.Second)
	e.move(annTable, annSeat, "51")
	e.move(benTable, benSeat, "51")
	e.stop()
	e.clock.Advance(time.Hour)
	e.start()
	e.clock.Advance(5 * time.Second)
	e.move(annTable, annSeat, "say "+pw)
	e.clock.Advance(2 * time.Second)
	e.move(benTable, benSeat, "say "+pw)
	for _, c := range []struct {
		name, token string
		want        float64
	}{{"Ann", ann, 15}, {"Ben", ben, 17}} {
		if d := e.daily("quizl", c.token); d.Attempt == nil || !d.Attempt.Solved || d.Attempt.Seconds != c.want {
			t.Errorf("%s's attempt: %+v, want solved in %v s", c.name, d.Attempt, c.want)
		}
	}
}

// TestDailyOneAttemptAtOnce sends one player's first attempt eight times
// at once: one table is made, the others are refused with it.
func TestDailyOneAttemptAtOnce(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	ann := e.account("Ann")
	type answer struct {
		st int
		b  []byte
	}
	out := make(chan answer, 8)
	for range 8 {
		go func() {
			st, b := e.call("POST", "/api/v1/daily/salvo", ann, nil)
			out <- answer{st, b}
		}()
	}
	made := 0
	for range 8 {
		a := <-out
		switch a.st {
		case 201:
			made++
		case 409:
		default:
			t.Errorf("an attempt: %d %s", a.st, a.b)
		}
	}
	if made != 1 {
		t.Errorf("%d attempts made, want 1", made)
	}
	if d := e.daily("salvo", ann); d.Attempt == nil || d.Attempt.Finished {
		t.Errorf("Ann's attempt: %+v", d.Attempt)
	}
}

// heldQuizlMaker is a clockEnv's newBot whose strong Quizl computer,
// the daily puzzle's maker, counts its makings in made and holds each
// (heldSetup); the other computers are the games' own.
func heldQuizlMaker(made *atomic.Int32, entered, release chan struct{}) func(g, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
	return func(g, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
		b, err := games.NewBot(g, level, seed, lex)
		if err != nil || g != "quizl" || level != game.Strong {
			return b, err
		}
		made.Add(1)
		return heldSetup{b, entered, release}, nil
	}
}

// heldSetup is a computer player whose setups tell entered and then
// wait for release: the strong computer making a day's puzzle, as slow
// as a test needs.
type heldSetup struct {
	game.Bot
	entered chan<- struct{}
	release <-chan struct{}
}

func (b heldSetup) Setup(ctx context.Context, cfg game.Config, seat game.Seat) (json.RawMessage, error) {
	b.entered <- struct{}{}
	select {
	case <-b.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return b.Bot.Setup(ctx, cfg, seat)
}

// TestDailyStartsWhileMade holds the making of the day's Quizl: a start
// of the day's Salvo goes on meanwhile (every start waited behind the
// first of the day, of either game, for as long as the strong computer
// took), and a second player's start of the Quizl waits for the same
// puzzle rather than make another.
func TestDailyStartsWhileMade(t *testing.T) {
	t.Parallel()
	entered, release := make(chan struct{}, 4), make(chan struct{})
	var released atomic.Bool
	var once sync.Once
	letGo := func() { once.Do(func() { released.Store(true); close(release) }) }
	t.Cleanup(letGo)
	var made atomic.Int32
	e := &clockEnv{t: t, path: filepath.Join(t.TempDir(), "p.db"), clock: newFakeClock()}
	e.newBot = heldQuizlMaker(&made, entered, release)
	e.start()
	t.Cleanup(e.stop)
	ann, bob, cal := e.identity("Ann"), e.identity("Bob"), e.identity("Cal")
	type answer struct {
		who string
		st  int
		b   []byte
	}
	out := make(chan answer, 3)
	start := func(who, g, token string) {
		st, b := e.call("POST", "/api/v1/daily/"+g, token, nil)
		out <- answer{who, st, b}
	}
	go start("Ann", "quizl", ann)
	<-entered
	// Were the Salvo's start to wait for the Quizl's making, the making
	// is let go after a while, and the Salvo's answer comes after it.
	stop := time.AfterFunc(20*time.Second, letGo)
	defer stop.Stop()
	go start("Bob", "salvo", bob)
	if a := <-out; a.who != "Bob" || a.st != 201 {
		t.Fatalf("while the Quizl is made: %s's start %d %s, want Bob's made", a.who, a.st, a.b)
	}
	if released.Load() {
		t.Error("Bob's Salvo waited for the day's Quizl to be made")
	}
	go start("Cal", "quizl", cal)
	letGo()
	for range 2 {
		if a := <-out; a.st != 201 {
			t.Errorf("%s's Quizl: %d %s", a.who, a.st, a.b)
		}
	}
	if n := made.Load(); n != 1 {
		t.Errorf("the day's Quizl was made %d times, want once", n)
	}
}

// TestDailyNotFromTheDate makes the day's puzzles on two servers with
// separate stores: they differ, since a puzzle that the date alone
// decided anyone could compute for any day to come. (Nodes of a cluster
// share their store, which keeps the first puzzle made of a day.)
func TestDailyNotFromTheDate(t *testing.T) {
	t.Parallel()
	var setups [2][2]string
	for i := range 2 {
		e := newClockEnv(t)
		tok := e.identity("Ann")
		for j, g := range []string{"quizl", "salvo"} {
			e.playDaily(g, tok)
			p, err := e.db.(store.Dailies).PutDailyPuzzle(context.Background(), store.DailyPuzzle{Game: g, Day: "2026-03-01", Setup: []byte("{}")})
			if err != nil {
				t.Fatal(err)
			}
			setups[i][j] = string(p.Setup)
		}
		e.stop()
	}
	for j := range setups[0] {
		if setups[0][j] == setups[1][j] {
			t.Errorf("two servers made one puzzle of one day, as a function of the date: %v", setups[0][j])
		}
	}
}

func clip(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// fleet reads the stored daily Salvo fleet of day, made by a first
// attempt already (the store keeps the first puzzle put), its ships in
// fleet order, and every square they cover.
func (e *clockEnv) fleet(day string) ([]string, []string) {
	e.t.Helper()
	p, err := e.db.(store.Dailies).PutDailyPuzzle(context.Background(), store.DailyPuzzle{Game: "salvo", Day: day, Setup: []byte("{}")})
	if err != nil {
		e.t.Fatal(err)
	}
	var s salvo.Setup
	if err := json.Unmarshal(p.Setup, &s); err != nil || len(s.Fleet) != salvo.FleetSize {
		e.t.Fatalf("the stored fleet of %s: %s (%v)", day, p.Setup, err)
	}
	f, err := salvo.ParseFleet(s.Fleet)
	if err != nil {
		e.t.Fatal(err)
	}
	var squares []string
	for _, sh := range f {
		for _, q := range sh.Squares() {
			squares = append(squares, q.String())
		}
	}
	return s.Fleet, squares
}

// sinkDaily plays token's attempt at today's Salvo: salvos of as many
// shots as the seat has, first at the squares in waste (misses, to rank
// below), then at every square of the fleet, then the outline; it answers
// how many salvos it fired.
func (e *clockEnv) sinkDaily(token string, waste, squares, outline []string) int {
	e.t.Helper()
	id, seat := e.playDaily("salvo", token)
	todo := append(append([]string{}, waste...), squares...)
	salvos := 0
	for len(todo) > 0 {
		st, b := e.call("GET", "/api/v1/tables/"+id, seat, nil)
		var v struct {
			View struct {
				Shots int `json:"shots"`
			} `json:"view"`
		}
		if st != 200 || json.Unmarshal(b, &v) != nil || v.View.Shots < 1 {
			e.t.Fatalf("the table before a salvo: %d %s", st, clip(b))
		}
		n := min(v.View.Shots, len(todo))
		e.move(id, seat, "fire "+strings.Join(todo[:n], " "))
		todo = todo[n:]
		salvos++
	}
	e.move(id, seat, "outline "+strings.Join(outline, " "))
	return salvos
}

// TestDailySalvoRanked: the daily Salvo ranks the right outlines by
// fewest salvos, above a player who gave up, and leaves a guest off the
// board though the guest sank the fleet as fast as anybody.
func TestDailySalvoRanked(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t) // 2026-03-01 12:00 UTC
	ann, ben, cat, gus := e.account("Ann"), e.account("Ben"), e.account("Cat"), e.identity("Gus")
	// Cat fires one salvo and gives up (her attempt makes the puzzle).
	e.playDaily("salvo", cat, "fire J6 J7 J8 J9 J10", "resign")
	ships, squares := e.fleet("2026-03-01")
	var misses []string // ten squares of no ship: two salvos wasted
	for r := 'A'; r <= 'J' && len(misses) < 10; r++ {
		for c := 1; c <= 10 && len(misses) < 10; c++ {
			if q := fmt.Sprintf("%c%d", r, c); !slices.Contains(squares, q) {
				misses = append(misses, q)
			}
		}
	}
	benSalvos := e.sinkDaily(ben, misses, squares, ships)
	e.clock.Advance(time.Minute)
	annSalvos := e.sinkDaily(ann, nil, squares, ships)
	e.sinkDaily(gus, nil, squares, ships)
	if annSalvos >= benSalvos {
		t.Fatalf("Ann fired %d salvos and Ben %d: the test wants Ann fewer", annSalvos, benSalvos)
	}
	var got []string
	for _, r := range e.board("salvo", "2026-03-01").Entries {
		got = append(got, fmt.Sprintf("%s solved=%v salvos=%d", r.Name, r.Solved, r.Moves))
	}
	want := []string{
		fmt.Sprintf("Ann solved=true salvos=%d", annSalvos),
		fmt.Sprintf("Ben solved=true salvos=%d", benSalvos),
		"Cat solved=false salvos=1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("the Salvo leaderboard:\n%q\nwant\n%q", got, want)
	}
	if d := e.daily("salvo", ann); d.Attempt == nil || !d.Attempt.Solved || d.Attempt.Moves != annSalvos || d.Attempt.Wrong != 0 || strings.Count(d.Attempt.Marks, "#") != len(squares) {
		t.Errorf("Ann's result: %+v", d.Attempt)
	}
}

// TestDailySocketSeesTheEnd follows daily Quizl attempts on a socket, as
// the browser does (with view tails), while the moves come over HTTP in
// quick succession, the last a resignation: the socket must be sent the
// update that shows the end, whether the moves come before or after its
// first update.
func TestDailySocketSeesTheEnd(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	for i := range 6 {
		gus := e.identity("Gus " + strconv.Itoa(i))
		st, b := e.call("POST", "/api/v1/daily/quizl", gus, nil)
		if st != 201 {
			t.Fatalf("start: %d %s", st, b)
		}
		var s table.Seated
		json.Unmarshal(b, &s)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.srv.URL, "http")+"/api/v1/tables/"+s.Table+"/socket", nil)
		if err != nil {
			t.Fatal(err)
		}
		c.SetReadLimit(1 << 20)
		hello, _ := json.Marshal(map[string]any{"type": "hello", "token": s.Token, "view_tails": true})
		c.Write(ctx, websocket.MessageText, hello)
		if i%2 == 0 {
			if _, _, err := c.Read(ctx); err != nil {
				t.Fatal(err)
			}
		}
		for _, m := range []string{"50", "51", "resign"} {
			e.move(s.Table, s.Token, m)
		}
		for {
			_, raw, err := c.Read(ctx)
			if err != nil {
				t.Fatalf("game %d: no update showed the end: %v", i, err)
			}
			if strings.Contains(string(raw), `"status":"`+string(store.Finished)+`"`) {
				break
			}
		}
		cancel()
		c.Close(websocket.StatusNormalClosure, "")
	}
}

// TestDailyPuzzleMadeOnce: a day's puzzle is made by the strong computer
// once: the attempts after the first start from it without the second or
// two its making takes (and, one at a time, every start would wait for).
// The next day's is made once more.
func TestDailyPuzzleMadeOnce(t *testing.T) {
	var made atomic.Int32
	e := &clockEnv{t: t, path: filepath.Join(t.TempDir(), "p.db"), clock: newFakeClock()}
	e.newBot = func(g, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
		if g == "quizl" && level == game.Strong {
			made.Add(1)
		}
		return games.NewBot(g, level, seed, lex)
	}
	e.start()
	t.Cleanup(e.stop)
	for i := range 3 {
		e.playDaily("quizl", e.identity(fmt.Sprintf("Player %d", i)))
	}
	if n := made.Load(); n != 1 {
		t.Errorf("three attempts made the puzzle %d times, want once", n)
	}
	first := e.puzzle("quizl", e.daily("quizl", "").Day)
	e.clock.Advance(24 * time.Hour)
	e.playDaily("quizl", e.identity("Next day"))
	e.playDaily("quizl", e.identity("Next day too"))
	if n := made.Load(); n != 2 {
		t.Errorf("the next day's two attempts: made %d times in all, want twice", n)
	}
	if next := e.puzzle("quizl", e.daily("quizl", "").Day); next == first {
		t.Error("the next day's puzzle is the first day's")
	}
}

// TestDailyMadeAhead: a server that makes the daily puzzles ahead makes
// the day's as it starts, with nobody asking: the Salvo is stored before
// anyone plays it, and a start of the Quizl while it is made waits for
// that making rather than make another. Once the next day begins, its
// puzzle is made with nobody asking either.
func TestDailyMadeAhead(t *testing.T) {
	t.Parallel()
	entered, release := make(chan struct{}, 4), make(chan struct{})
	var once sync.Once
	letGo := func() { once.Do(func() { close(release) }) }
	t.Cleanup(letGo)
	var made atomic.Int32
	e := &clockEnv{t: t, path: filepath.Join(t.TempDir(), "p.db"), clock: newFakeClock(), ahead: true}
	e.newBot = heldQuizlMaker(&made, entered, release)
	e.start()
	t.Cleanup(e.stop)
	begun := func(what string) {
		t.Helper()
		select {
		case <-entered:
		case <-time.After(time.Minute):
			t.Fatalf("waited a minute for %s", what)
		}
	}
	latest := func(g string) string {
		day, err := e.db.(store.Dailies).LatestDailyDay(context.Background(), g)
		if err != nil {
			t.Fatal(err)
		}
		return day
	}
	begun("the day's Quizl to be made as the server starts")
	out := make(chan int, 1)
	go func() {
		st, _ := e.call("POST", "/api/v1/daily/quizl", e.identity("Ann"), nil)
		out <- st
	}()
	letGo()
	if st := <-out; st != 201 {
		t.Fatalf("Ann's start of the Quizl while it was made: %d, want 201", st)
	}
	servertest.Eventually(t, time.Minute, "the day's Salvo to be stored", func() bool { return latest("salvo") == "2026-03-01" })
	if n := made.Load(); n != 1 {
		t.Errorf("the day's Quizl was made %d times, want once", n)
	}

	// Hours at a time to the next day's first hour, then a second at a
	// time: the next day begins whenever the server's timer is set.
	next := time.Date(2026, 3, 2, 1, 0, 0, 0, time.UTC)
	servertest.Eventually(t, time.Minute, "the next day's Quizl to be made", func() bool {
		step := time.Second
		if e.clock.Now().Before(next) {
			step = time.Hour
		}
		e.clock.Advance(step)
		select {
		case <-entered:
			return true
		default:
			return false
		}
	})
	servertest.Eventually(t, time.Minute, "the next day's Quizl to be stored", func() bool { return latest("quizl") == "2026-03-02" })
	if n := made.Load(); n != 2 {
		t.Errorf("the Quizl was made %d times over two days, want twice", n)
	}

	// A server started again reads the day's puzzle the store keeps,
	// rather than have the strong computer make one the store would
	// not keep.
	e.stop()
	e.start()
	if st, b := e.call("POST", "/api/v1/daily/quizl", e.identity("Ben"), nil); st != 201 {
		t.Fatalf("Ben's start of the Quizl after a restart: %d %s", st, b)
	}
	if n := made.Load(); n != 2 {
		t.Errorf("the Quizl was made %d times, want twice: a restart made the day's again", n)
	}
}

// TestDailyPlaysNoSet: a daily puzzle is one attempt, so its table opens
// no set of games (Quizl's tables otherwise play to a target), and the
// game played again from its end is an ordinary solitaire game that
// starts from nothing rather than a set's second game.
func TestDailyPlaysNoSet(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	ann := e.account("ann")
	id, tok := e.playDaily("quizl", ann, "50", "51", "resign")
	info := func(id string) map[string]json.RawMessage {
		t.Helper()
		st, b := e.call("GET", "/api/v1/tables/"+id, tok, nil)
		if st != 200 {
			t.Fatalf("table %s: %d %s", id, st, b)
		}
		var u struct{ Table map[string]json.RawMessage }
		if err := json.Unmarshal(b, &u); err != nil || u.Table == nil {
			t.Fatalf("table %s: %s (%v)", id, b, err)
		}
		return u.Table
	}
	if in := info(id); in["set"] != nil || in["daily"] == nil {
		t.Fatalf("the daily table has set %s, daily %s; want no set, a daily", in["set"], in["daily"])
	}
	// Ann's history says which daily puzzle the game was.
	var hist players.History
	if st, b := e.call("GET", "/api/v1/players/ann/games", "", nil); st != 200 || json.Unmarshal(b, &hist) != nil {
		t.Fatalf("Ann's games: %d %s", st, b)
	}
	if len(hist.Games) != 1 || hist.Games[0].Table != id || !strings.HasPrefix(hist.Games[0].Daily, "quizl/") {
		t.Errorf("Ann's history %+v; want her daily Quizl, named so", hist.Games)
	}
	st, b := e.call("POST", "/api/v1/tables/"+id+"/rematch", tok, nil)
	if st != 200 && st != 201 {
		t.Fatalf("play again: %d %s", st, b)
	}
	var again table.Seated
	json.Unmarshal(b, &again)
	in := info(again.Table)
	if in["daily"] != nil {
		t.Errorf("the game after the daily is daily %s; want an ordinary one", in["daily"])
	}
	var set struct {
		Games  int   `json:"games"`
		Totals []int `json:"totals"`
	}
	if in["set"] != nil {
		json.Unmarshal(in["set"], &set)
	}
	if set.Games != 0 || slices.ContainsFunc(set.Totals, func(n int) bool { return n != 0 }) {
		t.Errorf("the game after the daily carries set %s; want none begun", in["set"])
	}
}

// archive reads name's archive of games (NDJSON records) and gives each
// record's players, joined by commas.
func (e *clockEnv) archive(name string) []string {
	e.t.Helper()
	st, b := e.call("GET", "/api/v1/players/"+name+"/games/export", "", nil)
	if st != 200 {
		e.t.Fatalf("the archive of %s: %d %s", name, st, clip(b))
	}
	var out []string
	for l := range strings.Lines(string(b)) {
		rec, err := game.DecodeBytes([]byte(l))
		if err != nil {
			e.t.Fatalf("the archive of %s: %v: %s", name, err, l)
		}
		out = append(out, strings.Join(rec.Players, ","))
	}
	return out
}

// TestDailySquaresHiddenUntilDayEnds checks that while a day lasts the
// squares an attempt used (its marks, and with them its share text) are
// shown to its own player alone: on the day's leaderboard and in a
// player's public history they would point at the answer (a sunk fleet
// lies within the squares of the salvos that sank it), and once the day
// is over they show to everyone.
func TestDailySquaresHiddenUntilDayEnds(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t) // 2026-03-01 12:00 UTC
	ann := e.account("Ann")
	for _, g := range []struct {
		game  string
		moves []string
	}{
		{"quizl", []string{"50", "72", "resign"}},
		{"salvo", []string{"fire A1 B2 C3 D4 E5", "resign"}},
	} {
		e.playDaily(g.game, ann, g.moves...)
	}
	shown := func(r daily.Result) bool { return r.Marks != "" || r.Share != "" }
	for _, g := range []string{"quizl", "salvo"} {
		if d := e.daily(g, ann); d.Attempt == nil || d.Attempt.Marks == "" || d.Attempt.Share == "" {
			t.Errorf("Ann's own %s attempt today: %+v, want her marks and share", g, d.Attempt)
		}
		bd := e.board(g, "2026-03-01")
		if len(bd.Entries) != 1 || shown(bd.Entries[0]) {
			t.Errorf("today's %s leaderboard: %+v, want Ann's counts without her squares", g, bd.Entries)
		}
	}
	history := func() map[string]daily.Record {
		st, b := e.call("GET", "/api/v1/players/ann/daily", "", nil)
		var recs map[string]daily.Record
		if err := json.Unmarshal(b, &recs); st != 200 || err != nil {
			t.Fatalf("Ann's daily record: %d %s", st, b)
		}
		return recs
	}
	for g, rec := range history() {
		if len(rec.History) != 1 || shown(rec.History[0]) {
			t.Errorf("Ann's public %s history today: %+v, want no squares", g, rec.History)
		}
	}

	e.clock.Advance(12 * time.Hour) // midnight UTC: the day is over
	for _, g := range []string{"quizl", "salvo"} {
		if bd := e.board(g, "2026-03-01"); len(bd.Entries) != 1 || !shown(bd.Entries[0]) || bd.Entries[0].Table == "" {
			t.Errorf("yesterday's %s leaderboard: %+v, want Ann's squares and table", g, bd.Entries)
		}
	}
	for g, rec := range history() {
		if len(rec.History) != 1 || !shown(rec.History[0]) {
			t.Errorf("Ann's %s history of yesterday: %+v, want her squares", g, rec.History)
		}
	}
}

// TestDailyChatShutToOthers checks that the chat of an attempt at
// today's puzzle is shut to writers as it is to readers: a stranger with
// an account, who may write in any spectators' chat at once, writes no
// line into another player's attempt and mutes none of its channels, and
// nothing reaches its player; a join is refused as shut, not as a full
// table whose game has started. Once the day is over the table opens.
func TestDailyChatShutToOthers(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t) // 2026-03-01 12:00 UTC
	ann, sly := e.account("Ann"), e.account("Sly")
	id, seat := e.playDaily("quizl", ann, "50")
	yes := true
	for _, c := range []struct {
		path string
		body any
	}{
		{"/chat", map[string]string{"channel": table.ChannelSpectators, "text": "I can see you"}},
		{"/chat", map[string]string{"channel": table.ChannelPlayers, "text": "I can see you"}},
		{"/chat/mute", map[string]any{"channel": table.ChannelPlayers, "muted": &yes}},
		{"/join", map[string]any{}},
	} {
		if st, b := e.call("POST", "/api/v1/tables/"+id+c.path, sly, c.body); st != 403 || !strings.Contains(string(b), "today's daily quizl") {
			t.Errorf("Sly posts %s %v to Ann's attempt today: %d %s, want 403", c.path, c.body, st, clip(b))
		}
	}
	e.move(id, seat, "resign")
	if st, b := e.call("GET", "/api/v1/tables/"+id+"/chat?channel=spectators", seat, nil); st != 200 || strings.Contains(string(b), "I can see you") {
		t.Errorf("Ann reads her attempt's spectators' chat: %d %s, want no line from Sly", st, clip(b))
	}
	e.clock.Advance(24 * time.Hour)
	if st, b := e.call("POST", "/api/v1/tables/"+id+"/chat", sly, map[string]string{"channel": table.ChannelSpectators, "text": "well played"}); st != 201 {
		t.Errorf("Sly writes to Ann's attempt the next day: %d %s, want 201", st, clip(b))
	}
}

// TestDailyAttemptEndsWithItsDay: an attempt still going when its day
// ends goes no further than a resignation, since that day's answer is
// open to everyone then: Ann, who made one call before midnight, reads
// the password in Ben's record after it, and may not announce it for
// the best result of the day.
func TestDailyAttemptEndsWithItsDay(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t) // 2026-03-01 12:00 UTC
	ann, ben := e.account("Ann"), e.account("Ben")
	annTable, annSeat := e.playDaily("quizl", ann, "50")
	benTable, _ := e.playDaily("quizl", ben, "resign")
	pw := e.password("2026-03-01")

	e.clock.Advance(13 * time.Hour)
	if st, b := e.call("GET", "/api/v1/tables/"+benTable+"/record", ann, nil); st != 200 || !strings.Contains(string(b), pw) {
		t.Fatalf("Ben's record once the day is over: %d %s", st, clip(b))
	}
	for _, m := range []string{"say " + pw, "51"} {
		if st, b := e.call("POST", "/api/v1/tables/"+annTable+"/moves", annSeat, map[string]any{"move": m}); st != 409 || !strings.Contains(string(b), "goes no further") {
			t.Errorf("Ann's %q after her day ended: %d %s, want 409", m, st, clip(b))
		}
	}
	if bd := e.board("quizl", "2026-03-01"); len(bd.Entries) != 1 || bd.Entries[0].Name != "Ben" {
		t.Fatalf("the day's leaderboard: %+v, want Ben's resignation alone", bd)
	}
	// A resignation still ends the attempt, unsolved.
	e.move(annTable, annSeat, "resign")
	var recs map[string]daily.Record
	st, b := e.call("GET", "/api/v1/players/Ann/daily", ann, nil)
	if err := json.Unmarshal(b, &recs); st != 200 || err != nil {
		t.Fatalf("Ann's daily history: %d %s", st, clip(b))
	}
	if r := recs["quizl"]; len(r.History) != 1 || !r.History[0].Finished || r.History[0].Solved || r.Streak != 0 {
		t.Fatalf("Ann's daily history after resigning: %s", clip(b))
	}
}

// TestDailyEndedStaysOverWhenClockGoesBack sets the server's clock back
// into a day that has ended: today stays the later day, so the ended
// day's finished attempts stay open to everyone, and its unfinished ones
// stay over, taking no move but a resignation.
func TestDailyEndedStaysOverWhenClockGoesBack(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t) // 2026-03-01 12:00 UTC
	ann, ben, cat, dan := e.account("Ann"), e.account("Ben"), e.account("Cat"), e.account("Dan")
	benTable, _ := e.playDaily("quizl", ben, "50", "resign")
	danTable, danSeat := e.playDaily("quizl", dan, "50")
	pw := e.password("2026-03-01")
	e.clock.Advance(24 * time.Hour)
	e.playDaily("quizl", cat, "51") // the 2nd's puzzle is set

	e.clock.Advance(-24 * time.Hour)
	if d := e.daily("quizl", ann); d.Day != "2026-03-02" {
		t.Fatalf("today after the clock went back: %s, want 2026-03-02", d.Day)
	}
	for _, path := range []string{"", "/record", "/analysis"} {
		if st, b := e.call("GET", "/api/v1/tables/"+benTable+path, ann, nil); st != 200 {
			t.Errorf("Ben's attempt of the 1st%s read by Ann after the clock went back: %d %s, want 200", path, st, clip(b))
		}
	}
	for _, path := range []string{"", "/record"} {
		if st, b := e.call("GET", "/api/v1/tables/"+benTable+path, ann, nil); st != 200 || !strings.Contains(string(b), pw) {
			t.Errorf("Ben's attempt of the 1st%s after the clock went back: %d %s, want the password shown", path, st, clip(b))
		}
	}
	if st, b := e.call("GET", "/api/v1/tables/"+danTable, danSeat, nil); st != 200 || !strings.Contains(string(b), `"day_over":true`) {
		t.Errorf("Dan's unfinished attempt of the 1st after the clock went back: %d %s, want day_over", st, clip(b))
	}
	if st, b := e.call("POST", "/api/v1/tables/"+danTable+"/moves", danSeat, map[string]any{"move": "51"}); st != 409 || !strings.Contains(string(b), "goes no further") {
		t.Errorf("Dan's move at his attempt of the 1st after the clock went back: %d %s, want 409", st, clip(b))
	}
}
