package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/game"
	"parlour/games/salvo"
	"parlour/tui/client"
)

func TestSalvoAgainstTheComputer(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("salvo", 0)
	tm.key("enter")
	tm.waitFor("the fleet editor", has("Place your fleet", "✓ the referee accepts"))
	checkFits(t, tm)
	// Moving a ship onto another: the referee's refusal names them.
	for range 10 {
		tm.key("right")
		tm.key("down")
	}
	tm.key("r") // a random fleet again
	tm.waitFor("the referee's check", has("✓ the referee accepts"))
	tm.key("enter")
	tm.waitFor("play", has("▶ your turn", "Aiming at Computer (easy)'s ocean", "Your ocean"))
	checkFits(t, tm)
	// A pencil mark on J10, and off again; a shot too many is refused.
	tm.key("up")
	tm.key("left")
	tm.key("m")
	if l := strings.Split(tm.screen(), "\n")[12]; !strings.HasPrefix(l, "10  ·  ·  ·  ·  ·  ·  ·  ·  · >x<") {
		t.Fatalf("no pencil mark on J10: %q", l)
	}
	tm.key("m")
	tm.key("right")
	tm.key("down")

	next, outlined := 0, false
	for salvo := 1; salvo < 60; salvo++ {
		s := tm.waitFor("the turn", func(s string) bool { return over(s) || strings.Contains(s, "▶ your turn") })
		if over(s) {
			break
		}
		var v salvoView
		tm.view(&v)
		if v.MustOutline {
			// The test's player cannot deduce the fleet: it outlines its
			// own, wrongly, which ends the game.
			var own struct{ Fleet []string }
			json.Unmarshal(tm.table().upd.Setup, &own)
			tm.key("o")
			if s := tm.screen(); !strings.Contains(s, "Outline: "+strings.Join(own.Fleet, " ")) {
				t.Fatalf("the outline does not start from the fleet's shape:\n%s", s)
			}
			tm.key("enter")
			outlined = true
			break
		}
		var aimed []string
		for len(aimed) < v.Shots && next < 100 {
			r, c := next/10, next%10
			next++
			for tm.table().play.r != r {
				tm.key("down")
			}
			for tm.table().play.c != c {
				tm.key("right")
			}
			tm.key("space")
			aimed = append(aimed, sqName(c, r))
		}
		if s := tm.screen(); !strings.Contains(s, fmt.Sprintf("Salvo: %s (%d of %s)", strings.Join(aimed, " "), len(aimed), game.Count(v.Shots, "shot", "shots"))) {
			t.Fatalf("the salvo being aimed is not shown:\n%s", s)
		}
		tm.key("enter")
		s = tm.waitFor("the salvo's report", func(s string) bool {
			return over(s) || strings.Contains(s, fmt.Sprintf("Ann fired salvo %d at", salvo))
		})
		if over(s) {
			break
		}
		checkFits(t, tm)
		// Every square of the salvo shows its number on the tracking ocean.
		var after salvoView
		tm.view(&after)
		for _, q := range aimed {
			c, r, _ := parseSquare(q)
			if after.Tracking[0].Ocean[r][c] != salvo {
				t.Fatalf("%s holds %d, not salvo %d", q, after.Tracking[0].Ocean[r][c], salvo)
			}
		}
		// The first square's row (A10 is row 10, not 1).
		_, row, _ := parseSquare(aimed[0])
		line := strings.Split(s, "\n")[3+row]
		if !strings.Contains(line[:34], strconv.Itoa(salvo)) {
			t.Fatalf("salvo %d is not drawn on the tracking ocean:\n%s", salvo, s)
		}
		if !strings.Contains(s, "Hits so far:") {
			t.Fatalf("no tally:\n%s", s)
		}
		// Nothing of the computer's fleet shows on the tracking ocean.
		for _, l := range strings.Split(s, "\n")[3:13] {
			if strings.ContainsAny(l[:min(len(l), 34)], "BCDS") {
				t.Fatalf("a ship letter on the tracking ocean: %q", l)
			}
		}
	}
	s := tm.waitFor("the end", over)
	checkFits(t, tm)
	t.Logf("outlined: %v; %s", outlined, strings.SplitN(s, "\n", 3)[1])
	if strings.Count(s, "✓ commitment matches") != 2 || !strings.Contains(s, "fleet ") {
		t.Errorf("the end does not reveal and check both fleets:\n%s", s)
	}
	// The result counts ships, not points.
	if !regexp.MustCompile(`ships sunk: Ann \d · Computer \(easy\) \d`).MatchString(s) {
		t.Errorf("the end does not count the ships sunk:\n%s", s)
	}
}

