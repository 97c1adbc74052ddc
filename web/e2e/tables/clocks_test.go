package tables

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"parlour/server"
	"parlour/web/e2e"
)

// fischerTable has Ann make a table of game with the new table form's
// 1+0 clock, and Ben join it by her invite link.
func fischerTable(t *testing.T, ann, ben *e2e.Player, game string) {
	t.Helper()
	ann.Open("/new/" + game)
	ann.Wait("the new table form", `!!document.querySelector("#clock")`)
	ann.TypeIn("#my-name", "Ann")
	if !e2e.Eval[bool](ann, `(() => { const s = document.querySelector("#clock"); const o = [...s.options].find(o => o.textContent.startsWith("1+0")); if (!o) return false; s.value = o.value; s.dispatchEvent(new Event("change")); return true; })()`) {
		t.Fatalf("no 1+0 clock among %q", e2e.Eval[string](ann, `[...document.querySelector("#clock").options].map(o => o.textContent).join(" | ")`))
	}
	ann.Click("form button[type=submit]")
	ann.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	ben.Join(ann.InviteLink())
}

// TestFischerClockRunsOut plays a 1+0 game (a minute each for the whole
// game), chosen from the new table form's presets: both players' times
// show, only the one to move counting down; when the server's clock has
// passed Ann's minute on her turn, she loses by time on both screens.
// The server's clock is moved on by the test (a real minute would be a
// minute of waiting); the browsers count down with their own.
func TestFischerClockRunsOut(t *testing.T) {
	t.Parallel()
	clk := &e2e.JumpClock{}
	srv := e2e.NewConfiguredServer(t, func(c *server.Config) { c.Clock = clk })
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", srv.Base)
	ben := e2e.NewPlayer(t, b, "Ben", srv.Base)
	fischerTable(t, ann, ben, "nymphabet")
	ann.WaitTurn(true)
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("both clocks", `!!document.querySelector("#clock-0") && !!document.querySelector("#clock-1")`)
	}
	first := ann.Text("#clock-0")
	ann.Wait("Ann's time counting down", `document.querySelector("#clock-0").textContent !== `+strconv.Quote(first))
	if got := ben.Text("#clock-1"); got != "1:00" {
		t.Errorf("Ben, not to move, shows %q, want his whole minute, 1:00", got)
	}
	ann.Shot("fischer-clock-running")
	ann.TypeIn("#n-word", "abdicate")
	ann.Click("#n-controls button[type=submit]")
	ben.WaitTurn(true)
	ben.TypeIn("#n-word", "defog")
	ben.Click("#n-controls button[type=submit]")
	ann.WaitTurn(true)
	ann.Wait("Ben's time standing after his word", `!document.querySelector("#clock-1").classList.contains("running") && document.querySelector("#clock-0").classList.contains("running")`)
	t.Logf("after two words: Ann %s, Ben %s", ann.Text("#clock-0"), ann.Text("#clock-1"))
	clk.Jump(time.Minute)
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("the end by the clock", `!!document.querySelector("#end-reason") && /ran out of time/.test(document.querySelector("#end-reason").textContent)`)
		reason := p.Text("#end-reason")
		if !strings.Contains(reason, "Ann") || !strings.Contains(reason, "1+0") {
			t.Errorf("%s's screen gives the end as %q, want Ann running out of her 1+0", p.Name, reason)
		}
		t.Logf("%s's end banner: %s", p.Name, p.Text("#game-over"))
	}
	if got := ben.Text("#game-over h2"); !strings.Contains(got, "you won") {
		t.Errorf("Ben's end banner does not give him the game: %q", got)
	}
	ben.Shot("fischer-clock-ran-out")
	// Their recent games, kept by each browser, say so too.
	for p, want := range map[*e2e.Player]string{ann: "Ben won · you ran out of time", ben: "you won · Ann ran out of time"} {
		p.Open("/")
		p.Wait("the recent games", `[...document.querySelectorAll("ul.recent li")].some(li => li.textContent.includes(`+strconv.Quote(want)+`))`)
	}
}

