package accounts

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/web/e2e"
)

// TestBlockRefusesChallenge: two accounts in two browsers. Ann blocks
// Ben from his profile; Ben's challenge to her from her profile is then
// refused in place, in words that do not say she blocked him, and no
// banner reaches Ann. Once she unblocks him, from her account page's list
// of players she blocks, his challenge goes through.
func TestBlockRefusesChallenge(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.SignUp("Ann", "correct horse battery")
	ben.SignUp("Ben", "another fine phrase")

	ann.Open("/players/Ben")
	ann.Wait("the Block button", `!!document.querySelector("#block-toggle") && document.querySelector("#block-toggle").textContent === "Block"`)
	ann.Click("#block-toggle")
	ann.Wait("Ben blocked", `document.querySelector("#block-toggle").textContent === "Unblock"`)
	if got := ann.Text("#relation-help"); !strings.Contains(got, "They are not told") {
		t.Errorf("the block's help reads %q", got)
	}
	ann.ShotView("profile-blocked")
	for _, dark := range []bool{false, true} {
		ann.Theme(dark)
		ann.Accessible(fmt.Sprintf("a profile with the player blocked (dark %v)", dark))
	}
	ann.Theme(false)

	ben.Open("/players/Ann")
	ben.Wait("the Challenge button", `!!document.querySelector("#profile-actions .challenge-open")`)
	ben.SendChallenge("#profile-actions .challenge-open", "")
	ben.Wait("the refusal", `document.querySelector("#challenge-error").textContent !== ""`)
	got := ben.Text("#challenge-error")
	t.Logf("Ben's challenge to Ann, who blocks him: %s", got)
	if !strings.Contains(got, "Ann is not taking challenges from you") || strings.Contains(strings.ToLower(got), "block") {
		t.Errorf("the refusal reads %q; want one that does not tell of the block", got)
	}
	if n := e2e.Eval[int](ann, `document.querySelectorAll(".banner.challenge").length`); n != 0 {
		t.Errorf("Ann's page shows %d challenge banners", n)
	}

	// Ann unblocks him from her account page's list.
	ann.Open("/account")
	ann.Wait("Ben in the blocked list", `!!document.querySelector('#blocked li[data-name="Ben"] button.unblock')`)
	ann.Accessible("the account page with a blocked player")
	ann.Click(`#blocked li[data-name="Ben"] button.unblock`)
	ann.Wait("Ben unblocked", `!document.querySelector('#blocked li[data-name="Ben"]') && document.querySelector("#blocked").textContent.includes("Nobody")`)
	ben.Click("#challenge-send")
	ann.Wait("the challenge once unblocked", `!!document.querySelector(".banner.challenge[data-dir=in]")`)
}

// TestFollowShowsOnline: Ann follows Ben from his profile; her home
// page's Following list shows him online while his browser holds his
// stream, and when he starts a game it says he plays it, with a link to
// watch, and a toast tells her.
func TestFollowShowsOnline(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.SignUp("Ann", "correct horse battery")
	ben.SignUp("Ben", "another fine phrase")

	ann.Open("/")
	ann.Wait("an empty Following list", `(document.querySelector("#following") || {}).textContent?.includes("Nobody yet")`)
	ann.Open("/players/Ben")
	ann.Wait("the Follow button", `(document.querySelector("#follow-toggle") || {}).textContent === "Follow"`)
	ann.Click("#follow-toggle")
	ann.Wait("Ben followed", `document.querySelector("#follow-toggle").textContent === "Unfollow"`)

	ann.Open("/")
	ann.Wait("Ben online in the Following list", `document.querySelector('#following li[data-name="Ben"] .follow-status')?.dataset.status === "online"`)
	ann.ShotView("home-following")
	for _, dark := range []bool{false, true} {
		ann.Theme(dark)
		ann.Accessible(fmt.Sprintf("the home page with the Following list (dark %v)", dark))
	}
	ann.Theme(false)

	// Ben starts a Quizl solitaire game: Ann's list says he plays.
	ben.Open("/new/quizl")
	ben.Wait("the new table form", `!!document.querySelector('button[data-mode="solo"]')`)
	ben.Click(`button[data-mode="solo"]`)
	ben.Click(`form button[type=submit]`)
	ben.Wait("the table", `location.pathname.startsWith("/t/")`)
	ann.Wait("Ben playing in the Following list", `document.querySelector('#following li[data-name="Ben"] .follow-status')?.dataset.status === "playing"`)
	if got := ann.Text(`#following li[data-name="Ben"]`); !strings.Contains(got, "playing Quizl") {
		t.Errorf("Ann's Following list reads %q", got)
	}
	table := e2e.Eval[string](ben, `location.pathname`)
	if href := e2e.Eval[string](ann, `document.querySelector('#following li[data-name="Ben"] a[href^="/t/"]')?.getAttribute("href") || ""`); href != table {
		t.Errorf("the watch link goes to %q, want %q", href, table)
	}
	ann.Wait("the toast", `[...document.querySelectorAll(".toast, #toast, [role=status]")].some(e => e.textContent.includes("Ben started a game of Quizl"))`)
}

// TestFollowByKeyboard follows and unfollows a player from their profile
// with the keyboard: the button, drawn anew with its new words, keeps the
// focus.
func TestFollowByKeyboard(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ben.SignUp("Ben", "another fine phrase")
	ann.SignUp("Ann", "correct horse battery")
	ann.Open("/players/Ben")
	ann.Wait("the Follow button", `!!document.querySelector("#follow-toggle") && document.querySelector("#follow-toggle").textContent === "Follow"`)
	for _, want := range []string{"Unfollow", "Follow"} {
		ann.Do("press Enter on the button", chromedp.Focus(chromedp.CSS("#follow-toggle")), chromedp.KeyEvent(kb.Enter))
		ann.Wait(want, `document.querySelector("#follow-toggle").textContent === "`+want+`"`)
		if !e2e.Eval[bool](ann, `document.activeElement === document.querySelector("#follow-toggle")`) {
			t.Errorf("once the button reads %s the focus is on %s", want, e2e.Eval[string](ann, `document.activeElement.outerHTML.slice(0, 80)`))
		}
	}
}