// TestSalvoOutlineAgainstAnAPIPlayer plays Salvo between the terminal (Ann)
// and an API player (Ben). The test knows both fleets: Ben fires only
// where Ann has no ship, Ann fires at Ben's ships first, then outlines
// Ben's fleet with the outline editor's keys, rightly, and wins. At a
// table that allows diagonal ships Ben's fleet has one, which the
// outline editor turns a ship onto.
func TestSalvoOutlineAgainstAnAPIPlayer(t *testing.T) {
	for _, diagonal := range []bool{false, true} {
		t.Run(fmt.Sprintf("diagonal %v", diagonal), func(t *testing.T) {
			t.Parallel()
			salvoOutlineAgainstAnAPIPlayer(t, diagonal)
		})
	}
}

func salvoOutlineAgainstAnAPIPlayer(t *testing.T, diagonal bool) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	if diagonal {
		diagonalSalvo(t, tm)
	} else {
		tm.open("salvo", 3)
		tm.key("enter")
		tm.waitFor("the fleet editor", has("Invite a friend", "✓ the referee accepts"))
	}
	ctx := context.Background()
	bc, seat := benJoins(t, ts, tm)
	var setup json.RawMessage // the server's random fleet, without diagonal ships
	if diagonal {
		setup = fleetWithDiagonal(t)
	}
	a, err := bc.Setup(ctx, seat.Token, seat.Table, setup, "")
	if err != nil {
		t.Fatal(err)
	}
	var benFleet struct{ Fleet []string }
	json.Unmarshal(a.Setup, &benFleet)
	tm.key("enter")
	tm.waitFor("play", has("Aiming at Ben's ocean"))
	var annFleet struct{ Fleet []string }
	json.Unmarshal(tm.table().upd.Setup, &annFleet)
	annSq := map[string]bool{}
	for _, s := range annFleet.Fleet {
		sh, _ := parseShip(s)
		for _, q := range sh.squares() {
			annSq[sqName(q%10, q/10)] = true
		}
	}
	// Ann's targets: Ben's ships first, then the rest of the ocean.
	var targets []string
	seen := map[string]bool{}
	for _, s := range benFleet.Fleet {
		sh, _ := parseShip(s)
		for _, q := range sh.squares() {
			targets = append(targets, sqName(q%10, q/10))
			seen[sqName(q%10, q/10)] = true
		}
	}
	for r := range 10 {
		for c := range 10 {
			if !seen[sqName(c, r)] {
				targets = append(targets, sqName(c, r))
			}
		}
	}
	benNext := 0
	benFire := func() {
		u, err := bc.Get(ctx, seat.Token, seat.Table)
		if err != nil {
			t.Fatal(err)
		}
		var v salvoView
		json.Unmarshal(u.View, &v)
		var shots []string
		for len(shots) < v.Shots && benNext < 100 {
			q := sqName(benNext%10, benNext/10)
			benNext++
			if !annSq[q] {
				shots = append(shots, q)
			}
		}
		if _, err := bc.Move(ctx, seat.Token, seat.Table, "fire "+strings.Join(shots, " "), 0, false); err != nil {
			t.Fatalf("Ben firing %v: %v", shots, err)
		}
	}
	for round := 0; round < 40; round++ {
		s := tm.screen()
		if over(s) {
			break
		}
		u, _ := bc.Get(ctx, seat.Token, seat.Table)
		if slices.Contains(u.Table.ToMove, 1) {
			benFire()
		}
		s = tm.waitFor("Ann's turn", func(s string) bool { return over(s) || tm.table().myTurn() && !tm.table().busy })
		if over(s) {
			break
		}
		var v salvoView
		tm.view(&v)
		if v.MustOutline {
			tm.key("o")
			layOutline(tm, benFleet.Fleet)
			if s := tm.screen(); !strings.Contains(s, "Outline: "+strings.Join(benFleet.Fleet, " ")) {
				t.Fatalf("the outline is not Ben's fleet:\n%s", s)
			}
			tm.key("enter")
			break
		}
		p := tm.table().play
		for range v.Shots {
			q := targets[0]
			targets = targets[1:]
			c, r, _ := parseSquare(q)
			for p.r != r {
				tm.key("down")
			}
			for p.c != c {
				tm.key("right")
			}
			tm.key("space")
		}
		tm.key("enter")
		tm.waitFor("the salvo", func(s string) bool { return over(s) || !tm.table().busy && tm.table().upd.Version > tm.table().sentAt })
	}
	s := tm.waitFor("the end", over)
	checkFits(t, tm)
	if !strings.Contains(s, "Game over: Ann outlined Ben's fleet") || !strings.Contains(s, "you won") {
		t.Errorf("Ann's right outline does not win:\n%s", s)
	}
}

