package accounts

import (
	"strings"
	"testing"

	"parlour/web/e2e"
)

// TestGuestMark: a guest's name is marked as a guest's wherever others see
// it (the lobby, the seats, the chat), an account's is not; and a guest
// who types an account's name, or a look-alike of it, is refused in
// place with the reason.
func TestGuestMark(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ben.SignUp("Ben", "correct horse battery")
	ann.CreateTable("nymphabet", "A friend")
	link := ann.InviteLink()

	ben.Open("/lobby")
	ben.Wait("Ann's table in the lobby", `document.querySelector("#main table") && document.querySelector("#main table").textContent.includes("Ann (guest), open seat")`)

	// A guest may not sit as Ben, or as a look-alike of him.
	cat := e2e.NewPlayer(t, b, "B3N", base)
	cat.Open(strings.TrimPrefix(link, base))
	cat.Wait("the join form", `!!document.querySelector("#join-name")`)
	cat.TypeIn("#join-name", "B3N")
	cat.Click("#main form button[type=submit]")
	cat.Wait("the refusal", `document.querySelector("#main form .error").textContent !== ""`)
	if got := cat.Text("#main form .error"); !strings.Contains(got, `"B3N" looks like "Ben", the name of a player with an account`) {
		t.Errorf("a guest as B3N: the form says %q", got)
	}

	ben.Join(link)
	ben.WaitTurn(false)
	ben.Wait("Ann marked a guest", `(document.querySelector("#players li[data-seat='0'] .guest-mark") || {}).textContent === " (guest)"`)
	if e2e.Eval[bool](ben, `!!document.querySelector("#players li[data-seat='1'] .guest-mark")`) {
		t.Errorf("Ben, an account, is marked a guest: %q", ben.Text("#players"))
	}
	ann.Wait("Ann sees the mark too", `!!document.querySelector("#players li[data-seat='0'] .guest-mark") && !document.querySelector("#players li[data-seat='1'] .guest-mark")`)

	ann.TypeIn("#chat-text", "hello Ben")
	ann.Click("#chat-send")
	ben.TypeIn("#chat-text", "hello Ann")
	ben.Click("#chat-send")
	ben.Wait("both lines", `document.querySelectorAll("#chat-log li[data-seq]").length === 2`)
	if got := e2e.Eval[[]string](ben, `[...document.querySelectorAll("#chat-log li[data-seq]")].map(l => l.textContent)`); len(got) != 2 || got[0] != "Ann (guest): hello Ben" || got[1] != "Ben: hello Ann" {
		t.Errorf("the chat reads %q", got)
	}
	ben.Shot("guest-mark")
	ben.Accessible("the table with a guest")
}

// TestGuestRatedLobby: rated games are for players with accounts, so the
// lobby offers a guest no Join at a rated table and no Accept of a rated
// seek, each of which the server would refuse; it says whom they are
// for. The casual ones stay open to the guest.
func TestGuestRatedLobby(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ben.SignUp("Ben", "correct horse battery")
	for _, body := range []string{`{"game": "nymphabet", "seats": ["me", "open"], "rated": true}`, `{"game": "salvo", "seats": ["me", "open"]}`} {
		if got := e2e.Eval[string](ben, `fetch("/api/v1/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: `+"`"+body+"`"+` }).then(r => r.status + "")`); got != "201" {
			t.Fatalf("Ben opens a table %s: %s", body, got)
		}
	}
	if got := e2e.Eval[string](ben, `fetch("/api/v1/seeks", { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"game": "quizl", "rated": true}' }).then(r => r.status + "")`); got != "201" && got != "200" {
		t.Fatalf("Ben seeks a rated game: %s", got)
	}
	gus := e2e.NewPlayer(t, b, "Gus", base)
	gus.Open("/lobby")
	gus.Wait("both tables and the seek", `document.querySelectorAll("#main table.list tbody tr").length === 2 && !!document.querySelector("li[data-seek]")`)
	rows := e2e.Eval[[]string](gus, `[...document.querySelectorAll("#main table.list tbody tr")].map(r => r.textContent)`)
	for _, r := range rows {
		rated := strings.Contains(r, "rated")
		if rated != strings.HasSuffix(r, "For players with accounts") || rated == strings.HasSuffix(r, "Join") {
			t.Errorf("a guest's lobby row reads %q", r)
		}
	}
	if got := gus.Text("li[data-seek]"); !strings.HasSuffix(got, "For players with accounts") {
		t.Errorf("a guest's lobby offers the rated seek: %q", got)
	}
	// A casual seek whose rating range leaves the reader out offers no
	// Accept either: a guest has no rating, and a new account's is 1500.
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.SignUp("Ann", "another fine phrase")
	if got := e2e.Eval[string](ann, `fetch("/api/v1/seeks", { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"game": "salvo", "rating_range": {"min": 1600, "max": 2000}}' }).then(r => r.status + "")`); got != "201" && got != "200" {
		t.Fatalf("Ann seeks players rated 1600 to 2000: %s", got)
	}
	anns := `document.querySelector("li[data-seek]:last-child")`
	for _, c := range []struct{ who, want string }{
		{"a guest", "For rated players: a guest has no rating"},
		{"an account", "Your rating is outside its range"},
	} {
		if c.who == "an account" {
			gus.SignUp("Gus", "a guest no more")
		}
		gus.Open("/lobby")
		gus.Wait("Ann's seek", `document.querySelectorAll("li[data-seek]").length === 2`)
		if got := e2e.Eval[string](gus, anns+`.textContent`); !strings.Contains(got, "against players rated 1600 to 2000") || !strings.HasSuffix(got, c.want) {
			t.Errorf("%s reads Ann's seek %q, want it to end %q", c.who, got, c.want)
		}
		gus.Shot("lobby-out-of-range-" + strings.ReplaceAll(c.who, " ", "-"))
		if e2e.Eval[bool](gus, `!!`+anns+`.querySelector("button")`) {
			t.Errorf("%s is offered to accept a seek out of their range", c.who)
		}
	}
}
