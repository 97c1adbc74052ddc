package reference

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"parlour/games/quizl"
	"parlour/lexicon"
)

// testServer starts a reference server on a fresh database and returns
// it and its URL.
func testServer(t *testing.T) (*Server, string) {
	t.Helper()
	s, err := New(context.Background(), Options{Path: filepath.Join(t.TempDir(), "ref.db")})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	t.Cleanup(func() {
		hs.Close()
		s.Close()
	})
	return s, hs.URL
}

// call sends a request with a JSON body and decodes the answer into out,
// returning its status.
func call(t *testing.T, method, url, token string, body, out any) int {
	t.Helper()
	var r *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	} else {
		r = bytes.NewReader(nil)
	}
	req, _ := http.NewRequest(method, url, r)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		json.NewDecoder(res.Body).Decode(out)
	}
	return res.StatusCode
}

// seated is a Quizl table of two seated players, set up and playing.
type seated struct {
	id    string
	seats [2]string
}

// newTable makes a Quizl table through the API as the load tool does.
func newTable(t *testing.T, url string) seated {
	t.Helper()
	lex, err := lexicon.Load(lexicon.DefaultName)
	if err != nil {
		t.Fatal(err)
	}
	var ids [2]string
	for i, name := range []string{"Ann", "Ben"} {
		var id struct{ Token string }
		if st := call(t, "POST", url+"/api/v1/identity", "", map[string]string{"name": name}, &id); st != http.StatusCreated {
			t.Fatalf("identity: %d", st)
		}
		ids[i] = id.Token
	}
	var c, j struct {
		Table, Token string
	}
	if st := call(t, "POST", url+"/api/v1/tables", ids[0], map[string]any{"game": "quizl", "seats": []string{"me", "open"}, "private": true}, &c); st != http.StatusCreated {
		t.Fatalf("create: %d", st)
	}
	if st := call(t, "POST", url+"/api/v1/tables/"+c.Table+"/join", ids[1], map[string]any{}, &j); st != http.StatusOK {
		t.Fatalf("join: %d", st)
	}
	tb := seated{id: c.Table, seats: [2]string{c.Token, j.Token}}
	for i, tok := range tb.seats {
		g, err := quizl.RandomSetup(lex, uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		var ans struct {
			Started bool `json:"started"`
		}
		if st := call(t, "POST", url+"/api/v1/tables/"+tb.id+"/setup", tok, map[string]any{"setup": g.Setup()}, &ans); st != http.StatusOK {
			t.Fatalf("setup: %d", st)
		}
		if ans.Started != (i == 1) {
			t.Fatalf("after setup %d started is %v", i, ans.Started)
		}
	}
	return tb
}

// square is the scripted players' k-th call, as the load tool writes it.
func square(k int) string { return string([]byte{byte('0' + 5 + k/5), byte('0' + k%5)}) }

type moveAnswer struct {
	Version int    `json:"version"`
	Status  string `json:"status"`
	ToMove  []int  `json:"to_move"`
	Error   string `json:"error"`
}

func readRecord(t *testing.T, url string, tb seated) *record {
	t.Helper()
	var rec record
	if st := call(t, "GET", url+"/api/v1/tables/"+tb.id+"/record", tb.seats[0], nil, &rec); st != http.StatusOK {
		t.Fatalf("record: %d", st)
	}
	return &rec
}

// TestMovesStoredInOrder: every acknowledged move over HTTP is in the
// record the store gives back, in order and by its player, and refused
// moves (out of turn, not a square, after a failed commit) are not.
func TestMovesStoredInOrder(t *testing.T) {
	t.Parallel()
	s, url := testServer(t)
	tb := newTable(t, url)
	move := func(seat int, mv string) (int, moveAnswer) {
		var a moveAnswer
		st := call(t, "POST", url+"/api/v1/tables/"+tb.id+"/moves", tb.seats[seat], map[string]string{"move": mv}, &a)
		return st, a
	}
	var acked []string
	calls := [2]int{}
	turn := 0
	for range 6 {
		mv := square(calls[turn])
		st, a := move(turn, mv)
		if st != http.StatusOK {
			t.Fatalf("move %s by seat %d: %d %s", mv, turn, st, a.Error)
		}
		acked = append(acked, fmt.Sprintf("%d:%s", turn, mv))
		calls[turn]++
		turn = a.ToMove[0]
	}
	for _, c := range []struct {
		name string
		seat int
		move string
		want int
	}{
		{"out of turn", 1 - turn, square(calls[1-turn]), http.StatusConflict},
		{"no such square", turn, "00", http.StatusUnprocessableEntity},
		{"not a move", turn, "hello", http.StatusUnprocessableEntity},
	} {
		if st, a := move(c.seat, c.move); st != c.want || a.Error == "" {
			t.Errorf("%s: %d %q, want %d and a reason", c.name, st, a.Error, c.want)
		}
	}
	fail := func() error { return errors.New("disk on fire") }
	s.store.failCommit.Store(&fail)
	if st, _ := move(turn, square(calls[turn])); st != http.StatusServiceUnavailable {
		t.Errorf("a move whose commit failed: %d, want 503", st)
	}
	if st, _ := move(turn, square(calls[turn]+1)); st != http.StatusServiceUnavailable {
		t.Errorf("a move after a failed commit: %d, want 503 (memory is ahead of the store)", st)
	}
	s.store.failCommit.Store(nil)
	rec := readRecord(t, url, tb)
	if len(rec.Moves) != len(acked) {
		t.Fatalf("record holds %d moves, %d acknowledged: %+v", len(rec.Moves), len(acked), rec.Moves)
	}
	for i, a := range acked {
		seat, mv, _ := strings.Cut(a, ":")
		if by := rec.Players[seat[0]-'0']; rec.Moves[i] != (recordMove{By: by, Move: mv}) {
			t.Errorf("record move %d is %+v, acknowledged %s", i+1, rec.Moves[i], a)
		}
	}
}

// TestRecordSurvivesRestart: what was acknowledged is in the database
// file, read by a new server on it after the first one closed.
func TestRecordSurvivesRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "ref.db")
	s, err := New(context.Background(), Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s)
	tb := newTable(t, hs.URL)
	var a moveAnswer
	if st := call(t, "POST", hs.URL+"/api/v1/tables/"+tb.id+"/moves", tb.seats[0], map[string]string{"move": "50"}, &a); st != http.StatusOK {
		t.Fatalf("move: %d %s", st, a.Error)
	}
	hs.Close()
	s.Close()
	s2, err := New(context.Background(), Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	rec, err := s2.store.readRecord(context.Background(), tb.id)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Moves) != 1 || rec.Moves[0] != (recordMove{By: "Ann", Move: "50"}) {
		t.Fatalf("record after a restart: %+v", rec)
	}
}

