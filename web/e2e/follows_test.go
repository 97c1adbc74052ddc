package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestBlockRefusesChallenge: two accounts in two browsers. Ann blocks
// Ben from his profile; Ben's challenge to her from her profile is then
// refused in place, in words that do not say she blocked him, and no
// banner reaches Ann. Once she unblocks him, from her account page's list
// of players she blocks, his challenge goes through.
func TestBlockRefusesChallenge(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ben := newPlayer(t, b, "Ben", base)
	ann.signUp("Ann", "correct horse battery")
	ben.signUp("Ben", "another fine phrase")

	ann.open("/players/Ben")
	ann.wait("the Block button", `!!document.querySelector("#block-toggle") && document.querySelector("#block-toggle").textContent === "Block"`)
	ann.click("#block-toggle")
	ann.wait("Ben blocked", `document.querySelector("#block-toggle").textContent === "Unblock"`)
	if got := ann.text("#relation-help"); !strings.Contains(got, "They are not told") {
		t.Errorf("the block's help reads %q", got)
	}
	ann.shotView("profile-blocked")
	for _, dark := range []bool{false, true} {
		ann.theme(dark)
		ann.accessible(fmt.Sprintf("a profile with the player blocked (dark %v)", dark))
	}
	ann.theme(false)

	ben.open("/players/Ann")
	ben.wait("the Challenge button", `!!document.querySelector("#profile-actions .challenge-open")`)
	ben.sendChallenge("#profile-actions .challenge-open", "")
	ben.wait("the refusal", `document.querySelector("#challenge-error").textContent !== ""`)
	got := ben.text("#challenge-error")
	t.Logf("Ben's challenge to Ann, who blocks him: %s", got)
	if !strings.Contains(got, "Ann is not taking challenges from you") || strings.Contains(strings.ToLower(got), "block") {
		t.Errorf("the refusal reads %q; want one that does not tell of the block", got)
	}
	if n := eval[int](ann, `document.querySelectorAll(".banner.challenge").length`); n != 0 {
		t.Errorf("Ann's page shows %d challenge banners", n)
	}

	// Ann unblocks him from her account page's list.
	ann.open("/account")
	ann.wait("Ben in the blocked list", `!!document.querySelector('#blocked li[data-name="Ben"] button.unblock')`)
	ann.accessible("the account page with a blocked player")
	ann.click(`#blocked li[data-name="Ben"] button.unblock`)
	ann.wait("Ben unblocked", `!document.querySelector('#blocked li[data-name="Ben"]') && document.querySelector("#blocked").textContent.includes("Nobody")`)
	ben.click("#challenge-send")
	ann.wait("the challenge once unblocked", `!!document.querySelector(".banner.challenge[data-dir=in]")`)
}

// TestFollowShowsOnline: Ann follows Ben from his profile; her home
// page's Following list shows him online while his browser holds his
// stream, and when he starts a game it says he plays it, with a link to
// watch, and a toast tells her.
func TestFollowShowsOnline(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ben := newPlayer(t, b, "Ben", base)
	ann.signUp("Ann", "correct horse battery")
	ben.signUp("Ben", "another fine phrase")

	ann.open("/")
	ann.wait("an empty Following list", `(document.querySelector("#following") || {}).textContent?.includes("Nobody yet")`)
	ann.open("/players/Ben")
	ann.wait("the Follow button", `(document.querySelector("#follow-toggle") || {}).textContent === "Follow"`)
	ann.click("#follow-toggle")
	ann.wait("Ben followed", `document.querySelector("#follow-toggle").textContent === "Unfollow"`)

	ann.open("/")
	ann.wait("Ben online in the Following list", `document.querySelector('#following li[data-name="Ben"] .follow-status')?.dataset.status === "online"`)
	ann.shotView("home-following")
	for _, dark := range []bool{false, true} {
		ann.theme(dark)
		ann.accessible(fmt.Sprintf("the home page with the Following list (dark %v)", dark))
	}
	ann.theme(false)

	// Ben starts a Quizl solitaire game: Ann's list says he plays.
	ben.open("/new/quizl")
	ben.wait("the new table form", `!!document.querySelector('button[data-mode="solo"]')`)
	ben.click(`button[data-mode="solo"]`)
	ben.click(`form button[type=submit]`)
	ben.wait("the table", `location.pathname.startsWith("/t/")`)
	ann.wait("Ben playing in the Following list", `document.querySelector('#following li[data-name="Ben"] .follow-status')?.dataset.status === "playing"`)
	if got := ann.text(`#following li[data-name="Ben"]`); !strings.Contains(got, "playing Quizl") {
		t.Errorf("Ann's Following list reads %q", got)
	}
	table := eval[string](ben, `location.pathname`)
	if href := eval[string](ann, `document.querySelector('#following li[data-name="Ben"] a[href^="/t/"]')?.getAttribute("href") || ""`); href != table {
		t.Errorf("the watch link goes to %q, want %q", href, table)
	}
	ann.wait("the toast", `[...document.querySelectorAll(".toast, #toast, [role=status]")].some(e => e.textContent.includes("Ben started a game of Quizl"))`)
}
