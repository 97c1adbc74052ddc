package tables

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"parlour/game"
	"parlour/games"
	"parlour/lexicon"
	"parlour/server"
	"parlour/web/e2e"
)

// TestSocketMovesOn: a player who goes from one table to another inside
// the page (here through the new-table form) takes the first table's
// socket along to the second, rather than open another. Meanwhile the
// socket has left the first table: it follows none. Not when who is
// signed in changed meanwhile: a socket acts for the cookie it was
// opened with. When the server will not move it (here the hello is
// spoilt on its way out, so that the server refuses it, as a server from
// before moving on or another node of a cluster would), the page opens a
// socket of its own and plays on.
func TestSocketMovesOn(t *testing.T) {
	t.Parallel()
	srv := e2e.NewTestServer(t)
	base := srv.Base
	ann := e2e.NewPlayer(t, e2e.NewBrowser(t), "Ann", base)
	live := `document.querySelector("#conn").dataset.state === "live"`
	first := ann.CreateTable("quizl", "A friend")
	ann.Wait("the first table's socket live", live)

	// newTable makes a table through the form, reached by a link inside
	// the page, and waits for its socket to be live; meanwhile, once on
	// the form, it calls onForm (if not nil) and evaluates js.
	newTable := func(from, js string, onForm func()) string {
		t.Helper()
		e2e.Eval[bool](ann, `(() => { const a = document.createElement("a"); a.href = "/new/quizl"; document.body.append(a); a.click(); a.remove(); return true; })()`)
		// The form's own seats, not the submit button of the table's
		// chat still on show before the page changes.
		ann.Wait("the new table form", `location.pathname === "/new/quizl" && !!document.querySelector("#seats") && !!document.querySelector("form button[type=submit]")`)
		if onForm != nil {
			onForm()
		}
		e2e.Eval[bool](ann, `(() => { `+js+`; return true; })()`)
		ann.ClickText("#main form button", "A friend")
		ann.TypeIn("#my-name", ann.Name)
		ann.Click("form button[type=submit]")
		ann.Wait("the new table", fmt.Sprintf(`location.pathname.startsWith("/t/") && location.pathname !== %q && !!document.querySelector("#turn")`, "/t/"+from))
		ann.Wait("the new table's socket live", live)
		return e2e.Eval[string](ann, `location.pathname.slice(3)`)
	}

	second := newTable(first, "", func() {
		// The socket is parked, open but on no table: the seat it held
		// is no longer shown at the first table.
		waitMetric(t, base, "parlour_watchers", 0)
		if got := e2e.ServerMetric(t, base, "parlour_websockets"); got != 1 {
			t.Errorf("parlour_websockets = %v on the form, want 1 (the parked socket)", got)
		}
	})
	if got := e2e.ServerMetric(t, base, "parlour_socket_follows_total"); got != 1 {
		t.Errorf("parlour_socket_follows_total = %v after going to the second table, want 1", got)
	}
	if got := e2e.ServerMetric(t, base, "parlour_websockets"); got != 1 {
		t.Errorf("parlour_websockets = %v at the second table, want 1", got)
	}

	// Signed in as someone else while the socket waited (as the page
	// notes it, here or in another tab): a new socket, not the old one.
	third := newTable(second, `localStorage.setItem("parlour.account", JSON.stringify("someone"))`, nil)
	e2e.Eval[bool](ann, `(() => { localStorage.removeItem("parlour.account"); return true; })()`)
	if got := e2e.ServerMetric(t, base, "parlour_socket_follows_total"); got != 1 {
		t.Errorf("parlour_socket_follows_total = %v after signing in as someone else, want still 1", got)
	}
	waitMetric(t, base, "parlour_websockets", 1)

	e2e.Eval[bool](ann, `(() => {
		const send = WebSocket.prototype.send;
		WebSocket.prototype.send = function (d) {
			if (typeof d === "string" && d.includes('"move-on"')) d = d.replace(/"table":"[^"]*"/, '"table":"not-a-table"');
			return send.call(this, d);
		};
		return true;
	})()`)
	newTable(third, "", nil)
	if got := e2e.ServerMetric(t, base, "parlour_socket_follows_total"); got != 1 {
		t.Errorf("parlour_socket_follows_total = %v after a refused move on, want still 1", got)
	}
	// The page plays on, on its own socket: the refused one is closed.
	ann.Click("#q-auto")
	ann.Wait("the setup taken", `document.body.textContent.includes("The computer made your setup")`)
	waitMetric(t, base, "parlour_websockets", 1)
}

// waitMetric waits for the server at base to report n for metric: a
// socket the page closed, say, is counted until the server has seen it
// close.
func waitMetric(t *testing.T, base, metric string, n float64) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		got := e2e.ServerMetric(t, base, metric)
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s = %v, want %v", metric, got, n)
		}
	}
}

