package server_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
	"parlour/server"
	"parlour/server/internal/servertest"
	"parlour/server/limit"
	"parlour/server/table"
	"parlour/server/table/tabletest"
	"parlour/store"
	"parlour/store/sqlite"
)

// newFakeClock returns a clock that moves only when told, at a fixed
// start.
func newFakeClock() *tabletest.Clock {
	return tabletest.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
}

// clockEnv is a server on a database that survives restarts, with a fake
// clock.
type clockEnv struct {
	t     *testing.T
	path  string
	clock *tabletest.Clock
	// kind, when set, is the store the server runs on, at path;
	// otherwise SQLite at path.
	kind *servertest.StoreKind
	// newBot, when set, makes the computer players in place of
	// games.NewBot.
	newBot table.BotMaker
	// late, when set, is the server's clock in place of clock: a timer
	// late to fire.
	late *lateClock
	// ahead makes the daily puzzles ahead (server.Config.DailyAhead).
	ahead bool
	// lim is the door's limits (the defaults where unset).
	lim limit.Limits
	db  store.Store
	svc *server.Service
	h   *server.Handler
	srv *httptest.Server
}

func newClockEnv(t *testing.T) *clockEnv {
	e := &clockEnv{t: t, path: filepath.Join(t.TempDir(), "p.db"), clock: newFakeClock()}
	e.start()
	t.Cleanup(e.stop)
	return e
}

// newClockEnvOn is newClockEnv on a fresh store of kind k.
func newClockEnvOn(t *testing.T, k servertest.StoreKind) *clockEnv {
	e := &clockEnv{t: t, path: k.Fresh(t), clock: newFakeClock(), kind: &k}
	e.start()
	t.Cleanup(e.stop)
	return e
}

func (e *clockEnv) start() {
	var db store.Store
	var err error
	if e.kind != nil {
		db, err = e.kind.Open(context.Background(), e.path, false)
	} else {
		db, err = sqlite.Open(context.Background(), e.path, sqlite.Options{Synchronous: "NORMAL"})
	}
	if err != nil {
		e.t.Fatal(err)
	}
	newBot := games.NewBot
	if e.newBot != nil {
		newBot = e.newBot
	}
	var clock table.Clock = e.clock
	if e.late != nil {
		clock = e.late
	}
	svc, err := server.New(context.Background(), server.Config{Store: db, Games: games.Registry(), NewBot: newBot, Clock: clock, DailyAhead: e.ahead})
	if err != nil {
		e.t.Fatal(err)
	}
	e.db, e.svc = db, svc
	e.h = server.NewHandler(svc, e.lim)
	e.srv = httptest.NewServer(e.h)
}

// crash stops the server as a crash would, before it can note its stop
// in the store: the store goes first.
func (e *clockEnv) crash() {
	e.h.CloseSockets("test over")
	e.srv.Close()
	e.db.Close()
	e.svc.Close()
	e.svc = nil
}

func (e *clockEnv) stop() {
	if e.svc == nil {
		return
	}
	e.h.CloseSockets("test over")
	e.srv.Close()
	e.svc.Close()
	e.db.Close()
	e.svc = nil
}

// call sends one request with token (none when empty) and answers its
// status and body.
func (e *clockEnv) call(method, path, token string, body any) (int, []byte) {
	e.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, e.srv.URL+path, r)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// table makes a table of g for Ann and Ben (seats 0 and 1; Ann alone for
