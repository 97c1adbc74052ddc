package tables

import (
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"parlour/lexicon"
	"parlour/web/e2e"
)

// TestChatTypedWhileSending: Ann sends a chat message that the server
// is slow to take (here held until the test lets it through), and types
// her next one meanwhile, pressing Send again by mistake. Once the first
// is written, the box holds what she typed after it, and when she sends
// that too, Ben's chat holds the two messages, the first once.
func TestChatTypedWhileSending(t *testing.T) {
	t.Parallel()
	var hold atomic.Bool
	arrived, release := make(chan struct{}, 4), make(chan struct{})
	srv := e2e.NewWrappedServer(t, nil, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat") && hold.Load() {
				arrived <- struct{}{}
				<-release
			}
			next.ServeHTTP(w, r)
		})
	})
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", srv.Base)
	ben := e2e.NewPlayer(t, b, "Ben", srv.Base)
	ann.CreateTable("nymphabet", "A friend")
	ben.Join(ann.InviteLink())

	hold.Store(true)
	ann.TypeIn("#chat-text", "good luck")
	ann.Do("send", chromedp.KeyEvent(kb.Enter))
	select {
	case <-arrived:
	case <-time.After(20 * time.Second):
		t.Fatal("the message never reached the server")
	}
	ann.Do("type on and press Enter again", chromedp.KeyEvent(" and have fun"), chromedp.KeyEvent(kb.Enter))
	hold.Store(false)
	close(release)
	// The line may come on the stream before the server's answer to the
	// send, which is what trims the box: wait for both.
	ann.Wait("the message written", `document.querySelectorAll("#chat-log li[data-seq]").length >= 1 && !document.querySelector("#chat-form").hasAttribute("aria-busy")`)
	if got := e2e.Eval[string](ann, `document.querySelector("#chat-text").value`); got != "and have fun" {
		t.Errorf("after the message is written the box holds %q, want what was typed after it", got)
	}
	if got := ann.Text("#chat-count"); got != "12/200" {
		t.Errorf("the box's count reads %q", got)
	}
	ann.TypeIn("#chat-text", "and have fun")
	ann.Click("#chat-send")
	ben.Wait("Ann's last message", `(l => l.length > 0 && l[l.length - 1].textContent.endsWith(": and have fun"))(document.querySelectorAll("#chat-log li[data-seq]"))`)
	if got := e2e.Eval[[]string](ben, `[...document.querySelectorAll("#chat-log li[data-seq]")].map(l => l.textContent)`); len(got) != 2 || got[0] != "Ann (guest): good luck" {
		t.Errorf("Ben's chat reads %q, want good luck once, then and have fun", got)
	}
}

// TestChatReadOnce: the chat is a live region, which a screen reader
// reads out as lines come into it. A move, or any other update of the
// table, must leave the lines already there in place: drawn anew, every
// one of them would be read out again at every move.
func TestChatReadOnce(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("nymphabet", "The computer")
	ann.Wait("the alphabet", `document.querySelectorAll(".alphabet span").length === 26`)
	ann.WaitTurn(true)
	ann.TypeIn("#chat-text", "good luck")
	ann.Click("#chat-send")
	ann.Wait("the line", `document.querySelectorAll("#chat-log li[data-seq]").length === 1`)
	e2e.Eval[bool](ann, `(document.querySelector("#chat-log li[data-seq]").dataset.kept = "1", true)`)

	cur := strings.ToLower(e2e.Eval[string](ann, `(document.querySelector(".alphabet .cur") || {textContent: "a"}).textContent`))
	word := ""
	for _, w := range lexicon.Default().OfLength(6) {
		if w[0] == cur[0] {
			word = w
			break
		}
	}
	ann.TypeIn("#n-word", word)
	ann.Click("#n-controls button[type=submit]")
	ann.Wait("the computer's answer", `document.querySelectorAll(".nwords li").length >= 2`)
	ann.TypeIn("#chat-text", "well played")
	ann.Click("#chat-send")
	ann.Wait("the second line", `document.querySelectorAll("#chat-log li[data-seq]").length === 2`)
	if got := e2e.Eval[string](ann, `[...document.querySelectorAll("#chat-log li[data-seq]")].map(l => l.dataset.kept || "new").join(" ")`); got != "1 new" {
		t.Errorf("after a move and a second line, the chat's lines are %q: want the first kept in place and the second added", got)
	}
}

// TestLiveRegionsKeepTheirWords: an update that changes nothing a live
// region says (here Ben's chat line, at Ann's turn) leaves the region's
// words alone: set anew, even to the same words, a screen reader may
// read "Your turn" and the rest out again at every update.
func TestLiveRegionsKeepTheirWords(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.CreateTable("nymphabet", "A friend")
	ben.Join(ann.InviteLink())
	ann.WaitTurn(true)
	ann.Wait("the alphabet", `document.querySelectorAll(".alphabet span").length === 26 && document.querySelector("#conn").dataset.state === "live"`)
	// Whose turn it is, in the players' list, is said in words too: the
	// marker before the name is for the eye, and has no words of its own.
	if got := e2e.Eval[string](ann, `[...document.querySelectorAll(".players li.to-move")].map(li => li.textContent).join("|")`); !strings.HasPrefix(got, "Ann (you)") || !strings.Contains(got, ", to move") || strings.Count(got, "to move") != 1 {
		t.Errorf("the players' list says %q for whose turn it is, want Ann's item alone to say she is to move", got)
	}
	if got := e2e.Eval[string](ann, `getComputedStyle(document.querySelector(".players li.to-move > span"), "::before").content`); !strings.Contains(got, `/ ""`) {
		t.Errorf("the marker before the player to move is read as %q, want no words of its own", got)
	}
	// Every change inside a live region but the chat's own log, which
	// does take the line in.
	e2e.Eval[bool](ann, `(window.liveChanges = [], new MutationObserver(rs => { for (const r of rs) {
		const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
		const region = el && el.closest('[aria-live]:not([aria-live="off"]), [role=status], [role=alert], [role=log]');
		if (region && region.id !== "chat-log") window.liveChanges.push((region.id || region.className) + ": " + region.textContent);
	} }).observe(document.body, { childList: true, characterData: true, subtree: true }), true)`)
	ben.TypeIn("#chat-text", "good luck")
	ben.Click("#chat-send")
	ann.Wait("Ben's line", `document.querySelectorAll("#chat-log li[data-seq]").length === 1`)
	if got := e2e.Eval[[]string](ann, `window.liveChanges`); len(got) > 0 {
		t.Errorf("a chat line changed what these live regions say, or set it anew: %q", got)
	}
}