// TestSocketGoesSilent: a socket whose connection dies without a word
// (here the page's socket stops sending and hearing, as a connection a
// router forgot does) is found out: a request on it goes unanswered for
// ten seconds, and the page says the connection dropped, connects again
// and plays on; a socket that merely falls silent is asked with a ping,
// and replaced when the ping goes unanswered; and a socket whose hello
// brings nothing back (its first view lost) is replaced without waiting
// to ping it.
func TestSocketGoesSilent(t *testing.T) {
	t.Parallel()
	srv := e2e.NewTestServer(t)
	ann := e2e.NewPlayer(t, e2e.NewBrowser(t), "Ann", srv.Base)
	ann.Open("/new/quizl")
	ann.Wait("the new table form", `!!document.querySelector("form button[type=submit]")`)
	// Every socket the page opens from here on is kept in __sockets, and
	// __deafen() cuts those open off: what they send and receive is lost.
	e2e.Eval[bool](ann, `(() => {
		const Real = window.WebSocket;
		const handler = Object.getOwnPropertyDescriptor(Real.prototype, "onmessage");
		window.__sockets = [];
		class Tracked extends Real {
			constructor(...a) {
				super(...a);
				window.__sockets.push(this);
				this.__sent = [];
				// The next socket hears nothing, though what it sends goes.
				this.__hard = window.__hardOfHearingNext;
				window.__hardOfHearingNext = false;
			}
			send(d) { this.__sent.push(d); if (!this.__deaf) super.send(d); }
		}
		Object.defineProperty(Tracked.prototype, "onmessage", {
			get() { return handler.get.call(this); },
			set(h) { const ws = this; handler.set.call(this, h && (e => { if (!ws.__deaf && !ws.__hard) { ws.__heard = (ws.__heard || 0) + 1; h.call(ws, e); } })); },
		});
		window.WebSocket = Tracked;
		window.__deafen = () => { for (const ws of window.__sockets) ws.__deaf = true; return window.__sockets.length; };
		return true;
	})()`)
	ann.ClickText("#main form button", "A friend")
	ann.TypeIn("#my-name", ann.Name)
	ann.Click("form button[type=submit]")
	ann.Wait("the table", `location.pathname.startsWith("/t/") && !!document.querySelector("#turn")`)
	live := `document.querySelector("#conn").dataset.state === "live"`
	ann.Wait("the socket live", live)
	if n := e2e.Eval[int](ann, `window.__sockets.length`); n != 1 {
		t.Fatalf("%d sockets tracked, want the table's", n)
	}
	// The link is live once its hello is sent, before the table's first
	// view has come on it; cut off before that, the page would have no
	// setup to offer.
	ann.Wait("the setup offered", `!!document.querySelector("#q-auto")`)

	// A request on a dead socket (a grid of her own: the computer's is
	// awaited longer, see TestComputerSetupOutlastsTheWatch): no answer,
	// then the page says so.
	ann.TypeIn("#q-password", "crane")
	ann.ClickText("#main button", "Write it in")
	ann.ClickText("#main button", "Fill the rest for me")
	ann.Wait("a filled grid", `[...document.querySelectorAll("#main input.cell")].every(e => /^[A-Z]$/.test(e.value))`)
	e2e.Eval[int](ann, `window.__deafen()`)
	ann.Click("#q-submit")
	ann.WaitLong("the dropped connection said", `[...document.querySelectorAll("p.error")].some(p => p.textContent.includes("the connection dropped"))`)
	ann.WaitLong("a new socket live", `window.__sockets.length === 2 && `+live)
	ann.Click("#q-auto")
	ann.Wait("the setup taken", `document.body.textContent.includes("The computer made your setup")`)

	// Silence alone: the page asks, hears nothing, and connects again;
	// that next socket's hello is heard by the server, but the table's
	// first view is lost on the way back.
	e2e.Eval[bool](ann, `(() => { window.__hardOfHearingNext = true; return true; })()`)
	e2e.Eval[int](ann, `window.__deafen()`)
	ann.WaitLong("a socket in place of the silent one", `window.__sockets.length >= 3`)
	if sent := e2e.Eval[string](ann, `window.__sockets[1].__sent.join(" ")`); !strings.Contains(sent, `"ping"`) {
		t.Errorf("the silent socket was given up without a ping; it sent: %s", sent)
	}
	// The hello had no answer: that socket is given up on for it, not
	// kept until a quiet spell has passed and a ping gone unanswered.
	ann.WaitLong("a socket in place of the one whose hello went unanswered", `window.__sockets.length === 4 && `+live)
	if sent := e2e.Eval[string](ann, `window.__sockets[2].__sent.join(" ")`); !strings.Contains(sent, `"hello"`) || strings.Contains(sent, `"ping"`) {
		t.Errorf("the socket whose first view was lost sent %s; want its hello and no ping", sent)
	}
	ann.Wait("the table's view on the new socket", `window.__sockets[3].__heard > 0`)
}

