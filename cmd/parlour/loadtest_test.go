package main

import (
	"bytes"
	"context"
	"io"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"testing"

	"parlour/games"
	"parlour/server"
	"parlour/server/limit"
	"parlour/store/sqlite"
)

// TestLoadtestTransports runs a short, slow loadtest over each door
// against a server in the test: every move is accepted and found in the
// records afterwards, and over sockets the updates are pushed to both
// seats (about two a move: the mover's and the opponent's).
func TestLoadtestTransports(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "p.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := server.New(ctx, server.Config{Store: db, Games: games.Registry()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h := server.NewHandler(s, limit.Limits{})
	srv := httptest.NewServer(h)
	defer func() {
		h.CloseSockets("test over")
		srv.Close()
	}()
	accepted := regexp.MustCompile(`sent (\d+), accepted (\d+) .*refused 0, errors 0`)
	pushed := regexp.MustCompile(`updates pushed to the seats' sockets: \d+ \(([0-9.]+) a move\)`)
	sockets := regexp.MustCompile(`sockets opened: (\d+); moved on to the next table: (\d+)`)
	machine := regexp.MustCompile(`machine: [0-9.]+ of \d+ processors busy, [0-9.]+ more taken by the host \(steal\); other processes -?[0-9.]+\n`)
	for _, c := range []struct {
		name string
		args []string
		// ends is set when games end in the run (two tables at 200 moves
		// a second end a game or two each), and moveOn says what becomes
		// of their sockets: true, they move on to the tables that replace
		// them; false, new ones are opened.
		ends, moveOn bool
	}{
		{"http", []string{"--transport", "http", "--tables", "8", "--rate", "40"}, false, false},
		{"ws", []string{"--transport", "ws", "--tables", "8", "--rate", "40"}, false, false},
		{"ws games ending", []string{"--transport", "ws", "--tables", "2", "--rate", "200"}, true, true},
		{"ws games ending, new sockets", []string{"--transport", "ws", "--tables", "2", "--rate", "200", "--new-sockets"}, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			args := append([]string{"--url", srv.URL, "--identities", "4", "--conns", "4", "--duration", "1s"}, c.args...)
			code := runLoadtest(ctx, args, nil, &out, &errs)
			t.Logf("%s%s", out.String(), errs.String())
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			m := accepted.FindSubmatch(out.Bytes())
			if m == nil || string(m[1]) != string(m[2]) || string(m[1]) == "0" {
				t.Fatalf("not every move accepted")
			}
			if !bytes.Contains(out.Bytes(), []byte("durability: all")) {
				t.Fatalf("no durability check")
			}
			if runtime.GOOS == "linux" && !machine.Match(out.Bytes()) {
				t.Fatal("no line saying how busy the machine was")
			}
			p := pushed.FindSubmatch(out.Bytes())
			if c.name == "http" {
				if p != nil || sockets.Match(out.Bytes()) {
					t.Fatalf("sockets counted over HTTP")
				}
				return
			}
			if p == nil {
				t.Fatal("no count of the updates pushed")
			}
			if n, _ := strconv.ParseFloat(string(p[1]), 64); n < 1.5 {
				t.Fatalf("%v updates a move, want about 2 (both seats)", n)
			}
			sk := sockets.FindSubmatch(out.Bytes())
			if sk == nil {
				t.Fatal("no count of the sockets opened and moved on")
			}
			opened, movedOn := string(sk[1]), string(sk[2])
			switch {
			case c.ends && c.moveOn && (opened != "0" || movedOn == "0"):
				t.Fatalf("%s sockets opened and %s moved on: want every game's sockets moved on", opened, movedOn)
			case c.ends && !c.moveOn && (opened == "0" || movedOn != "0"):
				t.Fatalf("%s sockets opened and %s moved on: want new sockets for every game", opened, movedOn)
			}
		})
	}
	// Chat beside the moves: every line posted is accepted, none lost.
	var chatOut bytes.Buffer
	if code := runLoadtest(ctx, []string{"--url", srv.URL, "--tables", "8", "--identities", "4", "--conns", "4", "--rate", "40", "--duration", "1s", "--chat", "4"}, nil, &chatOut, io.Discard); code != 0 {
		t.Fatalf("--chat: exit %d\n%s", code, chatOut.String())
	}
	if m := regexp.MustCompile(`chat: sent (\d+), accepted (\d+), refused map\[\], errors 0`).FindSubmatch(chatOut.Bytes()); m == nil || string(m[1]) != string(m[2]) || string(m[1]) == "0" {
		t.Fatalf("--chat printed %s", chatOut.String())
	}
	// Rated tables between accounts: every move accepted, and the games
	// that ended moved their players' ratings.
	var ratedOut bytes.Buffer
	if code := runLoadtest(ctx, []string{"--url", srv.URL, "--tables", "4", "--identities", "4", "--conns", "4", "--rate", "200", "--duration", "1s", "--rated"}, nil, &ratedOut, io.Discard); code != 0 {
		t.Fatalf("--rated: exit %d\n%s", code, ratedOut.String())
	}
	if m := accepted.FindSubmatch(ratedOut.Bytes()); m == nil || string(m[1]) != string(m[2]) {
		t.Fatalf("--rated: not every move accepted:\n%s", ratedOut.String())
	}
	t.Logf("--rated:\n%s", ratedOut.String())
	if m := regexp.MustCompile(`ratings: (\d+) rated games finished, across 4 accounts`).FindSubmatch(ratedOut.Bytes()); m == nil || string(m[1]) == "0" {
		t.Fatalf("--rated: no rated game finished:\n%s", ratedOut.String())
	}
	for _, bad := range []string{"-1", "5"} {
		var errs bytes.Buffer
		if code := runLoadtest(ctx, []string{"--url", srv.URL, "--identities", "4", "--chat", bad}, nil, io.Discard, &errs); code != 2 || !bytes.Contains(errs.Bytes(), []byte("--chat must be from 0 to --identities (4)")) {
			t.Errorf("--chat %s: exit %d, %s", bad, code, errs.String())
		}
	}
	var out bytes.Buffer
	if code := runLoadtest(ctx, []string{"--url", srv.URL, "--tables", "2", "--identities", "4", "--idle-sockets", "20"}, nil, &out, io.Discard); code != 0 {
		t.Fatalf("--idle-sockets: exit %d", code)
	}
	if !regexp.MustCompile(`20 idle sockets .*heap [-+]\d+ bytes a socket`).Match(out.Bytes()) {
		t.Fatalf("--idle-sockets printed %s", out.String())
	}
}
