package main

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
	"parlour/server"
	"parlour/server/limit"
	"parlour/server/table"
	"parlour/server/table/tabletest"
	"parlour/server/tournament"
	"parlour/store/sqlite"
)

// logged is one request a bot made, and the status it was answered with.
type logged struct {
	method, path string // path with the table's id replaced by {id}
	status       int
}

func (l logged) String() string { return fmt.Sprintf("%s %s %d", l.method, l.path, l.status) }

// requestLog records every request a server answers.
type requestLog struct {
	mu   sync.Mutex
	reqs []*logged
}

// statusWriter keeps the status a handler answers with; it flushes (the
// event stream needs it) and unwraps for http.ResponseController.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// wrap serves h, recording each request.
func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := r.URL.Path
		if rest, ok := strings.CutPrefix(path, "/api/v1/tables/"); ok {
			id, tail, _ := strings.Cut(rest, "/")
			if id != "" {
				path = "/api/v1/tables/{id}"
				if tail != "" {
					path += "/" + tail
				}
			}
		}
		// Counted as it arrives (a stream may outlast the bot's game);
		// its status is filled in once answered, 0 until then.
		req := &logged{method: r.Method, path: path}
		l.mu.Lock()
		l.reqs = append(l.reqs, req)
		l.mu.Unlock()
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		l.mu.Lock()
		req.status = sw.status
		l.mu.Unlock()
	})
}

// take returns the requests recorded since the last take (a request
// still being answered with status 0).
func (l *requestLog) take() []logged {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]logged, len(l.reqs))
	for i, r := range l.reqs {
		out[i] = *r
	}
	l.reqs = nil
	return out
}

// oneRequestPerMove checks every request a bot made to play one game in
// which it made mine moves: one to open the table, one setup when setup
// is set, one POST of each move with "wait" (a move the referee refused,
// 422, is one request more, answered at once), and one to read the
// result. Anything else, polling the table or following its event stream
// between moves, is a request too many.
// dropFirst returns reqs without the first request to key ("GET
// /api/v1/tables/{id}").
func dropFirst(reqs []logged, key string) []logged {
	for i, r := range reqs {
		if r.method+" "+r.path == key {
			return slices.Delete(slices.Clone(reqs), i, i+1)
		}
	}
	return reqs
}

func oneRequestPerMove(reqs []logged, mine int, setup bool) error {
	played, refused := 0, 0
	want := map[string]int{"POST /api/v1/tables": 1, "GET /api/v1/tables/{id}": 1}
	if setup {
		want["POST /api/v1/tables/{id}/setup"] = 1
	}
	var extra []logged
	for _, r := range reqs {
		key := r.method + " " + r.path
		switch {
		case key == "POST /api/v1/tables/{id}/moves" && r.status < 300:
			played++
		case key == "POST /api/v1/tables/{id}/moves" && r.status == http.StatusUnprocessableEntity:
			refused++
		case want[key] > 0 && r.status < 300:
			want[key]--
		default:
			extra = append(extra, r)
		}
	}
	if played != mine {
		return fmt.Errorf("%d moves in the record, %d move requests taken", mine, played)
	}
	for key, n := range want {
		if n > 0 {
			return fmt.Errorf("no %s among the requests %v", key, reqs)
		}
	}
	if len(extra) > 0 {
		return fmt.Errorf("%d requests for %d moves (%d refused): %d more than one a move: %v", len(reqs), mine, refused, len(extra), extra)
	}
	return nil
}

// newServer starts a real server (the server package on a loopback port,
// the real games and computer players, a SQLite store) that records every
// request it answers.
func newServer(t *testing.T) (*httptest.Server, *requestLog) {
	return newServerWith(t, nil)
}

// newServerWith is newServer on clock (nil: the system's).
func newServerWith(t *testing.T, clock table.Clock) (*httptest.Server, *requestLog) {
	return newServerWaiting(t, clock, 0)
}

// newServerWaiting is newServerWith with the server's longest wait
// maxWait (0: the default).
func newServerWaiting(t *testing.T, clock table.Clock, maxWait time.Duration) (*httptest.Server, *requestLog) {
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "p.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := server.New(context.Background(), server.Config{Store: db, Games: games.Registry(), NewBot: games.NewBot, BotTimeout: 20 * time.Second, Clock: clock, MaxWait: maxWait})
	if err != nil {
		t.Fatal(err)
	}
	h := server.NewHandler(svc, limit.Limits{})
	log := &requestLog{}
	srv := httptest.NewServer(log.wrap(h))
	t.Cleanup(func() {
		h.CloseSockets("test over")
		srv.Close()
		svc.Close()
		db.Close()
	})
	return srv, log
}