// one seat) with rules, both setups made, and answers its id and the
// seats' tokens.
func (e *clockEnv) table(g string, seats int, rules map[string]any) (string, []string) {
	e.t.Helper()
	spec := []string{"me"}
	for range seats - 1 {
		spec = append(spec, "open")
	}
	var seated struct{ Table, Token string }
	st, b := e.call("POST", "/api/v1/tables", "", map[string]any{"game": g, "seats": spec, "name": "Ann", "rules": rules})
	if st != 201 {
		e.t.Fatalf("create %s: %d %s", g, st, b)
	}
	json.Unmarshal(b, &seated)
	id, toks := seated.Table, []string{seated.Token}
	for i := 1; i < seats; i++ {
		st, b := e.call("POST", "/api/v1/tables/"+id+"/join", "", map[string]any{"name": []string{"", "Ben", "Cat"}[i]})
		if st != 200 {
			e.t.Fatalf("join: %d %s", st, b)
		}
		json.Unmarshal(b, &seated)
		toks = append(toks, seated.Token)
	}
	if seats > 1 {
		if reg := games.Registry(); reg != nil {
			if gm, _ := reg.Lookup(g); gm.HasSetup() {
				for _, tok := range toks {
					if st, b := e.call("POST", "/api/v1/tables/"+id+"/setup", tok, map[string]any{"auto": true}); st != 200 {
						e.t.Fatalf("setup: %d %s", st, b)
					}
				}
			}
		}
	}
	return id, toks
}

type clockUpdate struct {
	Version int `json:"version"`
	Table   struct {
		Status string         `json:"status"`
		ToMove []int          `json:"to_move"`
		Rules  map[string]any `json:"rules"`
		Result *struct {
			Status  string `json:"status"`
			Winners []int  `json:"winners"`
		} `json:"result"`
		Aborted   *table.AbortInfo `json:"aborted"`
		Abortable bool             `json:"abortable"`
		Clock     *struct {
			Turn      int       `json:"turn"`
			Now       time.Time `json:"now"`
			Kind      string    `json:"kind"`
			Initial   int       `json:"initial"`
			Increment int       `json:"increment"`
			Days      int       `json:"days"`
		} `json:"clock"`
		Seats []struct {
			Deadline  *time.Time `json:"deadline"`
			TimeLeft  *float64   `json:"time_left"`
			AwaySince *time.Time `json:"away_since"`
		} `json:"seats"`
	} `json:"table"`
	Moves []struct {
		Seat   int          `json:"seat"`
		Move   string       `json:"move"`
		Events []game.Event `json:"events"`
	} `json:"moves"`
	Chat  []table.ChatLine `json:"chat"`
	Muted []string         `json:"muted"`
}

// view answers the table as token sees it (a spectator's for ""), with
// the moves after version from (-1: none).
func (e *clockEnv) view(id, token string) clockUpdate {
	e.t.Helper()
	st, b := e.call("GET", "/api/v1/tables/"+id, token, nil)
	if st != 200 {
		e.t.Fatalf("view: %d %s", st, b)
	}
	var u clockUpdate
	if err := json.Unmarshal(b, &u); err != nil {
		e.t.Fatal(err)
	}
	return u
}

// record answers the table's record as token sees it, and checks that
// it decodes.
func (e *clockEnv) record(id, token string) *game.Record {
	e.t.Helper()
	st, b := e.call("GET", "/api/v1/tables/"+id+"/record", token, nil)
	if st != 200 {
		e.t.Fatalf("record: %d %s", st, b)
	}
	rec, err := game.DecodeBytes(b)
	if err != nil {
		e.t.Fatalf("the record does not decode: %v\n%s", err, b)
	}
	return rec
}

