package quizl

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"parlour/game"
	"parlour/lexicon"
)

// Size is the side of a Quizl grid.
const Size = 5

// Squares is the number of squares of a grid.
const Squares = Size * Size

// Square is one square of a grid, counted 0-24 from the top left, row by
// row. People name it by row digit (5-9) then column digit (0-4): square
// 12, in the middle, is "72".
type Square int

// Row returns the square's row, 5-9.
func (s Square) Row() int { return int(s)/Size + 5 }

// Col returns the square's column, 0-4.
func (s Square) Col() int { return int(s) % Size }

// String names the square as people do: "72".
func (s Square) String() string {
	if s < 0 || s >= Squares {
		return fmt.Sprintf("Square(%d)", int(s))
	}
	return squareNames[2*s : 2*s+2]
}

// squareNames spells every square's name in order, so that String, called
// for every call a player makes, need not allocate.
const squareNames = "50515253546061626364707172737480818283849091929394"

// At returns the square in row (5-9) and column (0-4).
func At(row, col int) Square { return Square((row-5)*Size + col) }

// ParseSquare reads a square's name, "72", ignoring surrounding spaces.
func ParseSquare(s string) (Square, error) {
	t := strings.TrimSpace(s)
	if len(t) != 2 || t[0] < '0' || t[0] > '9' || t[1] < '0' || t[1] > '9' {
		return 0, fmt.Errorf("%s is not a square: name one by its row (5-9) and column (0-4), as in 72", show(t))
	}
	r, c := int(t[0]-'0'), int(t[1]-'0')
	if r < 5 || c > 4 {
		return 0, fmt.Errorf("there is no square %s: the row comes first (5-9), then the column (0-4), as in 72", t)
	}
	return At(r, c), nil
}

// Line is one of the ten lines a password may lie on: rows 5-9 read left
// to right (Lines 0-4) and columns 0-4 read top to bottom (Lines 5-9).
type Line int

// Lines is the number of lines of a grid.
const Lines = 2 * Size

// IsRow reports whether l is a row.
func (l Line) IsRow() bool { return l < Size }

// String names the line as people do: "row 5", "column 4".
func (l Line) String() string {
	if l < 0 || l >= Lines {
		return fmt.Sprintf("Line(%d)", int(l))
	}
	if l.IsRow() {
		return fmt.Sprintf("row %d", int(l)+5)
	}
	return fmt.Sprintf("column %d", int(l)-Size)
}

// Square returns the i-th square (0-4) of l in reading order.
func (l Line) Square(i int) Square {
	if l.IsRow() {
		return Square(int(l)*Size + i)
	}
	return Square(i*Size + int(l) - Size)
}

// Mask returns l's squares as a bit set (bit s for square s).
func (l Line) Mask() uint32 {
	var m uint32
	for i := range Size {
		m |= 1 << l.Square(i)
	}
	return m
}

// RowOf and ColOf return the lines through square s.
func RowOf(s Square) Line { return Line(int(s) / Size) }

// ColOf returns the column through square s.
func ColOf(s Square) Line { return Line(Size + int(s)%Size) }

// Grid is one player's secret: 25 different upper-case letters and the
// password that lies on one of its lines.
type Grid struct {
	Letters  [Squares]byte
	Password string
	// Line is where the password lies.
	Line Line
}

// Read returns the letters of line l in reading order.
func (g *Grid) Read(l Line) string {
	var b [Size]byte
	for i := range Size {
		b[i] = g.Letters[l.Square(i)]
	}
	return string(b[:])
}

// Rows returns the grid as five strings, row 5 first.
func (g *Grid) Rows() []string {
	all := string(g.Letters[:]) // one string the rows share
	r := make([]string, Size)
	for i := range Size {
		r[i] = all[i*Size : i*Size+Size]
	}
	return r
}

// Missing returns the one letter of the alphabet that is not in the grid.
func (g *Grid) Missing() byte {
	var seen [26]bool
	for _, c := range g.Letters {
		if c >= 'A' && c <= 'Z' {
			seen[c-'A'] = true
		}
	}
	for i, ok := range seen {
		if !ok {
			return byte('A' + i)
		}
	}
	return 0
}

// Setup is a grid in the notation of RECORDS.md: five rows of five
// letters, row 5 first, and the password.
type Setup struct {
	Grid     []string `json:"grid"`
	Password string   `json:"password"`
}

