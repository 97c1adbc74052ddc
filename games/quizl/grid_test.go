package quizl

import (
	"fmt"
	"strings"
	"testing"

	"parlour/game"
	"parlour/lexicon"
)

func TestParseSquare(t *testing.T) {
	tests := []struct {
		in   string
		want Square
		err  string
	}{
		{"72", 12, ""},
		{" 50 ", 0, ""},
		{"94", 24, ""},
		{"54", 4, ""},
		{"90", 20, ""},
		{"45", 0, "there is no square 45"},
		{"95", 0, "there is no square 95"},
		{"50x", 0, `"50x" is not a square`},
		{"A1", 0, `"A1" is not a square`},
		{"", 0, "is not a square"},
		{"7 2", 0, "is not a square"},
	}
	for _, tc := range tests {
		got, err := ParseSquare(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseSquare(%q) = %v, %v; want error containing %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseSquare(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if got.String() != strings.TrimSpace(tc.in) {
			t.Errorf("Square(%d).String() = %q, want %q", got, got.String(), strings.TrimSpace(tc.in))
		}
	}
}

func TestLines(t *testing.T) {
	for l := range Line(Lines) {
		for i := range Size {
			sq := l.Square(i)
			if l.IsRow() && RowOf(sq) != l || !l.IsRow() && ColOf(sq) != l {
				t.Errorf("%v square %d is %v, not on the line", l, i, sq)
			}
		}
	}
	if got := Line(4).String(); got != "row 9" {
		t.Errorf("Line(4) = %q", got)
	}
	if got := Line(9).String(); got != "column 4" {
		t.Errorf("Line(9) = %q", got)
	}
}

// TestSpecimen is the worked example of the source texts: PSALM in column 4
// is a legal grid, square 72 holds B, and the column reading TWOCK is no
// obstacle.
func TestSpecimen(t *testing.T) {
	lex := testLex()
	g, err := NewGrid(specimen, "psalm", lex)
	if err != nil {
		t.Fatalf("specimen grid refused: %v", err)
	}
	if g.Line != Line(9) || g.Line.String() != "column 4" {
		t.Errorf("password on %v, want column 4", g.Line)
	}
	if c := g.Letters[At(7, 2)]; c != 'B' {
		t.Errorf("square 72 holds %c, want B", c)
	}
	if got := g.Read(Line(5)); got != "TWOCK" {
		t.Errorf("column 0 reads %s, want TWOCK", got)
	}
	if g.Missing() != 'J' {
		t.Errorf("missing letter %c, want J", g.Missing())
	}
}

func TestCheckSetup(t *testing.T) {
	cfg := game.Config{Players: []string{"Ann", "Ben"}, Lexicon: testLex()}
	tests := []struct {
		name string
		json string
		err  string
	}{
		{"specimen", `{"grid": ["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "password": "PSALM"}`, ""},
		{"lower case", `{"grid": ["tqufp", "wzves", "ogbra", "chinl", "kyxdm"], "password": "psalm"}`, ""},
		{"password in row 5", `{"grid": ["BLIMP", "CDEFG", "HJKNO", "QRSTU", "VWXYZ"], "password": "BLIMP"}`, ""},
		{"row 5 is a word", `{"grid": ["BLIMP", "DFGHJ", "KOQST", "UVWXY", "CRANE"], "password": "CRANE"}`,
			"row 5 reads BLIMP, a word: only the password may be a word"},
		{"WAVES in row 6", `{"grid": ["TQUFP", "WAVES", "OGBRA", "CHINL", "KYXDM"], "password": "PSALM"}`,
			"the letter A appears twice"},
		{"repeated letter", `{"grid": ["TQUFP", "WZVEQ", "OGBRA", "CHINL", "KYXDM"], "password": "PSALM"}`,
			"the letter Q appears twice, in squares 51 and 64"},
		{"not a word", `{"grid": ["TQUFX", "WZVES", "OGBRA", "CHINL", "KYPDM"], "password": "XSALM"}`,
			"XSALM is not a word in the lexicon"},
		{"password repeats", `{"grid": ["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "password": "SHEEP"}`,
			"SHEEP repeats the letter E"},
		{"password elsewhere", `{"grid": ["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "password": "CRANE"}`,
			"the password CRANE is not written"},
		{"backwards", `{"grid": ["TQUFM", "WZVEL", "OGBRA", "CHINS", "KYXDP"], "password": "PSALM"}`,
			"the password PSALM is not written"},
		{"four rows", `{"grid": ["TQUFP", "WZVES", "OGBRA", "CHINL"], "password": "PSALM"}`, "a grid has 5 rows, this one has 4"},
		{"short row", `{"grid": ["TQUFP", "WZVES", "OGBR", "CHINL", "KYXDM"], "password": "PSALM"}`, "row 7 has 4 characters"},
		{"digit", `{"grid": ["TQUFP", "WZVES", "OG1RA", "CHINL", "KYXDM"], "password": "PSALM"}`, "square 72 holds \"1\""},
		{"no password", `{"grid": ["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"]}`, "names no password"},
		{"unknown field", `{"grid": [], "password": "PSALM", "x": 1}`, "not a Quizl grid"},
		{"not json", `grid`, "not a Quizl grid"},
		{"trailing", `{"grid": ["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "password": "PSALM"} {}`, "text after"},
		{"password in capitals", `{"grid": ["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "PASSWORD": "PSALM"}`, `unknown field "PASSWORD"`},
		{"grid with a capital", `{"Grid": ["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "password": "PSALM"}`, `unknown field "Grid"`},
		{"password twice", `{"grid": ["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "password": "CRANE", "password": "PSALM"}`, `the key "password" appears twice`},
		{"grid twice", `{"grid": [], "grid": ["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "password": "PSALM"}`, `the key "grid" appears twice`},
		{"not UTF-8", "{\"grid\": [\"TQUF\xff\"], \"password\": \"PSALM\"}", "not valid UTF-8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Game{}.CheckSetup(cfg, 0, []byte(tc.json))
			if tc.err == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				want := `{"grid":["TQUFP","WZVES","OGBRA","CHINL","KYXDM"],"password":"PSALM"}`
				if tc.name != "password in row 5" && string(got) != want {
					t.Errorf("canonical form %s, want %s", got, want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			}
		})
	}
}

// TestOnlyThePasswordIsAWord checks the ruling that names the offending
// row or column and its word.
func TestOnlyThePasswordIsAWord(t *testing.T) {
	lex := testLex()
	tests := []struct {
		rows []string
		pw   string
		err  string
	}{
		// BLIMP in row 5 beside the password CRANE in row 9.
		{[]string{"BLIMP", "DFGHJ", "KOQST", "UVWXY", "CRANE"}, "CRANE", "row 5 reads BLIMP, a word: only the password may be a word"},
		{[]string{"BACGD", "LEFHJ", "IKNOQ", "MRUSV", "PWXTY"}, "BLIMP", "column 3 reads GHOST, a word: only the password may be a word"},
		{[]string{"BACGD", "LEFHJ", "IKNOQ", "MRUSV", "PWXTY"}, "GHOST", "column 0 reads BLIMP, a word"},
		{[]string{"BACGD", "LEFHJ", "IKNOQ", "MRUSV", "PWXTY"}, "CRANE", "the password CRANE is not written"},
		{nil, "BLIMP", "a grid has 5 rows, this one has 0"},
	}
	for _, tc := range tests {
		_, err := NewGrid(tc.rows, tc.pw, lex)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("NewGrid(%v, %s) = %v, want an error containing %q", tc.rows, tc.pw, err, tc.err)
		}
	}
}

func TestRandomGrid(t *testing.T) {
	lex := testLex()
	seen := map[Line]bool{}
	for seed := range uint64(200) {
		g, err := RandomGrid("crane", lex, seed)
		if err != nil {
			t.Fatal(err)
		}
		if err := (&Grid{Letters: g.Letters, Password: g.Password}).Check(lex); err != nil {
			t.Fatalf("seed %d: random grid is not legal: %v", seed, err)
		}
		if g.Password != "CRANE" || g.Read(g.Line) != "CRANE" {
			t.Fatalf("seed %d: password %s on %v reads %s", seed, g.Password, g.Line, g.Read(g.Line))
		}
		seen[g.Line] = true
		again, _ := RandomGrid("CRANE", lex, seed)
		if *again != *g {
			t.Fatalf("seed %d: two different grids", seed)
		}
	}
	if len(seen) != Lines {
		t.Errorf("the password landed on %d of the 10 lines in 200 grids", len(seen))
	}
	if _, err := RandomGrid("sheep", lex, 1); err == nil {
		t.Error("a grid around SHEEP was made")
	}
	if _, err := RandomGrid("zzzzz", lex, 1); err == nil {
		t.Error("a grid around ZZZZZ was made")
	}
}

func TestRandomGridOn(t *testing.T) {
	lex := testLex()
	for l := range Line(Lines) {
		for seed := range uint64(10) {
			g, err := RandomGridOn("crane", l, lex, seed)
			if err != nil {
				t.Fatalf("line %v, seed %d: %v", l, seed, err)
			}
			if g.Line != l || g.Read(l) != "CRANE" {
				t.Fatalf("line %v, seed %d: the password is on %v, %v reads %s", l, seed, g.Line, l, g.Read(l))
			}
			if err := (&Grid{Letters: g.Letters, Password: g.Password}).Check(lex); err != nil {
				t.Fatalf("line %v, seed %d: the grid is not legal: %v", l, seed, err)
			}
		}
	}
	for _, tc := range []struct {
		pw   string
		line Line
		err  string
	}{
		{"crane", -1, "no line"},
		{"crane", Lines, "no line"},
		{"sheep", 0, "repeats"},
		{"cran", 0, "five-letter"},
		{"zzzzq", 3, "repeats"},
		{"qxzvj", 3, "not a word"},
	} {
		if _, err := RandomGridOn(tc.pw, tc.line, lex, 1); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("RandomGridOn(%q, %d) = %v, want an error containing %q", tc.pw, tc.line, err, tc.err)
		}
	}
}

