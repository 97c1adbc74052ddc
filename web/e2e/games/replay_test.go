package games

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"parlour/web/e2e"
)

// checkReplay opens the replay viewer from a finished table's end screen
// and steps through the game: the first and last moves, and the view of
// each seat.
func checkReplay(t *testing.T, p *e2e.Player, moves int, last string) {
	t.Helper()
	p.Click(`#game-over a[href^="/replay"]`)
	p.Wait("the replay", `!!document.querySelector("#replay-step")`)
	if got := p.Text("#replay-step"); !strings.Contains(got, last) {
		t.Errorf("the replay opens at %q, want the last move %q", got, last)
	}
	p.Click(`button[aria-label="First move"]`)
	if got := p.Text("#replay-step"); !strings.HasPrefix(got, "Before the first move") {
		t.Errorf("after ⏮ the replay says %q", got)
	}
	p.Click("#replay-next")
	if got := p.Text("#replay-step"); !strings.HasPrefix(got, "Move 1 of ") {
		t.Errorf("after ▶ the replay says %q", got)
	}
	if n := e2e.Eval[int](p, `document.querySelectorAll("#replay-moves li").length`); n != moves {
		t.Errorf("the replay lists %d moves, want %d", n, moves)
	}
	p.Shot("replay")
}

// TestReplayUpload opens a record from a file in the replay viewer, steps
// through it with the keyboard and sees the referee's refusal of a bad
// move.
func TestReplayUpload(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	rec := `{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[
{"by":"Ann","move":"abdicate"},{"by":"Ben","move":"defog"},{"by":"Ann","move":"hijack"},{"by":"Ben","move":"bogus"}]}`
	path := filepath.Join(t.TempDir(), "game.json")
	if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	p.Open("/replay")
	p.Do("choose the file", chromedp.SetUploadFiles(chromedp.CSS("#replay-file"), []string{path}))
	p.Wait("the replay", `!!document.querySelector("#replay-step")`)
	if got := p.Text("#viewer .error"); !strings.Contains(got, "move 4 by Ben") {
		t.Errorf("the refusal reads %q", got)
	}
	if got := p.Text("#replay-step"); !strings.HasPrefix(got, "Move 3 of 3: Ann — hijack") {
		t.Errorf("the replay opens at %q", got)
	}
	p.Do("focus the previous button", chromedp.Focus(chromedp.CSS("#replay-prev")))
	p.Click("#replay-prev")
	if got := p.Text("#replay-step"); !strings.HasPrefix(got, "Move 2 of 3: Ben — defog") {
		t.Errorf("one step back the replay says %q", got)
	}
	if n := e2e.Eval[int](p, `document.querySelectorAll(".alphabet span.gone").length`); n != 7 {
		t.Errorf("after DEFOG the replay strikes %d letters, want 7", n)
	}
	p.Do("choose Ben", chromedp.SetValue(chromedp.CSS("#replay-seat"), "1"))
	e2e.Eval[bool](p, `(document.querySelector("#replay-seat").dispatchEvent(new Event("change")), true)`)
	if n := e2e.Eval[int](p, `document.querySelectorAll(".alphabet span.gone").length`); n != 7 {
		t.Errorf("as Ben, the replay strikes %d letters, want 7", n)
	}
	p.AccessibleThemes("the replay viewer")
	p.Labelled("the replay viewer")
}