// TestChatMuteKeepsTheFocus mutes and shows again the players' chat with
// the keyboard: the button, drawn anew with its new words, keeps the
// focus.
func TestChatMuteKeepsTheFocus(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("nymphabet", "The computer")
	ann.Wait("the mute button", `!!document.querySelector("#mute-players")`)
	for _, want := range []string{"true", "false"} {
		ann.Do("press Enter on the mute button", chromedp.Focus(chromedp.CSS("#mute-players")), chromedp.KeyEvent(kb.Enter))
		ann.Wait("the chat muted or shown", `document.querySelector("#mute-players").getAttribute("aria-pressed") === "`+want+`"`)
		if !e2e.Eval[bool](ann, `document.activeElement === document.querySelector("#mute-players")`) {
			t.Errorf("after Enter on the mute button (pressed %s) the focus is on %s", want, e2e.Eval[string](ann, `document.activeElement.outerHTML.slice(0, 80)`))
		}
	}
}

// TestChatCountsAsTheServer: the box's count counts a message as the
// server does, whose refusal it foretells: an accent counts with its
// letter, an emoji sequence joined into one sign once (a 👩‍💻, a 👍🏽),
// but letters a joiner joins one by one, so that a message of 201 signs
// reads 201/200, as the server's refusal says.
func TestChatCountsAsTheServer(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.CreateTable("nymphabet", "The computer")
	set := func(text string) string {
		t.Helper()
		return e2e.Eval[string](ann, `(() => { const el = document.querySelector("#chat-text"); el.value = `+strconv.Quote(text)+`; el.dispatchEvent(new Event("input")); const c = document.querySelector("#chat-count"); return c.textContent + " " + c.className; })()`)
	}
	for _, c := range []struct{ text, want string }{
		{strings.Repeat("e\u0301", 150), "150/200 help"},
		{strings.Repeat("👩\u200d💻", 200), "200/200 help"},
		{strings.Repeat("👨\u200d👩\u200d👧\u200d👦", 50) + strings.Repeat("👍🏽", 50), "100/200 help"},
		{strings.Repeat("🙂\u200d", 7) + "🙂", "2/200 help"},
		{strings.Repeat("a\u200db", 100), "200/200 help"},
		{strings.Repeat("👩\u200d💻", 201), "201/200 error"},
	} {
		if got := set(c.text); got != c.want {
			t.Errorf("the count of %d bytes reads %q, want %q", len(c.text), got, c.want)
		}
	}
	ann.Click("#chat-send")
	ann.Wait("the server's refusal", `document.querySelector("#chat-error").textContent.includes("this one has 201")`)
}

// TestGuestChatSetting: Ann, with an account, turns off guests' chat on
// her account screen; Ben, a guest at her table, is told why his line is
// refused, in the chat's own place, and keeps what he typed; once she
// turns it on again his line reaches her.
func TestGuestChatSetting(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ben := e2e.NewPlayer(t, b, "Ben", base)
	ann.SignUp("Ann", "correct horse staple")
	setGuests := func(on bool) {
		t.Helper()
		ann.Open("/account")
		ann.Wait("the settings", `!!document.querySelector("#guest-chat") && !document.querySelector("#guest-chat").disabled`)
		if e2e.Eval[bool](ann, `document.querySelector("#guest-chat").checked`) == on {
			t.Fatalf("the guests' chat box reads %v before it is changed", on)
		}
		ann.Click("#guest-chat")
		want := "Only players with accounts"
		if on {
			want = "Guests may write"
		}
		ann.Wait("the setting stored", `document.querySelector("#guest-chat-help").textContent.startsWith("`+want+`") && !document.querySelector("#guest-chat").disabled`)
	}
	setGuests(false)
	ann.Open("/account")
	ann.Wait("the stored setting", `!!document.querySelector("#guest-chat") && !document.querySelector("#guest-chat").disabled && !document.querySelector("#guest-chat").checked`)
	ann.Accessible("the account screen with both settings")

	ann.CreateTable("nymphabet", "A friend")
	link := ann.InviteLink()
	ben.Join(link)
	ben.TypeIn("#chat-text", "hello Ann")
	ben.Click("#chat-send")
	ben.Wait("the refusal", `document.querySelector("#chat-error").textContent.includes("Ann takes chat from players with accounts only")`)
	if got := e2e.Eval[string](ben, `document.querySelector("#chat-text").value`); got != "hello Ann" {
		t.Errorf("after the refusal the box holds %q, want what Ben typed", got)
	}
	table := e2e.Eval[string](ann, `location.pathname`)
	setGuests(true)
	ann.Open(table)
	ben.Click("#chat-send")
	ann.Wait("Ben's line", `[...document.querySelectorAll("#chat-log li[data-seq]")].some(l => l.textContent === "Ben (guest): hello Ann")`)
}
