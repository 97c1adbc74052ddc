package tables

import (
	"encoding/json"
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