// TestReplayArchive opens an archive of records, one a line, as a
// player's or an event's export holds them: the viewer lists its games,
// replays the first, and another when chosen; a line that is no record
// is listed as such and refused when chosen.
func TestReplayArchive(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	archive := `{"parlour":1,"game":"nymphabet","players":["Ann","Ben"],"moves":[{"by":"Ann","move":"abdicate"},{"by":"Ben","move":"defog"}]}
{"parlour":1,"game":"nymphabet","players":["Cy","Dee"],"moves":[{"by":"Cy","move":"abdicate"},{"by":"Dee","move":"defog"},{"by":"Cy","move":"hijack"}],"event":{"id":"club-swiss","name":"Club Swiss","round":2}}
not a record
`
	path := filepath.Join(t.TempDir(), "ann-games.ndjson")
	if err := os.WriteFile(path, []byte(archive), 0o644); err != nil {
		t.Fatal(err)
	}
	p.Open("/replay")
	p.Do("choose the file", chromedp.SetUploadFiles(chromedp.CSS("#replay-file"), []string{path}))
	p.Wait("the first game", `!!document.querySelector("#replay-step") && document.querySelector("#replay-step").textContent.startsWith("Move 2 of 2: Ben")`)
	if got := p.Text("#replay-pick"); !strings.Contains(got, "1. Nymphabet: Ann v Ben (2 moves)") || !strings.Contains(got, "2. Nymphabet: Cy v Dee (3 moves), Club Swiss, round 2") || !strings.Contains(got, "3. not a game record") {
		t.Errorf("the archive's list reads %q", got)
	}
	p.Pick("#replay-pick", "1")
	p.Wait("the second game", `!!document.querySelector("#replay-step") && document.querySelector("#replay-step").textContent.startsWith("Move 3 of 3: Cy — hijack")`)
	if got := p.Text("#replay-event"); got != "Played in Club Swiss, round 2." {
		t.Errorf("the game of an event names it %q", got)
	}
	p.Pick("#replay-pick", "2")
	p.Wait("the refusal", `document.querySelector("#main > .error").textContent.startsWith("Cannot replay it")`)
	p.Labelled("the replay of an archive")
}

// TestReplayByLink opens a finished game in the replay viewer from its
// page's address pasted in, or its id alone; what holds neither is
// refused in place.
func TestReplayByLink(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Cy", base)
	st, body := e2e.API(t, base, "POST", "/tables", "", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "name": "Ann"})
	if st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	var ann struct{ Table, Token string }
	json.Unmarshal(body, &ann)
	st, body = e2e.API(t, base, "POST", "/tables/"+ann.Table+"/join", "", map[string]any{"name": "Ben"})
	if st != 200 {
		t.Fatalf("join: %d %s", st, body)
	}
	var ben struct{ Token string }
	json.Unmarshal(body, &ben)
	for _, m := range []struct{ tok, move string }{{ann.Token, "abdicate"}, {ben.Token, "defog"}, {ann.Token, "resign"}} {
		if st, body := e2e.API(t, base, "POST", "/tables/"+ann.Table+"/moves", m.tok, map[string]any{"move": m.move}); st != 200 {
			t.Fatalf("%s: %d %s", m.move, st, body)
		}
	}

	p.Open("/replay")
	p.Wait("the replay page", `!!document.querySelector("#replay-link")`)
	p.TypeIn("#replay-link", "the game Ann resigned")
	p.Click("#replay-link-form button")
	p.Wait("the refusal", `document.querySelector("#main .error").textContent !== ""`)
	if got := p.Text("#main .error"); !strings.Contains(got, "neither a table's link nor its id") {
		t.Errorf("a paste without a table: %q", got)
	}
	for _, paste := range []string{base + "/t/" + ann.Table + "/join", " " + strings.ToUpper(ann.Table) + " "} {
		p.Open("/replay")
		p.Wait("the replay page", `!!document.querySelector("#replay-link")`)
		p.TypeIn("#replay-link", paste)
		p.Click("#replay-link-form button")
		p.Wait("the replay of "+paste, `!!document.querySelector("#replay-step")`)
		if got := p.Text("#replay-step"); !strings.HasPrefix(got, "Move 3 of 3: Ann — resign") {
			t.Errorf("%q: the replay opens at %q", paste, got)
		}
		if got := e2e.Eval[string](p, `location.search`); got != "?table="+ann.Table {
			t.Errorf("%q: the replay's address ends %q", paste, got)
		}
	}
	p.Labelled("the replay viewer with its link box")
}

