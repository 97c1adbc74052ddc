package tui

import (
	"fmt"
	"parlour/game"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The Salvo practice test's player deduces the hidden fleet from the
// reports alone, as a person would: every straight placement of each
// class that agrees with the hits and sinkings each salvo reported.

var classLen = map[string]int{"battleship": 5, "cruiser": 4, "destroyer": 3, "submarine": 2}

// placements lists every ship of n squares across or down.
func placements(n int) []ship {
	var out []ship
	for r := range 10 {
		for c := range 10 {
			if c+n <= 10 {
				out = append(out, ship{col: c, row: r, n: n})
			}
			if r+n <= 10 {
				out = append(out, ship{col: c, row: r, n: n, dir: down})
			}
		}
	}
	return out
}

// squares lists a ship's squares as board indexes (row*10+col).
func (s ship) squares() []int {
	var out []int
	d := shipDirs[s.dir]
	for i := range s.n {
		out = append(out, (s.row+i*d.dr)*10+s.col+i*d.dc)
	}
	return out
}

// fits reports whether ships of class, together, agree with every
// salvo's report: as many hits in each salvo, and sunk in the salvo that
// reported it.
func fits(ships []ship, class string, salvos []salvoSalvo) bool {
	at := map[int]int{} // square: the salvo that fired at it (0: none)
	for _, s := range salvos {
		for _, q := range s.Squares {
			c, r, _ := parseSquare(q)
			at[r*10+c] = s.Number
		}
	}
	hits := map[int]int{}
	sank := map[int]int{}
	for _, sh := range ships {
		last := 0
		for _, q := range sh.squares() {
			n := at[q]
			if n == 0 {
				return false // every ship is sunk, so every square was fired at
			}
			hits[n]++
			last = max(last, n)
		}
		sank[last]++
	}
	for _, s := range salvos {
		if hits[s.Number] != s.Report.Hits[class] || sank[s.Number] != s.Report.Sank[class] {
			return false
		}
	}
	return true
}

func overlap(ships ...ship) bool {
	seen := map[int]bool{}
	for _, s := range ships {
		for _, q := range s.squares() {
			if seen[q] {
				return true
			}
			seen[q] = true
		}
	}
	return false
}

// onEdge counts a ship's squares on row 1, row 10, column A or column J.
func (s ship) onEdge() int {
	n := 0
	for _, q := range s.squares() {
		if r, c := q/10, q%10; r == 0 || r == 9 || c == 0 || c == 9 {
			n++
		}
	}
	return n
}

// touches counts the squares of b beside (across or down) a square of a.
func touches(a, b ship) int {
	near := map[int]bool{}
	for _, q := range a.squares() {
		r, c := q/10, q%10
		for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
			if nr, nc := r+d[0], c+d[1]; nr >= 0 && nr < 10 && nc >= 0 && nc < 10 {
				near[nr*10+nc] = true
			}
		}
	}
	n := 0
	for _, q := range b.squares() {
		if near[q] {
			n++
		}
	}
	return n
}

// legal says whether ships may lie together under the strict placement
// (Salvo's default): no overlap, no ship touching another on more than
// one square.
func legal(strict bool, ships ...ship) bool {
	if overlap(ships...) {
		return false
	}
	for i := range ships {
		for j := range i {
			if strict && (touches(ships[i], ships[j]) > 1 || touches(ships[j], ships[i]) > 1) {
				return false
			}
		}
	}
	return true
}

// deduce returns the fleets (battleship, cruiser, destroyer, two
// submarines) that agree with the salvos' reports, under the strict
// placement or the free one.
func deduce(salvos []salvoSalvo, strict bool) [][]ship {
	one := func(class string) []ship {
		var out []ship
		for _, s := range placements(classLen[class]) {
			if strict && s.onEdge() > 1 {
				continue
			}
			if fits([]ship{s}, class, salvos) {
				out = append(out, s)
			}
		}
		return out
	}
	bs, cs, ds := one("battleship"), one("cruiser"), one("destroyer")
	subs := one2(strict)
	var pairs [][2]ship
	for i := range subs {
		for j := i + 1; j < len(subs); j++ {
			if legal(strict, subs[i], subs[j]) && fits([]ship{subs[i], subs[j]}, "submarine", salvos) {
				pairs = append(pairs, [2]ship{subs[i], subs[j]})
			}
		}
	}
	var out [][]ship
	for _, b := range bs {
		for _, c := range cs {
			for _, d := range ds {
				for _, p := range pairs {
					if f := []ship{b, c, d, p[0], p[1]}; legal(strict, f...) {
						out = append(out, f)
					}
				}
			}
		}
	}
	return out
}