// lastEvents answers the events of the moves after version from, as
// token sees them, through the event stream's resume.
func (e *clockEnv) movesSince(id, token string, from int) clockUpdate {
	e.t.Helper()
	req, _ := http.NewRequest("GET", e.srv.URL+"/api/v1/tables/"+id+"/events?from="+itoa(from), nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	res, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	var u clockUpdate
	if err := json.NewDecoder(res.Body).Decode(&u); err != nil {
		e.t.Fatal(err)
	}
	return u
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestClockRunsOut: in every game, a seat whose time runs out has the
// server play what its game allows (resign; Word Fight's cannot for a
// word to place) as an ordinary move of the record, after a "timeout"
// event; not a moment before. The record replays, clock and all.
func TestClockRunsOut(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		for _, tc := range []struct {
			game   string
			seats  int
			before []string // moves "seat:move" played first
			late   int      // the seat that runs out of time
			want   string   // what the server plays for it
			over   bool
		}{
			// Before every player has moved, a timeout aborts the game.
			{game: "nymphabet", seats: 2, late: 0, want: "abort", over: true},
			{game: "quizl", seats: 3, before: []string{"0:72"}, late: 1, want: "abort", over: true},
			{game: "quizl", seats: 2, late: 0, want: "abort", over: true},
			{game: "salvo", seats: 2, late: 0, want: "abort", over: true},
			{game: "wordfight", seats: 2, late: 0, want: "abort", over: true},
			{game: "wordfight", seats: 2, before: []string{"0:declare cart", "0:place B2 across"}, late: 1, want: "abort", over: true},
			// A lone seat has nobody to abort against; after every
			// player has moved, the server plays for the late one.
			{game: "quizl", seats: 1, late: 0, want: "resign", over: true},
			{game: "nymphabet", seats: 2, before: []string{"0:abdicated", "1:eight"}, late: 0, want: "resign", over: true},
			{game: "quizl", seats: 2, before: []string{"0:72", "1:72"}, late: 0, want: "resign"}, // Ben plays on against Ann's grid
			{game: "wordfight", seats: 2, before: []string{"0:declare cart", "0:place B2 across", "1:place B2 across", "1:declare dart"}, late: 0, want: "cannot"},
		} {
			t.Run(tc.game+"/"+tc.want, func(t *testing.T) {
				e := newClockEnvOn(t, k)
				id, toks := e.table(tc.game, tc.seats, map[string]any{"clock": 60})
				for _, m := range tc.before {
					seat, mv := int(m[0]-'0'), m[2:]
					if st, b := e.call("POST", "/api/v1/tables/"+id+"/moves", toks[seat], map[string]any{"move": mv}); st != 200 {
						t.Fatalf("%s: %d %s", m, st, b)
					}
				}
				u := e.view(id, "")
				if u.Table.Clock == nil || u.Table.Clock.Turn != 60 || u.Table.Seats[tc.late].Deadline == nil || *u.Table.Seats[tc.late].TimeLeft != 60 {
					t.Fatalf("the clock as the table shows it: %+v", u.Table)
				}
				if want := e.clock.Now().Add(time.Minute); !u.Table.Seats[tc.late].Deadline.Equal(want) {
					t.Errorf("deadline %v, want %v", u.Table.Seats[tc.late].Deadline, want)
				}
				moves := len(e.record(id, toks[tc.late]).Moves)
				e.clock.Advance(59 * time.Second)
				if n := len(e.record(id, toks[tc.late]).Moves); n != moves {
					t.Fatalf("a move was played %d s before the deadline", 1)
				}
				e.clock.Advance(time.Second)
				rec := e.record(id, toks[tc.late])
				if tc.want == "abort" {
					if len(rec.Moves) != moves || rec.Aborted == nil || rec.Aborted.By != rec.Players[tc.late] {
						t.Fatalf("the timeout did not abort the game for %s: moves %+v, aborted %+v", rec.Players[tc.late], rec.Moves, rec.Aborted)
					}
					u := e.view(id, "")
					if u.Table.Status != "finished" || u.Table.Result == nil || u.Table.Result.Status != "aborted" || u.Table.Aborted == nil || u.Table.Aborted.Why != "timeout" || u.Table.Aborted.Seat != tc.late {
						t.Fatalf("the table after the timeout: %+v", u.Table)
					}
					if _, st, _, err := game.Replay(games.Registry(), rec, lexicon.Default()); err != nil || st.Result().Status != game.Aborted {
						t.Errorf("the aborted record does not replay as aborted: %v", err)
					}
					return
				}
				if len(rec.Moves) <= moves {
					t.Fatalf("no move played at the deadline: %+v", rec.Moves)
				}
				// The first move played at the deadline is the late seat's
				// (another seat whose time ran out with it may follow).
				last := rec.Moves[moves]
				if last.By != rec.Players[tc.late] || last.Move != tc.want {
					t.Errorf("the server played %+v, want %s by %s", last, tc.want, rec.Players[tc.late])
				}
				if got, _ := json.Marshal(rec.Rules); string(got) != `{"clock":60}` {
					t.Errorf("the record's rules: %s", got)
				}
				u = e.movesSince(id, toks[0], e.view(id, "").Version-1)
				if len(u.Moves) != 1 || len(u.Moves[0].Events) == 0 || u.Moves[0].Events[0].Kind != "timeout" {
					t.Fatalf("the move's events: %+v", u.Moves)
				}
				if (u.Table.Status == "finished") != tc.over {
					t.Errorf("status %s after the timeout", u.Table.Status)
				}
				if tc.over {
					if _, _, _, err := game.Replay(games.Registry(), rec, lexicon.Default()); err != nil {
						t.Errorf("the record with a clock does not replay: %v", err)
					}
					// The record holds the move as an ordinary one; the
					// analysis says the server played it.
					e.forfeitAnalysed(id, moves+1, "timeout", rec.Players[tc.late]+" ran out of time")
				}
			})
		}
	})
}

