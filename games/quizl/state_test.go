package quizl

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"parlour/game"
)

// TestCallRevealsToCallerOnly: a call shows the caller every opponent's
// letter in that square, and nobody else.
func TestCallRevealsToCallerOnly(t *testing.T) {
	s := two(t, nil)
	evs := play(t, s, "0:72", "1:72")
	// Ben's call of 72 in the specimen grid returns B.
	var got []Letter
	for _, e := range evs {
		if r, ok := e.Data.(Revealed); ok {
			if !slices.Equal(e.To, []game.Seat{game.Seat(r.Letters[0].Seat ^ 1)}) {
				t.Errorf("revealed event %q goes to %v", e.Text, e.To)
			}
			got = append(got, r.Letters...)
		}
	}
	want := []Letter{{Seat: 1, Name: "Ben", Square: "72", Letter: "K"}, {Seat: 0, Name: "Ann", Square: "72", Letter: "B"}}
	if !slices.Equal(got, want) {
		t.Errorf("revealed %v, want %v", got, want)
	}
	v := s.ViewOf(1)
	if b := v.Boards[0]; b.Letter(At(7, 2)) != 'B' || strings.Count(strings.Join(b.Grid, ""), ".") != 24 {
		t.Errorf("Ben's board of Ann's grid: %v", b.Grid)
	}
	sp := s.ViewOf(game.Spectator)
	for _, b := range sp.Boards {
		if strings.Join(b.Grid, "") != strings.Repeat(".", 25) {
			t.Errorf("spectator sees letters of %s's grid: %v", b.Name, b.Grid)
		}
	}
	if len(sp.Grid) != 0 || sp.Password != "" {
		t.Error("spectator has a grid")
	}
}

// TestThreePlayersCall: with three or more players a call reveals every
// opponent's letter to the caller, and the caller's own square to nobody.
func TestThreePlayersCall(t *testing.T) {
	s := three(t, nil)
	evs := play(t, s, "0:72")
	var r Revealed
	for _, e := range evs {
		if x, ok := e.Data.(Revealed); ok {
			r = x
		}
	}
	want := []Letter{{Seat: 1, Name: "Ben", Square: "72", Letter: "K"}, {Seat: 2, Name: "Cat", Square: "72", Letter: "I"}}
	if !slices.Equal(r.Letters, want) {
		t.Errorf("revealed %v, want %v", r.Letters, want)
	}
	for seat := range 3 {
		for _, b := range s.ViewOf(game.Seat(seat)).Boards {
			if b.Seat == 0 && b.Letter(At(7, 2)) != Unknown {
				t.Errorf("seat %d sees Ann's own square 72", seat)
			}
		}
	}
	// Ben must call 72 himself to learn Ann's B.
	play(t, s, "1:72")
	if got := s.ViewOf(1).Boards[0].Letter(At(7, 2)); got != 'B' {
		t.Errorf("Ben's call of 72 showed %c of Ann's grid, want B", got)
	}
}

func TestAnnounceNotation(t *testing.T) {
	s := two(t, nil)
	if _, err := s.Apply(0, "say Ben CRANE"); err != nil {
		t.Errorf("two players, say NAME WORD: %v", err)
	}
	s3 := three(t, nil)
	before := s3.clone()
	_, err := s3.Apply(0, "say CRANE")
	if err == nil || !strings.Contains(err.Error(), "say NAME CRANE") {
		t.Errorf("three players, say WORD: %v", err)
	}
	unchanged(t, before, s3, "say WORD with three players")
	// The refusals that teach the notation teach it for three players.
	for _, mv := range []string{"55", "", "guess"} {
		if _, err := s3.Apply(0, mv); err == nil || !strings.Contains(err.Error(), "say NAME WORD") {
			t.Errorf("three players, %q: %v, want it to teach say NAME WORD", mv, err)
		}
	}
	evs := play(t, s3, "0:SAY ben crane")
	if len(evs) == 0 || !strings.Contains(evs[0].Text, "CRANE for Ben: right") {
		t.Errorf("events %v", evs)
	}
	if got := s3.notationOf(s3.history[0]); got != "say Ben CRANE" {
		t.Errorf("notation %q", got)
	}
}