// TestFischerClockShownInSetup: at a Salvo table of 1+0, while the
// players place their fleets, both screens show each player's whole
// minute, as the server sends it, where they showed no time until the
// first salvo.
func TestFischerClockShownInSetup(t *testing.T) {
	t.Parallel()
	srv := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", srv.Base)
	ben := e2e.NewPlayer(t, b, "Ben", srv.Base)
	fischerTable(t, ann, ben, "salvo")
	for _, p := range []*e2e.Player{ann, ben} {
		p.Wait("both clocks while the fleets are placed", `!!document.querySelector("#clock-0") && !!document.querySelector("#clock-1")`)
		for _, clock := range []string{"#clock-0", "#clock-1"} {
			if got := p.Text(clock); got != "1:00" {
				t.Errorf("%s's screen shows %s as %q in the setup, want the whole minute, 1:00", p.Name, clock, got)
			}
		}
	}
	ann.Shot("fischer-clock-setup")
}

// TestCorrespondenceDeadline: at a correspondence table (2 days a move,
// from the form's presets) the player to move sees how long is left and
// when the move is due, in their own time zone: here Tokyo's, whatever
// the server's and the machine's.
func TestCorrespondenceDeadline(t *testing.T) {
	t.Parallel()
	srv := e2e.NewTestServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", srv.Base)
	ben := e2e.NewPlayer(t, b, "Ben", srv.Base)
	if _, err := chromedp.Call(ann.Ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Asia/Tokyo"}); err != nil {
		t.Fatalf("putting Ann in Tokyo: %v", err)
	}
	ann.Open("/new/nymphabet")
	ann.Wait("the new table form", `!!document.querySelector("#clock")`)
	ann.TypeIn("#my-name", "Ann")
	if !e2e.Eval[bool](ann, `(() => { const s = document.querySelector("#clock"); const o = [...s.options].find(o => o.textContent === "2 days a move"); if (!o) return false; s.value = o.value; s.dispatchEvent(new Event("change")); return true; })()`) {
		t.Fatal("no clock of 2 days a move offered")
	}
	ann.Click("form button[type=submit]")
	ann.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	id := strings.TrimPrefix(e2e.Eval[string](ann, `location.pathname`), "/t/")
	ben.Join(ann.InviteLink())
	ann.WaitTurn(true)
	ann.Wait("Ann's deadline", `!!document.querySelector("#clock-0") && document.querySelector("#clock-0").textContent.includes("due")`)
	res, err := http.Get(srv.Base + "/api/v1/tables/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var v struct {
		Table struct {
			Seats []struct {
				Deadline *time.Time `json:"deadline"`
			} `json:"seats"`
		} `json:"table"`
	}
	if err := json.NewDecoder(res.Body).Decode(&v); err != nil || len(v.Table.Seats) != 2 || v.Table.Seats[0].Deadline == nil {
		t.Fatalf("the table's deadlines: %+v, %v", v, err)
	}
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	due := v.Table.Seats[0].Deadline.In(tokyo)
	shown := ann.Text("#clock-0")
	h12 := due.Hour() % 12
	if h12 == 0 {
		h12 = 12
	}
	if !strings.HasPrefix(shown, "1d 23h") && !strings.HasPrefix(shown, "2d,") || !strings.Contains(shown, "GMT+9") || !strings.Contains(shown, strconv.Itoa(due.Day())) ||
		!strings.Contains(shown, fmt.Sprintf("%02d:%02d", due.Hour(), due.Minute())) && !strings.Contains(shown, fmt.Sprintf("%02d:%02d", h12, due.Minute())) {
		t.Errorf("Ann, in Tokyo, reads %q; the move is due %s there", shown, due.Format("Mon 2 Jan 15:04 MST"))
	}
	t.Logf("Ann, in Tokyo, reads %q (due %s UTC)", shown, v.Table.Seats[0].Deadline.UTC().Format(time.RFC3339))
	ann.Shot("correspondence-deadline")
}