// TestReplayInProgress asks the replay viewer for games not over yet:
// before play, with a move still masked, and with every move public.
// Each is refused in the player's words with the way to its table, and
// nothing of a replay is drawn.
func TestReplayInProgress(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Cy", base)
	for _, c := range []struct {
		game  string
		moves []string
	}{
		{"salvo", nil},                         // every fleet still to hide
		{"wordfight", []string{"declare cat"}}, // the computer's placement masked
		{"nymphabet", []string{"abdicate"}},    // every move public
	} {
		st, body := e2e.API(t, base, "POST", "/tables", "", map[string]any{"game": c.game, "seats": []string{"me", "computer:easy"}, "name": "Ann"})
		if st != 201 {
			t.Fatalf("%s: create: %d %s", c.game, st, body)
		}
		var ann struct{ Table, Token string }
		json.Unmarshal(body, &ann)
		for _, m := range c.moves {
			if st, body := e2e.API(t, base, "POST", "/tables/"+ann.Table+"/moves", ann.Token, map[string]any{"move": m}); st != 200 {
				t.Fatalf("%s: %s: %d %s", c.game, m, st, body)
			}
		}
		p.Open("/replay?table=" + ann.Table)
		p.Wait(c.game+": the refusal", `!!(document.querySelector("#main > .error") || {}).textContent`)
		if got := p.Text("#main > .error"); !strings.HasPrefix(got, "That game is not over yet") {
			t.Errorf("%s: the replay of a game in progress says %q", c.game, got)
		}
		if got := e2e.Eval[string](p, `(document.querySelector("#replay-table")||{}).pathname||""`); got != "/t/"+ann.Table {
			t.Errorf("%s: the way to the table leads to %q", c.game, got)
		}
		if e2e.Eval[bool](p, `!!document.querySelector("#replay-step, #analyse")`) {
			t.Errorf("%s: a game in progress is drawn as a replay: %q", c.game, p.Text("#viewer"))
		}
	}
}

// finishedGame plays a game of Ann and Ben through the API, the setups
// left to the server, and answers its table's id and the players' seat
// tokens by name.
func finishedGame(t *testing.T, base, game string, moves []string) (string, map[string]string) {
	t.Helper()
	st, body := e2e.API(t, base, "POST", "/tables", "", map[string]any{"game": game, "seats": []string{"me", "open"}, "name": "Ann"})
	if st != 201 {
		t.Fatalf("%s: create: %d %s", game, st, body)
	}
	var ann struct{ Table, Token string }
	json.Unmarshal(body, &ann)
	st, body = e2e.API(t, base, "POST", "/tables/"+ann.Table+"/join", "", map[string]any{"name": "Ben"})
	if st != 200 {
		t.Fatalf("%s: join: %d %s", game, st, body)
	}
	var ben struct{ Token string }
	json.Unmarshal(body, &ben)
	tokens := map[string]string{"Ann": ann.Token, "Ben": ben.Token}
	if game == "quizl" || game == "salvo" {
		for _, tok := range tokens {
			if st, body := e2e.API(t, base, "POST", "/tables/"+ann.Table+"/setup", tok, map[string]any{"auto": true}); st != 200 {
				t.Fatalf("%s: setup: %d %s", game, st, body)
			}
		}
	}
	for _, m := range moves {
		who, move, _ := strings.Cut(m, ": ")
		if st, body := e2e.API(t, base, "POST", "/tables/"+ann.Table+"/moves", tokens[who], map[string]any{"move": move}); st != 200 {
			t.Fatalf("%s: %s: %d %s", game, m, st, body)
		}
	}
	return ann.Table, tokens
}