// TestAnnouncementMustBeAGenuineWord: five different letters forming a
// genuine word, or the announcement is refused and is not a turn.
func TestAnnouncementMustBeAGenuineWord(t *testing.T) {
	tests := []struct{ move, err string }{
		{"say CRAN", "cannot announce CRAN: it is not a five-letter word"},
		{"say SHEEP", "cannot announce SHEEP: it repeats the letter E: a password has five different letters"},
		{"say zzzzz", "cannot announce ZZZZZ: it repeats the letter Z"},
		{"say XQZVW", "cannot announce XQZVW: it is not a word in the lexicon"},
		{"say CR4NE", `cannot announce "CR4NE": it is not a word of letters A-Z`},
		{"say", "say which word"},
		{"say Cat CRANE", `nobody here is called "Cat": say a player's name, the start of one, or a seat number (0 Ann, 1 Ben)`},
		{"say Ann CRANE", "you cannot announce your own password"},
		{"72 please", "is not a square"},
		{"crane", "CRANE is not a Quizl move: to announce CRANE, write say CRANE"},
		{"announce crane", `"announce crane" is not a Quizl move: to announce CRANE, write say CRANE`},
		{"guess", "to announce a word, write say WORD"},
		// A bare word, or one after "guess", that no password could be
		// is not offered as an announcement the referee would refuse.
		{"hint", "HINT is not a square"},
		{"hello", "HELLO is not a square"},
		{"guess hello", `announcements are written say WORD, and HELLO cannot be one: it repeats the letter L`},
		{"guess a crane", "to announce a word, write say WORD"},
		{"call 72", `"call 72" is not a Quizl move: to call 72, write just 72`},
		{"call A1", "to call a square, write just the square: its row (5-9) and column (0-4), as in 72"},
		{"resign now", "to resign, write just resign"},
		{"x", "X is not a square"},
		{"call", "to call a square, write just the square"},
		{strings.Repeat("a", 30), "is not a square"},
		{"", "the move is empty"},
		{strings.Repeat("7", 300), "too long"},
	}
	for _, tc := range tests {
		s := two(t, nil)
		before := s.clone()
		_, err := s.Apply(0, tc.move)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: error %v, want %q", tc.move, err, tc.err)
		}
		unchanged(t, before, s, tc.move)
	}
}

func TestRefusalsChangeNothing(t *testing.T) {
	s := two(t, map[string]any{OptAward: 10})
	play(t, s, "0:72", "1:90", "0:say WAVES", "1:91")
	tests := []struct {
		seat game.Seat
		move string
		err  string
	}{
		{0, "72", "square 72 was already called"},
		{1, "92", "it is not your turn: waiting for Ann"},
		{game.Spectator, "92", "not your turn"},
		{0, "say waves", "you already announced WAVES for Ben, and it was wrong"},
		{0, "45", "there is no square 45"},
	}
	for _, tc := range tests {
		before := s.clone()
		_, err := s.Apply(tc.seat, tc.move)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: error %v, want %q", tc.move, err, tc.err)
		}
		unchanged(t, before, s, tc.move)
	}
	if _, err := s.Apply(1, "92"); !errors.Is(err, game.ErrNotYourTurn) {
		t.Errorf("out of turn: %v does not wrap ErrNotYourTurn", err)
	}
}

