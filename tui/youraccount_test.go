package tui

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"parlour/internal/smtptest"
	"parlour/server"
	"parlour/server/mail"
	"parlour/tui/client"
)

// TestYourAccount drives the account screen against a server that sends
// mail to a real SMTP server: hiding from the players online and showing
// again; keeping guests out of the chat and letting them in; an address refused, then given with the password, mailed its link and removed; a
// wrong current password refused and the password changed; an SSH key
// added, removed with two ctrl+d and gone from the list; the account's
// deletion refused while it sits at an open table, then done, after
// which the terminal plays as a guest. Each change is checked through
// the API.
func TestYourAccount(t *testing.T) {
	t.Parallel()
	box := smtptest.Start(t)
	ts := newTestServerWith(t, func(cfg *server.Config) {
		smtp, err := mail.ParseSMTP(box.URL("parlour@example.org"))
		if err != nil {
			t.Fatal(err)
		}
		cfg.SMTP = smtp
	})
	ctx := context.Background()
	ac, as := signedUp(t, ts, "ann_a")
	tm := newTermWith(t, ts.URL, "ann_a", 80, 24, Config{DataDir: t.TempDir(), Session: as.Token, Account: "ann_a"})
	tm.key("a")
	tm.waitFor("the account", has("Your account: ann_a", "your name shows (enter hides it)", "none given: Parlour mails you nothing", "none: enter adds one"))
	checkFits(t, tm)

	// Hidden, then shown.
	tm.key("down")
	tm.key("enter")
	tm.waitFor("hidden", has("your name is hidden (enter shows it)", "no longer shows among the players online"))
	if st, err := ac.Settings(ctx, as.Token); err != nil || !st.Hidden {
		t.Errorf("the settings after hiding: %+v, %v", st, err)
	}
	tm.key("enter")
	tm.waitFor("shown", has("your name shows (enter hides it)"))

	// Guests' chat off, then on again.
	tm.key("down")
	tm.key("enter")
	tm.waitFor("guests kept out", has("accounts only write at your tables (enter lets guests in)", "only players with accounts may write in the chat of your tables now"))
	if st, err := ac.Settings(ctx, as.Token); err != nil || st.GuestChat || st.Hidden {
		t.Errorf("the settings after keeping guests out: %+v, %v", st, err)
	}
	tm.key("enter")
	tm.waitFor("guests let in", has("guests may write at your tables (enter keeps them out)", "guests may write in the chat of your tables again"))

	// An address the server refuses stays to be mended; then one it
	// takes, without the mail of a game's end.
	tm.key("down")
	tm.key("enter")
	tm.waitFor("the e-mail form", has("Address", "[x] When a game of mine ends"))
	checkFits(t, tm)
	tm.typeText("ann@example")
	tm.key("enter")
	tm.waitFor("the refusal", has("is not an e-mail address", "ann@example█"))
	tm.typeText(".org")
	tm.key("down")
	tm.key("down")
	tm.key("space")
	tm.waitFor("game ends off", has("[ ] When a game of mine ends"))
	// A new address needs the password: the links that choose a new one
	// would go to it.
	tm.key("enter")
	tm.waitFor("the password asked for", has("give your password too"))
	tm.key("down")
	tm.key("down")
	tm.typeText("correct horse battery")
	tm.waitFor("the password typed", has("Password           •••••"))
	tm.key("enter")
	tm.waitFor("the address kept", has("a link to confirm it was mailed to ann@example.org", "ann@example.org, waiting for you to open the link"))
	checkFits(t, tm)
	if m := box.Next(t); len(m.To) != 1 || m.To[0] != "ann@example.org" {
		t.Errorf("the confirmation went to %v", m.To)
	}
	if em, err := ac.Email(ctx, as.Token); err != nil || em.Address != "ann@example.org" || em.GameEnd || !em.YourMove || !em.Challenge {
		t.Errorf("the e-mail settings kept: %+v, %v", em, err)
	}
	tm.key("enter")
	tm.waitFor("the e-mail form again", has("ann@example.org", "ctrl+d remove the address"))
	tm.key("ctrl+d")
	tm.waitFor("the address removed", has("your address is removed", "none given"))
	if em, err := ac.Email(ctx, as.Token); err != nil || em.Address != "" {
		t.Errorf("the e-mail settings after the removal: %+v, %v", em, err)
	}

	// The password: a wrong current one refused, then changed.
	tm.key("up")
	tm.key("up")
	tm.key("up")
	tm.key("enter")
	tm.waitFor("the password form", has("Current password", "New password"))
	tm.typeText("not my password")
	tm.key("tab")
	tm.typeText("a brand new phrase")
	tm.key("enter")
	tm.waitFor("the refusal", has("that is not your current password", "Current password"))
	checkFits(t, tm)
	tm.key("esc")
	tm.key("enter")
	tm.typeText("correct horse battery")
	tm.key("tab")
	tm.typeText("a brand new phrase")
	tm.key("enter")
	tm.waitFor("changed", has("your password is changed"))
	if _, err := ac.SignIn(ctx, "ann_a", "a brand new phrase"); err != nil {
		t.Errorf("the new password signs in: %v", err)
	}

	// A key added on the keys screen, listed, removed with two ctrl+d.
	tm.key("down")
	tm.key("down")
	tm.key("down")
	tm.key("down")
	tm.key("enter")
	tm.waitFor("the keys screen", has("SSH keys", "no SSH keys yet"))
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	sp, _ := ssh.NewPublicKey(pub)
	tm.typeText(strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sp))) + " ann@here")
	tm.key("enter")
	tm.typeText("a brand new phrase")
	tm.key("enter")
	tm.waitFor("the key listed", has("is added", "(ann@here)", "ctrl+d remove it"))
	checkFits(t, tm)
	tm.key("ctrl+d")
	tm.waitFor("asked again", has("ctrl+d again removes "+ssh.FingerprintSHA256(sp)))
	tm.key("ctrl+d")
	tm.waitFor("the key removed", has("is removed: it", "no SSH keys yet"))
	if ks, err := ac.Keys(ctx, as.Token); err != nil || len(ks) != 0 {
		t.Errorf("the keys after the removal: %+v, %v", ks, err)
	}
	tm.key("esc")
	tm.waitFor("the account again", has("Your account: ann_a", "none: enter adds one"))

	// Signed out everywhere else: the session the new password signed
	// in above ends, and this terminal's stays; then none is left.
	elsewhere, err := ac.SignIn(ctx, "ann_a", "a brand new phrase")
	if err != nil {
		t.Fatal(err)
	}
	tm.key("down")
	tm.waitFor("other sessions chosen", has("> Other sessions", "enter signs you out everywhere else"))
	tm.key("enter")
	tm.waitFor("two ended", has("signed out of 2 other sessions"))
	if _, err := ac.Me(ctx, elsewhere.Token); err == nil {
		t.Error("the session signed in elsewhere still works")
	}
	if _, err := ac.Me(ctx, as.Token); err != nil {
		t.Errorf("this terminal's session: %v", err)
	}
	tm.key("enter")
	tm.waitFor("none left", has("no other session was signed in"))

	// The deletion: refused while seated at an open table, then done.
	open, err := ac.Create(ctx, as.Token, "nymphabet", nil, []string{"me", "open"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tm.key("down")
	tm.key("enter")
	tm.waitFor("the deletion form", has("Delete your account", "Password"))
	tm.typeText("a brand new phrase")
	tm.key("enter")
	tm.waitFor("asked again", has("Enter again deletes the account ann_a for good"))
	checkFits(t, tm)
	tm.key("enter")
	tm.waitFor("the refusal", func(s string) bool { return strings.Contains(s, open.Table) })
	if _, err := ac.Leave(ctx, open.Token, open.Table); err != nil {
		t.Fatal(err)
	}
	tm.key("enter")
	tm.waitFor("asked again", has("Enter again deletes"))
	tm.key("enter")
	tm.waitFor("home as a guest", has("your account is deleted: you play as a guest", "s sign in"))
	if tm.m.cfg.Session != "" {
		t.Error("the deleted account's session is kept")
	}
	if _, err := ac.SignIn(ctx, "ann_a", "a brand new phrase"); err == nil {
		t.Error("the deleted account signs in")
	}
}

// TestForgotPassword: ctrl+f on the sign-in form asks for a link to
// choose a new password, mailed to the account's confirmed address, and
// says to open it in a browser; without a name it asks for one first, and
// the sign-up form, and a server that sends no mail, offer no such key.
func TestForgotPassword(t *testing.T) {
	t.Parallel()
	box := smtptest.Start(t)
	ts := newTestServerWith(t, func(cfg *server.Config) {
		smtp, err := mail.ParseSMTP(box.URL("parlour@example.org"))
		if err != nil {
			t.Fatal(err)
		}
		cfg.SMTP = smtp
	})
	ctx := context.Background()
	ac, as := signedUp(t, ts, "ann_f")
	if _, err := ac.SetEmail(ctx, as.Token, client.Email{Address: "ann@example.org", YourMove: true}, "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`/api/v1/email/verify\?token=[A-Za-z0-9_-]+`).FindString(box.Next(t).Body)
	if res, err := http.Get(ts.URL + link); err != nil || res.StatusCode != 200 {
		t.Fatalf("confirming the address: %v, %v", res, err)
	}

	// A server that sends no mail offers no link.
	bare := newTestServer(t)
	bm := newTerm(t, bare.URL, "Gus", 80, 24)
	bm.key("s")
	bm.waitFor("the sign-in form", has("Sign in", "then sign in · esc back"))
	bm.update(resetOfferMsg{on: false}) // the server's answer, whenever it comes, changes nothing
	bm.key("ctrl+f")
	if s := bm.screen(); strings.Contains(s, "ctrl+f") || strings.Contains(s, "link") {
		t.Errorf("a server without mail offers a reset link:\n%s", s)
	}

	tm := newTerm(t, ts.URL, "Gus", 80, 24)
	tm.key("u")
	tm.waitFor("the sign-up form", has("Sign up"))
	tm.key("ctrl+f")
	if s := tm.screen(); strings.Contains(s, "ctrl+f") || strings.Contains(s, "link") {
		t.Errorf("the sign-up form offers a reset link:\n%s", s)
	}
	tm.key("esc")
	tm.key("s")
	tm.waitFor("the sign-in form", has("Sign in", "ctrl+f forgot it"))
	checkFits(t, tm)
	tm.key("ctrl+f")
	tm.waitFor("the name asked for", has("type the account's name first"))
	tm.typeText("ann_f")
	tm.key("ctrl+f")
	tm.waitFor("the link on its way", has("If that account has a confirmed e-mail address", "Open it in a browser"))
	checkFits(t, tm)
	if m := box.Next(t); len(m.To) != 1 || m.To[0] != "ann@example.org" || !strings.Contains(m.Body, "/reset?token=") {
		t.Errorf("the reset mail: to %v\n%s", m.To, m.Body)
	}
}