// forfeitAnalysed checks that finished table id's analysis marks move
// index, and only it, as played by the server for why, and that its
// text says so.
func (e *clockEnv) forfeitAnalysed(id string, index int, why, says string) {
	e.t.Helper()
	st, b := e.call("GET", "/api/v1/tables/"+id+"/analysis", "", nil)
	var a struct {
		Forfeits []struct {
			Index int    `json:"index"`
			Why   string `json:"why"`
		} `json:"forfeits"`
	}
	if err := json.Unmarshal(b, &a); st != 200 || err != nil || len(a.Forfeits) != 1 || a.Forfeits[0].Index != index || a.Forfeits[0].Why != why {
		e.t.Errorf("the analysis once the server played move %d (%s): %d %.300s", index, why, st, b)
	}
	if st, b := e.call("GET", "/api/v1/tables/"+id+"/analysis?format=text", "", nil); st != 200 || !bytes.Contains(b, []byte(says)) {
		e.t.Errorf("the analysis in words does not say %q: %d %s", says, st, b)
	}
}

// TestHistorySaysForfeits: a player's history says when the server
// played for them, or for an opponent, and why: their time ran out, or
// they were away and the game was claimed.
func TestHistorySaysForfeits(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	ann, ben := e.identity("Ann"), e.identity("Ben")
	play := func(rules map[string]any) string {
		st, b := e.call("POST", "/api/v1/tables", ann, map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "rules": rules})
		var seated struct{ Table string }
		if json.Unmarshal(b, &seated); st != 201 {
			t.Fatalf("create: %d %s", st, b)
		}
		if st, b := e.call("POST", "/api/v1/tables/"+seated.Table+"/join", ben, map[string]any{}); st != 200 {
			t.Fatalf("join: %d %s", st, b)
		}
		for _, m := range []struct{ tok, move string }{{ann, "abdicated"}, {ben, "eight"}} {
			if st, b := e.call("POST", "/api/v1/tables/"+seated.Table+"/moves", m.tok, map[string]any{"move": m.move}); st != 200 {
				t.Fatalf("%s: %d %s", m.move, st, b)
			}
		}
		return seated.Table
	}
	// Ann's minute runs out.
	id := play(map[string]any{"clock": 60})
	e.clock.Advance(time.Minute)
	e.forfeitListed(ann, id, "timeout", "")
	e.forfeitListed(ben, id, "", "timeout")
	// Ann goes away without a clock, and Ben claims the game.
	id = play(nil)
	e.clock.Advance(6 * time.Minute)
	if st, b := e.call("POST", "/api/v1/tables/"+id+"/claim", ben, nil); st != 200 {
		t.Fatalf("claim: %d %s", st, b)
	}
	e.forfeitListed(ann, id, "claim", "")
	e.forfeitListed(ben, id, "", "claim")
	// Ben resigns a game of his own accord: nobody forfeited. (It ends
	// later than the last, to come first in the history.)
	e.clock.Advance(time.Second)
	id = play(nil)
	if st, b := e.call("POST", "/api/v1/tables/"+id+"/moves", ben, map[string]any{"move": "resign"}); st != 200 {
		t.Fatalf("resign: %d %s", st, b)
	}
	e.forfeitListed(ann, id, "", "")
	e.forfeitListed(ben, id, "", "")
}

