package quizl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"parlour/game"
	"parlour/lexicon"
)

// randomRecord plays one random legal game with random rule options and
// 1-4 players, checking every seat's view and every event for secrets as
// it goes, and returns the record and the final result.
func randomRecord(t testing.TB, lex *lexicon.Lexicon, seed uint64) (*game.Record, game.Result) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	n := 1 + rng.IntN(4)
	names := []string{"Ann", "Ben", "Cat", "Dan"}[:n]
	raw := map[string]json.RawMessage{
		OptPenalty: json.RawMessage(fmt.Sprint(rng.IntN(6))),
		OptAward:   json.RawMessage(fmt.Sprint(rng.IntN(26))),
	}
	rules, err := game.Resolve(Game{}.Options(), raw)
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.Config{Players: names, Rules: rules, Lexicon: lex, Seed: seed}
	rec := &game.Record{Parlour: 1, Game: "quizl", Rules: raw, Players: names, Setup: map[string]json.RawMessage{}, Seed: &seed}
	setups := make([]json.RawMessage, n)
	for i := range n {
		s, err := Game{}.AutoSetup(cfg, game.Seat(i), rng.Uint64())
		if err != nil {
			t.Fatal(err)
		}
		setups[i], rec.Setup[names[i]] = s, s
	}
	gs, err := Game{}.New(cfg, setups)
	if err != nil {
		t.Fatal(err)
	}
	st := gs.(*State)
	words := Passwords(lex, 100)
	for len(st.ToMove()) > 0 {
		c := st.ToMove()[0]
		mv := randomMove(rng, st, int(c), words)
		evs, err := st.Apply(c, mv)
		if err != nil {
			t.Fatalf("seed %d: random move %q by %s refused: %v", seed, mv, names[c], err)
		}
		rec.Moves = append(rec.Moves, game.Move{By: names[c], Move: mv})
		checkText(t, st, c, evs)
		if len(rec.Moves)%3 == 0 {
			checkCompact(t, st)
		}
		if len(st.ToMove()) > 0 {
			checkSecrets(t, st, evs)
		}
		if len(rec.Moves) > 500 {
			t.Fatalf("seed %d: game does not end", seed)
		}
	}
	return rec, st.Result()
}

// checkText checks that a view tells the move c just made in the words
// its public events told it.
func checkText(t testing.TB, s *State, c game.Seat, evs []game.Event) {
	t.Helper()
	var told []string
	for _, e := range evs {
		switch e.Kind {
		case "call", "tripped", "announce", "resign":
			told = append(told, e.Text)
		}
	}
	v := s.ViewOf(c)
	if got, want := v.Moves[len(v.Moves)-1].Text, strings.Join(told, "; "); got != want {
		t.Fatalf("the view tells move %d as %q; its events told %q", len(v.Moves), got, want)
	}
}

