package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
	"parlour/server"
	"parlour/server/internal/servertest"
	"parlour/server/limit"
	"parlour/server/table"
	"parlour/store"
	"parlour/store/sqlite"
)

type env struct {
	t   *testing.T
	srv *httptest.Server
	svc *server.Service
	reg *game.Registry
	lex *lexicon.Lexicon
	// nodes, when set, are the servers of a cluster: the person at seat
	// i talks to nodes[i%len(nodes)] (see url), instead of srv.
	nodes []string
}

// url is the server the person at seat i talks to.
func (e *env) url(i int) string {
	if len(e.nodes) > 0 {
		return e.nodes[i%len(e.nodes)]
	}
	return e.srv.URL
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "p.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	return newEnvWith(t, db)
}

// newEnvOn is newEnv on a fresh store of kind k.
func newEnvOn(t *testing.T, k servertest.StoreKind) *env {
	t.Helper()
	db, _ := k.OpenFresh(t)
	return newEnvWith(t, db)
}

// newEnvWith serves the real games on db, which it closes when t ends.
func newEnvWith(t *testing.T, db store.Store) *env {
	t.Helper()
	svc, err := server.New(context.Background(), server.Config{Store: db, Games: games.Registry(), NewBot: games.NewBot, BotTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	h := server.NewHandler(svc, limit.Limits{})
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnContext = h.ConnContext
	srv.Start()
	t.Cleanup(func() {
		h.CloseSockets("test over")
		svc.Close()
		srv.Close()
		db.Close()
	})
	return &env{t: t, srv: srv, svc: svc, reg: games.Registry(), lex: lexicon.Default()}
}

// person is a player at a table, driven by a computer player's brain but
// talking to the server as any program would: over HTTP (NDJSON events and
// POSTed moves) or over the WebSocket. It keeps every byte it receives.
type person struct {
	e     *env
	door  string // "http" or "ws"
	name  string
	table string
	seat  int
	token string
	gname string

	mu  sync.Mutex
	got bytes.Buffer
	// commitments as published when play started.
	commitments []string
	final       wireUpdate
	moves       []string
}

type wireUpdate struct {
	Version int             `json:"version"`
	Seat    int             `json:"seat"`
	Table   table.Info      `json:"table"`
	View    json.RawMessage `json:"view"`
}

func (p *person) keep(b []byte) {
	p.mu.Lock()
	p.got.Write(b)
	p.got.WriteByte('\n') // one message a line
	p.mu.Unlock()
}

func (p *person) post(path string, body any, out any) (int, string) {
	b, _ := json.Marshal(body)
	code, raw := p.do("POST", path, bytes.NewReader(b))
	if out != nil && code < 300 {
		json.Unmarshal(raw, out)
	}
	return code, string(raw)
}

func (p *person) get(path string) []byte {
	_, raw := p.do("GET", path, nil)
	return raw
}

// do sends one request with this person's token and keeps what came back
// for the secrecy check.
func (p *person) do(method, path string, body io.Reader) (int, []byte) {
	req, _ := http.NewRequest(method, p.e.url(p.seat)+path, body)
	if p.token != "" {
		req.Header.Set("Authorization", "Bearer "+p.token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		p.e.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	p.keep(raw)
	return res.StatusCode, raw
}

// brain returns the computer player that chooses this person's moves.
func (p *person) brain() game.Bot {
	b, err := games.NewBot(p.gname, game.Medium, uint64(p.seat+7), p.e.lex)
	if err != nil {
		p.e.t.Fatal(err)
	}
	return b
}

func (p *person) config(in table.Info) game.Config {
	var players []string
	for _, s := range in.Seats {
		players = append(players, s.Name)
	}
	cfg, err := games.Config(p.gname, in.Rules, players, p.e.lex)
	if err != nil {
		p.e.t.Fatal(err)
	}
	return cfg
}

// next chooses a move for an update, or "" when it is not this seat's turn.
func (p *person) next(ctx context.Context, bot game.Bot, u wireUpdate) (string, error) {
	if u.Table.Status == store.Playing && p.commitments == nil {
		p.commitments = u.Table.Commitments
	}
	if u.Table.Status != store.Playing || !slices.Contains(u.Table.ToMove, game.Seat(p.seat)) {
		return "", nil
	}
	view, err := games.DecodeView(p.gname, u.View)
	if err != nil {
		return "", err
	}
	return bot.Move(ctx, p.config(u.Table), game.Seat(p.seat), view)
}

// setup sends the seat's setup: its brain's for even seats, the server's
// random one for odd seats.
func (p *person) setup(ctx context.Context) {
	g, _ := p.e.reg.Lookup(p.gname)
	var u wireUpdate
	json.Unmarshal(p.get("/api/v1/tables/"+p.table), &u)
	if !g.HasSetup() || len(u.Table.Seats) == 1 {
		return
	}
	body := map[string]any{"auto": true}
	if p.seat%2 == 0 {
		raw, err := p.brain().Setup(ctx, p.config(u.Table), game.Seat(p.seat))
		if err != nil {
			p.e.t.Fatal(err)
		}
		body = map[string]any{"setup": raw}
	}
	if st, b := p.post("/api/v1/tables/"+p.table+"/setup", body, nil); st != 200 {
		p.e.t.Errorf("%s setup: %d %s", p.name, st, b)
	}
}

// play plays to the end of the game through the person's door.
func (p *person) play(ctx context.Context) error {
	if p.door == "ws" {
		return p.playSocket(ctx)
	}
	bot := p.brain()
	req, _ := http.NewRequestWithContext(ctx, "GET", p.e.url(p.seat)+"/api/v1/tables/"+p.table+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+p.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		p.keep(sc.Bytes())
		var u wireUpdate
		if err := json.Unmarshal(sc.Bytes(), &u); err != nil {
			return fmt.Errorf("%s: update %q: %w", p.name, sc.Bytes(), err)
		}
		p.final = u
		mv, err := p.next(ctx, bot, u)
		if err != nil {
			return fmt.Errorf("%s: choosing a move: %w", p.name, err)
		}
		if mv == "" {
			continue
		}
		st, body := p.post("/api/v1/tables/"+p.table+"/moves", map[string]any{"move": mv, "version": u.Version}, nil)
		if st != 200 && st != 409 {
			return fmt.Errorf("%s: move %q refused: %d %s", p.name, mv, st, body)
		}
		if st == 200 {
			p.moves = append(p.moves, mv)
		}
	}
	if p.final.Table.Status != store.Finished {
		return fmt.Errorf("%s: the event stream ended before the game: %v", p.name, sc.Err())
	}
	return nil
}

func (p *person) playSocket(ctx context.Context) error {
	bot := p.brain()
	url := "ws" + strings.TrimPrefix(p.e.url(p.seat), "http") + "/api/v1/tables/" + p.table + "/socket"
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return err
	}
	defer c.CloseNow()
	c.SetReadLimit(4 << 20)
	hello, _ := json.Marshal(map[string]any{"type": "hello", "token": p.token})
	if err := c.Write(ctx, websocket.MessageText, hello); err != nil {
		return err
	}
	for {
		_, b, err := c.Read(ctx)
		if err != nil {
			return fmt.Errorf("%s: socket: %w", p.name, err)
		}
		p.keep(b)
		var m struct {
			Type   string      `json:"type"`
			Update *wireUpdate `json:"update"`
			Error  string      `json:"error"`
			Status int         `json:"status"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			return err
		}
		switch m.Type {
		case "error":
			if m.Status != 409 {
				return fmt.Errorf("%s: socket error %d: %s", p.name, m.Status, m.Error)
			}
			continue
		case "update":
		default:
			continue
		}
		u := *m.Update
		p.final = u
		if u.Table.Status == store.Finished {
			c.Close(websocket.StatusNormalClosure, "")
			return nil
		}
		mv, err := p.next(ctx, bot, u)
		if err != nil {
			return fmt.Errorf("%s: choosing a move: %w", p.name, err)
		}
		if mv == "" {
			continue
		}
		msg, _ := json.Marshal(map[string]any{"type": "move", "move": mv, "version": u.Version})
		if err := c.Write(ctx, websocket.MessageText, msg); err != nil {
			return err
		}
		p.moves = append(p.moves, mv)
	}
}

// seat describes one seat of a scenario: "http", "ws" or "computer:LEVEL".
type scenario struct {
	name  string
	game  string
	rules map[string]any
	seats []string
}

func (e *env) run(sc scenario) {
	t := e.t
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var people []*person
	var created table.Seated
	specs := make([]string, len(sc.seats))
	first := -1
	for i, s := range sc.seats {
		switch {
		case strings.HasPrefix(s, "computer"):
			specs[i] = s
		case first < 0:
			specs[i], first = "me", i
		default:
			specs[i] = "open"
		}
	}
	creator := &person{e: e, door: sc.seats[first], name: "Ann", gname: sc.game, seat: first}
	if st, b := creator.post("/api/v1/tables", map[string]any{"game": sc.game, "rules": sc.rules, "seats": specs, "name": "Ann"}, &created); st != 201 {
		t.Fatalf("create: %d %s", st, b)
	}
	creator.table, creator.token = created.Table, created.Token
	people = append(people, creator)
	for i, s := range sc.seats {
		if specs[i] != "open" {
			continue
		}
		p := &person{e: e, door: s, name: fmt.Sprintf("P%d", i), gname: sc.game, table: created.Table, seat: i}
		var j table.Seated
		if st, b := p.post("/api/v1/tables/"+created.Table+"/join", map[string]any{"name": p.name, "seat": i}, &j); st != 200 {
			t.Fatalf("join: %d %s", st, b)
		}
		p.seat, p.token = j.Seat, j.Token
		people = append(people, p)
	}
	for _, p := range people {
		p.setup(ctx)
	}
	errs := make(chan error, len(people))
	for _, p := range people {
		go func() { errs <- p.play(ctx) }()
	}
	for range people {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	// The finished record replays, and the commitments open.
	var rec game.Record
	json.Unmarshal(creator.get("/api/v1/tables/"+created.Table+"/record"), &rec)
	if _, st, _, err := game.Replay(e.reg, &rec, e.lex); err != nil || st.Result().Status != game.Finished {
		t.Fatalf("the record does not replay to the end: %v", err)
	}
	final := creator.final.Table
	g, _ := e.reg.Lookup(sc.game)
	if g.HasSetup() {
		if len(final.Reveal) != len(sc.seats) {
			t.Fatalf("reveal %+v", final.Reveal)
		}
		for _, p := range people {
			if !slices.Equal(p.commitments, final.Commitments) {
				t.Fatalf("%s saw commitments %v at the start, %v at the end", p.name, p.commitments, final.Commitments)
			}
		}
		for i, r := range final.Reveal {
			if !table.VerifyCommitment(final.Commitments[i], r.Salt, r.Setup) {
				t.Fatalf("seat %d's commitment does not open", i)
			}
			if !bytes.Equal(compact(r.Setup), compact(rec.Setup[rec.Players[i]])) {
				t.Fatalf("seat %d's revealed setup differs from the record's", i)
			}
		}
	}
	for _, p := range people {
		checkSecrecy(t, p, &rec, e.reg, e.lex)
	}
	t.Logf("%s: %d moves, result %+v", sc.name, len(rec.Moves), final.Result)
}

func compact(b []byte) []byte {
	var out bytes.Buffer
	json.Compact(&out, b)
	return out.Bytes()
}

// checkSecrecy looks through every byte p received before the game ended
// for another seat's secrets: the arrays of its setup (a Quizl grid, a
// Salvo fleet) and its secret moves (Word Fight placements).
func checkSecrecy(t *testing.T, p *person, rec *game.Record, reg *game.Registry, lex *lexicon.Lexicon) {
	t.Helper()
	got := p.got.String()
	end := strings.Index(got, `"status":"finished"`)
	if end < 0 {
		t.Fatalf("%s never saw the end", p.name)
	}
	_, _, steps, err := game.Replay(reg, rec, lex)
	if err != nil {
		t.Fatal(err)
	}
	// public returns where in got the game itself first told everybody
	// secret (a Salvo fleet rightly outlined), or the end.
	public := func(secret string) int {
		for _, st := range steps {
			for _, e := range st.Events {
				b, _ := json.Marshal(e)
				if e.To == nil && strings.Contains(string(b), secret) {
					txt, _ := json.Marshal(e.Text)
					if i := strings.Index(got, string(txt[1:len(txt)-1])); i >= 0 && i < end {
						// The message that brought the event may show the
						// secret (in the view) before the event itself.
						return strings.LastIndexByte(got[:i], '\n') + 1
					}
				}
			}
		}
		return end
	}
	for i, name := range rec.Players {
		if i == p.seat {
			continue
		}
		var fields map[string]json.RawMessage
		json.Unmarshal(rec.Setup[name], &fields)
		for k, v := range fields {
			v = compact(v)
			if len(v) == 0 || v[0] != '[' {
				continue
			}
			before := got[:public(string(v))]
			if i := strings.Index(before, string(v)); i >= 0 {
				t.Errorf("%s received %s's %s %s before the end: ...%s", p.name, name, k, v, before[max(0, i-300):min(len(before), i+100)])
			}
		}
		for _, m := range rec.Moves {
			if m.By != name || !strings.HasPrefix(m.Move, "place ") || slices.Contains(p.moves, m.Move) {
				continue
			}
			if strings.Contains(got[:end], `"move":"`+m.Move+`"`) {
				t.Errorf("%s received %s's placement %q before the end", p.name, name, m.Move)
			}
		}
	}
}

// TestGamesThroughBothDoors plays complete games of all four games on a
// real server: people on HTTP and WebSocket, computers, solitaire Quizl
// and three-player Salvo, checking secrecy and commitments.
func TestGamesThroughBothDoors(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, func(t *testing.T, k servertest.StoreKind) {
		short := map[string]any{"width": 9, "height": 9, "strike_limit": 1}
		for _, sc := range []scenario{
			{"quizl people", "quizl", nil, []string{"http", "ws"}},
			{"quizl computer", "quizl", nil, []string{"ws", "computer:easy"}},
			{"quizl solitaire", "quizl", nil, []string{"http"}},
			{"salvo people", "salvo", nil, []string{"ws", "http"}},
			{"salvo three", "salvo", nil, []string{"http", "ws", "computer:easy"}},
			{"wordfight people", "wordfight", short, []string{"http", "ws"}},
			{"wordfight computer", "wordfight", short, []string{"computer:easy", "ws"}},
			{"nymphabet people", "nymphabet", nil, []string{"ws", "http"}},
			{"nymphabet computer", "nymphabet", nil, []string{"http", "computer:medium"}},
		} {
			t.Run(sc.name, func(t *testing.T) {
				if testing.Short() && !strings.Contains(sc.name, "people") {
					t.Skip("short: people-only games")
				}
				e := newEnvOn(t, k)
				e.run(sc)
			})
		}
	})
}