// TestReplayNamesThePlayer replays finished games as Ann saw them, to a
// visitor and to Ann. The visitor reads the boards by Ann's name (and
// Quizl's calls on her grid by Ben's), with no "your" and no "the other
// side" anywhere on the board, its squares' names included; Ann reads
// them as hers.
func TestReplayNamesThePlayer(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	games := []struct {
		game        string
		moves       []string
		theirs, own string // a line of the last move's board, to a visitor and to Ann
	}{
		{"quizl", []string{"Ann: 50", "Ben: 61", "Ann: resign", "Ben: resign"}, "Called by Ben: 1 square", "Called by the other side: 1 square"},
		{"salvo", []string{"Ann: fire A1 A2 A3 A4 A5", "Ben: fire B1 B2 B3 B4 B5", "Ann: resign"}, "Ann's ocean", "Your ocean"},
		{"wordfight", []string{"Ann: declare cat", "Ann: place A1 across", "Ben: place B2 down", "Ben: resign"}, "Ann's score: 0", "Your score: 0"},
	}
	for _, g := range games {
		id, tokens := finishedGame(t, base, g.game, g.moves)
		for _, ann := range []bool{false, true} {
			who := map[bool]string{false: "Cy", true: "Ann"}[ann]
			p := e2e.NewPlayer(t, b, who, base)
			if ann {
				p.Open("/")
				e2e.Eval[bool](p, fmt.Sprintf(`(localStorage.setItem("parlour.seats", JSON.stringify({%q: {seat: 0, token: %q}})), true)`, id, tokens["Ann"]))
			}
			p.Open("/replay?table=" + id)
			p.Wait(g.game+": the replay", `!!document.querySelector("#replay-step")`)
			if got := p.Text("#replay-seat"); !strings.HasPrefix(got, "Ann") {
				t.Fatalf("%s: the replay shows the game as seen by %q, want Ann", g.game, got)
			}
			// The board's words, its squares' and grids' names included.
			words := `(s => s.innerText + "\n" + [...s.querySelectorAll("[aria-label]")].map(e => e.getAttribute("aria-label")).join("\n"))(document.querySelector("#viewer .replaying"))`
			for _, step := range []string{"the last move", "the first move"} {
				if step == "the first move" {
					p.Click("#replay-first")
					p.Click("#replay-next")
				}
				text := e2e.Eval[string](p, words)
				yours := regexp.MustCompile(`(?i)\byour?\b|other side`).FindString(text)
				if !ann && yours != "" {
					t.Errorf("%s: at %s, the board shown to %s, who is not Ann, says %q:\n%s", g.game, step, who, yours, text)
				}
				if ann && yours == "" {
					t.Errorf("%s: at %s, the board shown to Ann herself does not say \"your\":\n%s", g.game, step, text)
				}
				if step != "the last move" {
					continue
				}
				want := map[bool]string{false: g.theirs, true: g.own}[ann]
				if !strings.Contains(text, want) {
					t.Errorf("%s: at %s, the board shown to %s does not say %q:\n%s", g.game, step, who, want, text)
				}
			}
		}
	}
}

// TestReplayOpensAsTheViewer opens the replay of a finished game to a
// visitor and to each of its players: a player sees it first as they saw
// it at the table, from their own seat, and the visitor from the first
// seat.
func TestReplayOpensAsTheViewer(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	id, tokens := finishedGame(t, base, "quizl", []string{"Ann: 50", "Ben: 61", "Ann: resign", "Ben: resign"})
	for _, c := range []struct {
		who  string
		seat int // the viewer's seat, -1 for a visitor
		want string
	}{{"Cy", -1, "Ann"}, {"Ann", 0, "Ann"}, {"Ben", 1, "Ben"}} {
		p := e2e.NewPlayer(t, b, c.who, base)
		if c.seat >= 0 {
			p.Open("/")
			e2e.Eval[bool](p, fmt.Sprintf(`(localStorage.setItem("parlour.seats", JSON.stringify({%q: {seat: %d, token: %q}})), true)`, id, c.seat, tokens[c.who]))
		}
		p.Open("/replay?table=" + id)
		p.Wait(c.who+": the replay", `!!document.querySelector("#replay-step")`)
		if got := e2e.Eval[string](p, `(s => s.options[s.selectedIndex].textContent)(document.querySelector("#replay-seat"))`); got != c.want {
			t.Errorf("%s: the replay opens as seen by %q, want %q", c.who, got, c.want)
		}
		// The board is the one chosen: the player's own grid, as theirs.
		own := e2e.Eval[string](p, `(document.querySelector('#viewer [data-board="own"] h3') || {}).textContent || ""`)
		if want := map[bool]string{true: "Your grid", false: c.want + "'s grid"}[c.seat >= 0]; own != want {
			t.Errorf("%s: the replay's own grid is headed %q, want %q", c.who, own, want)
		}
	}
}