// fleetWithDiagonal is a legal fleet, ships placed strictly, with at
// least one ship on a diagonal, as a setup.
func fleetWithDiagonal(t *testing.T) json.RawMessage {
	t.Helper()
	p := salvo.Placement{Strict: true, Diagonal: true}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100 {
		f := salvo.RandomFleet(r, p)
		for _, sh := range f {
			if sh.Diagonal() {
				return salvo.SetupOf(f)
			}
		}
	}
	t.Fatal("100 random fleets and not one diagonal ship")
	return nil
}

// TestSalvoSixthShotRefused: a salvo of five shots takes no sixth square;
// the refusal shows in place, nothing is sent and the five stay chosen;
// space on a chosen square takes it back.
func TestSalvoSixthShotRefused(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	salvoAgainstTheComputer(tm)
	tm.waitFor("play", has("(0 of 5 shots)"))
	for range 5 {
		tm.key("space")
		tm.key("right")
	}
	s := tm.screen()
	if !strings.Contains(s, "Salvo: A1 B1 C1 D1 E1 (5 of 5 shots)") {
		t.Fatalf("five squares are not aimed:\n%s", s)
	}
	sent := tm.table().sent
	tm.key("space") // F1, a sixth
	s = tm.screen()
	checkFits(t, tm)
	lines := strings.Split(s, "\n")
	msg := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "! this salvo has 5 shots: space on a chosen square takes it back") {
			msg = i
		}
	}
	if msg < 0 {
		t.Fatalf("the sixth shot is not refused in place:\n%s", s)
	}
	if !strings.HasPrefix(lines[msg+1], "arrows aim") {
		t.Errorf("the refusal is not above the keys, where messages go:\n%s", s)
	}
	if !strings.Contains(s, "Salvo: A1 B1 C1 D1 E1 (5 of 5 shots)") || strings.Contains(lines[3], "*  *  *  *  *  *") {
		t.Errorf("the sixth square was taken:\n%s", s)
	}
	if tm.table().sent != sent || tm.table().busy {
		t.Errorf("a move was sent")
	}
	// A move pasted whole goes to the move line.
	tm.update(tea.PasteMsg{Content: ":fire A1 B1\n"})
	if s := tm.screen(); !strings.Contains(s, "Move: :fire A1 B1█") {
		t.Errorf("a pasted move is not on the line:\n%s", s)
	}
	// ctrl+u clears the move but keeps the line open: what is typed
	// next is the move, where a space would have aimed at the board and
	// enter fired what was aimed.
	tm.key("ctrl+u")
	if s := tm.screen(); !strings.Contains(s, "Move: :█") {
		t.Errorf("ctrl+u did not leave the line open and empty:\n%s", s)
	}
	// A ":" typed again out of habit stays one.
	tm.typeText(":fire F1 G1")
	if s := tm.screen(); !strings.Contains(s, "Move: :fire F1 G1█") || !strings.Contains(s, "Salvo: A1 B1 C1 D1 E1 (5 of 5 shots)") {
		t.Errorf("the move typed after ctrl+u is not on the line, or aimed:\n%s", s)
	}
	tm.key("ctrl+u")
	tm.key("ctrl+u")
	if s := tm.screen(); strings.Contains(s, "Move:") {
		t.Errorf("a second ctrl+u did not close the line:\n%s", s)
	}
	if tm.table().sent != sent {
		t.Errorf("a move was sent")
	}
	tm.update(tea.PasteMsg{Content: ":fire A1 B1\n"})
	tm.key("esc")
	// Back on C1: space takes it back, and the refusal goes.
	tm.key("left")
	tm.key("left")
	tm.key("left")
	tm.key("space")
	s = tm.screen()
	if !strings.Contains(s, "Salvo: A1 B1 D1 E1 (4 of 5 shots)") || strings.Contains(s, "! this salvo") {
		t.Errorf("space on C1 did not take it back:\n%s", s)
	}
}

