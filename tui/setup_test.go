package tui

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// editorGrid reads the grid editor's five rows off the screen: each
// square's letter ('.' for an empty one) and which squares are marked as
// the password's line.
func editorGrid(t *testing.T, s string) (rows []string, marked [][2]int) {
	t.Helper()
	lines := strings.Split(s, "\n")
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "     0  1  2  3  4") {
			at = i + 1
			break
		}
	}
	if at < 0 || at+5 > len(lines) {
		t.Fatalf("no grid on the screen:\n%s", s)
	}
	for r := range 5 {
		row := []rune(lines[at+r])
		var b strings.Builder
		for c := range 5 {
			cell := string(row[4+3*c : 7+3*c])
			ch := []rune(cell)[1]
			if ch == '·' {
				ch = '.'
			}
			b.WriteRune(ch)
			if cell[0] == '[' {
				marked = append(marked, [2]int{r, c})
			}
		}
		rows = append(rows, b.String())
	}
	return rows, marked
}

// columnOf reads column c of rows.
func columnOf(rows []string, c int) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteByte(r[c])
	}
	return b.String()
}

// TestQuizlGridEditor types a password down a column, then the rest of
// the grid by hand with a second word in it: the referee's verdict names
// the offending line, and goes when the line is mended. ctrl+d then fills
// the grid deceptively by the strong computer around the password, kept
// on its column.
func TestQuizlGridEditor(t *testing.T) {
	tm := quizlGridEditor(t)
	tm.key("tab") // typing down
	tm.key("right")
	tm.key("right")
	tm.typeText("crane")
	s := tm.waitFor("the password", has(`typing down · password "CRANE" on column 2`, "20 squares to fill"))
	checkFits(t, tm)
	rows, marked := editorGrid(t, s)
	if columnOf(rows, 2) != "CRANE" || len(marked) != 5 {
		t.Fatalf("CRANE is not down column 2, marked (%v):\n%s", marked, s)
	}
	for _, sq := range marked {
		if sq[1] != 2 {
			t.Fatalf("square %v marked off the password's column:\n%s", sq, s)
		}
	}

	// The rest by hand, row by row across; row 6 reads BURST.
	grid := []string{"dfcgh", "burst", "ijakl", "monpq", "vwexy"}
	tm.key("tab") // across
	for r, row := range grid {
		p := tm.table().setup
		for p.r != r {
			tm.key("down")
		}
		for p.c != 0 {
			tm.key("left")
		}
		if r == 2 {
			// One row pasted: each letter to its square.
			tm.update(tea.PasteMsg{Content: row})
			continue
		}
		tm.typeText(row)
	}
	s = tm.waitFor("the referee's verdict", has("✗ row 6 reads BURST, a word: only the password may be a word"))
	checkFits(t, tm)
	if rows, _ := editorGrid(t, s); strings.Join(rows, "") != strings.ToUpper(strings.Join(grid, "")) {
		t.Fatalf("the grid typed is not the grid shown:\n%s", s)
	}
	// Mending the line: T becomes Z.
	for tm.table().setup.r != 1 {
		tm.key("up")
	}
	for tm.table().setup.c != 4 {
		tm.key("right")
	}
	tm.typeText("z")
	s = tm.waitFor("the referee's consent", has("✓ the referee accepts"))
	if strings.Contains(s, "BURST") {
		t.Fatalf("the verdict on BURST stayed:\n%s", s)
	}
	typed, _ := editorGrid(t, s)

	// ctrl+d: the strong computer fills the rest deceptively.
	tm.key("ctrl+d")
	if s := ansi.Strip(tm.m.View().Content); !strings.Contains(s, "the computer is filling the grid deceptively…") {
		t.Errorf("ctrl+d does not say what it does:\n%s", s)
	}
	s = tm.waitFor("the deceptive grid, checked", func(s string) bool {
		rows, _ := editorGrid(t, s)
		return strings.Contains(s, "✓ the referee accepts") && strings.Join(rows, "") != strings.Join(typed, "")
	})
	checkFits(t, tm)
	rows, marked = editorGrid(t, s)
	if columnOf(rows, 2) != "CRANE" || !strings.Contains(s, `password "CRANE" on column 2`) || len(marked) != 5 || marked[0][1] != 2 {
		t.Fatalf("the fill moved the password off column 2:\n%s", s)
	}
	seen := map[rune]bool{}
	for _, r := range strings.Join(rows, "") {
		if r < 'A' || r > 'Z' || seen[r] {
			t.Fatalf("the filled grid has %q twice or not a letter:\n%s", r, s)
		}
		seen[r] = true
	}
	tm.key("enter")
	tm.waitFor("play", has("▶ your turn", "Your grid password CRANE"))
}