// forfeitListed checks that token's latest finished game, table id, says
// in its history line why the server played for the player (own) and for
// each other seat (others, in seat order), "" where it did not.
func (e *clockEnv) forfeitListed(token, id, own string, others ...string) {
	e.t.Helper()
	st, b := e.call("GET", "/api/v1/identity/games?limit=1", token, nil)
	var h struct {
		Games []struct {
			Table     string `json:"table"`
			Forfeited string `json:"forfeited"`
			Opponents []struct {
				Forfeited string `json:"forfeited"`
			} `json:"opponents"`
		} `json:"games"`
	}
	if err := json.Unmarshal(b, &h); st != 200 || err != nil || len(h.Games) != 1 || h.Games[0].Table != id {
		e.t.Fatalf("the history: %d %s", st, b)
	}
	g := h.Games[0]
	var got []string
	for _, o := range g.Opponents {
		got = append(got, o.Forfeited)
	}
	if g.Forfeited != own || !slices.Equal(got, others) {
		e.t.Errorf("the history says the server played for the player %q and the others %q, want %q and %q: %s", g.Forfeited, got, own, others, b)
	}
}

// TestClockSurvivesRestart: deadlines follow from the stored times of the
// start and the moves, and the clocks stand still while the server is
// down: from its stop, or after a crash from its last note that it ran.
// A deadline still to come keeps what was left of its turn, not a new
// turn's, and fires when that has run out.
func TestClockSurvivesRestart(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		e := newClockEnvOn(t, k)
		first, ftoks := e.table("nymphabet", 2, map[string]any{"clock": 60})
		kept, ktoks := e.table("nymphabet", 2, map[string]any{"clock": 100})
		e.clock.Advance(10 * time.Second)
		// A word each: a timeout before then would abort the game.
		e.play(kept, ktoks, "0:abdicated", "1:eight")
		e.clock.Advance(20 * time.Second)
		left := func(when string, id string, want float64) {
			t.Helper()
			u := e.view(id, "")
			if d := u.Table.Seats[0].Deadline; d == nil || *u.Table.Seats[0].TimeLeft != want {
				t.Fatalf("%s: Ann's deadline %v, %v left; want %v s left", when, d, u.Table.Seats[0].TimeLeft, want)
			}
		}
		left("before the stop", first, 30)
		left("before the stop", kept, 80)
		e.stop()
		e.clock.Advance(50 * time.Second) // while the server is down: more than Ann's 30 s
		e.start()
		left("after the restart", first, 30)
		left("after the restart", kept, 80)
		// The server's last note that it runs comes 5 s after its start:
		// a crash 3 s after that stops the clocks at the note.
		e.clock.Advance(5 * time.Second)
		e.clock.Advance(3 * time.Second)
		e.crash()
		e.clock.Advance(time.Hour)
		e.start()
		left("after the crash", first, 25)
		left("after the crash", kept, 75)
		e.clock.Advance(24 * time.Second)
		if n := len(e.record(first, ftoks[1]).Moves); n != 0 {
			t.Fatalf("%d moves a second before Ann's deadline", n)
		}
		e.clock.Advance(time.Second)
		servertest.Eventually(t, 5*time.Second, "Ann's deadline after the crash to fire", func() bool {
			return e.view(first, "").Table.Status == "finished"
		})
		// Ann never moved there: her timeout aborted the game.
		rec := e.record(first, ftoks[0])
		if len(rec.Moves) != 0 || rec.Aborted == nil || rec.Aborted.By != "Ann" {
			t.Errorf("at the table whose deadline passed: %+v, aborted %+v", rec.Moves, rec.Aborted)
		}
		e.clock.Advance(50 * time.Second)
		rec = e.record(kept, ktoks[1])
		if len(rec.Moves) != 3 || rec.Moves[2].Move != "resign" || rec.Moves[2].By != "Ann" {
			t.Fatalf("Ann's deadline after the restarts did not fire: %+v", rec.Moves)
		}
		// The event says why, after a restart too: it is rebuilt from the
		// table's description.
		e.stop()
		e.start()
		u := e.movesSince(kept, ktoks[0], e.view(kept, "").Version-1)
		if len(u.Moves) != 1 || u.Moves[0].Events[0].Kind != "timeout" {
			t.Errorf("the timeout's event after a restart: %+v", u.Moves)
		}
	})
}

