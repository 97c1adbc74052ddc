package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"parlour/server"
	"parlour/server/table"
)

// jumpClock is the system's clock, but one the test can move forward at
// once: the server then sees the time as later by that much, and the
// calls it scheduled that fall due by then run. A minute of a game's
// clock passes without a minute of the test.
type jumpClock struct {
	mu     sync.Mutex
	skew   time.Duration
	timers []*jumpTimer
}

type jumpTimer struct {
	c    *jumpClock
	at   time.Time
	f    func()
	real *time.Timer
	done bool // fired or stopped
}

func (c *jumpClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.skew)
}

func (c *jumpClock) AfterFunc(d time.Duration, f func()) table.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	jt := &jumpTimer{c: c, at: time.Now().Add(c.skew + d), f: f}
	jt.real = time.AfterFunc(d, jt.fire)
	c.timers = append(c.timers, jt)
	return jt
}

func (jt *jumpTimer) fire() {
	jt.c.mu.Lock()
	if jt.done {
		jt.c.mu.Unlock()
		return
	}
	jt.done = true
	jt.c.mu.Unlock()
	jt.f()
}

func (jt *jumpTimer) Stop() bool {
	jt.c.mu.Lock()
	defer jt.c.mu.Unlock()
	was := !jt.done
	jt.done = true
	jt.real.Stop()
	return was
}

// Jump moves the clock forward by d and runs the calls due by then.
func (c *jumpClock) Jump(d time.Duration) {
	c.mu.Lock()
	c.skew += d
	now := time.Now().Add(c.skew)
	var due, kept []*jumpTimer
	for _, jt := range c.timers {
		switch {
		case jt.done:
		case !jt.at.After(now):
			due = append(due, jt)
		default:
			kept = append(kept, jt)
		}
	}
	c.timers = kept
	c.mu.Unlock()
	for _, jt := range due {
		jt.fire()
	}
}

// TestFischerClockRunsOut plays a 1+0 game (a minute each for the whole
// game), chosen from the new table form's presets: both players' times
// show, only the one to move counting down; when the server's clock has
// passed Ann's minute on her turn, she loses by time on both screens.
// The server's clock is moved on by the test (a real minute would be a
// minute of waiting); the browsers count down with their own.
func TestFischerClockRunsOut(t *testing.T) {
	t.Parallel()
	clk := &jumpClock{}
	srv := newConfiguredServer(t, func(c *server.Config) { c.Clock = clk })
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", srv.base)
	ben := newPlayer(t, b, "Ben", srv.base)
	ann.open("/new/nymphabet")
	ann.wait("the new table form", `!!document.querySelector("#clock")`)
	ann.typeIn("#my-name", "Ann")
	if !eval[bool](ann, `(() => { const s = document.querySelector("#clock"); const o = [...s.options].find(o => o.textContent.startsWith("1+0")); if (!o) return false; s.value = o.value; s.dispatchEvent(new Event("change")); return true; })()`) {
		t.Fatalf("no 1+0 clock among %q", eval[string](ann, `[...document.querySelector("#clock").options].map(o => o.textContent).join(" | ")`))
	}
	ann.click("form button[type=submit]")
	ann.wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	ben.join(ann.inviteLink())
	ann.waitTurn(true)
	for _, p := range []*player{ann, ben} {
		p.wait("both clocks", `!!document.querySelector("#clock-0") && !!document.querySelector("#clock-1")`)
	}
	first := ann.text("#clock-0")
	ann.wait("Ann's time counting down", `document.querySelector("#clock-0").textContent !== `+strconv.Quote(first))
	if got := ben.text("#clock-1"); got != "1:00" {
		t.Errorf("Ben, not to move, shows %q, want his whole minute, 1:00", got)
	}
	ann.shot("fischer-clock-running")
	ann.typeIn("#n-word", "abdicate")
	ann.click("#n-controls button[type=submit]")
	ben.waitTurn(true)
	ben.typeIn("#n-word", "defog")
	ben.click("#n-controls button[type=submit]")
	ann.waitTurn(true)
	ann.wait("Ben's time standing after his word", `!document.querySelector("#clock-1").classList.contains("running") && document.querySelector("#clock-0").classList.contains("running")`)
	t.Logf("after two words: Ann %s, Ben %s", ann.text("#clock-0"), ann.text("#clock-1"))
	clk.Jump(time.Minute)
	for _, p := range []*player{ann, ben} {
		p.wait("the end by the clock", `!!document.querySelector("#end-reason") && /ran out of time/.test(document.querySelector("#end-reason").textContent)`)
		reason := p.text("#end-reason")
		if !strings.Contains(reason, "Ann") || !strings.Contains(reason, "1+0") {
			t.Errorf("%s's screen gives the end as %q, want Ann running out of her 1+0", p.name, reason)
		}
		t.Logf("%s's end banner: %s", p.name, p.text("#game-over"))
	}
	if got := ben.text("#game-over h2"); !strings.Contains(got, "you won") {
		t.Errorf("Ben's end banner does not give him the game: %q", got)
	}
	ben.shot("fischer-clock-ran-out")
}

// TestCorrespondenceDeadline: at a correspondence table (2 days a move,
// from the form's presets) the player to move sees how long is left and
// when the move is due, in their own time zone: here Tokyo's, whatever
// the server's and the machine's.
func TestCorrespondenceDeadline(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	b := newBrowser(t)
	ann := newPlayer(t, b, "Ann", srv.base)
	ben := newPlayer(t, b, "Ben", srv.base)
	if _, err := chromedp.Call(ann.ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Asia/Tokyo"}); err != nil {
		t.Fatalf("putting Ann in Tokyo: %v", err)
	}
	ann.open("/new/nymphabet")
	ann.wait("the new table form", `!!document.querySelector("#clock")`)
	ann.typeIn("#my-name", "Ann")
	if !eval[bool](ann, `(() => { const s = document.querySelector("#clock"); const o = [...s.options].find(o => o.textContent === "2 days a move"); if (!o) return false; s.value = o.value; s.dispatchEvent(new Event("change")); return true; })()`) {
		t.Fatal("no clock of 2 days a move offered")
	}
	ann.click("form button[type=submit]")
	ann.wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	id := strings.TrimPrefix(eval[string](ann, `location.pathname`), "/t/")
	ben.join(ann.inviteLink())
	ann.waitTurn(true)
	ann.wait("Ann's deadline", `!!document.querySelector("#clock-0") && document.querySelector("#clock-0").textContent.includes("due")`)
	res, err := http.Get(srv.base + "/api/v1/tables/" + id)
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
	shown := ann.text("#clock-0")
	h12 := due.Hour() % 12
	if h12 == 0 {
		h12 = 12
	}
	if !strings.HasPrefix(shown, "1d 23h") && !strings.HasPrefix(shown, "2d,") || !strings.Contains(shown, "GMT+9") || !strings.Contains(shown, strconv.Itoa(due.Day())) ||
		!strings.Contains(shown, fmt.Sprintf("%02d:%02d", due.Hour(), due.Minute())) && !strings.Contains(shown, fmt.Sprintf("%02d:%02d", h12, due.Minute())) {
		t.Errorf("Ann, in Tokyo, reads %q; the move is due %s there", shown, due.Format("Mon 2 Jan 15:04 MST"))
	}
	t.Logf("Ann, in Tokyo, reads %q (due %s UTC)", shown, v.Table.Seats[0].Deadline.UTC().Format(time.RFC3339))
	ann.shot("correspondence-deadline")
}