// TestSetupRefusalGoesWithTheSetup: a grid with squares still empty is
// not handed in, and the refusal says what is missing in the editor's
// words; a refusal stays until the grid changes, when it is about a grid
// that is no more and the verdict on the new one takes its place.
func TestSetupRefusalGoesWithTheSetup(t *testing.T) {
	t.Parallel()
	tm := quizlGridEditor(t)
	tm.typeText("crane")
	tm.waitFor("the password", has(`password "CRANE" on row 5`, "20 squares to fill"))
	tm.key("enter") // 20 squares empty: not handed in, and says why
	s := tm.waitFor("the refusal", has("! the grid is not complete: 20 squares to fill"))
	if tm.table().setup.sending || strings.Contains(s, "square 60") {
		t.Errorf("an incomplete grid was handed in:\n%s", s)
	}
	tm.key("ctrl+f")
	s = tm.waitFor("the grid filled", has("✓ the referee accepts"))
	if strings.Contains(s, "! ") {
		t.Errorf("the refusal of the grid handed in stays under the new one:\n%s", s)
	}
}

// TestSetupRefusedNotHandedIn: enter on a fleet the referee has refused
// as it stands hands nothing in, and points at the refusal rather than
// bringing it back a second time.
func TestSetupRefusedNotHandedIn(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("salvo", 0)
	tm.key("enter")
	tm.waitFor("the fleet editor", has("Place your fleet", "✓ the referee accepts"))
	st := tm.table().setup
	b := st.fleet[0]
	st.fleet[1] = ship{col: b.col, row: b.row, n: st.fleet[1].n, dir: b.dir} // the cruiser on the battleship
	tm.run(st.check())
	tm.waitFor("the referee's refusal", func(string) bool { return !st.ok && strings.Contains(st.verdict, "cruiser") })
	tm.key("enter")
	s := tm.screen()
	if st.sending || !strings.Contains(s, "refuses this setup as it stands") {
		t.Fatalf("enter on a refused fleet: sending %v\n%s", st.sending, s)
	}
	if n := strings.Count(s, "cruiser"); n > 2 {
		t.Errorf("the refusal shows %d times over:\n%s", n, s)
	}
	tm.key("r") // a random fleet: accepted, and handed in
	tm.waitFor("the referee's check", has("✓ the referee accepts"))
	tm.key("enter")
	tm.waitFor("play", has("▶ your turn"))
}

