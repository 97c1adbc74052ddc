package main

import (
	"context"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
	"parlour/server"
	"parlour/store/sqlite"
)

// TestBotPlaysThroughTheAPI runs the example bot against a real server
// (the server package on a loopback port, the real games and computer
// players, a SQLite store) to the end of a game of Nymphabet and one of
// Quizl, and checks that it needed one request per turn: every move a
// POST with "wait", no polling.
func TestBotPlaysThroughTheAPI(t *testing.T) {
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "p.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := server.New(context.Background(), server.Config{Store: db, Games: games.Registry(), NewBot: games.NewBot, BotTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	h := server.NewHandler(svc, server.Limits{})
	var mu sync.Mutex
	requests := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := r.URL.Path
		if i := strings.LastIndexByte(path, '/'); strings.HasPrefix(path, "/api/v1/tables/") && i > len("/api/v1/tables/") {
			path = r.Method + " " + path[i:] // "POST /moves"
		} else {
			path = r.Method + " " + path
		}
		mu.Lock()
		requests[path]++
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		h.CloseSockets("test over")
		srv.Close()
		svc.Close()
		db.Close()
	})

	for _, name := range []string{"nymphabet", "quizl"} {
		t.Run(name, func(t *testing.T) {
			clear(requests)
			var log strings.Builder
			b := &Bot{Server: srv.URL, Words: strings.Fields(builtinWords), Log: &log}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			res, err := b.Play(ctx, name, game.Easy)
			if err != nil {
				t.Fatalf("%v\n%s", err, log.String())
			}
			if len(res.Scores) != 2 {
				t.Fatalf("result %+v: the game did not finish\n%s", res, log.String())
			}
			// The record is whole and replays: the game really ended.
			var rec game.Record
			if err := b.call(ctx, "/api/v1/tables/"+b.table+"/record", nil, &rec); err != nil {
				t.Fatal(err)
			}
			_, st, _, err := game.Replay(games.Registry(), &rec, lexicon.Default())
			if err != nil || st.Result().Status != game.Finished {
				t.Fatalf("the record does not replay to the end: %v", err)
			}
			mine := 0
			for _, m := range rec.Moves {
				if m.By == "Example bot" {
					mine++
				}
			}
			moves := requests["POST /moves"]
			if mine == 0 || moves < mine || requests["GET /events"] != 0 {
				t.Errorf("%d moves by the bot in the record, %d move requests, %d event streams: %v", mine, moves, requests["GET /events"], requests)
			}
			t.Logf("%s: %d moves, requests %v, result %+v", name, mine, requests, res)
		})
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
