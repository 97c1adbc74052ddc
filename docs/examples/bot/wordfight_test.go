package main

import "testing"

// TestCell: squares are named as the server names them, and read back.
func TestCell(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		r, c int
		want string
	}{{0, 0, "A1"}, {1, 1, "B2"}, {0, 25, "Z1"}, {4, 26, "AA5"}, {29, 29, "AD30"}} {
		if got := cell(tc.r, tc.c); got != tc.want {
			t.Errorf("cell(%d, %d) = %q, want %q", tc.r, tc.c, got, tc.want)
		}
		for _, down := range []bool{false, true} {
			dir := map[bool]string{false: " across", true: " down"}[down]
			r, c, d, ok := parseAt(tc.want + dir)
			if !ok || r != tc.r || c != tc.c || d != down {
				t.Errorf("parseAt(%q) = %d, %d, %v, %v", tc.want+dir, r, c, d, ok)
			}
		}
	}
	for _, bad := range []string{"", "B2", "B2 sideways", "2 across", "b2 across", "B0 across", "ABC2 across", "B-1 across", "Bx across"} {
		if _, _, _, ok := parseAt(bad); ok {
			t.Errorf("parseAt(%q) was read", bad)
		}
	}
}

// FuzzParseAt: whatever the server's events say, a placement read names
// a square that reads back the same.
func FuzzParseAt(f *testing.F) {
	for _, s := range []string{"B2 across", "AA30 down", "Z1 down", "", "A0 across"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, c, down, ok := parseAt(s)
		if !ok {
			return
		}
		if r < 0 || c < 0 {
			t.Fatalf("%q read as row %d, column %d", s, r, c)
		}
		again := cell(r, c) + map[bool]string{false: " across", true: " down"}[down]
		if r2, c2, d2, ok := parseAt(again); !ok || r2 != r || c2 != c || d2 != down {
			t.Fatalf("%q read as %q, which reads back as %d, %d, %v", s, again, r2, c2, d2)
		}
	})
}

// TestFits: the bot places a word only where the referee would take it,
// and never where a new letter would touch another side on (a cross word
// the bot cannot check).
func TestFits(t *testing.T) {
	t.Parallel()
	g := &wordGame{grid: [][]byte{
		[]byte("....."),
		[]byte("....."),
		[]byte(".CAT."),
		[]byte("....."),
		[]byte("..#.."),
	}}
	for _, tc := range []struct {
		name, word string
		r, c       int
		down       bool
		reused     int // -1: refused
	}{
		{"crossing a letter", "TO", 2, 3, true, 1},
		{"the same word again, nothing new", "CAT", 2, 1, false, -1},
		{"a letter in front", "SCAT", 2, 0, false, 3},
		{"a letter behind", "CATS", 2, 1, false, 3},
		{"ending against a masked square", "AN", 2, 2, true, 1},
		{"onto a masked square", "ANT", 2, 2, true, -1},
		{"a clash", "TOE", 0, 3, true, -1},
		{"a new letter side on to another", "OX", 3, 0, false, -1},
		{"a new letter side on, down", "AC", 2, 0, true, -1},
		{"running on into a letter", "BE", 0, 1, true, -1},
		{"off the grid", "CATTLE", 2, 1, false, -1},
	} {
		n, ok := g.fits(tc.word, tc.r, tc.c, tc.down)
		if !ok {
			n = -1
		}
		if n != tc.reused {
			t.Errorf("%s: %s at %s: reused %d, want %d", tc.name, tc.word, cell(tc.r, tc.c), n, tc.reused)
		}
	}
	if _, _, _, n := g.best("TO"); n != 1 {
		t.Errorf("best place for TO reuses %d letters, want 1", n)
	}
	if _, _, _, n := g.best("XYZ"); n != -1 {
		t.Errorf("best place for XYZ, which crosses nothing, reuses %d, want nowhere (-1)", n)
	}
	empty := &wordGame{grid: [][]byte{[]byte("....."), []byte("....."), []byte("....."), []byte("....."), []byte(".....")}}
	if r, c, down, n := empty.best("CAT"); n != 0 || centred(empty.grid, "CAT", r, c, down) > 2 {
		t.Errorf("the first word goes at %s (down %v), reusing %d; want it across or down the middle (B3 across, C2 down)", cell(r, c), down, n)
	}
}
