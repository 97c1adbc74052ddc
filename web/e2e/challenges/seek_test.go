package challenges

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"parlour/server/moderation"
	"parlour/store/sqlite"
	"parlour/web/e2e"
)

// TestQuickSeek: players in separate browsers pair by quick seek. Ann and
// Ben, signed in, each press Nymphabet's "Quick rated game": Ann's page
// waits under a banner, Ben's press pairs them, and both land at the same
// rated table. Gus, a guest, presses Salvo's "Quick game"; Ben's home
// page says one player looks for a game, its link leads to the seek in
// the lobby, Ben accepts it, and both land at the same casual table. A seek cancelled from its banner leaves the lobby's list.
func TestQuickSeek(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	gus := e2e.NewPlayer(t, b, "Gus", base)
	ann.SignUp("Ann", "correct horse battery")
	ben.SignUp("Ben", "another fine phrase")

	// Rated: both press the same one-click button.
	for _, p := range []*e2e.Player{ann, ben} {
		p.Open("/")
		p.Wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=nymphabet][data-rated=true]")`)
	}
	ann.Click(".quick-seek[data-game=nymphabet][data-rated=true]")
	ann.Wait("Ann's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)
	if got := ann.Text(".banner.seek"); !strings.Contains(got, "Looking for an opponent for a rated Nymphabet (standard) game, 2 minutes a turn") {
		t.Errorf("Ann's banner reads %q", got)
	}
	ann.ShotView("seek-waiting")
	ann.AccessibleThemes("the seek banner")
	ben.Click(".quick-seek[data-game=nymphabet][data-rated=true]")
	ben.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	ann.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	id := e2e.Eval[string](ben, `location.pathname`)
	if got := e2e.Eval[string](ann, `location.pathname`); got != id {
		t.Fatalf("Ann is at %s, Ben at %s", got, id)
	}
	if !e2e.Eval[bool](ann, `fetch("/api/v1`+strings.Replace(id, "/t/", "/tables/", 1)+`").then(r => r.json()).then(v => v.table ? v.table.rated : v.rated)`) {
		t.Errorf("the table of the rated seeks is not rated")
	}
	if n := e2e.Eval[int](ann, `document.querySelectorAll(".banner.seek").length`); n != 0 {
		t.Errorf("Ann's seek banner stays after the pairing (%d)", n)
	}
	// Both are seated: one of them moves, the other sees the word.
	ann.Wait("a seat", `!!document.querySelector("#turn") && ["0","1"].includes(document.querySelector("#turn").dataset.mine)`)
	mover, other := ann, ben
	if e2e.Eval[string](ann, `document.querySelector("#turn").dataset.mine`) != "1" {
		mover, other = ben, ann
	}
	mover.WaitTurn(true)
	mover.TypeIn("#n-word", "abdicate")
	mover.Click("#n-controls button[type=submit]")
	other.Wait("the word on the other screen", `document.querySelectorAll(".nwords li").length === 1`)

	// Casual: a guest's seek, accepted from the lobby.
	gus.Open("/")
	gus.Wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=salvo][data-rated=false]")`)
	if n := e2e.Eval[int](gus, `document.querySelectorAll(".quick-seek[data-rated=true]").length`); n != 0 {
		t.Errorf("a guest is offered %d rated quick games", n)
	}
	gus.Click(".quick-seek[data-game=salvo][data-rated=false]")
	gus.Wait("Gus's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)
	// Home says somebody looks for a game, and leads to the lobby.
	ben.Open("/")
	ben.Wait("who is about", `(document.querySelector("#home-news") || {textContent: ""}).textContent.includes("1 looking for a game")`)
	if got := ben.Text("#home-news"); !regexp.MustCompile(`^\d+ players? online · 1 looking for a game · the lobby$`).MatchString(got) {
		t.Errorf("home's first line reads %q", got)
	}
	ben.Click("#home-news a")
	ben.Wait("Gus's seek in the lobby", `location.pathname === "/lobby" && !!document.querySelector("#lobby-seeks .seek-accept")`)
	if got := ben.Text("#lobby-seeks"); !strings.Contains(got, "wants a casual Salvo game, 2 minutes a turn") {
		t.Errorf("the lobby reads %q", got)
	}
	ben.Shot("lobby-seeks")
	ben.AccessibleThemes("the lobby with a seek")
	ben.Click("#lobby-seeks .seek-accept")
	ben.Wait("the Salvo table", `location.pathname.startsWith("/t/") && location.pathname !== `+jsString(id))
	gus.Wait("the Salvo table", `location.pathname.startsWith("/t/")`)
	sid := e2e.Eval[string](ben, `location.pathname`)
	if got := e2e.Eval[string](gus, `location.pathname`); got != sid {
		t.Fatalf("Gus is at %s, Ben at %s", got, sid)
	}
	if e2e.Eval[bool](gus, `fetch("/api/v1`+strings.Replace(sid, "/t/", "/tables/", 1)+`").then(r => r.json()).then(v => !!(v.table ? v.table.rated : v.rated))`) {
		t.Errorf("the guest's table is rated")
	}

	// A seek cancelled from its banner leaves the list.
	ann.Open("/")
	ann.Wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=quizl]")`)
	ann.Click(".quick-seek[data-game=quizl][data-rated=false]")
	ann.Wait("Ann's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)
	ann.Click(".banner.seek .seek-cancel")
	ann.Wait("the banner gone", `document.querySelectorAll(".banner.seek").length === 0`)
	if n := e2e.Eval[int](ann, `fetch("/api/v1/seeks").then(r => r.json()).then(l => l.seeks.length)`); n != 0 {
		t.Errorf("%d seeks listed after the cancel", n)
	}

	// After a wait with nobody, the banner offers the computer at Ann's
	// level (medium: she is new to Quizl); she plays it while her seek
	// waits on, and cancels it from the table's page.
	ann.Click(".quick-seek[data-game=quizl][data-rated=false]")
	ann.Wait("Ann's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)
	ann.WaitLong("the offer of the computer", `!!document.querySelector(".banner.seek .seek-computer")`)
	if got := ann.Text(".banner.seek .seek-offer"); !strings.Contains(got, "No one yet: play the computer at your level while you wait?") {
		t.Errorf("the offer reads %q", got)
	}
	ann.AccessibleThemes("the offer of the computer")
	ann.Click(".banner.seek .seek-computer")
	ann.Wait("the table against the computer", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	cid := e2e.Eval[string](ann, `location.pathname`)
	if got := e2e.Eval[string](ann, `fetch("/api/v1`+strings.Replace(cid, "/t/", "/tables/", 1)+`").then(r => r.json()).then(v => (v.table || v).seats.map(s => s.kind === "computer" ? s.level : s.name).join(","))`); !strings.Contains(got, "medium") {
		t.Errorf("the computer's seat: %s", got)
	}
	if n := e2e.Eval[int](ann, `fetch("/api/v1/seeks").then(r => r.json()).then(l => l.seeks.length)`); n != 1 {
		t.Errorf("%d seeks listed while Ann plays the computer, want hers", n)
	}
	ann.Click(".banner.seek .seek-cancel")
	ann.Wait("the banner gone", `document.querySelectorAll(".banner.seek").length === 0`)
}

// TestQuickSeekThroughRestart: a seek waiting as the server restarts
// waits after it: the banner goes on waiting, and when Ann's quick game
// pairs with it, Gus's page goes to the table.
func TestQuickSeekThroughRestart(t *testing.T) {
	t.Parallel()
	srv := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	gus := e2e.NewPlayer(t, b, "Gus", srv.Base)
	ann := e2e.NewPlayer(t, b, "Ann", srv.Base)
	gus.Open("/")
	gus.Wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=quizl][data-rated=false]")`)
	gus.Click(".quick-seek[data-game=quizl][data-rated=false]")
	gus.Wait("Gus's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)
	srv.Restart(func() {})
	ann.Open("/")
	ann.Wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=quizl][data-rated=false]")`)
	ann.Click(".quick-seek[data-game=quizl][data-rated=false]")
	ann.Wait("Ann's table", `location.pathname.startsWith("/t/")`)
	gus.WaitLong("Gus's table", `location.pathname.startsWith("/t/")`)
	if a, g := e2e.Eval[string](ann, `location.pathname`), e2e.Eval[string](gus, `location.pathname`); a != g {
		t.Fatalf("Ann is at %s, Gus at %s", a, g)
	}
}

// TestQuickSeekLost: a seek lost while the server was down (it crashed,
// or stayed down too long) ends on the banner, which says so, and its
// Seek again seeks the same game on the same terms.
func TestQuickSeekLost(t *testing.T) {
	t.Parallel()
	srv := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	gus := e2e.NewPlayer(t, b, "Gus", srv.Base)
	gus.Open("/")
	gus.Wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=quizl][data-rated=false]")`)
	gus.Click(".quick-seek[data-game=quizl][data-rated=false]")
	gus.Wait("Gus's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)
	srv.Restart(func() {
		// The seek held for the next start is lost, as a crash loses it.
		st, err := sqlite.Open(context.Background(), srv.DB, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if held, err := st.TakeSeeks(context.Background()); err != nil || len(held) != 1 {
			t.Fatalf("the seeks held: %v, %v; want Gus's", held, err)
		}
	})
	gus.WaitLong("the seek ended", `!!document.querySelector(".banner.seek .seek-again")`)
	if got := gus.Text(".banner.seek"); !strings.Contains(got, "Your seek for a casual Quizl game, 2 minutes a turn ended") || !strings.Contains(got, "lost while the server was down") {
		t.Errorf("the ended banner reads %q", got)
	}
	gus.AccessibleThemes("the seek ended")
	gus.Click(".banner.seek .seek-again")
	gus.Wait("Gus's banner waiting again", `!!document.querySelector(".banner.seek .seek-cancel") && !document.querySelector(".banner.seek .seek-again")`)
	if got := gus.Text(".banner.seek"); !strings.Contains(got, "Looking for an opponent for a casual Quizl game, 2 minutes a turn") {
		t.Errorf("the banner reads %q", got)
	}
	var l struct {
		Seeks []struct {
			Game  string          `json:"game"`
			Rated bool            `json:"rated"`
			Clock json.RawMessage `json:"clock"`
		} `json:"seeks"`
	}
	if st, body := e2e.API(t, srv.Base, "GET", "/seeks", "", nil); st != 200 || json.Unmarshal(body, &l) != nil || len(l.Seeks) != 1 ||
		l.Seeks[0].Game != "quizl" || l.Seeks[0].Rated || string(l.Seeks[0].Clock) != "120" {
		t.Fatalf("the seeks after Seek again: %d %s", st, body)
	}
}

// TestQuickSeekMode: Nymphabet's quick buttons have a choice of mode
// beside them; a seek of the cyclic mode waits through another's of the
// standard one and pairs with another of its own, at a cyclic table.
func TestQuickSeekMode(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	cy := e2e.NewPlayer(t, b, "Cy", base)
	dee := e2e.NewPlayer(t, b, "Dee", base)
	for _, p := range []*e2e.Player{cy, dee} {
		p.Open("/")
		p.Wait("the quick buttons", `!!document.querySelector("#quick-mode-nymphabet")`)
	}
	if got := e2e.Eval[string](cy, `document.querySelector("#quick-mode-nymphabet").value`); got != "standard" {
		t.Errorf("the mode starts at %q, want standard", got)
	}
	if e2e.Eval[bool](cy, `!!document.querySelector("#quick-mode-salvo")`) {
		t.Error("Salvo, one pool, offers a mode")
	}
	cy.Pick("#quick-mode-nymphabet", "cyclic")
	cy.Click(".quick-seek[data-game=nymphabet][data-rated=false]")
	cy.Wait("Cy's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)
	if got := cy.Text(".banner.seek"); !strings.Contains(got, "a casual Nymphabet (cyclic) game") {
		t.Errorf("Cy's banner reads %q", got)
	}
	dee.Click(".quick-seek[data-game=nymphabet][data-rated=false]")
	dee.Wait("Dee's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)
	if got := dee.Text(".banner.seek"); !strings.Contains(got, "Nymphabet (standard)") {
		t.Errorf("Dee's banner reads %q", got)
	}
	dee.Click(".banner.seek .seek-cancel")
	dee.Wait("the banner gone", `document.querySelectorAll(".banner.seek").length === 0`)
	dee.Pick("#quick-mode-nymphabet", "cyclic")
	dee.Click(".quick-seek[data-game=nymphabet][data-rated=false]")
	dee.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	cy.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	id := e2e.Eval[string](dee, `location.pathname`)
	if got := e2e.Eval[string](dee, `fetch("/api/v1`+strings.Replace(id, "/t/", "/tables/", 1)+`").then(r => r.json()).then(v => (v.table || v).rules.mode)`); got != "cyclic" {
		t.Errorf("the table's mode is %q, want cyclic", got)
	}
}

// TestQuickSeekFromTheStream: a signed-in player's waiting seek that
// pairs is noticed from the player stream, not only by the banner's
// polls: with Ann's page unable to set a timer going, her page still goes
// to the table when Gus's quick game pairs with her seek.
func TestQuickSeekFromTheStream(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	gus := e2e.NewPlayer(t, b, "Gus", base)
	ann.SignUp("Ann", "correct horse battery")
	for _, p := range []*e2e.Player{ann, gus} {
		p.Open("/")
		p.Wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=nymphabet][data-rated=false]")`)
	}
	// From here on the banner's polls never run.
	e2e.Eval[bool](ann, `(window.setInterval = () => 0, true)`)
	ann.Click(".quick-seek[data-game=nymphabet][data-rated=false]")
	ann.Wait("Ann's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)
	gus.Click(".quick-seek[data-game=nymphabet][data-rated=false]")
	gus.Wait("Gus's table", `location.pathname.startsWith("/t/")`)
	ann.Wait("Ann's table", `location.pathname.startsWith("/t/")`)
	if a, g := e2e.Eval[string](ann, `location.pathname`), e2e.Eval[string](gus, `location.pathname`); a != g {
		t.Fatalf("Ann is at %s, Gus at %s", a, g)
	}
}

// jsString quotes s as a JavaScript string.
func jsString(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// TestOwnSeekInLobby: a guest's own seek, listed in the lobby, is marked
// as theirs and offers no Accept (which the server would refuse: a seek
// is accepted by another player), and the home page does not count it
// among the players looking for a game.
func TestOwnSeekInLobby(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	gus := e2e.NewPlayer(t, b, "Gus", base)
	gus.Open("/")
	gus.Wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=salvo][data-rated=false]")`)
	gus.Click(".quick-seek[data-game=salvo][data-rated=false]")
	gus.Wait("Gus's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)
	gus.Click("#home-news a")
	gus.Wait("Gus's seek in the lobby", `location.pathname === "/lobby" && !!document.querySelector("#lobby-seeks li[data-seek]")`)
	if n := e2e.Eval[int](gus, `document.querySelectorAll("#lobby-seeks .seek-accept").length`); n != 0 {
		t.Errorf("the lobby offers Gus %d Accept buttons for his own seek", n)
	}
	if got := gus.Text("#lobby-seeks"); !strings.Contains(got, "Your seek") {
		t.Errorf("the lobby reads %q, not marking Gus's seek as his", got)
	}
	gus.Click(`a[href="/"]`)
	gus.Wait("the home page's news", `location.pathname === "/" && (document.querySelector("#home-news") || {textContent: ""}).textContent.includes("the lobby")`)
	if got := gus.Text("#home-news"); strings.Contains(got, "looking for a game") {
		t.Errorf("home counts Gus's own seek: %q", got)
	}
}

// TestSeekProvisionalInLobby: a new account's seek shows its rating in
// the lobby with the question mark of a provisional rating, as its
// profile does, so that nobody takes it for a settled 1500.
func TestSeekProvisionalInLobby(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	gus := e2e.NewPlayer(t, b, "Gus", base)
	ann.SignUp("Ann", "correct horse battery")
	ann.Open("/")
	ann.Wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=salvo][data-rated=true]")`)
	ann.Click(".quick-seek[data-game=salvo][data-rated=true]")
	ann.Wait("Ann's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)
	gus.Open("/lobby")
	gus.Wait("Ann's seek in the lobby", `!!document.querySelector("#lobby-seeks li[data-seek]")`)
	if got := e2e.Eval[string](gus, `document.querySelector("#lobby-seeks li[data-seek]").textContent`); !strings.HasPrefix(got, "Ann (1500?, provisional) wants a rated Salvo game") {
		t.Errorf("the lobby reads %q", got)
	}
}

// TestSeekRenamedInLobby: a moderator renames Bob, whose seek waits, for
// an offensive name; a lobby already open shows the seek under the new
// name at its next read, not the old one for as long as it stays open.
func TestSeekRenamedInLobby(t *testing.T) {
	t.Parallel()
	s := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	bob := e2e.NewPlayer(t, b, "Bob", s.Base)
	gus := e2e.NewPlayer(t, b, "Gus", s.Base)
	bob.SignUp("Bob", "correct horse battery")
	st, body := e2e.API(t, s.Base, "POST", "/accounts", "", map[string]string{"name": "Moe", "password": "a moderate passphrase"})
	var moe struct{ Token string }
	if err := json.Unmarshal(body, &moe); st != 201 || err != nil {
		t.Fatalf("Moe's sign-up: %d %s", st, body)
	}
	db, err := sqlite.Open(context.Background(), s.DB, sqlite.Options{Synchronous: "NORMAL"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = moderation.Grant(context.Background(), db, "moe", true, "", time.Now())
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	bob.Open("/")
	bob.Wait("the quick buttons", `!!document.querySelector(".quick-seek[data-game=salvo][data-rated=false]")`)
	bob.Click(".quick-seek[data-game=salvo][data-rated=false]")
	bob.Wait("Bob's waiting banner", `!!document.querySelector(".banner.seek .seek-cancel")`)
	gus.Open("/lobby")
	gus.Wait("Bob's seek in the lobby", `(document.querySelector("#lobby-seeks li[data-seek]") || {textContent: ""}).textContent.startsWith("Bob ")`)
	if st, body := e2e.API(t, s.Base, "POST", "/moderation/rename", moe.Token, map[string]string{"name": "Bob", "new_name": "Robin", "reason": "offensive name"}); st != 200 {
		t.Fatalf("the rename: %d %s", st, body)
	}
	gus.Wait("the seek under Bob's new name", `(document.querySelector("#lobby-seeks li[data-seek]") || {textContent: ""}).textContent.startsWith("Robin ")`)
}