// TestDeceptiveFillOutlastsFifteenSeconds: ctrl+d's deceptive fill is
// awaited as long as the strong grid maker may think (20 s, after its
// turn for a processor), not the quarter minute the other helpers get:
// here the server answers it after 16 s, and the grid is filled rather
// than the fill given up as "no answer in time".
func TestDeceptiveFillOutlastsFifteenSeconds(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	to, err := url.Parse(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(to)
	proxy.FlushInterval = -1 // the event streams pass at once
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v1/tools/fill-setup" {
			select {
			case <-time.After(16 * time.Second):
			case <-r.Context().Done():
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(slow.Close)
	tm := newTerm(t, slow.URL, "Ann", 80, 24)
	tm.open("quizl", 0)
	tm.key("enter")
	tm.waitFor("the grid editor", has("Make your grid"))
	tm.typeText("crane")
	tm.waitFor("the password", has(`password "CRANE" on row 5`))
	tm.key("ctrl+d")
	tm.waitWithin("the filled grid", 40*time.Second, func(s string) bool {
		if strings.Contains(s, "no answer in time") || strings.Contains(s, "cannot reach") {
			t.Fatalf("the deceptive fill was given up:\n%s", s)
		}
		rows, _ := editorGrid(t, s)
		return !strings.Contains(strings.Join(rows, ""), ".") && strings.Contains(s, "✓ the referee accepts")
	})
}

// TestLowerFirst: a verdict after a colon starts in lower case, but a
// word in capitals that begins it (the password the referee names)
// stays as written.
func TestLowerFirst(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Type your password into a row or column, then fill the rest.": "type your password into a row or column, then fill the rest.",
		"HELLO repeats the letter L":                                   "HELLO repeats the letter L",
		"QXZVJ is not a word in the lexicon":                           "QXZVJ is not a word in the lexicon",
		"A password of five letters":                                   "a password of five letters",
		"20 squares to fill":                                           "20 squares to fill",
		"":                                                             "",
	} {
		if got := lowerFirst(in); got != want {
			t.Errorf("lowerFirst(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestGridEditorBackspace: backspace after a whole password typed
// erases its last letter, where typing stopped, and then the letters
// before it one by one, in either direction, and stops at the line's
// start rather than wrapping round to erase its end.
func TestGridEditorBackspace(t *testing.T) {
	t.Parallel()
	tm := quizlGridEditor(t)
	tm.key("tab") // typing down
	tm.typeText("light")
	tm.waitFor("the password", has(`password "LIGHT" on column 0`))
	tm.key("backspace")
	tm.waitFor("T erased", has(`password "LIGH" on column 0`))
	tm.key("backspace")
	tm.waitFor("H erased", has(`password "LIG" on column 0`))
	for range 4 {
		tm.key("backspace")
	}
	s := tm.waitFor("the column empty", has(`Make your grid`))
	if grid := tm.table().setup.grid; grid[0][0] != ' ' || grid[4][0] != ' ' {
		t.Errorf("after backspaces past the column's start the grid's column 0 holds %q:\n%s", []rune{grid[0][0], grid[1][0], grid[2][0], grid[3][0], grid[4][0]}, s)
	}
	if st := tm.table().setup; st.r != 0 || st.c != 0 {
		t.Errorf("backspace past the line's start moved the cursor to row %d, column %d", st.r, st.c)
	}
}

// quizlGridEditor opens, as Ann at 80x24, a Quizl table against the
// computer, easy, and returns her terminal on its grid editor.
func quizlGridEditor(t *testing.T) *term {
	t.Helper()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("quizl", 0)
	tm.key("enter")
	tm.waitFor("the grid editor", has("Make your grid"))
	return tm
}

// diagonalSalvo opens a Salvo table for a friend with diagonal ships
// allowed, on the fleet editor with the random fleet it starts from
// accepted.
func diagonalSalvo(t *testing.T, tm *term) {
	t.Helper()
	tm.open("salvo", 3) // a friend
	tm.keyUntil("down", "> Diagonal ships")
	tm.key("right")
	tm.waitFor("diagonal ships allowed", func(s string) bool { return strings.Contains(lineWith(s, "Diagonal ships"), "yes") })
	tm.key("enter")
	tm.waitFor("the fleet editor", has("Place your fleet", "✓ the referee accepts"))
	checkFits(t, tm)
}

// fleetText is the fleet being placed as the editor writes it.
func fleetText(fleet []ship) string {
	var ships []string
	for _, s := range fleet {
		ships = append(ships, s.String())
	}
	return strings.Join(ships, " ")
}

// editorCell is the fleet editor's cell of a square on screen s, its
// brackets and spaces trimmed.
func editorCell(t *testing.T, s string, col, row int) string {
	t.Helper()
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "     A  B  C  D  E  F  G  H  I  J") && i+10 < len(lines) {
			r := []rune(lines[i+1+row])
			return strings.Trim(string(r[4+3*col:7+3*col]), " []")
		}
	}
	t.Fatalf("no fleet editor's ocean on the screen:\n%s", s)
	return ""
}

// TestSalvoDiagonalFleet: at a table that allows diagonal ships the
// fleet editor starts from a random fleet with its diagonal ships laid
// and drawn, space turns a ship through all four directions (the
// referee judging each), and a fleet with a diagonal ship is handed in
// and shows on the player's own ocean.
func TestSalvoDiagonalFleet(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	diagonalSalvo(t, tm)
	st := tm.table().setup

	// Space turns the battleship across, down and along both diagonals.
	seen := map[int]bool{}
	for range 4 {
		before := fleetText(st.fleet)
		tm.key("space")
		seen[st.fleet[0].dir] = true
		if fleetText(st.fleet) == before {
			t.Fatalf("space left the battleship as it was: %s", before)
		}
		s := tm.waitFor("the referee's word on the turned fleet", func(string) bool { return st.verdict != "asking the referee…" })
		checkFits(t, tm)
		b := st.fleet[0]
		if !strings.Contains(s, "["+b.String()+"]") {
			t.Fatalf("the ships listed do not show the battleship as %s:\n%s", b, s)
		}
		for i := range b.n {
			d := shipDirs[b.dir]
			if cell := editorCell(t, s, b.col+i*d.dc, b.row+i*d.dr); cell != "5" {
				t.Fatalf("the battleship %s is not drawn on its square %d (%q):\n%s", b, i+1, cell, s)
			}
		}
	}
	if len(seen) != 4 {
		t.Fatalf("space turned the battleship through %d directions, want 4: %v", len(seen), seen)
	}

	// A random fleet with a diagonal ship, accepted, handed in.
	diagonal := func() int {
		return slices.IndexFunc(st.fleet, func(s ship) bool { return s.dir == downRight || s.dir == downLeft })
	}
	for try := 0; diagonal() < 0 || !st.ok; try++ {
		if try == 20 {
			t.Fatalf("20 random fleets and none both accepted and with a diagonal ship: %s", fleetText(st.fleet))
		}
		before := fleetText(st.fleet)
		tm.key("r")
		tm.waitFor("another random fleet, judged", func(s string) bool {
			return fleetText(st.fleet) != before && strings.Contains(s, "✓ the referee accepts")
		})
	}
	fleet := slices.Clone(st.fleet)
	bc, seat := benJoins(t, ts, tm)
	if _, err := bc.Setup(context.Background(), seat.Token, seat.Table, nil, ""); err != nil {
		t.Fatal(err)
	}
	tm.key("enter")
	s := tm.waitFor("play", has("Aiming at Ben's ocean", "Your ocean"))
	checkFits(t, tm)
	var handed struct{ Fleet []string }
	json.Unmarshal(tm.table().upd.Setup, &handed)
	if got := strings.Join(handed.Fleet, " "); got != fleetText(fleet) {
		t.Fatalf("the fleet handed in is %s, not the one placed, %s", got, fleetText(fleet))
	}
	// Each square of the diagonal ship bears its class's letter on the
	// player's own ocean, right of the ocean aimed at.
	lines := strings.Split(s, "\n")
	at := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "Your ocean") })
	i := diagonal()
	letter := []string{"B", "C", "D", "S", "S"}[i]
	sh := fleet[i]
	for k := range sh.n {
		d := shipDirs[sh.dir]
		c, r := sh.col+k*d.dc, sh.row+k*d.dr
		row := []rune(lines[at+2+r])
		if cell := strings.TrimSpace(string(row[38+3*c : 41+3*c])); cell != letter {
			t.Fatalf("%s of the diagonal ship %s shows %q on the player's ocean, not %s:\n%s", sqName(c, r), sh, cell, letter, s)
		}
	}
}

// TestNoFleetNotHandedIn: with no fleet to place (the random one could
// not be read), enter hands nothing in and says what to do instead of
// sending an empty setup for the referee to refuse.
func TestNoFleetNotHandedIn(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("salvo", 0)
	tm.key("enter")
	tm.waitFor("the fleet editor", has("Place your fleet", "✓ the referee accepts"))
	st := tm.table().setup
	st.fleet, st.ok = nil, false
	tm.key("enter")
	s := tm.screen()
	if st.sending || !strings.Contains(s, "there is no fleet to hand in yet: r deals a random one") {
		t.Fatalf("enter with no fleet: sending %v\n%s", st.sending, s)
	}
	checkFits(t, tm)
	tm.key("r")
	tm.waitFor("a random fleet, judged", func(s string) bool { return len(st.fleet) == 5 && strings.Contains(s, "✓ the referee accepts") })
}
