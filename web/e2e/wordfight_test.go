package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestWordFight plays Sightless Word Fight: Ann and Ben take turns to
// declare; both place the first two words in their secret grids (Ann by
// clicking squares, Ben by typing them) with the live preview checked,
// then three words nobody places give three strikes and end the game.
// The end shows both grids and the audit.
func TestWordFight(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ben := newPlayer(t, b, "Ben", base)
	id := ann.createTable("wordfight", "A friend")
	// Ben finds the table in the lobby rather than by the invite link.
	ben.open("/lobby")
	ben.wait("the open table", fmt.Sprintf(`!!document.querySelector('a[href="/t/%s"]')`, id))
	if row := ben.text("#main tbody tr"); !strings.Contains(row, "Sightless Word Fight") || !strings.Contains(row, "Ann") || !strings.Contains(row, "open seat") {
		t.Errorf("the lobby row reads %q", row)
	}
	ben.shot("lobby")
	ben.click(fmt.Sprintf(`a[href="/t/%s"]`, id))
	ben.wait("the join form", `!!document.querySelector("#join-name")`)
	ben.typeIn("#join-name", ben.name)
	ben.click("#main form button[type=submit]")
	ben.wait("the table", `!!document.querySelector("#turn")`)

	var lat latencies
	listLen := 0
	declare := func(by, other *player, word string) {
		t.Helper()
		by.waitTurn(true)
		other.waitTurn(false)
		if got := other.text("#w-status"); !strings.Contains(got, "Waiting for "+by.name+" to declare") {
			t.Errorf("%s's status while %s declares: %q", other.name, by.name, got)
		}
		by.typeIn("#w-declare", word)
		listLen++
		other.watchFor(fmt.Sprintf(`document.querySelectorAll("#w-list tbody tr").length === %d`, listLen))
		sent := by.submitAt("#w-controls form button[type=submit]")
		lat = append(lat, time.Duration((other.seenAt()-sent)*float64(time.Millisecond)))
		for _, p := range []*player{ann, ben} {
			// The declarer may already hold the turn (to answer), so wait
			// for the word itself to reach the list before reading it.
			p.wait("the declared word", fmt.Sprintf(`document.querySelectorAll("#w-list tbody tr").length === %d`, listLen))
			p.waitTurn(true)
			row := p.text("#w-list tbody tr:last-child")
			if !strings.HasPrefix(row, strings.ToUpper(word)+"\t"+fmt.Sprint(len(word))+"\t"+by.name) {
				t.Errorf("%s's list ends %q after %s declared %s", p.name, row, by.name, word)
			}
		}
	}
	// pick chooses the first letter's square: by clicking, or by typing.
	pick := func(p *player, sq string, down, click bool) {
		t.Helper()
		if click {
			p.click(fmt.Sprintf(`#w-controls ~ .boards [data-sq="%s"], .wordfight [data-sq="%s"]`, sq, sq))
		} else {
			p.typeIn("#w-square", sq)
		}
		if want := map[bool]string{true: "down", false: "across"}[down]; !strings.Contains(p.text("#w-dir"), want) {
			p.click("#w-dir")
		}
	}
	place := func(p *player, sq string, down, click bool, preview string) {
		t.Helper()
		pick(p, sq, down, click)
		p.wait("the preview", fmt.Sprintf(`document.querySelector("#w-preview").textContent.includes(%q)`, preview))
		if p == ann && sq == "D2" {
			ann.shot("wordfight-play")
			ann.labelled("the Word Fight play screen")
		}
		p.click("#w-place")
		p.wait("my answer", `document.querySelector("#w-place") === null || document.querySelector("#w-place").offsetParent === null`)
	}
	cannot := func(p *player) {
		t.Helper()
		p.waitTurn(true)
		p.click("#w-cannot")
		p.wait("my answer", `document.querySelector("#w-list tbody tr:last-child td:last-child").textContent === "cannot"`)
	}

	// A desktop of 1280 pixels: the board's squares are at least 28 wide.
	ann.do("a 1280-pixel desktop", chromedp.EmulateViewport(1280, 900))
	declare(ann, ben, "cat")
	if w := eval[float64](ann, `document.querySelector('.wordfight [data-sq="J10"]').getBoundingClientRect().width`); w < 28 {
		t.Errorf("on a 1280-pixel desktop Word Fight's squares are %.1f pixels wide, want at least 28", w)
	}
	place(ann, "B2", false, true, "legal so far, would score 0")
	if got := ann.text("#w-status"); !strings.Contains(got, "Waiting for Ben") {
		t.Errorf("Ann's status after answering: %q", got)
	}
	place(ben, "D4", true, false, "legal so far, would score 0")

	// Ben plays the second word on a phone in the dark: at each step, as
	// he declares, while Ann places and as he places by tapping his board,
	// the board scrolls inside its own frame and the page never sideways.
	ben.phone(true)
	ben.wait("the phone layout", `document.documentElement.clientWidth <= 375`)
	ben.phonePlay("Word Fight as Ben declares")
	declare(ben, ann, "tar")
	pick(ann, "A1", false, true)
	ann.wait("the refusing preview", `document.querySelector("#w-preview").textContent.includes("must reuse a letter already there")`)
	ben.phonePlay("Word Fight while Ann places")
	place(ann, "D2", true, true, "legal so far, would score 3")
	pick(ben, "D6", false, true)
	ben.wait("the preview", `document.querySelector("#w-preview").textContent.includes("legal so far, would score 3")`)
	ben.phonePlay("Word Fight as Ben places")
	ben.do("scroll to the board", chromedp.ScrollIntoView(chromedp.CSS("#w-grid-h")))
	ben.shotView("wordfight-phone-play")
	place(ben, "D6", false, true, "legal so far, would score 3")
	ben.phonePlay("Word Fight after Ben placed")
	ben.do("back to the desktop", chromedp.EmulateViewport(1200, 900))
	ben.theme(false)
	for _, p := range []*player{ann, ben} {
		p.wait("my score", `document.querySelector("#main .board p.muted").textContent === "Your score: 3"`)
	}
	ann.noSecrets("before the end", "D4 DOWN", "D6 ACROSS", "...TAR")
	ben.noSecrets("before the end", "B2 ACROSS", "D2 DOWN", ".CAT.")

	for i, w := range []struct {
		by, other *player
		word      string
	}{{ann, ben, "zebra"}, {ben, ann, "quiz"}, {ann, ben, "fox"}} {
		declare(w.by, w.other, w.word)
		cannot(w.by)
		if i < 2 {
			cannot(w.other)
			for _, p := range []*player{ann, ben} {
				p.wait("the strikes", fmt.Sprintf(`document.querySelector("#w-strikes").textContent === "Strikes: %d of 3"`, i+1))
			}
		} else {
			w.other.click("#w-cannot")
		}
	}
	for _, p := range []*player{ann, ben} {
		p.wait("the end", `!!document.querySelector("#game-over")`)
		if got := p.text("#game-over h2"); !strings.Contains(got, "shared win") {
			t.Errorf("%s's end screen: %q", p.name, got)
		}
		if got, want := p.text("#end-reason"), "FOX gave the third strike: Ann and Ben could not place it, and 3 strikes end the game."; got != want {
			t.Errorf("%s's end screen says why: %q, want %q", p.name, got, want)
		}
		// No grid revealed at the end shows a chosen square.
		if n := eval[int](p, `document.querySelectorAll("#w-audit-h ~ .boards .sel, #w-audit-h ~ .boards :focus").length`); n != 0 {
			t.Errorf("%s's revealed grids show %d chosen squares", p.name, n)
		}
		audit := p.text("#w-audit-h + .boards")
		if strings.Count(audit, "Score confirmed: 3") != 2 {
			t.Errorf("%s's audit does not confirm both scores:\n%s", p.name, audit)
		}
	}
	ben.shot("wordfight-over")
	// In the Table card the record's button and the rules link sit apart.
	if eval[bool](ben, `(() => { const a = document.querySelector("#download").getBoundingClientRect(), b = document.querySelector("#rules-link").getBoundingClientRect(); return b.top < a.bottom; })()`) {
		t.Error("the rules link runs into the download button")
	}
	// On a phone in the dark the board scrolls inside its own frame, the
	// page never sideways, and empty squares and letters keep WCAG AA
	// contrast.
	ann.phone(true)
	ann.phonePlay("the end of Word Fight")
	contrast := eval[map[string]float64](ann, `(() => {
		const rgb = s => s.match(/[\d.]+/g).slice(0, 3).map(Number);
		const lum = c => { const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
		const ratio = (a, b) => { const [x, y] = [lum(rgb(a)), lum(rgb(b))].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
		const cells = [...document.querySelectorAll("#w-grid-h ~ div .cell")];
		const empty = getComputedStyle(cells.find(e => !e.textContent));
		const letter = getComputedStyle(cells.find(e => e.textContent));
		const page = getComputedStyle(document.body).backgroundColor;
		return { edge: ratio(empty.borderTopColor, page), edgeOnCell: ratio(empty.borderTopColor, empty.backgroundColor), letter: ratio(letter.color, letter.backgroundColor) };
	})()`)
	if contrast["edge"] < 3 || contrast["edgeOnCell"] < 3 || contrast["letter"] < 4.5 {
		t.Errorf("dark Word Fight board contrast %v: want empty squares' edges at least 3:1, letters at least 4.5:1", contrast)
	}
	t.Logf("dark Word Fight board contrast: empty square edge %.2f:1 on the page, %.2f:1 on the square; letters %.2f:1", contrast["edge"], contrast["edgeOnCell"], contrast["letter"])
	ann.accessible("the end of Word Fight (dark theme)")
	ann.shot("wordfight-phone")
	ann.do("scroll to the board", chromedp.ScrollIntoView(chromedp.CSS("#w-grid-h")))
	ann.shotView("wordfight-phone-dark")
	t.Logf("Word Fight, time for a word to show on the other screen: %s", lat.summary())
}

// phonePlay checks p's Word Fight page on a phone: the page needs no
// sideways scrolling, and the player's board, wider than the screen,
// scrolls inside its own frame.
func (p *player) phonePlay(where string) {
	p.t.Helper()
	p.fitsWidth(where)
	if !eval[bool](p, `(f => !!f && f.scrollWidth > f.clientWidth && getComputedStyle(f).overflowX === "auto")(document.querySelector("#w-grid-h ~ div .board-frame"))`) {
		p.t.Errorf("%s: on a phone, %s's board does not scroll inside its frame", where, p.name)
	}
}