// checkCompact compacts s and checks that it gave back its spare room
// and that every seat's view is as before (the game then goes on).
func checkCompact(t testing.TB, s *State) {
	t.Helper()
	views := func() []byte {
		b, err := json.Marshal([]any{s.View(game.Spectator), s.View(0), s.View(game.Seat(s.n - 1)), s.Result()})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	before := views()
	s.Compact()
	if cap(s.history) != len(s.history) {
		t.Fatalf("compacted: a history of %d moves has room for %d", len(s.history), cap(s.history))
	}
	if cap(s.anns) != len(s.anns) {
		t.Fatalf("compacted: %d announcements have room for %d", len(s.anns), cap(s.anns))
	}
	if after := views(); !bytes.Equal(before, after) {
		t.Fatalf("compacting changed the views:\n%s\n%s", before, after)
	}
}

// randomMove picks a legal move for seat c: mostly calls, some
// announcements (right ones now and then), rarely a resignation. It reads
// the referee's state only to stay legal and to find right words.
func randomMove(rng *rand.Rand, s *State, c int, words []string) string {
	var active []int
	for o := range s.n {
		if s.opponent(c, o) && s.pair(c, o).outcome() == Playing {
			active = append(active, o)
		}
	}
	o := active[rng.IntN(len(active))]
	say := func(w string) string {
		if s.n > 2 {
			return "say " + s.cfg.Players[o] + " " + w
		}
		return "say " + w
	}
	switch r := rng.IntN(100); {
	case r < 2:
		return "resign"
	case r < 8:
		return say(s.grids[o].Password)
	case r < 16:
		w := words[rng.IntN(len(words))]
		if !slices.Contains(s.pair(c, o).wrong, upperWord(w)) {
			return say(w)
		}
	}
	for {
		sq := Square(rng.IntN(Squares))
		if s.seats[c].called&(1<<sq) == 0 {
			return sq.String()
		}
	}
}

func upperWord(w string) string {
	b := []byte(w)
	for i := range b {
		b[i] = upper(b[i])
	}
	return string(b)
}

// checkSecrets fails t if any seat's view or any event a seat may see
// holds a letter of another seat's grid the seat has not called, before
// the game ends.
func checkSecrets(t testing.TB, s *State, evs []game.Event) {
	t.Helper()
	for c := -1; c < s.n; c++ {
		v := s.ViewOf(game.Seat(c))
		for _, b := range v.Boards {
			if c >= 0 && !s.opponent(c, b.Seat) {
				t.Fatalf("seat %d has a board of its own grid", c)
			}
			for sq := range Square(Squares) {
				l := b.Letter(sq)
				if l == Unknown {
					continue
				}
				if c < 0 || s.seats[c].called&(1<<sq) == 0 || l != s.grids[b.Seat].Letters[sq] {
					t.Fatalf("seat %d sees %c at %s of %s's grid without having called it", c, l, sq, b.Name)
				}
			}
			if b.Password != "" && (c < 0 || s.pair(c, b.Seat).outcome() != Right) {
				t.Fatalf("seat %d sees the password of %s", c, b.Name)
			}
		}
		if (c < 0 || s.solo) && (v.Password != "" || len(v.Grid) > 0) {
			t.Fatalf("seat %d's view holds a grid: %v", c, v.Grid)
		}
		if c >= 0 && !s.solo && v.Password != s.grids[c].Password {
			t.Fatalf("seat %d's view holds password %q", c, v.Password)
		}
		for _, m := range v.Moves {
			for _, l := range m.Revealed {
				sq, _ := ParseSquare(l.Square)
				if c < 0 || m.Seat != c || s.seats[c].called&(1<<sq) == 0 {
					t.Fatalf("seat %d's move list shows %s at %s of %s", c, l.Letter, l.Square, l.Name)
				}
			}
		}
		for _, e := range evs {
			if !e.Visible(game.Seat(c)) {
				continue
			}
			switch d := e.Data.(type) {
			case Revealed:
				if c < 0 || e.To == nil || len(e.To) != 1 || int(e.To[0]) != c {
					t.Fatalf("seat %d sees the revealed event %q meant for %v", c, e.Text, e.To)
				}
				for _, l := range d.Letters {
					sq, _ := ParseSquare(l.Square)
					if s.seats[c].called&(1<<sq) == 0 || l.Seat == c && !s.solo {
						t.Fatalf("seat %d learns %s at %s of %s", c, l.Letter, l.Square, l.Name)
					}
				}
			case Called, Announced, Finished:
			default:
				t.Fatalf("event %q of unexpected kind %s (data %T) before the end", e.Text, e.Kind, e.Data)
			}
		}
	}
}

// TestRandomGames plays random legal games through the referee, writes each
// as a record, replays it and checks the result is the same; it checks
// secrets after every move.
func TestRandomGames(t *testing.T) {
	games := 2000
	if testing.Short() {
		games = 300
	}
	lex := testLex()
	reg := game.NewRegistry(Game{})
	ended := map[game.Status]int{}
	players := map[int]int{}
	for seed := range uint64(games) {
		rec, want := randomRecord(t, lex, seed)
		b, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := game.DecodeBytes(b)
		if err != nil {
			t.Fatalf("seed %d: decoding the record: %v", seed, err)
		}
		_, st, steps, err := game.Replay(reg, dec, lex)
		if err != nil {
			t.Fatalf("seed %d: replay refused: %v", seed, err)
		}
		if got := st.Result(); !slices.Equal(got.Scores, want.Scores) || !slices.Equal(got.Winners, want.Winners) || got.Status != want.Status {
			t.Fatalf("seed %d: replay gives %+v, the game gave %+v", seed, got, want)
		}
		if len(steps) != len(rec.Moves) {
			t.Fatalf("seed %d: %d steps for %d moves", seed, len(steps), len(rec.Moves))
		}
		ended[want.Status]++
		players[len(rec.Players)]++
	}
	if ended[game.Finished] != games {
		t.Errorf("only %d of %d games finished", ended[game.Finished], games)
	}
	for n := 1; n <= 4; n++ {
		if players[n] == 0 {
			t.Errorf("no game with %d players", n)
		}
	}
}
