package tables

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/web/e2e"
)

// focusInMain is true when the keyboard's focus is on the screen's
// content or inside it, rather than left on the page's body or in the
// header.
const focusInMain = `(() => { const a = document.activeElement; return !!a && a !== document.body && document.getElementById("main").contains(a); })()`

// TestFocusFollowsScreens moves about by keyboard alone, as a player
// without a mouse does: after each change of screen (a table opened, a
// setup sent, a link of the header followed, the browser's Back) the
// focus is in the new screen's content, so that the next Tab goes on
// there rather than at "Skip to content". The first page of a visit
// keeps the browser's own focus.
func TestFocusFollowsScreens(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	st, body := e2e.API(t, base, "POST", "/tables", "", map[string]any{"game": "nymphabet", "seats": []string{"me", "open"}, "name": "Ben"})
	if st != 201 {
		t.Fatalf("create: %d %s", st, body)
	}
	var ben struct{ Table, Code string }
	json.Unmarshal(body, &ben)
	// The first screen of a page, the table an invite code leads to
	// included, leaves the focus where the browser put it.
	for _, first := range []struct{ path, ready string }{
		{"/j/" + ben.Code, `location.pathname === "/t/` + ben.Table + `" && !!document.querySelector("#main form")`},
		{"/new/quizl", `!!document.querySelector("#my-name")`},
	} {
		p.Open(first.path)
		p.Wait(first.path, first.ready)
		if !e2e.Eval[bool](p, `document.activeElement === document.body`) {
			t.Errorf("the first page, %s, took the focus: it is on %s", first.path, e2e.Eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
		}
	}
	p.ClickText("#main form button", "The computer")
	p.TypeIn("#my-name", "Ann")
	steps := []struct {
		what  string
		do    func()
		ready string
	}{
		{"the table opened with Enter", func() { p.Do("press Enter", chromedp.KeyEvent(kb.Enter)) }, `!!document.querySelector("#q-auto")`},
		{"the setup sent with Enter", func() {
			p.Do("press Enter on the computer's grid", chromedp.Focus(chromedp.CSS("#q-auto")), chromedp.KeyEvent(kb.Enter))
		}, `!document.querySelector("#q-auto") && !!document.querySelector('[data-board="own"]')`},
		{"the header's Lobby link followed with Enter", func() {
			p.Do("press Enter on Lobby", chromedp.Focus(chromedp.CSS(`#main-nav a[href="/lobby"]`)), chromedp.KeyEvent(kb.Enter))
		}, `location.pathname === "/lobby" && (document.querySelector("#main h1") || {}).textContent === "Open tables"`},
		{"the browser's Back", func() { e2e.Eval[bool](p, `(history.back(), true)`) }, `location.pathname.startsWith("/t/") && !!document.querySelector('[data-board="own"]')`},
	}
	for _, s := range steps {
		s.do()
		p.Wait(s.what, s.ready)
		if !e2e.Eval[bool](p, focusInMain) {
			t.Errorf("after %s the focus is on %s, outside the screen's content", s.what, e2e.Eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
		}
		p.Do("press Tab", chromedp.KeyEvent(kb.Tab))
		if !e2e.Eval[bool](p, focusInMain) {
			t.Errorf("after %s, Tab goes to %s, outside the screen's content", s.what, e2e.Eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
		}
	}
}

// TestSkipLinkKeepsTheScreen follows "Skip to content" at a table, and
// then the browser's Back: each only moves within the page, so the
// screen stays as it was, with a chat message half typed, and the focus
// goes to the content.
func TestSkipLinkKeepsTheScreen(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	p.CreateTable("nymphabet", "A friend")
	p.Wait("the chat", `!!document.querySelector("#chat-text")`)
	p.TypeIn("#chat-text", "good luc")
	// A screen drawn again would lose the mark and what was typed.
	e2e.Eval[bool](p, `(document.querySelector("#main h1").dataset.kept = "1", true)`)
	for _, s := range []struct {
		what string
		do   func()
		hash string
	}{
		{"Skip to content", func() {
			p.Do("press Enter on the skip link", chromedp.Focus(chromedp.CSS(".skip")), chromedp.KeyEvent(kb.Enter))
		}, "#main"},
		{"Back", func() { e2e.Eval[bool](p, `(history.back(), true)`) }, ""},
	} {
		s.do()
		p.Wait("the address after "+s.what, `location.hash === "`+s.hash+`"`)
		// Any drawing again begins within a frame of the change.
		p.Wait("two frames", `new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))`)
		if !e2e.Eval[bool](p, `!!document.querySelector("#main h1[data-kept]")`) || e2e.Eval[string](p, `(document.querySelector("#chat-text") || {}).value`) != "good luc" {
			t.Errorf("after %s the table was drawn again: the chat box reads %q", s.what, e2e.Eval[string](p, `(document.querySelector("#chat-text") || {}).value`))
		}
		if !e2e.Eval[bool](p, focusInMain) {
			t.Errorf("after %s the focus is on %s, outside the screen's content", s.what, e2e.Eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
		}
	}
}

// TestFocusStaysOnRedrawnControls puts the keyboard's focus on controls
// of a table's banner and side panel, and lets another player join or
// write in the chat: the table is drawn anew, and the focus stays on the
// same control, so that the next Tab goes on from there.
func TestFocusStaysOnRedrawnControls(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	// A table of three, so that the invite stays up once Ben sits down;
	// and a game of two that is over, for the end's banner.
	open := newTable(t, base, "quizl", []string{"me", "open", "open"})
	over := newTable(t, base, "nymphabet", []string{"me", "open"})
	ben := map[string]string{}
	for _, tb := range []seated{open, over} {
		ben[tb.Table] = join(t, base, tb.Table, "Ben")
	}
	for _, m := range []struct{ tok, move string }{{over.Token, "abdicate"}, {ben[over.Table], "resign"}} {
		if st, body := e2e.API(t, base, "POST", "/tables/"+over.Table+"/moves", m.tok, map[string]any{"move": m.move}); st != 200 {
			t.Fatalf("%s: %d %s", m.move, st, body)
		}
	}
	p.Open("/")
	e2e.Eval[bool](p, fmt.Sprintf(`(localStorage.setItem("parlour.seats", JSON.stringify({%q: {seat: 0, token: %q}, %q: {seat: 0, token: %q}})), true)`,
		open.Table, open.Token, over.Table, over.Token))
	said := 0
	for _, c := range []struct {
		what, table string
		focus       string // the control the focus is put on
		tab         bool   // and then moved on from with Tab
		is          string // true while the focus is on the control tested
	}{
		{"the invite's Copy button", open.Table, "#invite", true,
			`document.activeElement.closest("#banner") && document.activeElement.textContent === "Copy"`},
		{"the turn's sound switch", open.Table, "#notify-sound", false,
			`document.activeElement.id === "notify-sound"`},
		{"the end's Replay it link", over.Table, `#game-over a[href^="/replay?table="]`, false,
			`document.activeElement.closest("#game-over") && document.activeElement.textContent === "Replay it"`},
	} {
		p.Open("/t/" + c.table)
		p.Wait(c.what, `!!document.querySelector("#tools #download") && !!document.querySelector("#invite, #game-over")`)
		// The page may still draw the table a second time as its socket
		// opens, taking the control away under a focus just given: the
		// focus is given again then, for what is tested is the next draw.
		// It is given in the page, in one step: a node looked up first
		// and focused after may be gone in between.
		for try := 0; ; try++ {
			e2e.Eval[bool](p, fmt.Sprintf(`(c => (c && c.focus(), true))(document.querySelector(%q))`, c.focus))
			if c.tab {
				p.Do("Tab from "+c.focus, chromedp.KeyEvent(kb.Tab))
			}
			if e2e.Eval[bool](p, `!!(`+c.is+`)`) {
				break
			}
			if try == 2 {
				t.Fatalf("%s: the focus did not get there: it is on %s", c.what, e2e.Eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
			}
			p.Wait("two frames", `new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))`)
		}
		said++
		line := fmt.Sprintf("hello %d", said)
		if st, body := e2e.API(t, base, "POST", "/tables/"+c.table+"/chat", ben[c.table], map[string]any{"channel": "players", "text": line}); st != 200 && st != 201 {
			t.Fatalf("%s: chat: %d %s", c.what, st, body)
		}
		p.Wait(c.what+": the table drawn anew", fmt.Sprintf(`document.querySelector("#chat-log").textContent.includes(%q)`, line))
		p.Wait("two frames", `new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))`)
		if !e2e.Eval[bool](p, `!!(`+c.is+`)`) {
			t.Errorf("%s: after Ben's message the focus is on %s", c.what, e2e.Eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
		}
	}
}

// newTable makes a table of game for Ann through the API.
func newTable(t *testing.T, base, game string, seats []string) seated {
	t.Helper()
	st, body := e2e.API(t, base, "POST", "/tables", "", map[string]any{"game": game, "seats": seats, "name": "Ann"})
	if st != 201 {
		t.Fatalf("%s: create: %d %s", game, st, body)
	}
	var s seated
	json.Unmarshal(body, &s)
	return s
}

// join seats name at table id through the API and answers the seat's token.
func join(t *testing.T, base, id, name string) string {
	t.Helper()
	st, body := e2e.API(t, base, "POST", "/tables/"+id+"/join", "", map[string]any{"name": name})
	if st != 200 {
		t.Fatalf("join %s: %d %s", id, st, body)
	}
	var ans struct{ Token string }
	json.Unmarshal(body, &ans)
	return ans.Token
}

// TestLobbyKeepsTheFocus: the lobby redraws its lists as tables open and
// games gain spectators. A player who has tabbed to a table's Join link,
// or a game's Watch link, keeps the focus there when the list is drawn
// anew, rather than lose it to the top of the page.
func TestLobbyKeepsTheFocus(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", base)
	first := newTable(t, base, "nymphabet", []string{"me", "open"})
	playing := newTable(t, base, "nymphabet", []string{"me", "open"})
	join(t, base, playing.Table, "Ben")
	p.Open("/lobby")
	for _, c := range []struct {
		what, link, change string
		do                 func() string // answers the link the change adds
	}{
		{"a table's Join link", `#main a[href="/t/` + first.Table + `"]`, "a second open table", func() string {
			return `#main a[href="/t/` + newTable(t, base, "quizl", []string{"me", "open"}).Table + `"]`
		}},
		{"a game's Watch link", `#watch-list a[href="/t/` + playing.Table + `?watch=1"]`, "a second game in play", func() string {
			second := newTable(t, base, "nymphabet", []string{"me", "open"}).Table
			join(t, base, second, "Cy")
			return `#watch-list a[href="/t/` + second + `?watch=1"]`
		}},
	} {
		p.Wait(c.what, `!!document.querySelector(`+strconv.Quote(c.link)+`)`)
		p.Do("focus "+c.what, chromedp.Focus(chromedp.CSS(c.link)))
		added := c.do()
		p.Wait(c.change, `!!document.querySelector(`+strconv.Quote(added)+`)`)
		if !e2e.Eval[bool](p, `document.activeElement === document.querySelector(`+strconv.Quote(c.link)+`)`) {
			t.Errorf("after %s the focus is on %s, not on %s", c.change, e2e.Eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`), c.what)
		}
	}
}
