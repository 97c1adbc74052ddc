package tables

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/web/e2e"
)

type seated struct{ Table, Token string }

// postFrom posts body (a JavaScript expression of the JSON to send) to
// the API's path from p's page, as p's account signed in there, and
// answers the answer's text.
func postFrom(p *e2e.Player, path, body string) string {
	return e2e.Eval[string](p, `fetch("/api/v1`+path+`", {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(`+body+`)}).then(r => r.text())`)
}

// annieGame is a Nymphabet table Annie made from her page, Ben seated at it.
type annieGame struct {
	Table string
	ben   seated
}

// annieAbdicates has Annie, signed in on p's page, make a Nymphabet table
// with rules (a JavaScript object) from it, Ben join it through the API,
// and Annie play ABDICATE from her page.
func annieAbdicates(t *testing.T, base string, p *e2e.Player, rules string) annieGame {
	t.Helper()
	var ann annieGame
	if b := postFrom(p, "/tables", `{game: "nymphabet", seats: ["me", "open"], rules: `+rules+`}`); json.Unmarshal([]byte(b), &ann) != nil || ann.Table == "" {
		t.Fatalf("create: %s", b)
	}
	st, body := e2e.API(t, base, "POST", "/tables/"+ann.Table+"/join", "", map[string]any{"name": "Ben"})
	if json.Unmarshal(body, &ann.ben); st != 200 {
		t.Fatalf("join: %d %s", st, body)
	}
	if b := postFrom(p, "/tables/"+ann.Table+"/moves", `{move: "abdicate"}`); !strings.Contains(b, `"playing"`) {
		t.Fatalf("abdicate: %s", b)
	}
	return ann
}

// annAndBen makes a table of g with rules (nil for the defaults) through
// the API, Ann in seat 0 and Ben joining seat 1, and answers their seats.
func annAndBen(t *testing.T, base, g string, rules map[string]any) (ann, ben seated) {
	t.Helper()
	req := map[string]any{"game": g, "seats": []string{"me", "open"}, "name": "Ann"}
	if rules != nil {
		req["rules"] = rules
	}
	st, b := e2e.API(t, base, "POST", "/tables", "", req)
	if st != 201 {
		t.Fatalf("create %s: %d %s", g, st, b)
	}
	json.Unmarshal(b, &ann)
	if st, b = e2e.API(t, base, "POST", "/tables/"+ann.Table+"/join", "", map[string]any{"name": "Ben"}); st != 200 {
		t.Fatalf("join: %d %s", st, b)
	}
	json.Unmarshal(b, &ben)
	return ann, ben
}

// finishedTable plays a short game of g through the API and answers its
// table: seats are the create request's, moves pairs of (seat, move).
func finishedTable(t *testing.T, base, g string, seats []string, moves ...string) string {
	id, _ := finishedSeat(t, base, g, seats, moves...)
	return id
}

