package table

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
	"weak"

	"parlour/game"
	"parlour/games"
	"parlour/games/quizl"
	"parlour/lexicon"
	"parlour/server/auth"
	"parlour/store/sqlite"
)

// BenchmarkUpdateMessage builds and encodes one seat's update, as a
// socket's pusher does after a move: a two-player Quizl table up to 40
// calls in, the seats in turn, the table's information made afresh each time
// (as at every new version), the view whole or only its log's last entry.
func BenchmarkUpdateMessage(b *testing.B) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "p.db"), sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	s, err := New(ctx, Config{Store: db, Games: games.Registry()})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	lex, err := lexicon.Load(lexicon.DefaultName)
	if err != nil {
		b.Fatal(err)
	}
	a, err := s.Create(ctx, nil, CreateRequest{Game: "quizl", Seats: []string{"me", "open"}})
	if err != nil {
		b.Fatal(err)
	}
	j, err := s.Join(ctx, nil, a.Table, JoinRequest{})
	if err != nil {
		b.Fatal(err)
	}
	ps := make([]*auth.Principal, 2)
	for i, tok := range []string{a.Token, j.Token} {
		if ps[i], err = s.auth.Authenticate(ctx, tok); err != nil {
			b.Fatal(err)
		}
		g, err := quizl.RandomSetup(lex, uint64(i+1))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Setup(ctx, ps[i], a.Table, SetupRequest{Setup: g.Setup()}); err != nil {
			b.Fatal(err)
		}
	}
	// Each seat calls the squares off the diagonal: no row or column is
	// ever all called, so no password is uncovered and the game goes on.
	var squares []string
	for r := range 5 {
		for c := range 5 {
			if r != c {
				squares = append(squares, string([]byte{byte('0' + 5 + r), byte('0' + c)}))
			}
		}
	}
	turn, calls := 0, [2]int{}
	for n := 0; n < 40 && turn >= 0; n++ {
		res, err := s.Move(ctx, ps[turn], a.Table, MoveRequest{Move: squares[calls[turn]]})
		if err != nil {
			b.Fatal(err)
		}
		calls[turn]++
		turn = -1
		if len(res.ToMove) > 0 {
			turn = int(res.ToMove[0])
		}
	}
	t, err := s.table(ctx, a.Table)
	if err != nil {
		b.Fatal(err)
	}
	// "whole" sends each view whole; "tail" only the last entry of its
	// log, as to a socket that asked for view tails and has the rest.
	for _, whole := range []bool{true, false} {
		name := map[bool]string{true: "whole", false: "tail"}[whole]
		b.Run(name, func(b *testing.B) {
			size, tails := 0, [2]int{-1, -1}
			if !whole {
				t.mu.Lock()
				for i := range tails {
					tails[i] = t.st.View(game.Seat(i)).(game.TailAppender).LogLen() - 1
				}
				t.mu.Unlock()
			}
			for i := 0; b.Loop(); i++ {
				t.mu.Lock()
				t.encodings().info = weak.Pointer[encodedInfo]{}
				tail := tails[i%2]
				enc, _, err := t.updateMessage(s.games, socketEnvelope, game.Seat(i%2), t.version()-1, tail, time.Now())
				t.mu.Unlock()
				if err != nil {
					b.Fatal(err)
				}
				msg, err := enc()
				if err != nil {
					b.Fatal(err)
				}
				size = len(msg)
			}
			b.ReportMetric(float64(size), "bytes")
		})
	}
	if os.Getenv("SHOWUPDATE") != "" {
		t.mu.Lock()
		enc, _, _ := t.updateMessage(s.games, socketEnvelope, 0, t.version()-1, -1, time.Now())
		t.mu.Unlock()
		m, _ := enc()
		b.Log(string(m))
	}
}