// TestScoring: a right announcement scores 25 minus the squares called of
// that grid minus the wrong-announcement penalties, floor 0; a wrong one
// costs the penalty and gives the owner the award at once.
func TestScoring(t *testing.T) {
	tests := []struct {
		name    string
		opts    map[string]any
		moves   []string
		ann     int // Ann's score at the end of the moves
		ben     int
		outcome Outcome
	}{
		{"right at once", nil, []string{"0:say crane"}, 25, 0, Right},
		{"after three calls", nil, []string{"0:72", "1:90", "0:73", "1:91", "0:74", "1:92", "0:say CRANE"}, 22, 0, Right},
		{"after a wrong one", nil, []string{"0:say waves", "1:90", "0:say crane"}, 24, 0, Right},
		{"penalty 5 award 10", map[string]any{OptPenalty: 5, OptAward: 10}, []string{"0:say waves", "1:90", "0:say crane"}, 20, 10, Right},
		{"the source's rule", map[string]any{OptPenalty: 0, OptAward: 0}, []string{"0:say waves", "1:90", "0:say mouse", "1:91", "0:say crane"}, 25, 0, Right},
		{"award at once", map[string]any{OptAward: 7}, []string{"0:say waves"}, 0, 7, Playing},
		{"wrong ends the turn", nil, []string{"0:say waves", "1:90"}, 0, 0, Playing},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := two(t, tc.opts)
			play(t, s, tc.moves...)
			r := s.Result()
			if r.Scores[0] != tc.ann || r.Scores[1] != tc.ben {
				t.Errorf("scores %v, want [%d %d]", r.Scores, tc.ann, tc.ben)
			}
			if got := s.pair(0, 1).outcome(); got != tc.outcome {
				t.Errorf("Ann's outcome %q, want %q", got, tc.outcome)
			}
		})
	}
}

func TestScoreFloorsAtZero(t *testing.T) {
	s := two(t, map[string]any{OptPenalty: 5})
	var moves []string
	wrong := []string{"waves", "audio", "ghost", "jumpy", "vixen"}
	for i, w := range wrong {
		moves = append(moves, "0:say "+w, fmt.Sprintf("1:%d%d", 5+i, 0))
	}
	play(t, s, moves...)
	play(t, s, "0:say crane")
	if got := s.Score(0); got != 0 {
		t.Errorf("score %d after 25 points of penalties, want 0", got)
	}
	if s.pair(0, 1).outcome() != Right {
		t.Error("the right announcement was not right")
	}
}

// TestTripping: revealing all five squares of a password without having
// announced it scores 0 against that grid; the owner continues alone.
func TestTripping(t *testing.T) {
	s := two(t, nil)
	evs := play(t, s, "0:50", "1:90", "0:51", "1:91", "0:52", "1:92", "0:53", "1:93")
	for _, e := range evs {
		if e.Kind == "tripped" {
			t.Fatalf("tripped early: %s", e.Text)
		}
	}
	evs = play(t, s, "0:54")
	var tripped bool
	for _, e := range evs {
		if e.Kind == "tripped" && e.To == nil {
			tripped = true
		}
	}
	if !tripped || s.pair(0, 1).outcome() != Tripped || s.Score(0) != 0 {
		t.Fatalf("Ann revealed all of CRANE: outcome %q, score %d, events %v", s.pair(0, 1).outcome(), s.Score(0), evs)
	}
	// Ben continues alone.
	if got := s.ToMove(); !slices.Equal(got, []game.Seat{1}) {
		t.Fatalf("to move %v after Ann tripped", got)
	}
	play(t, s, "1:80", "1:say psalm")
	r := s.Result()
	if r.Status != game.Finished || !slices.Equal(r.Winners, []game.Seat{1}) || r.Scores[1] != 25-5 {
		t.Errorf("result %+v", r)
	}
}