// movesBy counts the moves of the player called name in table's record.
func movesBy(ctx context.Context, t *testing.T, b *Bot, name string) int {
	var rec game.Record
	if err := b.call(ctx, "/api/v1/tables/"+b.table+"/record", nil, &rec); err != nil {
		t.Fatal(err)
	}
	// The record is whole and replays: the game really ended.
	_, st, _, err := game.Replay(games.Registry(), &rec, lexicon.Default())
	if err != nil || st.Result().Status != game.Finished {
		t.Fatalf("the record does not replay to the end: %v", err)
	}
	mine := 0
	for _, m := range rec.Moves {
		if m.By == name {
			mine++
		}
	}
	return mine
}

// TestBotPlaysThroughTheAPI runs the example bot against a real server to
// the end of a game of Nymphabet, one of Quizl and one of Salvo, and checks that it
// needed one request per turn: every request it made is counted, and
// beyond opening the table, its setup and reading the result, each is a
// move POSTed with "wait"; no polling, no event stream.
func TestBotPlaysThroughTheAPI(t *testing.T) {
	srv, log := newServer(t)
	for _, name := range []string{"nymphabet", "quizl", "salvo", "wordfight"} {
		t.Run(name, func(t *testing.T) {
			var out strings.Builder
			b := &Bot{Server: srv.URL, Words: strings.Fields(builtinWords), Log: &out}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			log.take()
			res, err := b.Play(ctx, name, game.Easy)
			if err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			reqs := log.take()
			if len(res.Scores) != 2 {
				t.Fatalf("result %+v: the game did not finish\n%s", res, out.String())
			}
			mine := movesBy(ctx, t, b, "Example bot")
			if mine == 0 {
				t.Fatal("the bot made no move")
			}
			if name == "wordfight" {
				// It reads the table once before it plays, for its grid,
				// and follows it to its first turn when the computer
				// declares first.
				reqs = dropFirst(reqs, "GET /api/v1/tables/{id}")
				reqs = dropFirst(reqs, "GET /api/v1/tables/{id}/events")
			}
			if err := oneRequestPerMove(reqs, mine, name == "quizl" || name == "salvo"); err != nil {
				t.Error(err)
			}
			t.Logf("%s: %d moves in %d requests, result %+v\n%s", name, mine, len(reqs), res, out.String())
		})
	}
}

// TestBotOutwaitsASlowSetup: a person may take longer over a Quizl grid
// than the server's longest wait; the bot, whose setup's wait then ends
// timed out, goes on waiting for play to start and its turn, rather than
// move before the start and give the game up.
func TestBotOutwaitsASlowSetup(t *testing.T) {
	const maxWait = 300 * time.Millisecond
	srv, _ := newServerWaiting(t, nil, maxWait)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out strings.Builder
	b := &Bot{Server: srv.URL, Words: strings.Fields(builtinWords), Log: &out}
	var seated struct{ Table, Token string }
	if err := b.call(ctx, "/api/v1/tables", map[string]any{"game": "quizl", "seats": []string{"me", "open"}, "name": "Example bot", "private": true}, &seated); err != nil {
		t.Fatal(err)
	}
	b.table, b.token = seated.Table, seated.Token
	ben := &Bot{Server: srv.URL, Log: io.Discard, table: seated.Table}
	if err := ben.call(ctx, "/api/v1/tables/"+seated.Table+"/join", map[string]any{"name": "Ben"}, &seated); err != nil {
		t.Fatal(err)
	}
	ben.token = seated.Token
	// Ben sets up once the bot's setup has waited the server's longest
	// wait, twice over, calls a square and then resigns; the bot plays
	// on against his grid to the end.
	benDone := make(chan error, 1)
	go func() {
		var view struct {
			Table struct {
				Status string `json:"status"`
				ToMove []int  `json:"to_move"`
				Seats  []struct {
					Ready bool `json:"ready"`
				} `json:"seats"`
			} `json:"table"`
		}
		look := func(done func() bool) error {
			for {
				if err := ben.call(ctx, "/api/v1/tables/"+ben.table, nil, &view); err != nil {
					return err
				}
				if done() {
					return nil
				}
				time.Sleep(20 * time.Millisecond)
			}
		}
		if err := look(func() bool { return view.Table.Seats[0].Ready }); err != nil {
			benDone <- err
			return
		}
		time.Sleep(2 * maxWait)
		var a Answer
		if err := ben.call(ctx, "/api/v1/tables/"+ben.table+"/setup", map[string]any{"auto": true}, &a); err != nil {
			benDone <- err
			return
		}
		for _, mv := range []string{"50", "resign"} {
			if err := look(func() bool { return slices.Equal(view.Table.ToMove, []int{1}) || view.Table.Status == "finished" }); err != nil {
				benDone <- err
				return
			}
			if err := ben.call(ctx, "/api/v1/tables/"+ben.table+"/moves", map[string]any{"move": mv}, &a); err != nil {
				benDone <- fmt.Errorf("%s: %w", mv, err)
				return
			}
		}
		benDone <- nil
	}()
	if err := b.quizl(ctx); err != nil {
		t.Fatalf("the bot gave up: %v\n%s", err, out.String())
	}
	if err := <-benDone; err != nil {
		t.Fatalf("Ben: %v", err)
	}
	var view struct {
		Table struct {
			Status string `json:"status"`
		} `json:"table"`
	}
	if err := b.call(ctx, "/api/v1/tables/"+b.table, nil, &view); err != nil || view.Table.Status != "finished" {
		t.Fatalf("the table is %q (%v), want the game over\n%s", view.Table.Status, err, out.String())
	}
	if n := movesBy(ctx, t, b, "Example bot"); n == 0 {
		t.Fatalf("the bot made no move\n%s", out.String())
	}
}