// Setup returns g in the record's notation, as JSON.
func (g *Grid) Setup() json.RawMessage {
	b, _ := json.Marshal(Setup{Grid: g.Rows(), Password: g.Password})
	return b
}

// MaxSetupSize caps the size of a setup ParseSetup reads.
const MaxSetupSize = 4096

// ParseSetup reads a grid in the record's notation and checks it against
// the rules with lex: see Check.
func ParseSetup(raw json.RawMessage, lex *lexicon.Lexicon) (*Grid, error) {
	if len(raw) > MaxSetupSize {
		return nil, fmt.Errorf("the setup is too long (%d bytes; a grid takes well under %d)", len(raw), MaxSetupSize)
	}
	var s Setup
	if err := game.DecodeJSON(raw, &s); err != nil {
		if je, ok := errors.AsType[*game.JSONError](err); ok && je.Trailing {
			return nil, errors.New("the setup has text after the grid")
		}
		return nil, fmt.Errorf("the setup is not a Quizl grid ({\"grid\": [5 rows of 5 letters], \"password\": \"WORD\"}): %w", err)
	}
	return NewGrid(s.Grid, s.Password, lex)
}

// NewGrid builds a grid from five rows of five letters (row 5 first) and
// a password, in any letter case, and checks it with lex (see Check).
func NewGrid(rows []string, password string, lex *lexicon.Lexicon) (*Grid, error) {
	if len(rows) != Size {
		return nil, fmt.Errorf("a grid has 5 rows, this one has %d", len(rows))
	}
	g := &Grid{}
	for r, row := range rows {
		row = strings.TrimSpace(row)
		if len(row) != Size {
			return nil, fmt.Errorf("row %d has %s, want 5 letters", r+5, game.Count(len([]rune(row)), "character", "characters"))
		}
		for c := range Size {
			ch := upper(row[c])
			if ch < 'A' || ch > 'Z' {
				return nil, fmt.Errorf("square %s holds %q, not a letter A-Z", At(r+5, c), row[c:c+1])
			}
			g.Letters[r*Size+c] = ch
		}
	}
	pw := strings.ToUpper(strings.TrimSpace(password))
	if pw == "" {
		return nil, errors.New("the grid names no password")
	}
	g.Password = pw
	g.Line = -1
	if err := g.Check(lex); err != nil {
		return nil, err
	}
	return g, nil
}

// Check checks g against the rules with lex: the password is a genuine
// five-letter word with five different letters on one line of the grid
// (rows left to right, columns top to bottom); every letter of the grid
// differs; and no other line reads a genuine word. It sets g.Line. The
// error names the offending line and its word, or the repeated letter.
func (g *Grid) Check(lex *lexicon.Lexicon) error {
	if err := CheckPassword(g.Password, lex); err != nil {
		return err
	}
	var at [26]Square
	for i := range at {
		at[i] = -1
	}
	for s, c := range g.Letters {
		if c < 'A' || c > 'Z' {
			return fmt.Errorf("square %s holds no letter", Square(s))
		}
		if p := at[c-'A']; p >= 0 {
			return fmt.Errorf("the letter %c appears twice, in squares %s and %s: every letter of the grid must differ", c, p, Square(s))
		}
		at[c-'A'] = Square(s)
	}
	line := Line(-1)
	for l := range Line(Lines) {
		if g.Read(l) == g.Password {
			line = l
			break
		}
	}
	if line < 0 {
		return fmt.Errorf("the password %s is not written in any row (left to right) or column (top to bottom)", g.Password)
	}
	g.Line = line
	var buf [Size]byte
	for l := range Line(Lines) {
		if l == line {
			continue
		}
		for i := range Size {
			buf[i] = g.Letters[l.Square(i)] + 'a' - 'A'
		}
		if lex != nil && lex.Has(string(buf[:])) {
			return fmt.Errorf("%s reads %s, a word: only the password may be a word", l, g.Read(l))
		}
	}
	return nil
}

// CheckPassword checks that word is fit to be a password or an
// announcement: five different letters A-Z forming a word of lex. Its
// error names the word and says what is wrong with it.
func CheckPassword(word string, lex *lexicon.Lexicon) error {
	if problem := passwordProblem(word, lex); problem != "" {
		return fmt.Errorf("%s %s", show(word), problem)
	}
	return nil
}