// TestWatchSalvo: a spectator of Salvo sees every player's ocean with the
// salvos that fell on it and the hits its reports told, two oceans at a
// time (tab the next, at a table of three), and no aim of its own.
func TestWatchSalvo(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	ac, _ := client.New(ts.URL, "Ann")
	a, err := ac.Create(ctx, "", "salvo", nil, []string{"me", "computer:easy", "computer:easy"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ac.Setup(ctx, a.Token, a.Table, nil, ""); err != nil {
		t.Fatal(err)
	}
	u, err := ac.Get(ctx, a.Token, a.Table)
	if err != nil {
		t.Fatal(err)
	}
	for u.Table.Status != "playing" || !slices.Contains(u.Table.ToMove, a.Seat) {
		time.Sleep(20 * time.Millisecond)
		if u, err = ac.Get(ctx, a.Token, a.Table); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ac.Move(ctx, a.Token, a.Table, "fire A1 B2 C3 D4 E5", 0, false); err != nil {
		t.Fatal(err)
	}
	tm := newTerm(t, ts.URL, "Cat", 80, 24)
	tm.key("l")
	tm.waitFor("the game to watch", has("Games to watch", "Salvo"))
	tm.key("enter")
	s := tm.waitFor("the oceans", has("watching", "Ann's ocean", "'s ocean", "Hits on ", "tab the next oceans"))
	checkFits(t, tm)
	for _, bad := range []string{"Your ocean", "Salvo: (", "Aiming at"} {
		if strings.Contains(s, bad) {
			t.Errorf("a spectator's screen says %q:\n%s", bad, s)
		}
	}
	// Ann's salvo fell on the ocean she fired at: its squares say 1.
	var v salvoView
	json.Unmarshal(tm.table().upd.View, &v)
	at := v.Salvos[0].At
	tr := publicTracking(v, at)
	if tr == nil || tr.Ocean[0][0] != 1 || tr.Ocean[4][4] != 1 || tr.Ocean[0][1] != 0 {
		t.Fatalf("the public ocean of seat %d: %+v", at, tr)
	}
	name := v.Players[at].Name
	for range 3 {
		if strings.Contains(tm.screen(), "Hits on "+name) {
			break
		}
		tm.key("tab")
	}
	tm.waitFor("the ocean fired at", has(name+"'s ocean", " 1  ·  ·  ·", "Hits on "+name))
	checkFits(t, tm)
}

// TestWaitingNoteGoes: the note a setup's answer leaves ("waiting for the
// setups of Ben") goes once play begins, not stays under the game.
func TestWaitingNoteGoes(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("salvo", 3) // a friend
	tm.key("enter")
	tm.waitFor("the fleet editor", has("Invite a friend", "✓ the referee accepts"))
	ctx := context.Background()
	bc, seat := benJoins(t, ts, tm)
	tm.waitFor("Ben seated", has("waiting for the secret setups"))
	tm.key("enter")
	tm.waitFor("the note", has("waiting for the setups of Ben"))
	if _, err := bc.Setup(ctx, seat.Token, seat.Table, nil, ""); err != nil {
		t.Fatal(err)
	}
	s := tm.waitFor("play", has("Aiming at Ben's ocean"))
	if strings.Contains(s, "waiting for the setups") {
		t.Errorf("the waiting note stays once play began:\n%s", s)
	}
}

// layOutline moves the ships of the outline editor, open, onto fleet with
// its keys: tab to each ship, space to turn it, the arrows to move it.
func layOutline(tm *term, fleet []string) {
	tm.t.Helper()
	p := tm.table().play
	for i, want := range fleet {
		w, ok := parseShip(want)
		if !ok {
			tm.t.Fatalf("the test's outline %v holds a ship the editor cannot lay", fleet)
		}
		for p.osel != i {
			tm.key("tab")
		}
		for range len(shipDirs) {
			if p.outline[i].dir == w.dir {
				break
			}
			tm.key("space")
		}
		if p.outline[i].dir != w.dir {
			tm.t.Fatalf("space never turns the outline's %v to lie as %s", p.outline[i], want)
		}
		for p.outline[i].row > w.row {
			tm.key("up")
		}
		for p.outline[i].row < w.row {
			tm.key("down")
		}
		for p.outline[i].col > w.col {
			tm.key("left")
		}
		for p.outline[i].col < w.col {
			tm.key("right")
		}
	}
}

// TestSalvoTypedSquares: squares typed after ":" without the verb are a
// salvo, as the browser's "Fire at" box takes them, commas or not, a
// square off the ocean among them too, which the referee's refusal names;
// a line that is not squares alone goes to the referee as written, whose
// refusal shows.
func TestSalvoTypedSquares(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	salvoAgainstTheComputer(tm)
	tm.waitFor("play", has("(0 of 5 shots)"))
	tm.key("enter")
	tm.waitFor("the hint", has("! choose squares with space first (or type them after :)"))
	version := tm.table().upd.Version
	tm.typeText(":b7 k1 c8 d9 e10")
	tm.key("enter")
	tm.waitFor("the refusal", has(`K1 is off the ocean`))
	if tm.table().upd.Version != version {
		t.Fatalf("the refused line moved")
	}
	tm.key("esc")
	tm.typeText(":b7 c8 please")
	tm.key("enter")
	tm.waitFor("the refusal", has(`is not a Salvo move`))
	if tm.table().upd.Version != version {
		t.Fatalf("the refused line moved")
	}
	tm.key("esc")
	tm.typeText(":b7, c8 d9 e-10,f1")
	tm.key("enter")
	tm.waitFor("the salvo", has("Ann fired salvo 1 at Computer (easy): B7 C8 D9 E10 F1"))

	// Space on a square fired at says so and chooses nothing.
	tm.waitFor("Ann's turn again", has("▶ your turn"))
	for tm.table().play.r != 6 {
		tm.key("down")
	}
	for tm.table().play.c != 1 {
		tm.key("right")
	}
	tm.key("space")
	tm.waitFor("the refusal", has("! you fired at B7 with salvo 1: choose a square not fired at", "(0 of 5 shots)"))
}

// salvoAgainstTheComputer opens a Salvo table against the computer, easy,
// hands in the random fleet the editor starts from, and returns the
// screen once play begins with the player's turn.
func salvoAgainstTheComputer(tm *term) string {
	tm.t.Helper()
	tm.open("salvo", 0)
	tm.key("enter")
	tm.waitFor("the fleet editor", has("Place your fleet", "✓ the referee accepts"))
	tm.key("enter")
	return tm.waitFor("play", has("▶ your turn", "Your ocean"))
}