// TestTrippingOverTheColumn: a call that completes the password's line
// trips even when other lines are complete too.
func TestTrippingOverTheColumn(t *testing.T) {
	s := two(t, nil)
	moves := []string{}
	for _, sq := range []string{"54", "64", "74", "84"} {
		moves = append(moves, "1:"+sq)
	}
	s.turn = 1 // Ben starts, for brevity: turn order is tested elsewhere.
	for _, m := range moves {
		play(t, s, m, "0:"+fmt.Sprint(50+len(s.history)/2))
	}
	if s.pair(1, 0).outcome() != Playing {
		t.Fatal("tripped before the fifth letter")
	}
	play(t, s, "1:94")
	if s.pair(1, 0).outcome() != Tripped {
		t.Fatalf("Ben revealed P S A L M and did not trip: %+v", s.pair(1, 0))
	}
}

// TestTurnOrderAndFinishing: players take turns in seat order; a player
// done with every opponent stops taking turns; the game ends when everyone
// is done.
func TestTurnOrderAndFinishing(t *testing.T) {
	s := three(t, nil)
	next := func(want game.Seat) {
		t.Helper()
		if got := s.ToMove(); !slices.Equal(got, []game.Seat{want}) {
			t.Fatalf("to move %v, want %d", got, want)
		}
	}
	next(0)
	play(t, s, "0:say Ben crane")
	next(1)
	play(t, s, "1:say Ann psalm")
	next(2)
	play(t, s, "2:90")
	next(0)
	play(t, s, "0:say Cat blimp")
	next(1) // Ann is done with both opponents.
	play(t, s, "1:say Cat blimp")
	next(2)
	play(t, s, "2:91")
	next(2) // Cat continues alone.
	if s.ViewOf(game.Spectator).Done[0] != true {
		t.Error("Ann is not reported done")
	}
	play(t, s, "2:say Ann psalm")
	next(2)
	play(t, s, "2:say Ben crane")
	r := s.Result()
	if r.Status != game.Finished || s.ToMove() != nil {
		t.Fatalf("game not over: %+v", r)
	}
	// Ann 25+25, Ben 25+25, Cat (2 calls each) 23+23.
	if !slices.Equal(r.Scores, []int{50, 50, 46}) || !slices.Equal(r.Winners, []game.Seat{0, 1}) {
		t.Errorf("result %+v", r)
	}
	if _, err := s.Apply(2, "77"); !errors.Is(err, game.ErrNotYourTurn) {
		t.Errorf("move after the end: %v", err)
	}
}

// TestResignation scores 0 against every opponent not yet done; the others
// continue, and may still attack the resigner's grid.
func TestResignation(t *testing.T) {
	s := three(t, nil)
	play(t, s, "0:say Ben crane", "1:resign")
	if s.pair(1, 0).outcome() != Resigned || s.pair(1, 2).outcome() != Resigned {
		t.Fatalf("Ben's outcomes after resigning: %+v %+v", s.pair(1, 0), s.pair(1, 2))
	}
	play(t, s, "2:say Ben crane", "0:say Cat blimp", "2:say Ann psalm")
	r := s.Result()
	if r.Status != game.Finished || !slices.Equal(r.Scores, []int{50, 0, 50}) {
		t.Errorf("result %+v", r)
	}
	v := s.ViewOf(game.Spectator)
	if !v.Resigned[1] || v.Resigned[0] {
		t.Errorf("resigned %v", v.Resigned)
	}
}

func TestDraw(t *testing.T) {
	s := two(t, nil)
	play(t, s, "0:resign", "1:resign")
	r := s.Result()
	if r.Status != game.Finished || len(r.Winners) != 0 || !slices.Equal(r.Scores, []int{0, 0}) {
		t.Errorf("result %+v", r)
	}
}