// TestSocket: a hello is answered by the seat's view; a move by an ack
// carrying the HTTP answer, and an update to each seat with its own
// view, later ones as tails; a refused move by an error that changes
// nothing; a later hello moves the socket on to another table.
func TestSocket(t *testing.T) {
	t.Parallel()
	_, url := testServer(t)
	tb := newTable(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var socks [2]*websocket.Conn
	read := func(i int) map[string]any {
		t.Helper()
		_, b, err := socks[i].Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		return m
	}
	send := func(i int, msg string) {
		t.Helper()
		if err := socks[i].Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	for i, tok := range tb.seats {
		c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(url, "http")+"/api/v1/tables/"+tb.id+"/socket", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseNow()
		socks[i] = c
		send(i, fmt.Sprintf(`{"type":"hello","token":%q,"view_tails":true}`, tok))
		m := read(i)
		u := m["update"].(map[string]any)
		if m["type"] != "update" || u["seat"] != float64(i) || u["view"] == nil || u["view_tail"] != nil {
			t.Fatalf("seat %d's first update: %v", i, m)
		}
	}
	send(1, `{"type":"move","move":"50","id":"m0"}`)
	if m := read(1); m["type"] != "error" || m["status"] != float64(http.StatusConflict) || m["id"] != "m0" {
		t.Fatalf("a move out of turn: %v", m)
	}
	send(0, `{"type":"move","move":"50","id":"m1"}`)
	ack := read(0)
	res, _ := ack["result"].(map[string]any)
	if ack["type"] != "ack" || ack["id"] != "m1" || res == nil || res["status"] != "playing" {
		t.Fatalf("ack: %v", ack)
	}
	for i := range socks {
		m := read(i)
		u := m["update"].(map[string]any)
		view := u["view"].(map[string]any)
		if m["type"] != "update" || u["seat"] != float64(i) || view["seat"] != float64(i) {
			t.Fatalf("seat %d's update: %v", i, m)
		}
		if tail, _ := u["view_tail"].(map[string]any); tail["moves"] != float64(0) {
			t.Errorf("seat %d's update after the first move has tail %v, want moves from 0", i, u["view_tail"])
		}
	}
	// A later hello moves seat 0's socket on to another table.
	other := newTable(t, url)
	send(0, fmt.Sprintf(`{"type":"hello","table":%q,"token":%q,"view_tails":true}`, other.id, other.seats[0]))
	m := read(0)
	if tbl := m["update"].(map[string]any)["table"].(map[string]any); tbl["id"] != other.id {
		t.Fatalf("after moving on: %v", m)
	}
	rec := readRecord(t, url, tb)
	if len(rec.Moves) != 1 || rec.Moves[0].Move != "50" {
		t.Fatalf("record: %+v", rec)
	}
}