func TestAutoSetup(t *testing.T) {
	cfg := game.Config{Players: []string{"Ann"}, Lexicon: testLex()}
	a, err := Game{}.AutoSetup(cfg, 0, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Game{}.AutoSetup(cfg, 0, 7)
	if string(a) != string(b) {
		t.Errorf("AutoSetup is not deterministic: %s vs %s", a, b)
	}
	if _, err := (Game{}).CheckSetup(cfg, 0, a); err != nil {
		t.Errorf("AutoSetup made an illegal grid %s: %v", a, err)
	}
	differ := false
	for seed := range uint64(20) {
		c, _ := Game{}.AutoSetup(cfg, 0, seed)
		differ = differ || string(c) != string(a)
	}
	if !differ {
		t.Error("AutoSetup made one grid for 20 seeds")
	}
}

// TestSpecimenRealLexicon checks the specimen grid of the source texts with
// the real English lexicon: legal, PSALM in column 4, B in square 72, and
// TWOCK in column 0 is not a word, so it is no obstacle.
func TestSpecimenRealLexicon(t *testing.T) {
	lex := lexicon.Default()
	cfg := game.Config{Players: []string{"Ann", "Ben"}, Lexicon: lex}
	raw := `{"grid": ["TQUFP", "WZVES", "OGBRA", "CHINL", "KYXDM"], "password": "PSALM"}`
	if _, err := (Game{}).CheckSetup(cfg, 0, []byte(raw)); err != nil {
		t.Fatalf("the specimen grid is refused: %v", err)
	}
	g, _ := NewGrid(specimen, "PSALM", lex)
	if g.Line.String() != "column 4" || g.Letters[At(7, 2)] != 'B' {
		t.Errorf("PSALM on %v, 72 holds %c", g.Line, g.Letters[At(7, 2)])
	}
	if lex.Has("twock") {
		t.Error("TWOCK is a word in the lexicon")
	}
	// The word a solver might be misled into guessing from row 6.
	if !lex.Has("waves") {
		t.Error("WAVES is not a word in the lexicon")
	}
	// Writing WAVES into row 6 would make the grid illegal.
	bad := []string{"TQUFP", "WAVES", "OGBZR", "CHINL", "KYXDM"}
	if _, err := NewGrid(bad, "PSALM", lex); err == nil {
		t.Error("a grid with WAVES beside PSALM is accepted")
	}
}

// TestSquareNames checks every square's name against its row and column.
func TestSquareNames(t *testing.T) {
	for s := Square(0); s < Squares; s++ {
		want := fmt.Sprintf("%d%d", s.Row(), s.Col())
		if got := s.String(); got != want {
			t.Errorf("Square(%d).String() = %q, want %q", int(s), got, want)
		}
	}
	if got := Square(Squares).String(); got != "Square(25)" {
		t.Errorf("an off-grid square is named %q", got)
	}
}
