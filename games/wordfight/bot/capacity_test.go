package bot

import (
	"context"
	"math"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games/wordfight"
)

func TestReach(t *testing.T) {
	g := gridOf(t,
		"..........",
		".TOPIC....",
		"..........",
		"..........",
		"....R.....",
		"....A.....",
		"..........",
		"..........",
		"..........",
		"..........")
	for _, c := range []struct {
		name         string
		r, c, dr, dc int
		want         int
	}{
		{"P up to the board's edge", 1, 3, -1, 0, 1},
		{"T down, to the foot of the board", 1, 1, 1, 0, 8},
		// Below C (column F): rows 3 and 4 are empty, but row 5 has R
		// beside it (column E), where a new letter would make a cross
		// word.
		{"C down beside RA", 1, 5, 1, 0, 2},
		{"O down, clear of RA", 1, 2, 1, 0, 8},
		// Below I (column E): row 5 holds R, so a word from I must end
		// on row 3, with row 4 empty after it.
		{"I down into RA", 1, 4, 1, 0, 1},
		{"A across to the right edge", 5, 4, 0, 1, 5},
	} {
		if got := reach(g, c.r, c.c, c.dr, c.dc); got != c.want {
			t.Errorf("%s: reach %d, want %d", c.name, got, c.want)
		}
	}
}

func TestCapacityTable(t *testing.T) {
	b := newBot(t, game.Strong, 1)
	tab := b.vocab.capacity()
	// With room for any word on both sides, every letter of every word
	// counts: the sum over the letters is the mean length of the words
	// the table weighs (7 to 12 letters).
	sum := 0.0
	for ch := range tab {
		sum += tab[ch][capReach-1][capReach-1]
		for a := range capReach {
			for r := range capReach {
				if a > 0 && tab[ch][a][r] < tab[ch][a-1][r] || r > 0 && tab[ch][a][r] < tab[ch][a][r-1] {
					t.Fatalf("%c: more room, fewer ways (a %d, b %d)", 'a'+ch, a, r)
				}
			}
		}
	}
	if sum < 9 || sum > 12 {
		t.Errorf("letters of a weighed word: %.2f, want its mean length, 9 to 12", sum)
	}
	// The shortest weighed word has 7 letters: it fits in 3 squares
	// either side of its middle letter, not in 3 and 2.
	fits := 0.0
	for ch := range tab {
		fits += tab[ch][3][3]
		if v := tab[ch][3][2] + tab[ch][2][3]; v != 0 {
			t.Errorf("%c with 3 squares on one side and 2 on the other: %v ways, want 0", 'a'+ch, v)
		}
	}
	if fits == 0 {
		t.Error("no weighed word fits in 3 squares either side of a letter")
	}
}

// TestCapacity checks that the measure tells an open grid from a
// cramped one: long words parallel a few rows apart wall in the lines
// between them.
func TestCapacity(t *testing.T) {
	b := newBot(t, game.Strong, 1)
	tab := b.vocab.capacity()
	empty := "...................."
	open := make([]string, 20)
	for i := range open {
		open[i] = empty
	}
	open[10] = "....COUNTERMANDS...."
	ladder := append([]string(nil), open...)
	ladder[6] = "....WRITABLE........"
	ladder[14] = "....DISCONTINUES...."
	// The same three words spread out: the other two on the board's top
	// and bottom rows, leaving long lines through the middle word.
	spread := append([]string(nil), open...)
	spread[0] = "WRITABLE............"
	spread[19] = "....DISCONTINUES...."
	co, cl := tab.capacity(gridOf(t, open...)), tab.capacity(gridOf(t, ladder...))
	if co <= cl {
		t.Errorf("one word: capacity %.2f; with two more parallel 4 rows away: %.2f, want less", co, cl)
	}
	if cs := tab.capacity(gridOf(t, spread...)); cs <= cl {
		t.Errorf("three words spread out: capacity %.2f, want more than the ladder's %.2f", cs, cl)
	}
	// A 5 x 5 board holds no long word.
	if c := tab.capacity(gridOf(t, ".....", ".....", "TOPIC", ".....", ".....")); c != 0 {
		t.Errorf("5 x 5 board: capacity %v, want 0", c)
	}
	// An empty grid has no letters to cross.
	if c := tab.capacity(gridOf(t, open[:5]...)); c != 0 {
		t.Errorf("empty grid: capacity %v, want 0", c)
	}
	if c := cramp(0); math.Abs(c-1) > 1e-12 || cramp(4) >= cramp(2) {
		t.Errorf("cramp: %v at 0 (want 1), %v at 2, %v at 4 (want falling)", c, cramp(2), cramp(4))
	}
}