// TestClockLowIsSpoken: when the time of the player to move runs low, a
// live region says so once, so that a player who cannot see the clock
// turn red hears it; the other player's screen says nothing of it.
func TestClockLowIsSpoken(t *testing.T) {
	t.Parallel()
	clk := &e2e.JumpClock{}
	srv := e2e.NewConfiguredServer(t, func(c *server.Config) { c.Clock = clk })
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", srv.Base)
	ben := e2e.NewPlayer(t, b, "Ben", srv.Base)
	ann.Open("/new/nymphabet")
	ann.Wait("the new table form", `!!document.querySelector("#clock")`)
	ann.TypeIn("#my-name", "Ann")
	if !e2e.Eval[bool](ann, `(() => { const s = document.querySelector("#clock"); const o = [...s.options].find(o => o.textContent.startsWith("1+0")); if (!o) return false; s.value = o.value; s.dispatchEvent(new Event("change")); return true; })()`) {
		t.Fatal("no 1+0 clock offered")
	}
	ann.Click("form button[type=submit]")
	ann.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	ben.Join(ann.InviteLink())
	ann.WaitTurn(true)
	ann.Wait("Ann's clock", `!!document.querySelector("#clock-0.running")`)
	const spoken = `[...document.querySelectorAll('[aria-live]:not([aria-live="off"]), [role=status], [role=alert], [role=log]')].some(r => /your time is running low/i.test(r.textContent))`
	if e2e.Eval[bool](ann, spoken) {
		t.Fatal("Ann hears her time running low with the whole minute left")
	}
	// Ben's chat line brings both screens an update with the server's
	// time, 8 seconds left to Ann.
	clk.Jump(52 * time.Second)
	ben.TypeIn("#chat-text", "tick tock")
	ben.Click("#chat-send")
	ann.Wait("Ann's clock low", `document.querySelector("#clock-0").classList.contains("low")`)
	ann.Wait("Ann told her time runs low", spoken)
	if e2e.Eval[bool](ben, spoken) {
		t.Error("Ben is told his time runs low, while it is Ann's that runs")
	}
}

// TestWordFightTimeoutAfterReload: at a Word Fight table with a clock,
// Ben's time to place a word runs out, and the server answers "cannot"
// for him; the game goes on. A page of the table opened after that (a
// reload, another device) still lists what the clock did among the moves,
// as the page that saw it happen does.
func TestWordFightTimeoutAfterReload(t *testing.T) {
	t.Parallel()
	clk := &e2e.JumpClock{}
	srv := e2e.NewConfiguredServer(t, func(c *server.Config) { c.Clock = clk })
	b := e2e.NewBrowser(t)
	p := e2e.NewPlayer(t, b, "Ann", srv.Base)
	p.SignUp("Annie", "correct horse battery")
	var ann struct{ Table string }
	if b := postFrom(p, "/tables", `{game: "wordfight", seats: ["me", "open"], rules: {clock: 300}}`); json.Unmarshal([]byte(b), &ann) != nil || ann.Table == "" {
		t.Fatalf("create: %s", b)
	}
	st, body := e2e.API(t, srv.Base, "POST", "/tables/"+ann.Table+"/join", "", map[string]any{"name": "Ben"})
	var ben seated
	if json.Unmarshal(body, &ben); st != http.StatusOK {
		t.Fatalf("join: %d %s", st, body)
	}
	// Both play the first word (so that a timeout no longer aborts the
	// game); Ben declares the second, Annie cannot place it.
	for _, mv := range []struct {
		ben  bool
		move string
	}{{false, "declare cat"}, {false, "place B2 across"}, {true, "place B2 across"}, {true, "declare tab"}, {false, "cannot"}} {
		if mv.ben {
			if st, body := e2e.API(t, srv.Base, "POST", "/tables/"+ann.Table+"/moves", ben.Token, map[string]any{"move": mv.move}); st != http.StatusOK {
				t.Fatalf("Ben's %s: %d %s", mv.move, st, body)
			}
		} else if b := postFrom(p, "/tables/"+ann.Table+"/moves", fmt.Sprintf(`{move: %q}`, mv.move)); !strings.Contains(b, `"version"`) {
			t.Fatalf("Annie's %s: %s", mv.move, b)
		}
	}
	// Ben does not place his own word: his five minutes run out (and
	// Annie has five minutes of this test's time to declare the next).
	clk.Jump(301 * time.Second)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		_, body := e2e.API(t, srv.Base, "GET", "/tables/"+ann.Table, "", nil)
		var v struct {
			Table struct{ Status string }
			View  struct{ Strikes int }
		}
		json.Unmarshal(body, &v)
		if v.View.Strikes == 1 {
			if v.Table.Status != "playing" {
				t.Fatalf("the game did not go on after Ben's word ran out: %s", body)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Ben's clock has not run out: %s", body)
		}
	}
	p.Open("/t/" + ann.Table)
	p.Wait("the clock's answer among the moves", `[...document.querySelectorAll("li.note")].some(li => li.textContent.includes("Ben ran out of time"))`)
	if n := e2e.Eval[int](p, `document.querySelectorAll("li.note").length`); n != 1 {
		t.Errorf("%d notes of the clock among the moves, want the one", n)
	}
}
