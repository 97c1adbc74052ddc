package accounts

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"parlour/web/e2e"
)

// TestTurnNotice: a player who turns on the sound and the desktop
// notification is asked for the browser's permission, the choice is
// remembered, and when it becomes their turn while the page is hidden
// the page raises a notification and plays a sound; while the page is
// shown it does neither.
func TestTurnNotice(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	c := chromedp.FromContext(ann.Ctx)
	if _, err := chromedp.CallBrowser(ann.Ctx, browser.SetPermission, browser.SetPermissionParams{
		Permission: &browser.PermissionDescriptor{Name: "notifications"}, Setting: browser.PermissionSettingGranted,
		Origin: base, BrowserContextID: c.BrowserContextID,
	}); err != nil {
		t.Fatalf("granting notifications: %v", err)
	}
	ann.CreateTable("quizl", "The computer")
	ann.Wait("the grid editor", `!!document.querySelector("#q-auto")`)
	ann.Click("#q-auto")
	ann.Wait("my turn", `!!document.querySelector("#q-call") && document.querySelector("#turn").dataset.mine === "1"`)
	if e2e.Eval[bool](ann, `document.querySelector("#notify-sound").checked || document.querySelector("#notify-desktop").checked`) {
		t.Fatal("the sound or the notification is on before the player asked for it")
	}
	// Spies: permission requests, notifications raised, sounds made.
	e2e.Eval[bool](ann, `(() => {
		const Real = window.Notification;
		window.__asked = 0; window.__notes = []; window.__beeps = 0;
		window.Notification = class extends Real { constructor(title, o) { super(title, o); window.__notes.push({ title, body: o && o.body }); } };
		window.Notification.requestPermission = () => { window.__asked++; return Real.requestPermission(); };
		const osc = AudioContext.prototype.createOscillator;
		AudioContext.prototype.createOscillator = function () { window.__beeps++; return osc.call(this); };
		return true;
	})()`)
	ann.Click("#notify-desktop")
	ann.Wait("the permission asked", `window.__asked === 1 && document.querySelector("#notify-desktop").checked && localStorage.getItem("parlour.notify.desktop") === "1"`)
	ann.Click("#notify-sound")
	ann.Wait("the sound on", `document.querySelector("#notify-sound").checked && localStorage.getItem("parlour.notify.sound") === "1" && window.__beeps > 0`)
	ann.Shot("turn-notice-settings")

	// A turn that comes while the page is shown raises nothing.
	ann.TypeIn("#q-call", "50")
	ann.Click("#q-controls form button[type=submit]")
	ann.Wait("the computer's move and my turn again", `document.querySelectorAll("#moves li").length >= 2 && document.querySelector("#turn").dataset.mine === "1" || !!document.querySelector("#game-over")`)
	if e2e.Eval[bool](ann, `!!document.querySelector("#game-over")`) {
		t.Skip("the game ended at the first call")
	}
	if n := e2e.Eval[int](ann, `window.__notes.length`); n != 0 {
		t.Errorf("%d notifications while the page was shown", n)
	}
	beeps := e2e.Eval[int](ann, `window.__beeps`)

	// Hidden, as when the player looks at another tab.
	e2e.Eval[bool](ann, `(() => {
		Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
		Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
		document.dispatchEvent(new Event("visibilitychange"));
		return true;
	})()`)
	ann.TypeIn("#q-call", "51")
	ann.Click("#q-controls form button[type=submit]")
	ann.Wait("the notification", `window.__notes.length === 1 || !!document.querySelector("#game-over")`)
	if e2e.Eval[bool](ann, `!!document.querySelector("#game-over")`) {
		t.Skip("the game ended at the second call")
	}
	note := e2e.Eval[map[string]string](ann, `window.__notes[0]`)
	if note["title"] != "Your turn" || !strings.Contains(note["body"], "Quizl") {
		t.Errorf("the notification says %v", note)
	}
	if n := e2e.Eval[int](ann, `window.__beeps`); n <= beeps {
		t.Errorf("no sound when the turn came in a hidden page (%d oscillators, %d before)", n, beeps)
	}

	// Remembered by the browser.
	ann.Open(e2e.Eval[string](ann, `location.pathname`))
	ann.Wait("the table again", `!!document.querySelector("#notify-desktop")`)
	if !e2e.Eval[bool](ann, `document.querySelector("#notify-sound").checked && document.querySelector("#notify-desktop").checked`) {
		t.Error("the sound and notification settings were forgotten after a reload")
	}
}