// TestReplayOffersNoPlay steps through the replay of a game of each kind,
// as a player who was to move saw it: nothing on the boards is a control
// (a square to select, call, aim at or place on), a square pressed changes
// nothing, and the squares still read, by name, to a screen reader.
func TestReplayOffersNoPlay(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	for _, g := range []struct {
		game  string
		moves []string
		cells bool // the board is a grid of squares
	}{
		{"quizl", []string{"Ann: 50", "Ben: 61", "Ann: resign", "Ben: resign"}, true},
		{"salvo", []string{"Ann: fire A1 A2 A3 A4 A5", "Ben: fire B1 B2 B3 B4 B5", "Ann: resign"}, true},
		{"wordfight", []string{"Ann: declare cat", "Ann: place A1 across", "Ben: place B2 down", "Ben: resign"}, true},
		{"nymphabet", []string{"Ann: abdicate", "Ben: defog", "Ann: resign"}, false},
	} {
		id, tokens := finishedGame(t, base, g.game, g.moves)
		p := e2e.NewPlayer(t, b, "Ann", base)
		p.Open("/")
		e2e.Eval[bool](p, fmt.Sprintf(`(localStorage.setItem("parlour.seats", JSON.stringify({%q: {seat: 0, token: %q}})), true)`, id, tokens["Ann"]))
		p.Open("/replay?table=" + id)
		p.Wait(g.game+": the replay", `!!document.querySelector("#replay-step")`)
		for step := range len(g.moves) {
			p.Do("step", chromedp.SetValue(chromedp.CSS("#replay-range"), fmt.Sprint(step)))
			e2e.Eval[bool](p, `(document.querySelector("#replay-range").dispatchEvent(new Event("input")), true)`)
			// What a player could press or type in on the board, in sight.
			live := e2e.Eval[[]string](p, `[...document.querySelectorAll("#viewer .replaying :is(button, input, select, textarea)")].filter(e => e.getClientRects().length).map(e => e.outerHTML.slice(0, 100))`)
			if len(live) > 0 {
				t.Errorf("%s: at move %d the replay's board offers %d controls, as %s", g.game, step, len(live), live[0])
			}
			if !g.cells {
				continue
			}
			if n := e2e.Eval[int](p, `document.querySelectorAll('#viewer .replaying [role="gridcell"][aria-label]').length`); n == 0 {
				t.Errorf("%s: at move %d the replay's squares have no names to read", g.game, step)
			}
			// The squares that were buttons are read as squares still (Word
			// Fight's were spans at the end already, and its board is slow
			// to check).
			if step == 1 && g.game != "wordfight" {
				p.Accessible(g.game + ": the replay in mid-game")
			}
			// Every board's first square pressed, the board reads the same.
			before := e2e.Eval[string](p, `document.querySelector("#viewer .replaying").innerHTML`)
			e2e.Eval[bool](p, `([...document.querySelectorAll("#viewer .replaying .grid")].forEach(g => { const c = g.querySelector("[data-sq]"); c.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true })); c.click(); }), true)`)
			p.Wait("two frames", `new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))`)
			if after := e2e.Eval[string](p, `document.querySelector("#viewer .replaying").innerHTML`); after != before {
				t.Errorf("%s: at move %d a square pressed changed the replay's board:\n%s", g.game, step, after)
			}
		}
	}
}
