package games

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/web/e2e"
)

// offPassword lists n squares of grid whose letters are not in pw.
func offPassword(grid map[string]string, pw string, n int) []string {
	var out []string
	for r := 5; r <= 9 && len(out) < n; r++ {
		for c := 0; c <= 4 && len(out) < n; c++ {
			sq := fmt.Sprintf("%d%d", r, c)
			if !strings.Contains(pw, grid[sq]) {
				out = append(out, sq)
			}
		}
	}
	return out
}

// passwordLine lists, sorted, the squares of the row (read left to right)
// or column (top to bottom) of grid that spells pw, or nil.
func passwordLine(grid map[string]string, pw string) []string {
	for line := 0; line < 10; line++ {
		var sqs []string
		word := ""
		for i := 0; i < 5; i++ {
			sq := fmt.Sprintf("%d%d", 5+line, i) // rows 5-9
			if line >= 5 {
				sq = fmt.Sprintf("%d%d", 5+i, line-5) // columns 0-4
			}
			sqs = append(sqs, sq)
			word += grid[sq]
		}
		if word == pw {
			slices.Sort(sqs)
			return sqs
		}
	}
	return nil
}

// TestQuizl plays a two-player Quizl game: Ann writes her grid by hand in
// the editor, Ben lets the computer choose his whole grid; each calls
// three squares (Ann by typing, Ben by clicking a square twice: select,
// then call), then each announces the other's
// password. Both screens are checked after every move, nothing either
// browser receives holds the other's grid before the end, and the end
// shows every grid with the commitments checked. Then both go to the
// rematch.
func TestQuizl(t *testing.T) {
	t.Parallel()
	srv := e2e.NewTestServer(t)
	base := srv.Base
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("quizl", "A friend")
	ben.Join(ann.InviteLink())
	// A second word in the grid: the editor names the line as soon as the
	// grid is whole.
	ann.Wait("the grid editor", `!!document.querySelector("#q-password")`)
	ann.TypeIn("#q-password", "psalm")
	e2e.Eval[bool](ann, `(document.querySelector("#q-line").value = "2", true)`)
	ann.ClickText("#main button", "Write it in")
	ann.Do("type a word into row 5", chromedp.Focus(chromedp.CSS(`input[data-sq="50"]`)), chromedp.KeyEvent("chunk"))
	ann.ClickText("#main button", "Fill the rest for me")
	ann.Wait("the editor's note", `document.querySelector("#q-note").textContent.startsWith("row 5 reads CHUNK, a word")`)
	ann.HandWrittenGrid("PSALM", 2)
	ben.Wait("the grid editor", `!!document.querySelector("#q-password")`)
	ben.Click("#q-auto") // "Let the computer choose everything, password too"

	annGrid, annPw := ann.QuizlGrid()
	benGrid, benPw := ben.QuizlGrid()
	if annPw != "PSALM" {
		t.Fatalf("Ann's password shows as %q", annPw)
	}
	for i, c := range "PSALM" {
		if annGrid[fmt.Sprintf("7%d", i)] != string(c) {
			t.Errorf("Ann's square 7%d holds %q, want %c", i, annGrid[fmt.Sprintf("7%d", i)], c)
		}
	}
	secretsOf := func(grid map[string]string, pw string) []string {
		out := []string{`"` + pw + `"`, "say " + pw}
		for r := 5; r <= 9; r++ {
			row := ""
			for c := 0; c <= 4; c++ {
				row += grid[fmt.Sprintf("%d%d", r, c)]
			}
			out = append(out, row)
		}
		return out
	}
	annCalls := offPassword(benGrid, benPw, 3)
	benCalls := offPassword(annGrid, annPw, 3)
	var lat e2e.Latencies
	moves := 0
	for i := 0; i < 3; i++ {
		for _, turn := range []struct {
			mover, other *e2e.Player
			sq           string
			target       string // board of the grid called
			want         string
		}{
			{ann, ben, annCalls[i], "1", benGrid[annCalls[i]]},
			{ben, ann, benCalls[i], "0", annGrid[benCalls[i]]},
		} {
			turn.mover.WaitTurn(true)
			turn.other.WaitTurn(false)
			if !strings.HasPrefix(e2e.Eval[string](turn.mover, `document.title`), "● Your turn") {
				t.Errorf("%s's tab title does not say it is their turn: %q", turn.mover.Name, e2e.Eval[string](turn.mover, `document.title`))
			}
			moves++
			turn.other.WatchFor(fmt.Sprintf(`document.querySelectorAll("#moves li").length === %d`, moves))
			var sent float64
			if turn.mover == ann {
				ann.TypeIn("#q-call", turn.sq)
				sent = ann.SubmitAt("#q-controls form button[type=submit]")
			} else {
				// A first click selects the square and sends nothing; a
				// second click on it calls it.
				sq := fmt.Sprintf(`[data-board="%s"] [data-sq="%s"]`, turn.target, turn.sq)
				ben.SubmitAt(sq)
				ben.Wait("the square selected", fmt.Sprintf(`document.querySelector(%q).getAttribute("aria-selected") === "true" && !document.querySelector("#q-chosen").hidden`, sq))
				time.Sleep(50 * time.Millisecond)
				if n := e2e.Eval[int](ben, `document.querySelectorAll("#moves li").length`); n != moves-1 {
					t.Fatalf("a first click on %s sent a move: %d moves listed, want %d", turn.sq, n, moves-1)
				}
				sent = ben.SubmitAt(sq)
			}
			lat = append(lat, time.Duration((turn.other.SeenAt()-sent)*float64(time.Millisecond)))
			turn.mover.Wait("the revealed letter", fmt.Sprintf(`(document.querySelector('[data-board="%s"] [data-sq="%s"]')||{dataset:{}}).dataset.letter === %q`, turn.target, turn.sq, turn.want))
			for _, p := range []*e2e.Player{ann, ben} {
				p.Wait("the move list", fmt.Sprintf(`document.querySelectorAll("#moves li").length === %d`, moves))
			}
			last := ann.Text("#moves li:last-child")
			if !strings.Contains(last, turn.sq) {
				t.Errorf("the move list ends %q, want the call of %s", last, turn.sq)
			}
			if mine := turn.mover.Text("#moves li:last-child"); !strings.Contains(mine, turn.want) {
				t.Errorf("%s's move list does not say what the call revealed (%s): %q", turn.mover.Name, turn.want, mine)
			}
			if theirs := turn.other.Text("#moves li:last-child"); strings.Contains(theirs, " — ") {
				t.Errorf("%s's move list shows what %s's call revealed: %q", turn.other.Name, turn.mover.Name, theirs)
			}
			if i > 0 {
				// After the reconnection the moves come as tails of
				// the views sent whole on the new sockets: the list
				// still starts with the first call.
				for _, p := range []*e2e.Player{ann, ben} {
					if first := p.Text("#moves li:first-child"); !strings.Contains(first, annCalls[0]) {
						t.Errorf("%s's move list starts %q after the reconnection, want the call of %s", p.Name, first, annCalls[0])
					}
				}
			}
		}
		if i == 0 {
			// The server goes down and comes back: both screens follow
			// it on new sockets, which send each view whole first.
			srv.Restart(func() {
				for _, p := range []*e2e.Player{ann, ben} {
					p.Wait("the lost connection", `document.querySelector("#conn").dataset.state !== "live"`)
				}
			})
			for _, p := range []*e2e.Player{ann, ben} {
				p.Wait("the reconnection", `document.querySelector("#conn").dataset.state === "live"`)
			}
		}
	}
	ann.Shot("quizl-play")
	ann.Labelled("the Quizl play screen")
	// Ann's own grid beside the grid she tracks, in both themes.
	if n := e2e.Eval[int](ann, `document.querySelectorAll('[data-board="own"] [data-sq], [data-board="1"] [data-sq]').length`); n != 50 {
		t.Errorf("Ann's play screen shows %d squares, want her own grid and Ben's", n)
	}
	ann.AccessibleThemes("the Quizl play screen of two players")
	ann.NoSecrets("before any announcement", secretsOf(benGrid, benPw)...)
	ben.NoSecrets("before any announcement", secretsOf(annGrid, annPw)...)

	// Ann announces Ben's password: right, 25 less her 3 calls.
	ann.WaitTurn(true)
	ann.TypeIn("#q-say", strings.ToLower(benPw))
	ben.WatchFor(fmt.Sprintf(`document.querySelectorAll("#moves li").length === %d`, moves+1))
	sent := ann.SubmitAt("#q-controls form:nth-of-type(2) button[type=submit]")
	lat = append(lat, time.Duration((ben.SeenAt()-sent)*float64(time.Millisecond)))
	ann.Wait("Ann's score", `document.querySelector('#players li[data-seat="0"] .score').textContent === "22"`)
	ben.Wait("Ann's score", `document.querySelector('#players li[data-seat="0"] .score').textContent === "22"`)
	ben.WaitTurn(true)
	ben.NoSecrets("before Ben announces", secretsOf(annGrid, annPw)...)
	ben.TypeIn("#q-say", "Psalm")
	ben.Click("#q-controls form:nth-of-type(2) button[type=submit]")
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the end", `!!document.querySelector("#game-over")`)
		p.Wait("the commitment checks", `document.querySelectorAll("#commitments li .ok").length === 2`)
		if got := p.Text("#game-over"); !strings.Contains(got, "Ann 22, Ben 22") || !strings.Contains(got, "PSALM") || !strings.Contains(got, benPw) {
			t.Errorf("%s's end screen: %q", p.Name, got)
		}
		// The banner says why, in words: who announced which password.
		want := fmt.Sprintf("Ann announced %s for Ben: right, 22 points. Ben announced PSALM for Ann: right, 22 points.", benPw)
		if got := p.Text("#end-reason"); got != want {
			t.Errorf("%s's end screen says why: %q, want %q", p.Name, got, want)
		}
	}
	// Each revealed grid of the other player marks the line its password
	// is written on, and only that line.
	for _, c := range []struct {
		p    *e2e.Player
		grid map[string]string
		pw   string
	}{{ann, benGrid, benPw}, {ben, annGrid, annPw}} {
		board := map[*e2e.Player]string{ann: "1", ben: "0"}[c.p]
		got := e2e.Eval[string](c.p, fmt.Sprintf(`[...document.querySelectorAll('[data-board="%s"] .pw')].map(e => e.dataset.sq).sort().join(" ")`, board))
		if want := strings.Join(passwordLine(c.grid, c.pw), " "); got != want || want == "" {
			t.Errorf("%s's revealed grid of the other player marks %q as the password, want %q (%s)", c.p.Name, got, want, c.pw)
		}
	}
	ann.Shot("quizl-over")
	ben.Phone(false)
	ben.FitsWidth("the end of Quizl")
	ben.Shot("quizl-phone")
	t.Logf("Quizl, time for a move to show on the other screen: %s", lat.Summary())

	// The rematch seats both at one new table, one seat further on.
	old := e2e.Eval[string](ann, `location.pathname`)
	ann.Click("#rematch")
	ann.Wait("the rematch table", fmt.Sprintf(`!!document.querySelector("#q-password") && location.pathname !== %q`, old))
	next := e2e.Eval[string](ann, `location.pathname`)
	ben.Click("#rematch")
	ben.Wait("the rematch table", fmt.Sprintf(`location.pathname === %q && !!document.querySelector("#q-password")`, next))
	if got := ben.Text("#players"); !strings.Contains(got, "Ben (you)") || !strings.Contains(got, "Ann") {
		t.Errorf("the rematch's players: %q", got)
	}
	// Each moved the socket of the last table on to the rematch's (a
	// later hello naming it), rather than open another, and is live there.
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the rematch's socket live", `document.querySelector("#conn").dataset.state === "live"`)
	}
	if got := e2e.ServerMetric(t, base, "parlour_socket_follows_total"); got != 2 {
		t.Errorf("parlour_socket_follows_total = %v after the rematch, want 2 (both players' sockets moved on)", got)
	}
}

