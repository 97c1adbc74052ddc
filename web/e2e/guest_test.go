package e2e

import (
	"strings"
	"testing"
)

// TestGuestMark: a guest's name is marked as a guest's wherever others see
// it (the lobby, the seats, the chat), an account's is not; and a guest
// who types an account's name, or a look-alike of it, is refused in
// place with the reason.
func TestGuestMark(t *testing.T) {
	t.Parallel()
	base := startServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", base)
	ben := newPlayer(t, b, "Ben", base)
	ben.signUp("Ben", "correct horse battery")
	ann.createTable("nymphabet", "A friend")
	link := ann.inviteLink()

	ben.open("/lobby")
	ben.wait("Ann's table in the lobby", `document.querySelector("#main table") && document.querySelector("#main table").textContent.includes("Ann (guest), open seat")`)

	// A guest may not sit as Ben, or as a look-alike of him.
	cat := newPlayer(t, b, "B3N", base)
	cat.open(strings.TrimPrefix(link, base))
	cat.wait("the join form", `!!document.querySelector("#join-name")`)
	cat.typeIn("#join-name", "B3N")
	cat.click("#main form button[type=submit]")
	cat.wait("the refusal", `document.querySelector("#main form .error").textContent !== ""`)
	if got := cat.text("#main form .error"); !strings.Contains(got, `"B3N" looks like "Ben", the name of a player with an account`) {
		t.Errorf("a guest as B3N: the form says %q", got)
	}

	ben.join(link)
	ben.waitTurn(false)
	ben.wait("Ann marked a guest", `(document.querySelector("#players li[data-seat='0'] .guest-mark") || {}).textContent === " (guest)"`)
	if eval[bool](ben, `!!document.querySelector("#players li[data-seat='1'] .guest-mark")`) {
		t.Errorf("Ben, an account, is marked a guest: %q", ben.text("#players"))
	}
	ann.wait("Ann sees the mark too", `!!document.querySelector("#players li[data-seat='0'] .guest-mark") && !document.querySelector("#players li[data-seat='1'] .guest-mark")`)

	ann.typeIn("#chat-text", "hello Ben")
	ann.click("#chat-send")
	ben.typeIn("#chat-text", "hello Ann")
	ben.click("#chat-send")
	ben.wait("both lines", `document.querySelectorAll("#chat-log li[data-seq]").length === 2`)
	if got := eval[[]string](ben, `[...document.querySelectorAll("#chat-log li[data-seq]")].map(l => l.textContent)`); len(got) != 2 || got[0] != "Ann (guest): hello Ben" || got[1] != "Ben: hello Ann" {
		t.Errorf("the chat reads %q", got)
	}
	ben.shot("guest-mark")
	ben.accessible("the table with a guest")
}