// passwordProblem says what keeps word from being a password, as a
// predicate ("repeats the letter Z: ..."), so that messages can put the
// word or "it" before it; "" when word is fit.
func passwordProblem(word string, lex *lexicon.Lexicon) string {
	if len(word) != Size {
		return "is not a five-letter word"
	}
	var low [Size]byte
	var seen [26]bool
	for i := range Size {
		c := upper(word[i])
		if c < 'A' || c > 'Z' {
			return "is not a word of letters A-Z"
		}
		if seen[c-'A'] {
			return fmt.Sprintf("repeats the letter %c: a password has five different letters", c)
		}
		seen[c-'A'] = true
		low[i] = c + 'a' - 'A'
	}
	if lex == nil || !lex.Has(string(low[:])) {
		return "is not a word in the lexicon"
	}
	return ""
}

// RandomGrid returns a random legal grid around password, which must be
// fit to be one (see CheckPassword): the password on a random line and the
// other 20 squares filled at random. It is deterministic for seed.
func RandomGrid(password string, lex *lexicon.Lexicon, seed uint64) (*Grid, error) {
	return randomGrid(password, -1, lex, seed)
}

// RandomGridOn is RandomGrid with the password on line l, as a player who
// wrote it there asks the editor to fill the rest. It is deterministic for
// seed.
func RandomGridOn(password string, l Line, lex *lexicon.Lexicon, seed uint64) (*Grid, error) {
	if l < 0 || l >= Lines {
		return nil, fmt.Errorf("there is no line %d: rows 5-9 and columns 0-4 are lines 0 to 9", l)
	}
	return randomGrid(password, l, lex, seed)
}

// randomGrid is RandomGrid with the password on line l, or on a random
// line when l is negative.
func randomGrid(password string, l Line, lex *lexicon.Lexicon, seed uint64) (*Grid, error) {
	pw := strings.ToUpper(strings.TrimSpace(password))
	if err := CheckPassword(pw, lex); err != nil {
		return nil, fmt.Errorf("password: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x71a2c1))
	var rest []byte
	for c := byte('A'); c <= 'Z'; c++ {
		if strings.IndexByte(pw, c) < 0 {
			rest = append(rest, c)
		}
	}
	for range 1000 {
		g := &Grid{Password: pw, Line: l}
		if l < 0 {
			g.Line = Line(rng.IntN(Lines))
		}
		rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
		for i := range Size {
			g.Letters[g.Line.Square(i)] = pw[i]
		}
		k := 0
		for s := range g.Letters {
			if g.Letters[s] == 0 {
				g.Letters[s] = rest[k]
				k++
			}
		}
		if g.Check(lex) == nil {
			return g, nil
		}
	}
	return nil, fmt.Errorf("found no legal grid around %s", pw)
}

// Passwords returns the words of lex fit to be passwords whose commonness
// is at most maxCommon (SCOWL size: 10 most common ... 95 rarest), in
// alphabetical order.
func Passwords(lex *lexicon.Lexicon, maxCommon int) []string {
	ws, _ := lex.Match("?????", lexicon.MatchOptions{Distinct: true})
	out := ws[:0:0]
	for _, w := range ws {
		if c, ok := lex.Commonness(w); ok && c <= maxCommon && plain(w) {
			out = append(out, w)
		}
	}
	return out
}

func plain(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// RandomSetup returns a random legal grid around a random password, chosen
// among the lexicon's commoner words, deterministic for seed.
func RandomSetup(lex *lexicon.Lexicon, seed uint64) (*Grid, error) {
	if lex == nil {
		return nil, errors.New("no lexicon to choose a password from")
	}
	var ws []string
	for _, c := range []int{35, 50, 70, 100} {
		if ws = Passwords(lex, c); len(ws) > 0 {
			break
		}
	}
	if len(ws) == 0 {
		return nil, errors.New("the lexicon has no five-letter word of five different letters to use as a password")
	}
	rng := rand.New(rand.NewPCG(seed, 0x9a55))
	return RandomGrid(ws[rng.IntN(len(ws))], lex, rng.Uint64())
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// show writes s for an error message: upper-case when it is all letters,
// quoted otherwise, and shortened when long.
func show(s string) string {
	const max = 24
	long := len(s) > max
	if long {
		s = s[:max]
	}
	if plain(strings.ToLower(s)) && s != "" {
		s = strings.ToUpper(s)
	} else {
		s = strconv.Quote(s)
	}
	if long {
		s += "..."
	}
	return s
}