// TestComputerSetupOutlastsTheWatch: a setup the computer makes for the
// player is awaited as long as the server gives the computer (20 s), not
// the ten seconds after which a socket with a request unanswered is taken
// for dead: the socket answers nothing else meanwhile, and the socket of
// a busy server's computer (here one that takes 12 s) would be closed
// under it, the setup lost, and the player told the connection dropped.
func TestComputerSetupOutlastsTheWatch(t *testing.T) {
	t.Parallel()
	const takes = 12 * time.Second
	base := e2e.NewConfiguredServer(t, func(c *server.Config) {
		c.NewBot = func(gameName, level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
			b, err := games.NewBot(gameName, level, seed, lex)
			if err != nil || level != game.Strong {
				return b, err
			}
			return slowSetup{b, takes}, nil
		}
	}).Base
	ann := e2e.NewPlayer(t, e2e.NewBrowser(t), "Ann", base)
	ann.CreateTable("quizl", "A friend")
	ann.Wait("the socket live", `document.querySelector("#conn").dataset.state === "live"`)
	ann.Wait("the setup offered", `!!document.querySelector("#q-auto")`)
	start := time.Now()
	ann.Click("#q-auto")
	ann.WaitLong("the computer's setup, or an error", `document.body.textContent.includes("The computer made your setup") || [...document.querySelectorAll("p.error")].some(p => p.textContent !== "")`)
	if errs := e2e.Eval[[]string](ann, `[...document.querySelectorAll("p.error")].map(p => p.textContent).filter(s => s)`); len(errs) > 0 {
		t.Fatalf("the computer's setup, %v in coming, ended in %q", time.Since(start).Round(time.Second), errs)
	}
	if st := e2e.Eval[string](ann, `document.querySelector("#conn").dataset.state`); st != "live" {
		t.Errorf("the socket is %q after the computer's setup, want live", st)
	}
}

// slowSetup is a computer player whose setups take a while, as on a busy
// server.
type slowSetup struct {
	game.Bot
	takes time.Duration
}

func (b slowSetup) Setup(ctx context.Context, cfg game.Config, seat game.Seat) (json.RawMessage, error) {
	select {
	case <-time.After(b.takes):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return b.Bot.Setup(ctx, cfg, seat)
}

// TestUpdatesDrawnInOrder holds the table page's first draw, which waits
// for the word lists, while the table moves on to its end: the updates
// that came on the socket meanwhile are drawn after it, in order, and the
// page shows the end, not the first view drawn over the later ones.
func TestUpdatesDrawnInOrder(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	ann := e2e.NewPlayer(t, e2e.NewBrowser(t), "Ann", base)
	ann.Open("/daily")
	ann.Wait("the daily puzzles", `!!document.querySelector("#daily-quizl")`)
	ann.Click("#daily-quizl")
	ann.Wait("the daily page", `!!document.querySelector("#daily-play")`)
	// From here on the word lists' fetch waits for __release(), and the
	// status of the table in the last update a socket brought is kept in
	// __heard (its page may not have drawn it yet).
	e2e.Eval[bool](ann, `(() => {
		const fetch = window.fetch;
		let release;
		const gate = new Promise(r => { release = r; });
		window.__release = () => { release(); return true; };
		window.fetch = (u, o) => {
			if (!String(u).endsWith("/api/v1/lexicons")) return fetch(u, o);
			window.__held = true;
			return gate.then(() => fetch(u, o));
		};
		const Real = window.WebSocket;
		window.WebSocket = class extends Real {
			constructor(...a) {
				super(...a);
				this.addEventListener("message", e => {
					const m = JSON.parse(e.data);
					if (m.type === "update") window.__heard = m.update.table.status;
				});
			}
		};
		return true;
	})()`)
	ann.Click("#daily-play")
	ann.Wait("the first draw waiting for the word lists", `window.__held === true && location.pathname.startsWith("/t/")`)
	id := e2e.Eval[string](ann, `location.pathname.slice(3)`)
	tok := e2e.Eval[string](ann, `JSON.parse(localStorage.getItem("parlour.seats"))["`+id+`"].token`)
	for _, m := range []string{"50", "51", "resign"} {
		if st, b := e2e.API(t, base, "POST", "/tables/"+id+"/moves", tok, map[string]any{"move": m}); st != 200 {
			t.Fatalf("move %s: %d %s", m, st, b)
		}
	}
	ann.Wait("the socket bringing the end", `window.__heard === "finished"`)
	e2e.Eval[bool](ann, `window.__release()`)
	ann.Wait("the end drawn", `!!document.querySelector("#game-over")`)
	if got := ann.Text("#moves"); !strings.Contains(got, "called 50") || !strings.Contains(got, "called 51") {
		t.Errorf("the move list after the end:\n%s", got)
	}
	if got := ann.Text("#turn"); got != "Game over" {
		t.Errorf("the turn reads %q", got)
	}
}