// TestClockRanOutAtTheStart: a deadline that passed while the server
// was down, where the store knows of no gap (a server back within the
// grace of a crash, whose clocks ran on; here, a store whose runs are
// forgotten), fires as the tables are restored: the game ends on time,
// and the parts that hear of its end, made after the tables, are there
// to hear it, where the server fell over as it started.
func TestClockRanOutAtTheStart(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	id, toks := e.table("nymphabet", 2, map[string]any{"clock": 60})
	e.play(id, toks, "0:abdicated", "1:eight")
	e.stop()
	db, err := sql.Open("sqlite", e.path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("DELETE FROM runs"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	e.clock.Advance(2 * time.Minute)
	e.start()
	servertest.Eventually(t, 5*time.Second, "Ann's deadline to fire at the start", func() bool {
		return e.view(id, "").Table.Status == "finished"
	})
	rec := e.record(id, toks[1])
	if n := len(rec.Moves); n != 3 || rec.Moves[2].Move != "resign" || rec.Moves[2].By != "Ann" {
		t.Fatalf("the moves after the start: %+v", rec.Moves)
	}
}

// TestClockOutOfRange: a clock outside 10 s to 7 days is refused with a
// 400 naming it, and no table is made.
func TestClockOutOfRange(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	for _, clock := range []any{0.5, 9, 604801, -1, "soon", "60", true} {
		st, b := e.call("POST", "/api/v1/tables", "", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "rules": map[string]any{"clock": clock}})
		if st != 400 || !bytes.Contains(b, []byte("rule option clock")) {
			t.Errorf("clock %v: %d %s", clock, st, b)
		}
	}
	if l, err := e.svc.Lobby(t.Context(), "open", 10); err != nil || len(l) != 0 {
		t.Errorf("refused tables in the lobby: %v %v", l, err)
	}
	for _, clock := range []any{"none", 10, 604800} {
		if st, b := e.call("POST", "/api/v1/tables", "", map[string]any{"game": "quizl", "seats": []string{"me"}, "rules": map[string]any{"clock": clock}}); st != 201 {
			t.Errorf("clock %v: %d %s", clock, st, b)
		}
	}
}

// TestClockEverySeatToAnswer: in Word Fight every seat still to answer a
// word has its own deadline, counted from the declaration; when several
// run out at once, each says cannot, and the next declarer's turn begins.
func TestClockEverySeatToAnswer(t *testing.T) {
	t.Parallel()
	e := newClockEnv(t)
	id, toks := e.table("wordfight", 3, map[string]any{"clock": 30})
	// A first word that everybody places: before every player has moved
	// a timeout would abort the game. Ben declares the next.
	e.play(id, toks, "0:declare cart", "0:place B2 across", "1:place B2 across", "2:place B2 across", "1:declare dart")
	e.clock.Advance(20 * time.Second)
	e.play(id, toks, "2:place C1 down")
	u := e.view(id, "")
	for _, seat := range []int{0, 1} {
		if l := u.Table.Seats[seat].TimeLeft; l == nil || *l != 10 {
			t.Errorf("seat %d has %v s left, want 10: its time runs from the declaration", seat, l)
		}
	}
	e.clock.Advance(10 * time.Second)
	for seat, tok := range toks {
		rec := e.record(id, tok)
		if len(rec.Moves) != 8 || rec.Aborted != nil {
			t.Fatalf("moves after the deadline: %+v", rec.Moves)
		}
		if seat != 2 {
			var mine string
			for _, m := range rec.Moves[6:] {
				if m.By == rec.Players[seat] {
					mine = m.Move
				}
			}
			if mine != "cannot" {
				t.Errorf("%s's answer: %q, want cannot", rec.Players[seat], mine)
			}
		}
	}
	u = e.view(id, "")
	if len(u.Table.ToMove) != 1 || u.Table.ToMove[0] != 2 || *u.Table.Seats[2].TimeLeft != 30 {
		t.Errorf("after the word: to move %v, %+v", u.Table.ToMove, u.Table.Seats[2])
	}
}