// TestTwoKeywords: an announcement is right when it matches any line of the
// grid that is a genuine word. A checked grid never has two, so this grid
// is built past the check.
func TestTwoKeywords(t *testing.T) {
	lex := testLex()
	bad := &Grid{Password: "CRANE", Line: 9}
	copy(bad.Letters[:], "BLIMP"+"DFGHJ"+"KOQST"+"UVWXY"+"CRANE")
	if err := (&Grid{Letters: bad.Letters, Password: "CRANE"}).Check(lex); err == nil {
		t.Fatal("the grid with two words passed the check")
	}
	good, _ := NewGrid(specimen, "PSALM", lex)
	cfg := game.Config{Players: []string{"Ann", "Ben"}, Lexicon: lex}
	ru, _ := readRules(nil)
	s := newState(cfg, ru, []*Grid{good, bad})
	play(t, s, "0:say blimp")
	if s.pair(0, 1).outcome() != Right || s.Score(0) != 25 {
		t.Errorf("BLIMP, the second word, was not right: %+v", s.pair(0, 1))
	}
}

// TestSolitaire: one player attacks a computer-made grid under the same
// rules; the score is the player's.
func TestSolitaire(t *testing.T) {
	s := table(t, map[string]any{OptAward: 10}, []string{"Sol"}, seatGrid{specimen, "PSALM"})
	v := s.ViewOf(0)
	if !v.Solitaire || v.Password != "" || len(v.Grid) != 0 || len(v.Boards) != 1 {
		t.Fatalf("solitaire view shows the player a grid: %+v", v)
	}
	if strings.Join(v.Boards[0].Grid, "") != strings.Repeat(".", 25) {
		t.Fatalf("solitaire board shows letters: %v", v.Boards[0].Grid)
	}
	play(t, s, "0:72", "0:say waves", "0:74")
	if v := s.ViewOf(0); v.Boards[0].Letter(At(7, 2)) != 'B' || v.Boards[0].Letter(At(7, 4)) != 'A' {
		t.Errorf("board %v", v.Boards[0].Grid)
	}
	if s.Score(0) != 0 {
		t.Errorf("the player gained the award for their own wrong announcement: %d", s.Score(0))
	}
	// Two words name nothing to pick between: the refusal says how an
	// announcement is written, not which of them to announce.
	for _, m := range []string{"say Sol psalm", "say crane glyph"} {
		if _, err := s.Apply(0, m); err == nil || !strings.Contains(err.Error(), "say one word (say WORD)") || strings.Contains(err.Error(), "GLYPH") {
			t.Errorf("%q in solitaire: %v, want a refusal saying to announce one word", m, err)
		}
	}
	play(t, s, "0:say psalm")
	r := s.Result()
	if r.Status != game.Finished || !slices.Equal(r.Winners, []game.Seat{0}) || r.Scores[0] != 25-2-1 {
		t.Errorf("result %+v", r)
	}
	if v := s.ViewOf(0); v.Boards[0].Password != "PSALM" || v.Boards[0].Grid[0] != "TQUFP" {
		t.Errorf("the grid is not revealed at the end: %+v", v.Boards[0])
	}
}

func TestSolitaireTrip(t *testing.T) {
	s := table(t, nil, []string{"Sol"}, seatGrid{specimen, "PSALM"})
	play(t, s, "0:54", "0:64", "0:74", "0:84", "0:94")
	r := s.Result()
	if r.Status != game.Finished || len(r.Winners) != 0 || r.Scores[0] != 0 {
		t.Errorf("result after tripping %+v", r)
	}
}

// TestEndRevealsEverything: after the end every view shows every grid.
func TestEndRevealsEverything(t *testing.T) {
	s := three(t, nil)
	play(t, s, "0:resign", "1:resign", "2:resign")
	for _, seat := range []game.Seat{game.Spectator, 0, 1, 2} {
		v := s.ViewOf(seat)
		if !v.Finished || v.ToMove != -1 {
			t.Errorf("seat %d: finished %v, to move %d", seat, v.Finished, v.ToMove)
		}
		for _, b := range v.Boards {
			if strings.Contains(strings.Join(b.Grid, ""), ".") || b.Password == "" {
				t.Errorf("seat %d does not see %s's grid after the end: %v", seat, b.Name, b.Grid)
			}
		}
	}
}