// one2 lists the submarines' placements.
func one2(strict bool) []ship {
	var out []ship
	for _, s := range placements(2) {
		if !strict || s.onEdge() <= 1 {
			out = append(out, s)
		}
	}
	return out
}

// TestSalvoPractice plays Salvo practice, one seat against a hidden fleet
// the computer made, to its end by keys: after every salvo the screen
// shows its report, the salvo's number on each square fired, the tally of
// hits and ships sunk per class as the referee counts them, and no ship of
// the hidden fleet; when every ship is sunk, the player outlines the fleet
// deduced from the reports and the end reveals it, its commitment checked.
func TestSalvoPractice(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("salvo", 4)
	if s := tm.screen(); !strings.Contains(s, "practice: fire at a fleet alone") {
		t.Fatalf("the form does not offer practice:\n%s", s)
	}
	tm.key("enter")
	s := tm.waitFor("play", has("▶ your turn", "Aiming at the computer's ocean"))
	checkFits(t, tm)
	if strings.Contains(s, "Place your fleet") {
		t.Fatalf("practice asks for a fleet:\n%s", s)
	}
	// The hidden fleet fires nothing and Ann loses no ship: her line
	// counts her shots and ships sunk, and the computer has none.
	if !strings.Contains(s, "\nAnn 5 shots, sank 0\n") || strings.Contains(s, "the computer 5 shots") {
		t.Errorf("practice counts shots for the hidden fleet:\n%s", s)
	}
	// No outline before every ship is sunk: o says so.
	tm.key("o")
	tm.waitFor("o refused", has("o outlines the fleet once you have sunk every ship of it"))

	// The squares in an order that puts neighbours in different salvos,
	// so that the reports tell the ships apart.
	order := make([]int, 100)
	for i := range order {
		order[i] = i * 37 % 100
	}
	next := 0
	var v salvoView
	for salvo := 1; ; salvo++ {
		if salvo > 100 {
			t.Fatalf("no end after 100 salvos:\n%s", s)
		}
		tm.view(&v)
		if v.MustOutline || v.Finished {
			break
		}
		var aimed []string
		for len(aimed) < v.Shots {
			q := order[next]
			next++
			for tm.table().play.r != q/10 {
				tm.key("down")
			}
			for tm.table().play.c != q%10 {
				tm.key("right")
			}
			tm.key("space")
			aimed = append(aimed, sqName(q%10, q/10))
		}
		if s := tm.screen(); !strings.Contains(s, fmt.Sprintf("Salvo: %s (%d of %s)", strings.Join(aimed, " "), len(aimed), game.Count(v.Shots, "shot", "shots"))) {
			t.Fatalf("the salvo being aimed is not shown:\n%s", s)
		}
		tm.key("enter")
		report := fmt.Sprintf("Ann fired salvo %d at the computer: %s: ", salvo, strings.Join(aimed, " "))
		s = tm.waitFor("the salvo's report", func(s string) bool { return strings.Contains(s, report) && !tm.table().busy })
		checkFits(t, tm)
		tm.view(&v)
		if len(v.Tracking) != 1 {
			t.Fatalf("%d tracking oceans", len(v.Tracking))
		}
		tr := v.Tracking[0]
		hits, sunk := "Hits so far: "+tally(tr.Hits), tally(tr.Sunk)
		if !strings.Contains(s, hits+" · sunk: "+sunk+"\n") && !strings.Contains(s, hits+"\nShips sunk: "+sunk+"\n") {
			t.Fatalf("the tally %q, sunk %q is not shown whole:\n%s", hits, sunk, s)
		}
		lines := strings.Split(s, "\n")
		for _, q := range aimed {
			c, r, _ := parseSquare(q)
			// The square under the cursor is marked > <.
			cell := strings.Trim(string([]rune(lines[3+r])[3+3*c:6+3*c]), " ><")
			if cell != strconv.Itoa(salvo) {
				t.Fatalf("%s shows %q, not salvo %d:\n%s", q, cell, salvo, s)
			}
		}
		// No ship of the hidden fleet on the ocean; beside it, what
		// practice is, not an ocean of one's own.
		for _, l := range lines[3:13] {
			if r := []rune(l); strings.ContainsAny(string(r[:min(len(r), 34)]), "BCDSbcds!") {
				t.Fatalf("a ship on the ocean before the end: %q\n%s", l, s)
			}
		}
		if !strings.Contains(lines[1], "Practice") || strings.Contains(s, "Your ocean") || !strings.Contains(s, "nobody fires back") {
			t.Fatalf("practice shows an ocean of the player's own:\n%s", s)
		}
	}
	if !v.MustOutline {
		t.Fatalf("the game ended before every ship was sunk:\n%s", s)
	}
	s = tm.waitFor("the call to outline", has("Every ship is sunk: o outlines the fleet"))
	var rules struct {
		Placement string `json:"placement"`
	}
	tm.view(&rules)
	fleets := deduce(v.Salvos, rules.Placement == "strict")
	if len(fleets) == 0 {
		t.Fatalf("no fleet agrees with the reports:\n%s", s)
	}
	t.Logf("%d salvos; %d fleets agree with the reports", len(v.Salvos), len(fleets))
	var outline []string
	for _, sh := range fleets[0] {
		outline = append(outline, sh.String())
	}
	if strings.Contains(s, "Salvo: ") {
		t.Errorf("a salvo to aim is offered once only the outline is left:\n%s", s)
	}
	// Practice has no fleet of its own to start the outline from: o opens
	// the editor on a fleet the server lays, beside the ocean aimed at,
	// whose salvos' numbers stay in sight to outline by.
	aimedAt := func(s string) []string {
		var left []string
		for _, l := range strings.Split(s, "\n")[3:13] {
			r := []rune(l)
			// The cursor's > < (no cursor while outlining) aside.
			left = append(left, strings.NewReplacer(">", " ", "<", " ").Replace(string(r[:min(len(r), 33)])))
		}
		return left
	}
	tm.key("o")
	o := tm.waitFor("the outline editor", has("Your outline", "enter send the outline"))
	checkFits(t, tm)
	if !slices.Equal(aimedAt(o), aimedAt(s)) || strings.Contains(o, "Practice") {
		t.Fatalf("the outline is not beside the ocean as it was:\n%s\nbefore:\n%s", o, s)
	}
	layOutline(tm, outline)
	want := "Outline: " + strings.Join(outline, " ")
	tm.waitFor("the outline laid", has(want))
	// esc goes back to aiming, and o takes the outline up where it was.
	tm.key("esc")
	tm.waitFor("the ocean again", func(s string) bool { return !strings.Contains(s, "Your outline") })
	tm.key("o")
	tm.waitFor("the same outline", has("Your outline", want))
	tm.key("enter")
	s = tm.waitFor("the end", over)
	checkFits(t, tm)
	if !strings.Contains(s, "the computer's hidden fleet: ✓ commitment matches") {
		t.Errorf("the end does not reveal the hidden fleet and check its commitment:\n%s", s)
	}
	// The fleet revealed is one the reports on screen allowed; the
	// outline won if and only if it was that fleet.
	m := regexp.MustCompile(`fleet ((?:[A-J]\d+-[A-J]\d+ ?){5})`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no fleet revealed:\n%s", s)
	}
	hidden := strings.Fields(m[1])
	same := func(f []string) bool {
		return slices.Equal(f[:3], hidden[:3]) && (slices.Equal(f[3:], hidden[3:]) || f[3] == hidden[4] && f[4] == hidden[3])
	}
	allowed := false
	for _, f := range fleets {
		var names []string
		for _, sh := range f {
			names = append(names, sh.String())
		}
		allowed = allowed || same(names)
	}
	if !allowed {
		t.Errorf("the hidden fleet %v disagrees with the reports shown", hidden)
	}
	if same(outline) {
		if !strings.Contains(s, "Game over: Ann outlined the computer's fleet\n") || !strings.Contains(s, "★ you won") {
			t.Errorf("the right outline did not win:\n%s", s)
		}
	} else if !strings.Contains(s, "Game over: Ann outlined the computer's fleet wrongly") || strings.Contains(s, "you won") {
		t.Errorf("a wrong outline (%v, the fleet %v) is not said to be wrong:\n%s", outline, hidden, s)
	}
	t.Logf("outlined %v; hidden %v", outline, hidden)
}
