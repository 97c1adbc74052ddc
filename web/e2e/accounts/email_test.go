package accounts

import (
	"io"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"parlour/server"
	"parlour/server/mail"
	"parlour/web/e2e"
)

// smtpBox is a real SMTP server (github.com/emersion/go-smtp) on
// loopback that hands each message's raw text to the test.
type smtpBox struct{ got chan string }

func (b *smtpBox) NewSession(*smtp.Conn) (smtp.Session, error) { return boxSession{b}, nil }

type boxSession struct{ b *smtpBox }

func (boxSession) Reset() {}

func (boxSession) Logout() error { return nil }

func (boxSession) Mail(string, *smtp.MailOptions) error { return nil }

func (boxSession) Rcpt(string, *smtp.RcptOptions) error { return nil }

func (s boxSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	s.b.got <- string(b)
	return err
}

// TestAccountEmail gives an address on the account page (asked for the
// password, which a new address needs), follows the
// confirmation link a real SMTP server received, sees the address
// confirmed, chooses a new password through a mailed reset link asked for
// on the sign-in page, and removes the address.
func TestAccountEmail(t *testing.T) {
	t.Parallel()
	box := &smtpBox{got: make(chan string, 10)}
	srv := smtp.NewServer(box)
	srv.Domain = "localhost"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	cfg, err := mail.ParseSMTP("smtp://" + ln.Addr().String() + "?from=parlour@example.org")
	if err != nil {
		t.Fatal(err)
	}
	s := e2e.NewConfiguredServer(t, func(c *server.Config) { c.SMTP = cfg })
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", s.Base)
	ann.SignUp("Ann", "correct horse battery")
	ann.Open("/account")
	ann.Wait("the e-mail form", `(document.querySelector("#email-form")||{hidden: true}).hidden === false && document.querySelector("#email-status").textContent.includes("No address")`)
	ann.Click("#email-game-end") // off: only moves and challenges
	ann.TypeIn("#email-address", "ann@example.org")
	ann.Click("#email-form button[type=submit]")
	// A new address needs the password.
	ann.Wait("the password asked for", `document.querySelector("#email-error").textContent.includes("give your password too")`)
	ann.TypeIn("#email-password", "correct horse battery")
	ann.Click("#email-form button[type=submit]")
	ann.Wait("pending", `document.querySelector("#email-status").textContent.includes("waits for confirmation")`)
	ann.Accessible("the e-mail section")
	ann.Shot("account-email-pending")

	var raw string
	select {
	case raw = <-box.got:
	case <-time.After(time.Minute):
		t.Fatal("no confirmation mail reached the SMTP server")
	}
	raw = strings.ReplaceAll(raw, "=\r\n", "") // quoted-printable soft breaks
	link := regexp.MustCompile(`/api/v1/email/verify\?token=3D([A-Za-z0-9_-]+)|/api/v1/email/verify\?token=([A-Za-z0-9_-]+)`).FindStringSubmatch(raw)
	if link == nil {
		t.Fatalf("no confirmation link in the mail:\n%s", raw)
	}
	token := link[1] + link[2]
	ann.Open("/api/v1/email/verify?token=" + token)
	ann.Wait("the confirmation page", `document.body.textContent.includes("ann@example.org is confirmed")`)
	ann.Open("/account")
	ann.Wait("confirmed", `(document.querySelector("#email-status")||{textContent: ""}).textContent.includes("is confirmed")`)
	if got := e2e.Eval[bool](ann, `document.querySelector("#email-your-move").checked && !document.querySelector("#email-game-end").checked && document.querySelector("#email-challenge").checked`); !got {
		t.Fatal("the kinds chosen did not come back as chosen")
	}

	// Forgotten password: asked for from another browser's sign-in page,
	// the link mailed to the confirmed address opens the page that sets
	// a new one (a weak one is refused there), which signs Ann out.
	bo := e2e.NewPlayer(t, b, "Bo", s.Base)
	bo.Open("/account")
	bo.Wait("the forgotten password form", `(f => f && f.dataset.offered === "true" && !f.hidden)(document.querySelector("#forgot"))`)
	bo.TypeIn("#forgot-name", "ann")
	bo.Click("#forgot button[type=submit]")
	bo.Wait("the answer", `document.querySelector("#forgot-sent").textContent.startsWith("If that account has a confirmed e-mail address")`)
	bo.Accessible("the sign-in page with the link asked for")
	select {
	case raw = <-box.got:
	case <-time.After(time.Minute):
		t.Fatal("no reset mail reached the SMTP server")
	}
	raw = strings.ReplaceAll(raw, "=\r\n", "")
	link = regexp.MustCompile(`/reset\?token=3D([A-Za-z0-9_-]+)|/reset\?token=([A-Za-z0-9_-]+)`).FindStringSubmatch(raw)
	if link == nil {
		t.Fatalf("no reset link in the mail:\n%s", raw)
	}
	ann.Open("/reset?token=" + link[1] + link[2])
	ann.Wait("the new password form", `!!document.querySelector("#reset-password")`)
	ann.TypeIn("#reset-password", "qwerty123")
	ann.Click("#reset button[type=submit]")
	ann.Wait("the refusal", `document.querySelector("#reset-error").textContent.includes("commonest")`)
	e2e.Eval[bool](ann, `(document.querySelector("#reset-password").value = "", true)`)
	ann.TypeIn("#reset-password", "a brand new phrase")
	ann.Click("#reset button[type=submit]")
	ann.Wait("the password set", `(document.querySelector("#reset-done")||{textContent: ""}).textContent.includes("The password of Ann is changed")`)
	ann.Wait("signed out", `document.querySelector("#account-link").textContent === "Sign in"`)
	ann.Accessible("the new password set")
	ann.Click("#reset-signin")
	ann.Wait("the sign-in form", `!!document.querySelector("#signin-name")`)
	ann.TypeIn("#signin-name", "Ann")
	ann.TypeIn("#signin-password", "a brand new phrase")
	ann.Click("#signin button[type=submit]")
	ann.Wait("signed in with the new password", `document.querySelector("#account-link").textContent === "Ann"`)
	ann.Open("/account")
	ann.Wait("the address", `(document.querySelector("#email-status")||{textContent: ""}).textContent.includes("is confirmed")`)

	// A challenge's mail carries the unsubscribe link: opened, it asks
	// and changes nothing (mailbox guards open every link); its button
	// turns the mail off.
	bo.SignUp("Bob", "correct horse battery")
	if st := e2e.Eval[int](bo, `fetch("/api/v1/challenges", {method: "POST", credentials: "same-origin",
		headers: {"Content-Type": "application/json"}, body: JSON.stringify({to: "Ann", game: "nymphabet"})}).then(r => r.status)`); st != 201 {
		t.Fatalf("Bob's challenge: %d", st)
	}
	select {
	case raw = <-box.got:
	case <-time.After(time.Minute):
		t.Fatal("no challenge mail reached the SMTP server")
	}
	raw = strings.ReplaceAll(raw, "=\r\n", "")
	link = regexp.MustCompile(`/api/v1/email/unsubscribe\?token=3D([A-Za-z0-9_-]+)|/api/v1/email/unsubscribe\?token=([A-Za-z0-9_-]+)`).FindStringSubmatch(raw)
	if link == nil {
		t.Fatalf("no unsubscribe link in the mail:\n%s", raw)
	}
	ann.Open("/api/v1/email/unsubscribe?token=" + link[1] + link[2])
	ann.Wait("the question", `document.body.textContent.includes("Press the button to have it send no more")`)
	ann.Open("/account")
	ann.Wait("the mail still on", `(document.querySelector("#email-status")||{textContent: ""}).textContent.includes("is confirmed") && document.querySelector("#email-challenge").checked`)
	ann.Open("/api/v1/email/unsubscribe?token=" + link[1] + link[2])
	ann.Click("form button[type=submit]")
	ann.Wait("unsubscribed", `document.body.textContent.includes("Parlour will send no more mail to ann@example.org")`)
	ann.Open("/account")
	ann.Wait("the mail off", `(document.querySelector("#email-status")||{textContent: ""}).textContent.includes("is confirmed") && !document.querySelector("#email-challenge").checked && !document.querySelector("#email-your-move").checked`)

	ann.Click("#email-remove")
	ann.Wait("removed", `document.querySelector("#email-status").textContent.includes("No address") && document.querySelector("#email-remove").hidden`)
}