// TestQuizlEmptyForms presses Call and Announce with nothing typed, and
// looks at both forms between turns: an empty form says what to type and
// sends nothing, and the player not to move finds both buttons waiting.
func TestQuizlEmptyForms(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("quizl", "A friend")
	ben.Join(ann.InviteLink())
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the grid editor", `!!document.querySelector("#q-auto")`)
		p.Click("#q-auto")
	}
	ann.WaitTurn(true)
	ben.WaitTurn(false)
	for _, c := range []struct {
		form, want string
	}{
		{"1", "Type the square to call, as in 72, or pick one on a tracking grid."},
		{"2", "Type the password to announce: a word of five different letters."},
	} {
		button := "#q-controls form:nth-of-type(" + c.form + ") button[type=submit]"
		// Waiting, not disabled: a disabled control would drop the
		// keyboard's focus at every turn.
		if !e2e.Eval[bool](ben, `document.querySelector("`+button+`").getAttribute("aria-disabled") === "true"`) {
			t.Errorf("form %s: the button is not marked waiting for Ben, who is not to move", c.form)
		}
		ann.Click(button)
		ann.Wait("the note on form "+c.form, `document.querySelector("#q-controls .error").textContent !== ""`)
		if got := ann.Text("#q-controls .error"); got != c.want {
			t.Errorf("form %s sent empty says %q, want %q", c.form, got, c.want)
		}
		if n := e2e.Eval[int](ann, `document.querySelectorAll("#moves li").length`); n != 0 {
			t.Errorf("form %s sent empty: %d moves listed, want none", c.form, n)
		}
		e2e.Eval[bool](ann, `(document.querySelector("#q-controls .error").textContent = "", true)`)
	}
}

