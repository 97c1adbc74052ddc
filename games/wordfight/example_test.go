package wordfight_test

import (
	"fmt"
	"slices"
	"testing"

	"parlour/game"
	"parlour/games/wordfight"
	"parlour/lexicon"
)

// TestTopical plays the source's worked example with the real lexicon:
// PROMONTORY first (0 x 10), TOPIC crossing its second O (1 x 5), then
// TOPICAL over TOPIC, reusing five letters (5 x 7): 0 + 5 + 35 = 40.
func TestTopical(t *testing.T) {
	lex := lexicon.Default()
	st, err := wordfight.Game{}.New(game.Config{
		Players: []string{"Ann", "Ben"},
		Rules:   game.Defaults(wordfight.Game{}.Options()),
		Lexicon: lex,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	moves := []struct {
		seat game.Seat
		move string
	}{
		{0, "declare PROMONTORY"}, {0, "place A2 across"}, {1, "place C3 across"},
		{1, "declare TOPIC"}, {0, "place E1 down"}, {1, "place G2 down"},
		{0, "declare TOPICAL"}, {0, "place E1 down"}, {1, "place G2 down"},
	}
	for _, m := range moves {
		if _, err := st.Apply(m.seat, m.move); err != nil {
			t.Fatalf("%s: %v", m.move, err)
		}
	}
	v := st.View(0).(*wordfight.View)
	var pts []int
	for _, e := range v.List {
		pts = append(pts, e.Mine.Points)
	}
	if !slices.Equal(pts, []int{0, 5, 35}) || v.Score != 40 {
		t.Errorf("Ann scored %v = %d, want 0 + 5 + 35 = 40", pts, v.Score)
	}
	want := []string{"T", "PROMONTORY", "P", "I", "C", "A", "L"}
	for i, w := range want {
		row := v.Grid[i]
		if i == 1 {
			row = row[:10]
		} else {
			row = row[4:5]
		}
		if row != w {
			t.Errorf("row %d of Ann's grid = %q, want %q", i+1, v.Grid[i], w)
		}
	}
}

// Example plays two words of a two-player game and shows what the first
// player sees.
func Example() {
	lex := lexicon.FromWords("example", []string{"cart", "tar", "art"})
	st, _ := wordfight.Start(game.Config{Players: []string{"Ann", "Ben"}, Lexicon: lex,
		Rules: game.Defaults(wordfight.Game{}.Options())})
	for _, m := range []struct {
		seat game.Seat
		move string
	}{
		{0, "declare cart"}, {0, "place B2 across"}, {1, "place A1 down"},
		{1, "declare tar"}, {0, "place E2 down"},
	} {
		if _, err := st.Apply(m.seat, m.move); err != nil {
			fmt.Println(err)
		}
	}
	v := st.SeatView(0)
	fmt.Println("waiting for:", v.ToMove, "score:", v.Score)
	for _, row := range v.Grid[:5] {
		fmt.Println(row[:8])
	}
	_, err := st.Apply(1, "place C1 down")
	fmt.Println(err)
	// Output:
	// waiting for: [1] score: 3
	// ........
	// .CART...
	// ....A...
	// ....R...
	// ........
	// C1 down: TAR crosses nothing in your grid: every word after the first must reuse a letter already there
}

// ExampleGrid_Placements lists where a word may go in a grid.
func ExampleGrid_Placements() {
	lex := lexicon.FromWords("example", []string{"cart", "tar", "art", "at"})
	b, _ := wordfight.NewBoard(6, 6, "")
	g := wordfight.NewGrid(b)
	g.Place("cart", wordfight.Placement{Row: 1, Col: 1})
	for p, reused := range g.Placements(lex, "tar") {
		fmt.Println(p, "reuses", reused)
	}
	// Output:
	// E2 down reuses 1
	// C1 down reuses 1
}

// ExampleView_String prints a finished game as `parlour replay` shows it.
func ExampleView_String() {
	lex := lexicon.FromWords("example", []string{"cart", "tar", "zoo"})
	opts, _ := game.ResolveValues(wordfight.Game{}.Options(), map[string]any{"width": 6, "height": 5, "strike_limit": 1})
	st, _ := wordfight.Start(game.Config{Players: []string{"Ann", "Ben"}, Lexicon: lex, Rules: opts})
	for _, m := range []struct {
		seat game.Seat
		move string
	}{
		{0, "declare cart"}, {0, "place B2 across"}, {1, "place A1 down"},
		{1, "declare tar"}, {0, "place E2 down"}, {1, "cannot"},
	} {
		if _, err := st.Apply(m.seat, m.move); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println(st.SeatView(game.Spectator))
	// Output:
	// Sightless Word Fight on 6 x 5, scoring multiply (letters reused x length), strikes per word, 1 of 1 strike
	//
	// Words:
	//   1. CART (4) by Ann
	//        Ann: place B2 across, 0 x 4 = 0
	//        Ben: place A1 down, 0 x 4 = 0
	//   2. TAR (3) by Ben; not placed by Ben
	//        Ann: place E2 down, 1 x 3 = 3
	//        Ben: cannot
	//
	// Ann: 3 points
	//     A B C D E F
	//   1 . . . . . .
	//   2 . C A R T .
	//   3 . . . . A .
	//   4 . . . . R .
	//   5 . . . . . .
	//
	// Ben: 0 points
	//     A B C D E F
	//   1 C . . . . .
	//   2 A . . . . .
	//   3 R . . . . .
	//   4 T . . . . .
	//   5 . . . . . .
	//
	// Audit:
	//   Ann: 3 points, confirmed
	//   Ben: 0 points, confirmed; said cannot to TAR, but it fit (place A4 across)
}