// TestBotRefusesOtherGamesFirst: asked to play a game it cannot, the
// bot says so before it opens a table, rather than leaving one behind
// against the computer that no one will ever move at.
func TestBotRefusesOtherGamesFirst(t *testing.T) {
	srv, log := newServer(t)
	for _, name := range []string{"chess", "Quizl", ""} {
		b := &Bot{Server: srv.URL, Words: strings.Fields(builtinWords), Log: io.Discard}
		log.take()
		_, err := b.Play(context.Background(), name, game.Easy)
		if err == nil || !strings.Contains(err.Error(), "plays nymphabet, quizl, salvo and wordfight") {
			t.Errorf("playing %s: %v, want the bot's refusal", name, err)
		}
		if reqs := log.take(); len(reqs) != 0 {
			t.Errorf("playing %s: the bot asked the server %v, want nothing", name, reqs)
		}
	}
}

// TestPollingBotFails: the check of TestBotPlaysThroughTheAPI refuses a
// bot that plays without "wait" and asks for the table until it is its
// turn, and one that follows the event stream, though each POSTs exactly
// one request a move.
func TestPollingBotFails(t *testing.T) {
	srv, log := newServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b := &Bot{Server: srv.URL, Log: io.Discard}
	var seated struct{ Table, Token string }
	var view struct {
		Seat  int `json:"seat"`
		Table struct {
			Status string `json:"status"`
			ToMove []int  `json:"to_move"`
		} `json:"table"`
	}
	myTurn := func() {
		for {
			if err := b.call(ctx, "/api/v1/tables/"+b.table, nil, &view); err != nil {
				t.Fatal(err)
			}
			if view.Table.Status == "finished" || slices.Contains(view.Table.ToMove, view.Seat) {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	for _, follow := range []bool{false, true} {
		log.take()
		b.token = ""
		if err := b.call(ctx, "/api/v1/tables", map[string]any{"game": "nymphabet", "seats": []string{"me", "computer:easy"}, "name": "Poller", "private": true}, &seated); err != nil {
			t.Fatal(err)
		}
		b.table, b.token = seated.Table, seated.Token
		var a Answer
		for _, mv := range []string{"able", "resign"} {
			if follow {
				myTurnByStream(ctx, t, b, a.Version)
			} else {
				myTurn()
			}
			if err := b.call(ctx, "/api/v1/tables/"+b.table+"/moves", map[string]any{"move": mv}, &a); err != nil {
				t.Fatal(err)
			}
		}
		// The result, read once, as the example bot does.
		if err := b.call(ctx, "/api/v1/tables/"+b.table, nil, &view); err != nil || view.Table.Status != "finished" {
			t.Fatalf("after resigning the table is %q (%v)", view.Table.Status, err)
		}
		reqs := log.take()
		mine := movesBy(ctx, t, b, "Poller")
		if mine != 2 {
			t.Fatalf("the poller made %d moves, want 2", mine)
		}
		err := oneRequestPerMove(reqs, mine, false)
		if err == nil || !strings.Contains(err.Error(), "more than one a move") {
			t.Errorf("following the stream %v: %d requests for 2 moves passed as one a move (%v)", follow, len(reqs), err)
		}
	}
}

// myTurnByStream follows the table's event stream from version until it
// is b's turn (or the game is over), as Bot.awaitTurn does.
func myTurnByStream(ctx context.Context, t *testing.T, b *Bot, version int) {
	a := Answer{Version: version}
	if err := b.awaitTurn(ctx, &a); err != nil {
		t.Fatal(err)
	}
}

// TestBotWords: the words the bot carries are genuine (so that it plays
// rather than resigns), some begin with every letter, and the Quizl
// ones have five different letters.
func TestBotWords(t *testing.T) {
	lex := lexicon.Default()
	first := map[byte]bool{}
	for _, w := range strings.Fields(builtinWords) {
		if !lex.Has(w) {
			t.Errorf("%q is not a word of the en lexicon", w)
		}
		first[w[0]] = true
	}
	if len(first) != 26 {
		t.Errorf("words begin with %d letters of 26", len(first))
	}
	for _, c := range []struct {
		word string
		cur  byte
		want int
	}{
		{"abdicated", 'a', 4},
		{"abdicate", 'a', 3},
		{"able", 'a', 2},
		{"xylophone", 'x', 2}, // no Z after the Y
		{"zoo", 'z', 1},
	} {
		if got := deletes(c.word, c.cur); got != c.want {
			t.Errorf("deletes(%q, %c) = %d, want %d", c.word, c.cur, got, c.want)
		}
	}
}

// TestBotUsesOnlyTheAPI: the bot imports the standard library alone, as a
// program written anywhere would; nothing of Parlour's packages.
func TestBotUsesOnlyTheAPI(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") || first == "parlour" {
			t.Errorf("the bot imports %s", path)
		}
	}
}

// TestBotPlaysAnArena, for an arena of Nymphabet and one of Quizl: two
// example bots, one signed in to an account (-name and -password) and
// one a guest, join an arena (one with its password, the other refused
// without it first), are paired by it as the player stream says, and
// play its games to their ends, again and again, until the arena ends;
// each then has its line of the final standings, and the games the
// standings count are those the bots played, every one finished and
// scored.
func TestBotPlaysAnArena(t *testing.T) {
	for _, name := range []string{"nymphabet", "quizl", "salvo", "wordfight"} {
		t.Run(name, func(t *testing.T) { arenaOfBots(t, name) })
	}
}

// arenaOfBots runs TestBotPlaysAnArena's arena of gameName.
func arenaOfBots(t *testing.T, gameName string) {
	clk := tabletest.NewClock(time.Now())
	srv, _ := newServerWith(t, clk)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	api := &Bot{Server: srv.URL, Log: io.Discard}
	var maker, ada struct{ Token string }
	for _, acct := range []struct {
		name string
		into *struct{ Token string }
	}{{"Maker", &maker}, {"Ada", &ada}} {
		if err := api.call(ctx, "/api/v1/accounts", map[string]string{"name": acct.name, "password": "correct horse battery"}, acct.into); err != nil {
			t.Fatal(err)
		}
	}
	api.token = maker.Token
	var ev struct {
		ID      string `json:"id"`
		Minutes int    `json:"minutes"`
	}
	// A game on a clock of 1+0 runs at most two minutes: a ten-minute
	// arena pairs for eight.
	if err := api.call(ctx, "/api/v1/tournaments", map[string]any{"kind": "arena", "name": "Bots' night", "game": gameName,
		"minutes": 10, "password": "owl", "clock": map[string]any{"kind": "fischer", "initial": 60, "increment": 0}}, &ev); err != nil {
		t.Fatal(err)
	}

	type run struct {
		bot *Bot
		out strings.Builder
		st  Standing
		err error
	}
	// The standings are read every two seconds: the stream, which the
	// test checks brings the pairings, has that long to come first on a
	// loaded machine (it lost to a read every 200 ms once in a few runs).
	runs := []*run{{}, {}}
	runs[0].bot = &Bot{Server: srv.URL, Words: strings.Fields(builtinWords), Poll: 2 * time.Second}
	runs[1].bot = &Bot{Server: srv.URL, Words: strings.Fields(builtinWords), Poll: 2 * time.Second}
	for _, r := range runs {
		r.bot.Log = &r.out
	}
	if err := runs[0].bot.SignIn(ctx, "ada", "correct horse battery", ""); err != nil {
		t.Fatal(err)
	}
	if err := runs[1].bot.SignIn(ctx, "Robo", "", ""); err != nil {
		t.Fatal(err)
	}
	// Without the arena's password: refused, and nothing joined.
	if _, err := runs[1].bot.Arena(ctx, ev.ID, ""); err == nil || !strings.Contains(err.Error(), "password") {
		t.Fatalf("the guest joined without the password: %v", err)
	}
	var wg sync.WaitGroup
	for _, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.st, r.err = r.bot.Arena(ctx, ev.ID, "owl")
		}()
	}

	// Both in, the maker starts the arena; the bots play until two games
	// are over.
	type game struct {
		Table   string     `json:"table"`
		Players []string   `json:"players"`
		Points  []int      `json:"points"`
		Ended   *time.Time `json:"ended"`
	}
	var state struct {
		Status    string     `json:"status"`
		Players   int        `json:"players"`
		Games     []game     `json:"games"`
		Standings []Standing `json:"standings"`
	}
	read := func() {
		t.Helper()
		state.Games, state.Standings = nil, nil // read afresh, not over the last answer
		if err := api.call(ctx, "/api/v1/tournaments/"+ev.ID, nil, &state); err != nil {
			t.Fatalf("%v: %+v\n%s\n%s", err, state, runs[0].out.String(), runs[1].out.String())
		}
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for read(); !ok(); read() {
			if ctx.Err() != nil {
				t.Fatalf("waited for %s: %+v\n%s\n%s", what, state, runs[0].out.String(), runs[1].out.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor("both bots in the arena", func() bool { return state.Players == 2 })
	if err := api.call(ctx, "/api/v1/tournaments/"+ev.ID+"/start", map[string]any{}, &state); err != nil {
		t.Fatal(err)
	}
	ended := func() int {
		n := 0
		for _, g := range state.Games {
			if g.Ended != nil {
				n++
			}
		}
		return n
	}
	waitFor("the first game over", func() bool { return ended() >= 1 })
	// The arena pairs again after its pause, and they play again.
	clk.Advance(tournament.ArenaPause)
	waitFor("two games over", func() bool { return ended() >= 2 })

	// The arena's time runs out: the game under way ends on its clock
	// (if not before), and the arena with it.
	clk.Advance(time.Duration(ev.Minutes)*time.Minute + time.Second)
	waitFor("the arena's end", func() bool { return state.Status == "finished" })
	wg.Wait()
	for _, r := range runs {
		if r.err != nil {
			t.Fatalf("%s: %v\n%s", r.bot.name, r.err, r.out.String())
		}
	}
	if ended() != len(state.Games) {
		t.Errorf("the arena finished with games unscored: %+v", state.Games)
	}
	names := map[string]bool{}
	for _, r := range runs {
		names[r.bot.name] = true
		if r.st.Games != len(state.Games) {
			t.Errorf("%s's standing %+v counts %d games; the arena had %d", r.bot.name, r.st, r.st.Games, len(state.Games))
		}
		if n := strings.Count(r.out.String(), ": game over,"); n != len(state.Games) {
			t.Errorf("%s played %d games to their end; the arena had %d:\n%s", r.bot.name, n, len(state.Games), r.out.String())
		}
		// The stream brings the pairings (the standings, read every
		// Poll, are the fallback).
		if !strings.Contains(r.out.String(), "(the player stream said)") {
			t.Errorf("%s learned of no game from the player stream:\n%s", r.bot.name, r.out.String())
		}
		if r.st.Rank < 1 || r.st.Playing != "" {
			t.Errorf("%s's final standing: %+v", r.bot.name, r.st)
		}
	}
	if !names["Ada"] || !names["Robo"] {
		t.Errorf("the bots played as %v, not Ada and Robo", names)
	}
	for _, g := range state.Games {
		if len(g.Players) != 2 || !names[g.Players[0]] || !names[g.Players[1]] || len(g.Points) != 2 {
			t.Errorf("a game of the arena: %+v", g)
		}
	}
	t.Logf("%d games; standings %+v", len(state.Games), state.Standings)
}