func TestSet(t *testing.T) {
	tests := []struct {
		name    string
		players int
		target  int
		games   [][]int
		over    []bool
		winners []int
	}{
		{"reaches the target", 2, 25, [][]int{{20, 0}, {5, 5}}, []bool{false, true}, []int{0}},
		{"the other one wins", 2, 25, [][]int{{20, 0}, {0, 30}}, []bool{false, true}, []int{1}},
		{"tie plays again", 2, 25, [][]int{{20, 20}, {5, 5}, {0, 3}}, []bool{false, false, true}, []int{1}},
		{"three players", 3, 40, [][]int{{25, 30, 10}, {20, 0, 25}}, []bool{false, true}, []int{0}},
		{"solitaire", 1, 25, [][]int{{12}, {13}}, []bool{false, true}, []int{0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set := NewSet(tc.players, tc.target)
			var w []int
			for i, g := range tc.games {
				var over bool
				over, w = set.Add(g)
				if over != tc.over[i] {
					t.Fatalf("after game %d (totals %v): over %v, want %v", i+1, set.Totals, over, tc.over[i])
				}
			}
			if !slices.Equal(w, tc.winners) {
				t.Errorf("winners %v, want %v", w, tc.winners)
			}
		})
	}
}

func TestHidesSetup(t *testing.T) {
	solo := game.Config{Players: []string{"Sol"}}
	duo := game.Config{Players: []string{"Ann", "Ben"}}
	if !(Game{}).HidesSetup(solo, 0, 0) {
		t.Error("the solitaire grid is shown to the player")
	}
	if (Game{}).HidesSetup(duo, 0, 0) || !(Game{}).HidesSetup(duo, 1, 0) {
		t.Error("two players: each sees their own grid only")
	}
}

// TestRulesDocExample plays the worked example of docs/rules/quizl.md.
func TestRulesDocExample(t *testing.T) {
	s := table(t, nil, []string{"Ben", "Ann"}, seatGrid{craneRow, "CRANE"}, seatGrid{specimen, "PSALM"})
	play(t, s, "0:72", "1:90", "0:64", "1:91", "0:74", "1:92")
	var column strings.Builder
	for _, row := range s.ViewOf(0).Boards[0].Grid {
		column.WriteByte(row[4])
	}
	if got := column.String(); got != ".SA.." {
		t.Errorf("column 4 as Ben sees it: %s, want ?SA??", got)
	}
	play(t, s, "0:say USAGE", "1:93", "0:54", "1:80", "0:84", "1:81", "0:say PSALM")
	if got := s.Score(0); got != 19 {
		t.Errorf("Ben scores %d, want 25 - 5 - 1 = 19", got)
	}
}