// TestStrongKeepsLongLinesOpen replays the start of a bench game (strong
// against greedy-best, seed 1, game 0) to the word WOODWORM, whose
// best placements score 8 alike. Strong takes one that leaves its grid
// more room for later long words than the one it took before it weighed
// room, with no points given up.
func TestStrongKeepsLongLinesOpen(t *testing.T) {
	v := view(t, nil, 0,
		"0:declare smelting", "0:place D11 across", "1:place E8 across",
		"1:declare demagnetizes", "0:place K7 down", "1:place L4 down",
		"0:declare shuck", "0:place K18 across", "1:place L15 across",
		"1:declare shucking", "0:place K18 across", "1:place L15 across",
		"0:declare woodworm")
	g, err := wordfight.GridFromRows(v.Grid)
	if err != nil {
		t.Fatal(err)
	}
	strong := newBot(t, game.Strong, uint64(1)+5<<32)
	cramped := newBot(t, game.Strong, uint64(1)+5<<32)
	cramped.p.room = 0
	tab := strong.vocab.capacity()
	top := 0
	for _, reused := range g.Placements(enLex(), "woodworm") {
		top = max(top, reused*8)
	}
	left := func(b *Bot) (pts int, capacity float64) {
		mv, err := b.Move(context.Background(), game.Config{}, 0, v)
		if err != nil {
			t.Fatal(err)
		}
		p, err := wordfight.ParsePlacement(strings.TrimPrefix(mv, "place "))
		if err != nil {
			t.Fatalf("%q: %v", mv, err)
		}
		h := g.Clone()
		reused := h.Place("woodworm", p)
		return reused * 8, tab.capacity(h)
	}
	sp, sc := left(strong)
	cp, cc := left(cramped)
	if sp != top || cp != top {
		t.Errorf("WOODWORM scored %d (room weighed) and %d (not), want the best, %d", sp, cp, top)
	}
	if sc <= cc+1 {
		t.Errorf("capacity left: %.2f with room weighed, %.2f without; want clearly more", sc, cc)
	}
}

// TestRoomValue checks the value of a declaration to the player's own
// grid: at most the word's best score, at least that less the weight of
// room, and none for a word that cannot be placed.
func TestRoomValue(t *testing.T) {
	b := newBot(t, game.Strong, 1)
	v := view(t, nil, 0, "0:declare smelting", "0:place D11 across", "1:place E8 across")
	g, err := wordfight.GridFromRows(v.Grid)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"demagnetizes", "tinsel", "melting"} {
		top, ok := b.bestScore(v.Rules, g, w)
		if !ok {
			t.Fatalf("%s does not fit", w)
		}
		if got := b.roomValue(v.Rules, g, w, b.p.room); got > float64(top) || got < float64(top)-b.p.room {
			t.Errorf("%s: room value %.2f, want between %d-%v and %d", w, got, top, b.p.room, top)
		}
	}
	if got := b.roomValue(v.Rules, g, "buzz", b.p.room); !math.IsInf(got, -1) {
		t.Errorf("BUZZ, which crosses nothing: room value %v, want -Inf", got)
	}
}
