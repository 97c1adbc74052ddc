package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"parlour/server/limit"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"parlour/account"
	"parlour/games"
	"parlour/internal/smtptest"
	"parlour/server/internal/servertest"
	"parlour/server/mail"
	"parlour/server/players"
	"parlour/server/table/tabletest"
	"parlour/store"
)

// mailLink finds the link to path in a mail's body.
func mailLink(t *testing.T, m smtptest.Mail, path string) string {
	t.Helper()
	l := regexp.MustCompile(`https?://\S+` + regexp.QuoteMeta(path) + `\?token=[A-Za-z0-9_-]+`).FindString(m.Body)
	if l == "" {
		t.Fatalf("no %s link in the mail:\n%s", path, m.Body)
	}
	return l
}

// follow opens a mailed link as a browser does and returns the status and
// the page.
func follow(t *testing.T, method, link string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, link, nil)
	req.Header.Set("Accept", "text/html")
	if method == "POST" {
		req.Body = io.NopCloser(strings.NewReader("List-Unsubscribe=One-Click"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestEmail follows a player's e-mail from start to end through a real
// SMTP server the test runs: nothing is stored before the player asks,
// bad addresses are refused, the confirmation mail arrives (once the SMTP
// server's passing failure is retried) and its link confirms the address
// (a wrong or used link changes nothing), a challenge is mailed with
// working unsubscribe links (body and List-Unsubscribe headers), following
// one stops the next mail, and removing the address or the account
// forgets it.
func TestEmail(t *testing.T) {
	t.Parallel()
	servertest.EachStore(t, testEmail)
}

// newMailServer serves a fresh store of kind k with mail going to smtp.
func newMailServer(t *testing.T, k servertest.StoreKind, smtp *smtptest.Server) (*httptest.Server, store.Store) {
	t.Helper()
	cfg, err := mail.ParseSMTP(smtp.URL("parlour@example.org"))
	if err != nil {
		t.Fatal(err)
	}
	st, _ := k.OpenFresh(t)
	s, err := New(context.Background(), Config{Store: st, Games: games.Registry(), NewBot: games.NewBot, BaseURL: "http://test", SMTP: cfg, MailRetryDelay: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	srv := httptest.NewServer(NewHandler(s, generous))
	t.Cleanup(srv.Close)
	s.SetBaseURL(srv.URL)
	return srv, st
}

func testEmail(t *testing.T, k servertest.StoreKind) {
	smtp := smtptest.Start(t)
	srv, st := newMailServer(t, k, smtp)
	ann, ben, cid := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Ben"), signUp(t, srv.URL, "Cid")

	var s mail.Settings
	if st, body := ann.do("GET", "/api/v1/account/email", nil, &s); st != 200 || s != (mail.Settings{Offered: true}) {
		t.Fatalf("before any address: %d %s", st, body)
	}
	guest := &client{t: t, base: srv.URL}
	for _, c := range []struct {
		name string
		who  *client
		body string
		st   int
		want string
	}{
		{"no @", ann, `{"address": "ann"}`, 400, "no @"},
		{"a name and an address", ann, `{"address": "Ann <ann@example.org>"}`, 400, "just the address"},
		{"two lines", ann, `{"address": "ann@example.org\r\nBcc: x@example.org"}`, 400, "one line"},
		{"no address", ann, `{"your_move": true}`, 400, "give an e-mail address"},
		{"unknown field", ann, `{"address": "ann@example.org", "weekly": true}`, 400, "weekly"},
		{"not a boolean", ann, `{"address": "ann@example.org", "challenge": "yes"}`, 400, "challenge"},
		{"nobody", guest, `{"address": "ann@example.org"}`, 401, "sign in"},
		{"no password", ann, `{"address": "ann@example.org"}`, 400, "give your password"},
		{"wrong password", ann, `{"address": "ann@example.org", "password": "not the password"}`, 403, "not your current password"},
	} {
		if st, body := c.who.do("PUT", "/api/v1/account/email", c.body, nil); st != c.st || !strings.Contains(body, c.want) {
			t.Errorf("%s: %d %s, want %d saying %q", c.name, st, body, c.st, c.want)
		}
	}
	if st, body := ann.do("GET", "/api/v1/account/email", nil, &s); st != 200 || s.Address != "" {
		t.Fatalf("after refusals: %d %s, want nothing stored", st, body)
	}

	// The SMTP server fails once: the confirmation is sent again.
	smtp.FailNext(1)
	if st, body := ann.do("PUT", "/api/v1/account/email", `{"address": "ann@example.org", "password": "`+testPassword+`"}`, &s); st != 200 ||
		s != (mail.Settings{Offered: true, Address: "ann@example.org", Pending: true, YourMove: true, GameEnd: true, Challenge: true}) {
		t.Fatalf("give an address: %d %s", st, body)
	}
	m := smtp.Next(t)
	if m.From != "parlour@example.org" || len(m.To) != 1 || m.To[0] != "ann@example.org" || !strings.Contains(m.Header.Get("Subject"), "Confirm") {
		t.Fatalf("the confirmation mail: from %q to %q, %v", m.From, m.To, m.Header)
	}
	verify := mailLink(t, m, "/api/v1/email/verify")
	if !strings.HasPrefix(verify, srv.URL+"/") {
		t.Fatalf("the confirmation link %s is not the server's (%s)", verify, srv.URL)
	}

	// Wrong links change nothing.
	unknown, _ := account.NewToken()
	for _, c := range []struct {
		link string
		st   int
		want string
	}{
		{srv.URL + "/api/v1/email/verify", 400, "no token"},
		{srv.URL + "/api/v1/email/verify?token=abc", 400, "cut short"},
		{verify[:len(verify)-2], 400, "cut short"},
		{srv.URL + "/api/v1/email/verify?token=" + unknown, 404, "not known"},
		{srv.URL + "/api/v1/email/unsubscribe?token=" + unknown, 404, "not known"},
	} {
		if st, page := follow(t, "GET", c.link); st != c.st || !strings.Contains(page, c.want) {
			t.Errorf("GET %s: %d %s, want %d saying %q", c.link, st, page, c.st, c.want)
		}
	}
	if st, body := ann.do("GET", "/api/v1/account/email", nil, &s); st != 200 || s.Verified || !s.Pending {
		t.Fatalf("after wrong links: %d %s, want still pending", st, body)
	}
	if st, page := follow(t, "GET", verify); st != 200 || !strings.Contains(page, "ann@example.org is confirmed") || !strings.Contains(page, "<html") {
		t.Fatalf("following the confirmation link: %d %s", st, page)
	}
	if st, page := follow(t, "GET", verify); st != 404 || !strings.Contains(page, "used already") {
		t.Fatalf("following it again: %d %s", st, page)
	}
	if st, body := ann.do("GET", "/api/v1/account/email", nil, &s); st != 200 || !s.Verified || s.Pending {
		t.Fatalf("after confirming: %d %s", st, body)
	}
	// The address receives the password reset links: a session alone (left
	// signed in somewhere, or stolen) may not point it elsewhere. Choosing
	// the kinds of mail needs no password.
	for _, c := range []struct{ body, want string }{
		{`{"address": "mallory@example.org"}`, "give your password"},
		{`{"address": "mallory@example.org", "password": "not the password"}`, "not your current password"},
	} {
		if st, body := ann.do("PUT", "/api/v1/account/email", c.body, nil); st < 400 || !strings.Contains(body, c.want) {
			t.Errorf("changing the address with %s: %d %s, want a refusal saying %q", c.body, st, body, c.want)
		}
	}
	for _, kinds := range []string{`"game_end": false`, `"game_end": true`} {
		if st, body := ann.do("PUT", "/api/v1/account/email", `{"address": "ann@example.org", `+kinds+`}`, &s); st != 200 || !s.Verified || s.Address != "ann@example.org" {
			t.Fatalf("choosing the kinds (%s) without the password: %d %s", kinds, st, body)
		}
	}

	// Cid asks for challenges only, and confirms.
	if st, body := cid.do("PUT", "/api/v1/account/email", `{"address": "cid@example.org", "password": "`+testPassword+`", "challenge": true, "your_move": false, "game_end": false}`, &s); st != 200 || !s.Challenge || s.YourMove || s.GameEnd {
		t.Fatalf("Cid's address: %d %s", st, body)
	}
	if st, page := follow(t, "GET", mailLink(t, smtp.Next(t), "/api/v1/email/verify")); st != 200 {
		t.Fatalf("Cid confirming: %d %s", st, page)
	}

	// Ben challenges Ann: she hears of it by mail.
	if st, body := ben.do("POST", "/api/v1/challenges", `{"to": "ann", "game": "nymphabet"}`, nil); st != 201 {
		t.Fatalf("challenge: %d %s", st, body)
	}
	m = smtp.Next(t)
	if m.To[0] != "ann@example.org" || m.Header.Get("Subject") != "Ben challenges you to Nymphabet" {
		t.Fatalf("the challenge's mail: to %v, %v\n%s", m.To, m.Header, m.Body)
	}
	unsub := mailLink(t, m, "/api/v1/email/unsubscribe")
	if h := m.Header.Get("List-Unsubscribe"); h != "<"+unsub+">" || m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Fatalf("List-Unsubscribe %q, -Post %q; want <%s> and one click", h, m.Header.Get("List-Unsubscribe-Post"), unsub)
	}
	// Opening the link, as a person does and as the programs that guard
	// mailboxes do with every link, asks, with a button that posts it,
	// and changes nothing.
	if st, page := follow(t, "GET", unsub); st != 200 || !strings.Contains(page, "Parlour mails ann@example.org about games") ||
		!strings.Contains(page, `<form method="post" action="/api/v1/email/unsubscribe?token=`) {
		t.Fatalf("GET the unsubscribe link: %d %s", st, page)
	}
	if st, body := ann.do("GET", "/api/v1/account/email", nil, &s); st != 200 || !s.YourMove || !s.GameEnd || !s.Challenge {
		t.Fatalf("after opening the unsubscribe link: %d %s, want every kind still on", st, body)
	}
	// The button, or a mail program's one click (RFC 8058), posts it.
	for range 2 {
		if st, page := follow(t, "POST", unsub); st != 200 || !strings.Contains(page, "no more mail to ann@example.org") {
			t.Fatalf("POST the unsubscribe link: %d %s", st, page)
		}
	}
	if st, body := ann.do("GET", "/api/v1/account/email", nil, &s); st != 200 || s.YourMove || s.GameEnd || s.Challenge || s.Address != "ann@example.org" {
		t.Fatalf("after unsubscribing: %d %s, want every kind off", st, body)
	}
	// The next challenge to Ann is not mailed: the queue sends in order,
	// so the mail that arrives next is Cid's, made after it.
	if st, body := ben.do("POST", "/api/v1/challenges", `{"to": "ann", "game": "salvo"}`, nil); st != 201 {
		t.Fatalf("challenge: %d %s", st, body)
	}
	if st, body := ben.do("POST", "/api/v1/challenges", `{"to": "cid", "game": "nymphabet"}`, nil); st != 201 {
		t.Fatalf("challenge: %d %s", st, body)
	}
	if m := smtp.Next(t); m.To[0] != "cid@example.org" {
		t.Fatalf("after Ann unsubscribed the next mail went to %v: %s", m.To, m.Header.Get("Subject"))
	}

	// The failure was retried and counted.
	res, err := http.Get(srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{"parlour_mail_retries_total 1", "parlour_mail_failed_total 0"} {
		if !strings.Contains(string(b), want+"\n") {
			t.Errorf("the metrics lack %q", want)
		}
	}

	// Removing the address forgets it; deleting the account too.
	if st, body := ann.do("DELETE", "/api/v1/account/email", nil, nil); st != 204 {
		t.Fatalf("remove the address: %d %s", st, body)
	}
	s = mail.Settings{}
	if st, body := ann.do("GET", "/api/v1/account/email", nil, &s); st != 200 || s != (mail.Settings{Offered: true}) {
		t.Fatalf("after removing: %d %s", st, body)
	}
	if st, body := ann.do("DELETE", "/api/v1/account/email", nil, nil); st != 404 || !strings.Contains(body, "no e-mail address") {
		t.Fatalf("removing twice: %d %s", st, body)
	}
	if st, page := follow(t, "GET", unsub); st != 404 {
		t.Fatalf("an unsubscribe link of a removed address: %d %s", st, page)
	}
	var me struct {
		Identity string `json:"identity"`
	}
	if st, body := cid.do("GET", "/api/v1/account", nil, &me); st != 200 || me.Identity == "" {
		t.Fatalf("whoami: %d %s", st, body)
	}
	if st, body := cid.do("DELETE", "/api/v1/account", `{"password": "`+testPassword+`"}`, nil); st != 204 {
		t.Fatalf("delete Cid's account: %d %s", st, body)
	}
	if _, err := st.(store.Emails).EmailOf(context.Background(), me.Identity); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a deleted account's address: %v, want it forgotten", err)
	}
}

// TestEmailNotOffered: without --smtp the API says e-mail is not offered
// and stores nothing.
func TestEmailNotOffered(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	ann := signUp(t, srv.URL, "Ann")
	var s mail.Settings
	if st, body := ann.do("GET", "/api/v1/account/email", nil, &s); st != 200 || s.Offered || !strings.Contains(body, `"offered":false`) {
		t.Fatalf("GET: %d %s", st, body)
	}
	if st, body := ann.do("PUT", "/api/v1/account/email", `{"address": "ann@example.org", "password": "`+testPassword+`"}`, nil); st != 409 || !strings.Contains(body, "not offered on this server") {
		t.Fatalf("PUT: %d %s", st, body)
	}
	if st, body := ann.do("GET", "/api/v1/account/email", nil, &s); st != 200 || s.Address != "" {
		t.Fatalf("after PUT: %d %s", st, body)
	}
}

// TestEmailRateLimits: confirmation mails are limited per account and per
// address, and a refused request changes nothing.
func TestEmailRateLimits(t *testing.T) {
	t.Parallel()
	smtp := smtptest.Start(t)
	cfg, err := mail.ParseSMTP(smtp.URL("parlour@example.org"))
	if err != nil {
		t.Fatal(err)
	}
	f := newGamesFixtureTuned(t, func(c *Config) { c.SMTP = cfg })
	srv := startServer(t, f, generous)
	ben := signUp(t, srv.URL, "Ben")
	for i, addr := range []string{"b1@example.org", "b2@example.org", "b3@example.org"} {
		if st, body := ben.do("PUT", "/api/v1/account/email", map[string]string{"address": addr, "password": testPassword}, nil); st != 200 {
			t.Fatalf("address %d: %d %s", i+1, st, body)
		}
	}
	if st, body := ben.do("PUT", "/api/v1/account/email", `{"address": "b4@example.org", "password": "`+testPassword+`"}`, nil); st != 429 || !strings.Contains(body, "several confirmation mails") {
		t.Fatalf("a fourth address within the hour: %d %s", st, body)
	}
	var s mail.Settings
	if st, body := ben.do("GET", "/api/v1/account/email", nil, &s); st != 200 || s.Address != "b3@example.org" {
		t.Fatalf("after the refusal: %d %s, want b3 kept", st, body)
	}
	// One address, given by three accounts: the third is refused.
	for i, who := range []string{"Cid", "Dan", "Eve"} {
		c := signUp(t, srv.URL, who)
		st, body := c.do("PUT", "/api/v1/account/email", `{"address": "shared@example.org", "password": "`+testPassword+`"}`, nil)
		if i < 2 && st != 200 || i == 2 && (st != 429 || !strings.Contains(body, "shared@example.org was sent confirmation mails lately")) {
			t.Fatalf("%s giving the address: %d %s", who, st, body)
		}
	}
}

// TestEmailBadAddressNotCounted: an address the server refuses before
// any password is checked costs none of the sign-in budget, so a player
// fixing typos in their address is not then told they tried to sign in
// too often.
func TestEmailBadAddressNotCounted(t *testing.T) {
	t.Parallel()
	smtp := smtptest.Start(t)
	cfg, err := mail.ParseSMTP(smtp.URL("parlour@example.org"))
	if err != nil {
		t.Fatal(err)
	}
	f := newGamesFixtureTuned(t, func(c *Config) { c.SMTP = cfg })
	srv := startServer(t, f, limit.Limits{SignIns: 0.001, SignInsBurst: 20, SignInsPerName: 0.001, SignInsPerNameBurst: 2})
	ben := signUp(t, srv.URL, "Ben")
	for _, addr := range []string{"ben", "ben@example", "ben @example.org", "Ben <ben@example.org>"} {
		st, body := ben.do("PUT", "/api/v1/account/email", map[string]string{"address": addr, "password": testPassword}, nil)
		if st != 400 || !strings.Contains(body, "e-mail address") {
			t.Fatalf("address %q: %d %s, want 400 naming the address", addr, st, body)
		}
	}
	if st, body := ben.do("PUT", "/api/v1/account/email", map[string]string{"address": "ben@example.org", "password": testPassword}, nil); st != 200 {
		t.Fatalf("the right address after four typos: %d %s", st, body)
	}
}

// TestPasswordReset: a player who forgot their password asks for a link
// by their account's name; it goes to the confirmed address only, and the
// answer is the same for an unknown name or an address not confirmed.
// The link sets a new password (a weak one is refused and leaves the link
// working), signs the account out everywhere, and works once; a link
// asked for again replaces the last, one older than an hour is refused,
// a fourth in an hour is not mailed, and changing the address kills the
// link mailed to the old one.
func TestPasswordReset(t *testing.T) {
	t.Parallel()
	smtp := smtptest.Start(t)
	cfg, err := mail.ParseSMTP(smtp.URL("parlour@example.org"))
	if err != nil {
		t.Fatal(err)
	}
	clk := tabletest.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	f := newGamesFixtureTuned(t, func(c *Config) { c.SMTP, c.Clock, c.MailRetryDelay = cfg, clk, time.Millisecond })
	srv := startServer(t, f, generous)
	ann, ben := signUp(t, srv.URL, "Ann"), signUp(t, srv.URL, "Ben")
	for c, addr := range map[*client]string{ann: "ann@example.org", ben: "ben@example.org"} {
		if st, body := c.do("PUT", "/api/v1/account/email", map[string]string{"address": addr, "password": testPassword}, nil); st != 200 {
			t.Fatalf("an address: %d %s", st, body)
		}
		if m := smtp.Next(t); m.To[0] == "ann@example.org" {
			if st, page := follow(t, "GET", strings.Replace(mailLink(t, m, "/api/v1/email/verify"), "http://test", srv.URL, 1)); st != 200 {
				t.Fatalf("Ann confirms her address: %d %s", st, page)
			}
		}
	}
	other := &client{t: t, base: srv.URL}
	var s players.Session
	if st, body := other.do("POST", "/api/v1/sessions", map[string]string{"name": "Ann", "password": testPassword}, &s); st != 200 {
		t.Fatalf("Ann's second session: %d %s", st, body)
	}
	other.token = s.Token

	nobody := &client{t: t, base: srv.URL}
	if st, body := nobody.do("GET", "/api/v1/password-reset", nil, nil); st != 200 || body != `{"offered":true}`+"\n" {
		t.Errorf("whether links are mailed: %d %q", st, body)
	}
	ask := func(name string) {
		t.Helper()
		var a map[string]string
		if st, body := nobody.do("POST", "/api/v1/password-reset", map[string]string{"name": name}, &a); st != 202 || !strings.Contains(a["status"], "if that account has a confirmed e-mail address") {
			t.Fatalf("a link for %q: %d %s", name, st, body)
		}
	}
	// Nobody called Zed, and Ben's address is not confirmed: no mail,
	// and the same answer. The next mail is Ann's.
	ask("Zed")
	ask("ben")
	ask(" ann ")
	m := smtp.Next(t)
	if len(m.To) != 1 || m.To[0] != "ann@example.org" || !strings.Contains(m.Header.Get("Subject"), "new password") || !strings.Contains(m.Body, "within 1 hour") {
		t.Fatalf("the reset mail: to %q, %v\n%s", m.To, m.Header, m.Body)
	}
	token := strings.SplitN(mailLink(t, m, "/reset"), "token=", 2)[1]

	unknown, _ := account.NewToken()
	for _, c := range []struct {
		body any
		st   int
		want string
	}{
		{map[string]string{"password": "a new long phrase"}, 400, "no token"},
		{map[string]string{"token": "abc", "password": "a new long phrase"}, 400, "cut short"},
		{map[string]string{"token": unknown, "password": "a new long phrase"}, 404, "not known"},
		{map[string]string{"token": token, "password": "qwerty123"}, 400, "commonest"},
		{map[string]string{"token": token, "password": "ann is me, ann"}, 400, "name"},
		{`{"token": "` + token + `", "password": "a new long phrase", "admin": true}`, 400, "admin"},
	} {
		if st, body := nobody.do("POST", "/api/v1/password-reset/confirm", c.body, nil); st != c.st || !strings.Contains(body, c.want) {
			t.Errorf("confirm %v: %d %s, want %d saying %q", c.body, st, body, c.st, c.want)
		}
	}
	if st, _ := ann.do("GET", "/api/v1/account", nil, nil); st != 200 {
		t.Fatalf("after the refusals Ann's session answers %d", st)
	}

	var done map[string]string
	if st, body := nobody.do("POST", "/api/v1/password-reset/confirm", map[string]string{"token": token, "password": "a new long phrase"}, &done); st != 200 || done["name"] != "Ann" {
		t.Fatalf("the reset: %d %s", st, body)
	}
	for _, c := range []*client{ann, other} {
		if st, body := c.do("GET", "/api/v1/account", nil, nil); st != 401 {
			t.Errorf("a session from before the reset: %d %s, want 401", st, body)
		}
	}
	if st, _ := nobody.do("POST", "/api/v1/sessions", map[string]string{"name": "Ann", "password": testPassword}, nil); st != 401 {
		t.Errorf("the old password signs in: %d", st)
	}
	if st, body := nobody.do("POST", "/api/v1/sessions", map[string]string{"name": "Ann", "password": "a new long phrase"}, &s); st != 200 {
		t.Fatalf("the new password: %d %s", st, body)
	}
	ann.token = s.Token
	if st, body := nobody.do("POST", "/api/v1/password-reset/confirm", map[string]string{"token": token, "password": "another new phrase"}, nil); st != 404 || !strings.Contains(body, "used already") {
		t.Errorf("the link used twice: %d %s", st, body)
	}

	// A second link replaces the first; past an hour it is refused.
	ask("Ann")
	first := strings.SplitN(mailLink(t, smtp.Next(t), "/reset"), "token=", 2)[1]
	ask("Ann")
	second := strings.SplitN(mailLink(t, smtp.Next(t), "/reset"), "token=", 2)[1]
	if st, _ := nobody.do("POST", "/api/v1/password-reset/confirm", map[string]string{"token": first, "password": "another new phrase"}, nil); st != 404 {
		t.Errorf("a replaced link: %d, want 404", st)
	}
	clk.Advance(time.Hour + time.Second)
	if st, body := nobody.do("POST", "/api/v1/password-reset/confirm", map[string]string{"token": second, "password": "another new phrase"}, nil); st != 410 || !strings.Contains(body, "expired") {
		t.Errorf("a link past its hour: %d %s", st, body)
	}

	// A fourth link within the hour is not mailed, and the answer says
	// nothing of it: the next mail is Cat's. A link to Cat's old address
	// dies with it.
	cat := signUp(t, srv.URL, "Cat")
	if st, body := cat.do("PUT", "/api/v1/account/email", `{"address": "cat@example.org", "password": "`+testPassword+`"}`, nil); st != 200 {
		t.Fatalf("Cat's address: %d %s", st, body)
	}
	if st, page := follow(t, "GET", strings.Replace(mailLink(t, smtp.Next(t), "/api/v1/email/verify"), "http://test", srv.URL, 1)); st != 200 {
		t.Fatalf("Cat confirms her address: %d %s", st, page)
	}
	ask("Ann")
	ask("Cat")
	m = smtp.Next(t)
	if m.To[0] != "cat@example.org" {
		t.Fatalf("the next mail went to %q, want Cat's link (Ann asked four times in the hour)", m.To)
	}
	catLink := strings.SplitN(mailLink(t, m, "/reset"), "token=", 2)[1]
	if st, body := cat.do("PUT", "/api/v1/account/email", `{"address": "cat2@example.org", "password": "`+testPassword+`"}`, nil); st != 200 {
		t.Fatalf("a new address: %d %s", st, body)
	}
	// The new address is asked to confirm; the old, confirmed one hears
	// that it is replaced, should someone else have done it.
	got := map[string]string{}
	for range 2 {
		m := smtp.Next(t)
		got[m.To[0]] = m.Header.Get("Subject")
		if m.To[0] == "cat@example.org" && (!strings.Contains(m.Body, "was given another e-mail address") || strings.Contains(m.Body, "cat2@")) {
			t.Errorf("the old address's notice names the new one or says nothing:\n%s", m.Body)
		}
	}
	if got["cat2@example.org"] != "Confirm your e-mail address for Parlour" || got["cat@example.org"] != "Your Parlour account has a new e-mail address" {
		t.Errorf("the mails after a new address: %q", got)
	}
	if st, _ := nobody.do("POST", "/api/v1/password-reset/confirm", map[string]string{"token": catLink, "password": "another new phrase"}, nil); st != 404 {
		t.Errorf("a link to the old address: %d, want 404", st)
	}

	if st, body := nobody.do("POST", "/api/v1/password-reset", `{"name": ""}`, nil); st != 400 || !strings.Contains(body, "give the name") {
		t.Errorf("no name: %d %s", st, body)
	}
}

// dansResetLink starts a server that mails, signs Dan up with a
// confirmed address and asks for his password reset link: it returns the
// server, Dan, and the link's token.
func dansResetLink(t *testing.T) (*httptest.Server, *client, string) {
	t.Helper()
	smtp := smtptest.Start(t)
	cfg, err := mail.ParseSMTP(smtp.URL("parlour@example.org"))
	if err != nil {
		t.Fatal(err)
	}
	f := newGamesFixtureTuned(t, func(c *Config) { c.SMTP, c.MailRetryDelay = cfg, time.Millisecond })
	srv := startServer(t, f, generous)
	dan := signUp(t, srv.URL, "Dan")
	if st, body := dan.do("PUT", "/api/v1/account/email", map[string]string{"address": "dan@example.org", "password": testPassword}, nil); st != 200 {
		t.Fatalf("Dan's address: %d %s", st, body)
	}
	if st, page := follow(t, "GET", strings.Replace(mailLink(t, smtp.Next(t), "/api/v1/email/verify"), "http://test", srv.URL, 1)); st != 200 {
		t.Fatalf("Dan confirms his address: %d %s", st, page)
	}
	if st, body := (&client{t: t, base: srv.URL}).do("POST", "/api/v1/password-reset", `{"name": "Dan"}`, nil); st != 202 {
		t.Fatalf("a link: %d %s", st, body)
	}
	return srv, dan, strings.SplitN(mailLink(t, smtp.Next(t), "/reset"), "token=", 2)[1]
}

// TestPasswordResetOnce: one link confirmed by several requests at once
// sets one password: one request is answered 200, the others 404, and
// only the winner's password signs in.
func TestPasswordResetOnce(t *testing.T) {
	t.Parallel()
	srv, _, token := dansResetLink(t)
	nobody := &client{t: t, base: srv.URL}

	const n = 6
	status := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			body := fmt.Sprintf(`{"token": %q, "password": "a new phrase number %d"}`, token, i)
			res, err := http.Post(srv.URL+"/api/v1/password-reset/confirm", "application/json", strings.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			res.Body.Close()
			status[i] = res.StatusCode
		})
	}
	wg.Wait()
	won := -1
	for i, st := range status {
		switch {
		case st == 200 && won < 0:
			won = i
		case st != 404:
			t.Errorf("confirm %d of %d at once: %d (statuses %v), want one 200 and the rest 404", i, n, st, status)
		}
	}
	if won < 0 {
		t.Fatalf("no confirm of %d at once went through: %v", n, status)
	}
	for i := range n {
		st, _ := nobody.do("POST", "/api/v1/sessions", map[string]string{"name": "Dan", "password": fmt.Sprintf("a new phrase number %d", i)}, nil)
		if want := map[bool]int{true: 200, false: 401}[i == won]; st != want {
			t.Errorf("signing in with password %d (request %d set it): %d, want %d", i, won, st, want)
		}
	}
}

// TestPasswordResetClosedAccount: a password reset does not reopen an
// account a moderator closed (closing it replaced its password): a link
// mailed before the closing is refused, and no link is mailed after it,
// with the same answer as for any name.
func TestPasswordResetClosedAccount(t *testing.T) {
	t.Parallel()
	smtp := smtptest.Start(t)
	cfg, err := mail.ParseSMTP(smtp.URL("parlour@example.org"))
	if err != nil {
		t.Fatal(err)
	}
	f := newGamesFixtureTuned(t, func(c *Config) { c.SMTP, c.MailRetryDelay = cfg, time.Millisecond })
	srv := startServer(t, f, generous)
	dan, eve, moe := signUp(t, srv.URL, "Dan"), signUp(t, srv.URL, "Eve"), signUp(t, srv.URL, "Moe")
	grant(t, f.db, "Moe", true)
	for c, addr := range map[*client]string{dan: "dan@example.org", eve: "eve@example.org"} {
		if st, body := c.do("PUT", "/api/v1/account/email", map[string]string{"address": addr, "password": testPassword}, nil); st != 200 {
			t.Fatalf("an address: %d %s", st, body)
		}
		if st, page := follow(t, "GET", strings.Replace(mailLink(t, smtp.Next(t), "/api/v1/email/verify"), "http://test", srv.URL, 1)); st != 200 {
			t.Fatalf("confirming %s: %d %s", addr, st, page)
		}
	}
	nobody := &client{t: t, base: srv.URL}
	ask := func(name string) {
		t.Helper()
		if st, body := nobody.do("POST", "/api/v1/password-reset", map[string]string{"name": name}, nil); st != 202 {
			t.Fatalf("a link for %s: %d %s", name, st, body)
		}
	}
	ask("Dan")
	early := strings.SplitN(mailLink(t, smtp.Next(t), "/reset"), "token=", 2)[1]
	if st, body := moe.do("POST", "/api/v1/moderation/close", `{"name": "Dan", "reason": "abuse"}`, nil); st != 200 {
		t.Fatalf("closing Dan: %d %s", st, body)
	}
	if st, body := nobody.do("POST", "/api/v1/password-reset/confirm", map[string]string{"token": early, "password": "a way back in"}, nil); st != 403 || !strings.Contains(body, "closed by a moderator") {
		t.Errorf("the link mailed before the closing: %d %s, want 403 saying the account is closed", st, body)
	}
	if st, body := nobody.do("POST", "/api/v1/sessions", map[string]string{"name": "Dan", "password": "a way back in"}, nil); st == 200 {
		t.Fatalf("the closed account signed in after a reset: %d %s", st, body)
	}
	// Asked again, nothing is mailed to Dan: the next mail is Eve's.
	ask("Dan")
	ask("Eve")
	if m := smtp.Next(t); len(m.To) != 1 || m.To[0] != "eve@example.org" {
		t.Fatalf("the mail after asking for Dan's and Eve's links went to %v, want Eve alone", m.To)
	}
}

// TestPasswordResetSpentByNewPassword: a link mailed before its owner
// changed the password no longer works (404), so that whoever took it
// from the mailbox cannot undo the change; the new password still signs
// in.
func TestPasswordResetSpentByNewPassword(t *testing.T) {
	t.Parallel()
	srv, dan, token := dansResetLink(t)
	nobody := &client{t: t, base: srv.URL}
	if st, body := dan.do("PUT", "/api/v1/account/password", map[string]string{"password": testPassword, "new_password": "changed since the mail"}, nil); st != 204 {
		t.Fatalf("Dan's new password: %d %s", st, body)
	}
	if st, body := nobody.do("POST", "/api/v1/password-reset/confirm", map[string]string{"token": token, "password": "taken from the mailbox"}, nil); st != 404 || !strings.Contains(body, "password changed") {
		t.Errorf("the link mailed before the change: %d %s, want 404 saying the password changed since", st, body)
	}
	for pw, want := range map[string]int{"changed since the mail": 200, "taken from the mailbox": 401} {
		if st, body := nobody.do("POST", "/api/v1/sessions", map[string]string{"name": "Dan", "password": pw}, nil); st != want {
			t.Errorf("signing in with %q: %d %s, want %d", pw, st, body, want)
		}
	}
}

// TestPasswordResetNotOffered: a server that sends no mail says it mails
// no links, and refuses to.
func TestPasswordResetNotOffered(t *testing.T) {
	t.Parallel()
	f := newGamesFixture(t)
	srv := startServer(t, f, generous)
	signUp(t, srv.URL, "Ann")
	c := &client{t: t, base: srv.URL}
	if st, body := c.do("GET", "/api/v1/password-reset", nil, nil); st != 200 || body != `{"offered":false}`+"\n" {
		t.Errorf("whether links are mailed: %d %q", st, body)
	}
	if st, body := c.do("POST", "/api/v1/password-reset", `{"name": "Ann"}`, nil); st != 409 || !strings.Contains(body, "sends no e-mail") {
		t.Fatalf("a link without mail: %d %s", st, body)
	}
}