// TestAnnounceWhom: with three or more players an announcement names its
// opponent by whole name, seat number (from 0) or the start of exactly one
// name, in any case, names with spaces and brackets included; whatever
// the player wrote, the move's notation (what a record keeps) has the
// whole name, and the refusals say what would do.
func TestAnnounceWhom(t *testing.T) {
	names := []string{"Ann", "Computer (strong)", "Computer (easy)", "2"}
	grids := []seatGrid{{specimen, "PSALM"}, {craneRow, "CRANE"}, {blimpCol, "BLIMP"}, {craneRow, "CRANE"}}
	for _, c := range []struct {
		move string
		want string // the notation, or the error
		ok   bool
	}{
		{"say Computer (strong) CRANE", "say Computer (strong) CRANE", true},
		{"say computer (STRONG) crane", "say Computer (strong) CRANE", true},
		{"say 1 CRANE", "say Computer (strong) CRANE", true},
		{"say computer (s crane", "say Computer (strong) CRANE", true},
		{"say Computer (e BLIMP", "say Computer (easy) BLIMP", true},
		{"say 2 CRANE", "say 2 CRANE", true}, // a player called "2" comes before seat 2
		{"say 3 CRANE", "say 2 CRANE", true},
		{"SAY c BLIMP", "", false},
		{"say computer CRANE", `"computer" could be Computer (strong) or Computer (easy): say more of the name, or the seat number (0 Ann, 1 Computer (strong), 2 Computer (easy), 3 2)`, false},
		{"say 4 CRANE", "there is no seat 4: the seats are 0 to 3 (0 Ann, 1 Computer (strong), 2 Computer (easy), 3 2)", false},
		{"say -1 CRANE", `nobody here is called "-1"`, false},
		{"say Bob CRANE", `nobody here is called "Bob": say a player's name, the start of one, or a seat number`, false},
		{"say 0 CRANE", "you cannot announce your own password", false},
		{"say an CRANE", "you cannot announce your own password", false},
		{"say 1 ZZZZZ", "cannot announce ZZZZZ: it repeats the letter Z", false},
	} {
		s := table(t, nil, names, grids...)
		before := s.clone()
		got, err := s.Normalize(0, c.move)
		if c.ok {
			if err != nil || got != c.want {
				t.Errorf("%q: normalized to %q, %v; want %q", c.move, got, err, c.want)
				continue
			}
			play(t, s, "0:"+c.move)
			if n := s.notationOf(s.history[0]); n != c.want {
				t.Errorf("%q: played as %q, want %q", c.move, n, c.want)
			}
			continue
		}
		if c.want == "" {
			c.want = `"c" could be Computer (strong) or Computer (easy): say more of the name`
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: normalized to %q, %v; want the error %q", c.move, got, err, c.want)
		}
		if _, err := s.Apply(0, c.move); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: Apply said %v; want the error %q", c.move, err, c.want)
		}
		unchanged(t, before, s, c.move)
	}
}

// TestEndData: the end event says in fields why the game ended (what the
// last move did, by whom, against whom) and the result.
func TestEndData(t *testing.T) {
	for _, c := range []struct {
		name  string
		state func(*testing.T) *State
		moves []string
		want  game.End
	}{
		{"announced", func(t *testing.T) *State { return two(t, nil) }, []string{"0:resign", "1:say psalm"},
			game.End{Reason: EndAnnounced, Seat: 1, Against: 0, Word: "PSALM", Winners: []game.Seat{1}, Scores: []int{0, 25}}},
		{"resign", func(t *testing.T) *State { return two(t, nil) }, []string{"0:say crane", "1:resign"},
			game.End{Reason: EndResign, Seat: 1, Against: -1, Winners: []game.Seat{0}, Scores: []int{25, 0}}},
		{"tripped", func(t *testing.T) *State { return table(t, nil, []string{"Sol"}, seatGrid{specimen, "PSALM"}) },
			[]string{"0:54", "0:64", "0:74", "0:84", "0:94"},
			game.End{Reason: EndTripped, Seat: 0, Against: 0, Winners: []game.Seat{}, Scores: []int{0}}},
	} {
		s := c.state(t)
		evs := play(t, s, c.moves...)
		last := evs[len(evs)-1]
		r, ok := last.Data.(Reveal)
		if last.Kind != "end" || !ok {
			t.Fatalf("%s: last event %+v", c.name, last)
		}
		if !reflect.DeepEqual(r.End, c.want) || len(r.Grids) != s.n {
			t.Errorf("%s: end data %+v, want %+v", c.name, r, c.want)
		}
	}
}