// TestQuizlCalledSquare presses Enter on a square already called, with
// another square chosen: the page says why nothing happens, in the
// player's words, and changes nothing: no move is sent and the choice
// stays.
func TestQuizlCalledSquare(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("quizl", "Solitaire")
	ann.Wait("the computer's grid", `document.querySelectorAll('[data-board="0"] [data-sq]').length === 25`)
	sq := func(s string) string { return fmt.Sprintf(`[data-board="0"] [data-sq="%s"]`, s) }
	ann.Click(sq("62"))
	ann.Click(sq("62"))
	ann.Wait("62's letter", fmt.Sprintf(`/^[A-Z]$/.test(document.querySelector(%q).dataset.letter)`, sq("62")))
	letter := e2e.Eval[string](ann, fmt.Sprintf(`document.querySelector(%q).dataset.letter`, sq("62")))
	ann.WaitTurn(true)
	ann.Click(sq("63"))
	ann.Wait("63 chosen", fmt.Sprintf(`document.querySelector(%q).getAttribute("aria-selected") === "true"`, sq("63")))
	ann.Do("back onto 62 and Enter", chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.Enter))
	ann.Wait("the note", `document.querySelector("#q-controls .error").textContent !== ""`)
	if got, want := ann.Text("#q-controls .error"), "Square 62 was already called: choose one not called yet."; got != want {
		t.Errorf("Enter on a called square says %q, want %q", got, want)
	}
	if n := e2e.Eval[int](ann, `document.querySelectorAll("#moves li").length`); n != 1 {
		t.Errorf("Enter on a called square: %d moves listed, want 1", n)
	}
	if got := e2e.Eval[string](ann, fmt.Sprintf(`document.querySelector(%q).dataset.letter`, sq("62"))); got != letter {
		t.Errorf("62 reads %q after Enter on it, want %q", got, letter)
	}
	if !e2e.Eval[bool](ann, fmt.Sprintf(`document.querySelector(%q).getAttribute("aria-selected") === "true" && !document.querySelector("#q-chosen").hidden`, sq("63"))) {
		t.Errorf("Enter on a called square dropped the choice of 63: %q", ann.Text("#q-chosen"))
	}
}