// finishedSeat is finishedTable, answering seat 0's token too.
func finishedSeat(t *testing.T, base, g string, seats []string, moves ...string) (string, string) {
	t.Helper()
	st, b := e2e.API(t, base, "POST", "/tables", "", map[string]any{"game": g, "seats": seats, "name": "Ann"})
	if st != 201 {
		t.Fatalf("create %s: %d %s", g, st, b)
	}
	var s seated
	json.Unmarshal(b, &s)
	toks := []string{s.Token}
	for i := 1; i < len(seats); i++ {
		if seats[i] != "open" {
			continue
		}
		st, b := e2e.API(t, base, "POST", "/tables/"+s.Table+"/join", "", map[string]any{"name": "Ben"})
		if st != 200 {
			t.Fatalf("join: %d %s", st, b)
		}
		var j seated
		json.Unmarshal(b, &j)
		toks = append(toks, j.Token)
	}
	for i := 0; i+1 < len(moves); i += 2 {
		tok := toks[int(moves[i][0]-'0')]
		var st int
		var b []byte
		// A computer seat may still be thinking: try again a while.
		for range 100 {
			if st, b = e2e.API(t, base, "POST", "/tables/"+s.Table+"/moves", tok, map[string]any{"move": moves[i+1]}); st == 200 || !strings.Contains(string(b), "turn") {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if st != 200 {
			t.Fatalf("%s move %q: %d %s", g, moves[i+1], st, b)
		}
	}
	return s.Table, s.Token
}

// TestAnalysisViewer opens a finished game of each of the four games in
// the replay viewer with its analysis: the marks on the move list, the
// chart (and Salvo's heat map with its legend), each checked by axe, a
// screenshot each.
func TestAnalysisViewer(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	for _, c := range []struct {
		game  string
		table string
		marks string // text one of the marks must hold
		not   string // text no mark may hold
		heat  bool
	}{
		{"nymphabet", finishedTable(t, base, "nymphabet", []string{"me", "open"}, "0", "abdicate", "1", "defog", "0", "hijack", "1", "resign"), "Mistake: win → loss", "", false},
		{"quizl", finishedTable(t, base, "quizl", []string{"me"}, "0", "50", "0", "62", "0", "74", "0", "resign"), "The grid: ", "grid's grid", false},
		// The last salvo typed in lower case, as a terminal sends it: the
		// notation is case-insensitive, and the record keeps it so.
		{"salvo", finishedTable(t, base, "salvo", []string{"me"}, "0", "fire A1 C3 E5 G7 I9", "0", "fire b2 d4 f6 h8 j10", "0", "resign"), "fleets", "", true},
		// The computer declares first and Ann answers before resigning:
		// a resignation before every player has moved aborts the game.
		{"wordfight", finishedTable(t, base, "wordfight", []string{"computer:easy", "me"}, "0", "cannot", "0", "resign"), "", "", false},
	} {
		p.Open("/replay?analyse&table=" + c.table)
		p.Wait(c.game+"'s analysis", `!!document.querySelector("#analysis-chart") || !!document.querySelector("#analysis .error")`)
		if e := p.Text("#analysis"); strings.Contains(e, "No analysis") {
			t.Fatalf("%s: %s", c.game, e)
		}
		if c.marks != "" {
			if got := p.Text("#replay-moves"); !strings.Contains(got, c.marks) {
				t.Errorf("%s: the move list's marks read %q, want %q in them", c.game, e2e.Clip(got), c.marks)
			}
		}
		if got := p.Text("#replay-moves"); c.not != "" && strings.Contains(got, c.not) {
			t.Errorf("%s: the move list's marks read %q, with %q in them", c.game, e2e.Clip(got), c.not)
		}
		if c.heat {
			p.Wait("the heat map", `!!document.querySelector("#analysis-heat svg")`)
			if n := e2e.Eval[int](p, `document.querySelectorAll("#analysis-heat rect.fired").length`); n != 5 {
				t.Errorf("the heat map outlines %d squares, want the salvo's 5", n)
			}
			if got := p.Text("#analysis-heat"); !strings.Contains(got, "Likeliest unfired squares:") || !strings.Contains(got, "100%") {
				t.Errorf("the heat map's words: %q", got)
			}
			p.Click("#replay-first")
			if got := p.Text("#analysis-step"); !strings.Contains(got, "from the first salvo") {
				t.Errorf("before the first salvo the map says %q", got)
			}
			p.Click("#replay-last")
		}
		if n := e2e.Eval[int](p, `document.querySelectorAll("#analysis-chart svg, #analysis-chart .bars").length`); n != 1 {
			t.Errorf("%s: %d charts", c.game, n)
		}
		p.Accessible(c.game + "'s analysis")
		p.Shot("analysis-" + c.game)
	}
	// The end screen offers the analysis.
	id, tok := finishedSeat(t, base, "quizl", []string{"me"}, "0", "resign")
	e2e.Eval[bool](p, `(localStorage.setItem("parlour.seats", JSON.stringify({"`+id+`": {seat: 0, token: "`+tok+`"}})), true)`)
	p.Open("/t/" + id)
	p.Wait("the end", `!!document.querySelector("#analyse-game")`)
	p.Click("#analyse-game")
	p.Wait("the analysis", `!!document.querySelector("#analysis-chart") || !!document.querySelector("#analysis h2")`)
}

// TestAnalyseByKeyboard asks for a replayed game's analysis with the
// keyboard: the button goes once pressed, and the focus goes to the
// analysis it asked for, rather than back to the top of the page.
func TestAnalyseByKeyboard(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	id, _ := finishedSeat(t, base, "nymphabet", []string{"me", "open"}, "0", "abdicate", "1", "resign")
	p.Open("/replay?table=" + id)
	p.Wait("the Analyse button", `!!document.querySelector("#analyse")`)
	p.Do("press Enter on Analyse", chromedp.Focus(chromedp.CSS("#analyse")), chromedp.KeyEvent(kb.Enter))
	p.Wait("the analysis", `!document.querySelector("#analyse") && !!document.querySelector("#analysis")`)
	if !e2e.Eval[bool](p, `!!document.activeElement.closest("#analysis")`) {
		t.Errorf("once Analyse is pressed the focus is on %s", e2e.Eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
	}
}

// TestAnalysisSaysTheServerPlayed: a game lost on time shows, in the
// replay with its analysis, that the server played the last move for the
// player whose time ran out, where the record alone has it as their own
// resignation; the player's games, on the home page and the profile, say
// so too.
func TestAnalysisSaysTheServerPlayed(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	p.SignUp("Annie", "correct horse battery")
	// Annie makes the table and moves from her page, as her account.
	ann := annieAbdicates(t, base, p, `{clock: 10}`)
	ben := ann.ben
	if st, body := e2e.API(t, base, "POST", "/tables/"+ann.Table+"/moves", ben.Token, map[string]any{"move": "defog"}); st != 200 {
		t.Fatalf("defog: %d %s", st, body)
	}
	// Annie's ten seconds run out; the server resigns for her.
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		_, body := e2e.API(t, base, "GET", "/tables/"+ann.Table, "", nil)
		var v struct{ Table struct{ Status string } }
		json.Unmarshal(body, &v)
		if v.Table.Status == "finished" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Annie's clock has not run out a minute on: %s", body)
		}
	}
	// Before any analysis, the replay says so from the table's own log:
	// the record holds the resignation alone.
	p.Open("/replay?table=" + ann.Table)
	p.Wait("the replay's moves", `(document.querySelector("#replay-moves")||{textContent: ""}).textContent.includes("ran out of time")`)
	p.Shot("replay-time-ran-out")
	if c := p.Text("#replay-step"); !strings.Contains(c, "resign (time ran out)") {
		t.Errorf("the replay's last move reads %q, want it to say the time ran out", c)
	}
	if n := strings.Count(p.Text("#replay-moves"), "ran out of time"); n != 1 {
		t.Errorf("%d moves are said to be played on time, want the one: %q", n, e2e.Clip(p.Text("#replay-moves")))
	}
	p.Open("/replay?analyse&table=" + ann.Table)
	p.Wait("the analysis", `!!document.querySelector("#analysis-chart") || !!document.querySelector("#analysis .error")`)
	moves := p.Text("#replay-moves")
	if !strings.Contains(moves, "Played by the server: the player ran out of time") {
		t.Fatalf("the move list does not say the server played the resignation: %q", e2e.Clip(moves))
	}
	if n := strings.Count(moves, "Played by the server"); n != 1 {
		t.Errorf("%d moves are said to be the server's, want the one: %q", n, e2e.Clip(moves))
	}
	p.Open("/")
	p.Wait("Annie's finished games", `(document.querySelector("#my-finished")||{textContent: ""}).textContent.includes("Lost Nymphabet against Ben · you ran out of time")`)
	p.Open("/players/Annie")
	p.Wait("Annie's profile's games", `(document.querySelector("#games")||{textContent: ""}).textContent.includes("Annie ran out of time")`)
}

// TestValueStripContrast reads the colours of Nymphabet's value strip as
// the browser draws them, in the light and the dark theme: each square's
// letter (W, D, L) stands 4.5:1 against its square, and against the
// legend's swatch of each value, so that a draw, absent from this game,
// is checked too. White letters on the dark theme's light green and pink
// were under 2.5:1.
func TestValueStripContrast(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	id := finishedTable(t, base, "nymphabet", []string{"me", "open"}, "0", "abdicate", "1", "defog", "0", "hijack", "1", "resign")
	p.Open("/replay?analyse&table=" + id)
	p.Wait("the value strip", `document.querySelectorAll("#analysis-chart svg text.value-label").length > 0 && document.querySelectorAll("#analysis-chart .legend .swatch.value").length === 3`)
	for _, dark := range []bool{false, true} {
		p.Theme(dark)
		low := e2e.Eval[[]string](p, `(() => {
			const contrast = `+e2e.Contrast+`, out = [];
			const labels = [...document.querySelectorAll("#analysis-chart svg text.value-label")];
			const fg = getComputedStyle(labels[0]).fill;
			for (const t of labels) {
				const rect = t.previousElementSibling, f = getComputedStyle(t).fill, bg = getComputedStyle(rect).fill;
				if (contrast(f, bg) < 4.5) out.push(t.textContent + " on " + rect.getAttribute("class") + ": " + f + " on " + bg + ", " + contrast(f, bg).toFixed(2));
			}
			for (const s of document.querySelectorAll("#analysis-chart .legend .swatch.value")) {
				const bg = getComputedStyle(s).backgroundColor;
				if (contrast(fg, bg) < 4.5) out.push("a letter on the legend's " + s.getAttribute("class") + ": " + fg + " on " + bg + ", " + contrast(fg, bg).toFixed(2));
			}
			return out;
		})()`)
		for _, l := range low {
			t.Errorf("dark %v: %s, want 4.5:1", dark, l)
		}
	}
	p.Theme(false)
}