// A player may resign when it is not their turn; with two players the
// other hunts on alone, and the turn stays where it was.
func TestResignOutOfTurn(t *testing.T) {
	t.Parallel()
	s := two(t, nil)
	play(t, s, "0:72", "1:resign")
	if got := s.ToMove(); !slices.Equal(got, []game.Seat{0}) {
		t.Fatalf("to move after Ben resigned on his turn: %v", got)
	}
	s = two(t, nil)
	play(t, s, "0:72", "1:54", "1:resign")
	if s.pair(1, 0).outcome() != Resigned || s.Result().Status != game.InProgress {
		t.Fatalf("after Ben resigned out of turn: %+v, %+v", s.pair(1, 0), s.Result())
	}
	if got := s.ToMove(); !slices.Equal(got, []game.Seat{0}) {
		t.Fatalf("to move %v, want Ann still", got)
	}
	play(t, s, "0:say crane")
	if r := s.Result(); r.Status != game.Finished || !slices.Equal(r.Winners, []game.Seat{0}) {
		t.Fatalf("result %+v", r)
	}
	// Out of turn, nothing but a resignation is taken, and not from a
	// player already done with every grid.
	s = three(t, nil)
	play(t, s, "0:say Ben crane", "1:72", "2:resign")
	before := s.clone()
	for _, m := range []string{"2:72", "1:say Ann psalm", "2:resign"} {
		seat, mv, _ := strings.Cut(m, ":")
		if _, err := s.Apply(game.Seat(seat[0]-'0'), mv); !errors.Is(err, game.ErrNotYourTurn) {
			t.Errorf("%s: %v, want not your turn", m, err)
		}
	}
	unchanged(t, before, s, "refused moves out of turn")
	if got := s.ToMove(); !slices.Equal(got, []game.Seat{0}) {
		t.Fatalf("to move %v, want Ann", got)
	}
	// A player whose part is over is told so, not to wait for a turn
	// that will not come.
	if _, err := s.Apply(2, "72"); err == nil || !strings.Contains(err.Error(), "you resigned, and the others play on") {
		t.Errorf("Cy, resigned, moving: %v", err)
	}
	s = two(t, nil)
	play(t, s, "0:say crane")
	if s.Result().Status != game.InProgress {
		t.Fatalf("the game ended with Ann's find: %+v; want Ben still to hunt", s.Result())
	}
	for _, mv := range []string{"72", "resign"} {
		if _, err := s.Apply(0, mv); !errors.Is(err, game.ErrNotYourTurn) || !strings.Contains(err.Error(), "every grid you hunted is settled") {
			t.Errorf("Ann, done, playing %s: %v", mv, err)
		}
	}
}

// TestSizes holds a move in a game's history to the twelve bytes
// played's doc promises, a pair to its 40, a State within the heap's
// 240-byte size class, and a duel within the 576-byte class with the
// 8-byte header the allocator gives an object of more than 512 bytes
// with pointers: a table keeps its game in memory for as long as its
// players think.
func TestSizes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		what      string
		size, max uintptr
	}{
		{"a played move", unsafe.Sizeof(played{}), 12},
		{"a State", unsafe.Sizeof(State{}), 240},
		{"a pair", unsafe.Sizeof(pair{}), 40},
		{"a duel", unsafe.Sizeof(duel{}), 576 - 8},
	} {
		if c.size > c.max {
			t.Errorf("%s takes %d bytes, more than %d", c.what, c.size, c.max)
		}
	}
}

// TestRenameMove: an announcement of a game of three names the player it
// is for; renamed, it names them under their new name, and a move that
// names nobody, or a game of two, is left as it is.
func TestRenameMove(t *testing.T) {
	t.Parallel()
	from, to := []string{"Pam", "Quin", "Rex"}, []string{"deleted player", "Quin", "Rex"}
	for _, c := range []struct{ move, want string }{
		{"say Pam CRANE", "say deleted player CRANE"},
		{" SAY  pam  CRANE ", "say deleted player CRANE"},
		{"say Quin CRANE", "say Quin CRANE"},
		{"72", "72"},
		{"resign", "resign"},
		{"say CRANE", "say CRANE"},
		{"say Zed CRANE", "say Zed CRANE"},
	} {
		if got := (Game{}).RenameMove(c.move, from, to); got != c.want {
			t.Errorf("%q renamed: %q, want %q", c.move, got, c.want)
		}
	}
	if got := (Game{}).RenameMove("say CRANE", from[:2], to[:2]); got != "say CRANE" {
		t.Errorf("a game of two: %q", got)
	}
}
