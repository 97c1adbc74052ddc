package tui

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/crypto/ssh"
)

// TestSignUpInOut drives the home screen's account keys: sign up (the
// guest's name becomes the account's), sign out, a wrong password
// refused in place with nothing kept, sign in, the session handed to
// OnSession each time, the terminal's SSH key added, and a table opened
// signed in belonging to the account.
func TestSignUpInOut(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	var kept []string
	tm.m.cfg.OnSession = func(tok, name string) error {
		kept = append(kept, name+"/"+tok)
		return nil
	}
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	sp, _ := ssh.NewPublicKey(pub)
	keyFile := filepath.Join(t.TempDir(), "id_ed25519.pub")
	os.WriteFile(keyFile, append(ssh.MarshalAuthorizedKey(sp)[:len(ssh.MarshalAuthorizedKey(sp))-1], " ann@here\n"...), 0o644)
	tm.m.cfg.SSHKey = keyFile

	if s := tm.screen(); !strings.Contains(s, "guest Ann") || !strings.Contains(s, "s sign in · u sign up") {
		t.Fatalf("the home screen of a guest:\n%s", s)
	}
	tm.key("K")
	tm.waitFor("keys refused to guests", has("sign in first"))

	tm.key("u")
	tm.waitFor("the sign-up form, with what a password must be and its keys", has("Sign up", "Name", "Password", "your name in it", "enter the password, then sign up · esc back"))
	checkFits(t, tm)
	tm.typeText("Ann")
	tm.key("enter")
	tm.typeText("short")
	tm.key("enter")
	s := tm.waitFor("a short password refused", has("! "))
	if !strings.Contains(s, "Sign up") || strings.Contains(s, "short") {
		t.Fatalf("after a refused sign-up (the form stays, the password is not shown):\n%s", s)
	}
	tm.typeText("correct horse battery")
	if s := tm.screen(); strings.Contains(s, "correct horse") || !strings.Contains(s, "•••••") {
		t.Fatalf("the password is shown:\n%s", s)
	}
	tm.key("enter")
	s = tm.waitFor("signed up", has("signed in as Ann", "Name: Ann, the account's"))
	checkFits(t, tm)
	if strings.Contains(s, "n Name") {
		t.Errorf("an account is offered n to change its name, which n refuses:\n%s", s)
	}
	if len(kept) != 1 || !strings.HasPrefix(kept[0], "Ann/") || len(kept[0]) < 20 {
		t.Fatalf("OnSession after the sign-up: %v", kept)
	}

	tm.key("K")
	tm.waitFor("the keys screen, the key file's line ready", has("SSH keys", "no SSH keys yet", "enter adds"))
	tm.key("enter")
	// A key signs in without a password: adding one asks for it, and a
	// wrong one is asked again, the key kept.
	tm.waitFor("the password asked for", has("Your password, to add the key", "esc back to the key"))
	tm.key("enter")
	tm.waitFor("an empty password refused", has("type your password"))
	tm.typeText("not the password")
	if s := tm.screen(); strings.Contains(s, "not the password") {
		t.Fatalf("the password is shown:\n%s", s)
	}
	tm.key("enter")
	tm.waitFor("a wrong password refused, asked again", has("not your current password", "Your password, to add the key"))
	tm.typeText("correct horse battery")
	tm.key("enter")
	// Pasted, it signs in once confirmed over SSH, which the note and
	// the list say.
	tm.waitFor("the key added and listed, not confirmed", has("your SSH key SHA256:", "type your password to confirm it", "ann@here", "not confirmed: it signs in once you ssh here"))
	tm.key("esc")
	tm.key("K")
	tm.waitFor("the key listed, the key file's line ready again", has("ann@here", "enter adds"))
	tm.key("enter")
	tm.typeText("correct horse battery")
	tm.key("enter")
	tm.waitFor("the key added again", has("is added"))
	tm.key("esc")

	tm.key("o")
	tm.waitFor("signed out", has("guest (no name yet)", "signed out"))
	if len(kept) != 2 || kept[1] != "/" {
		t.Fatalf("OnSession after the sign-out: %v", kept)
	}

	tm.key("s")
	tm.typeText("ann")
	tm.key("tab")
	tm.typeText("wrong password here")
	tm.key("enter")
	tm.waitFor("a wrong password", has("! wrong name or password"))
	if tm.m.cfg.Session != "" {
		t.Fatal("a wrong password signed in")
	}
	tm.typeText("correct horse battery")
	tm.key("enter")
	tm.waitFor("signed in", has("signed in as Ann", "o sign out"))
	tok := tm.m.cfg.Session

	// A table opened now is the account's.
	tm.key("1")
	tm.key("enter")
	tm.waitFor("the table", has("you: Ann"))
	var mine struct {
		Tables []struct{ ID string } `json:"tables"`
	}
	if err := getJSON(ts.URL+"/api/v1/identity/tables", tok, &mine); err != nil || len(mine.Tables) != 1 {
		t.Fatalf("the account's tables: %+v, %v", mine, err)
	}
	var keys struct {
		Keys []struct{ Fingerprint, Comment string } `json:"keys"`
	}
	if err := getJSON(ts.URL+"/api/v1/keys", tok, &keys); err != nil || len(keys.Keys) != 1 || keys.Keys[0].Comment != "ann@here" || keys.Keys[0].Fingerprint != ssh.FingerprintSHA256(sp) {
		t.Fatalf("the account's keys: %+v, %v", keys, err)
	}
}

// getJSON GETs url with a bearer token and decodes the answer.
func getJSON(url, token string, out any) error {
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		return fmt.Errorf("%s: %s", url, res.Status)
	}
	return json.NewDecoder(res.Body).Decode(out)
}

// TestPasteKey: without a key file, K opens a line to paste a key into;
// a line that is no key gets the server's words, a key is added.
func TestPasteKey(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.m.cfg.SSHKey = filepath.Join(t.TempDir(), "none.pub")
	tm.key("u")
	tm.typeText("Ann")
	tm.key("tab")
	tm.typeText("correct horse battery")
	tm.key("enter")
	tm.waitFor("signed up", has("signed in as Ann"))
	tm.key("K")
	tm.waitFor("the paste line", has("Add an SSH key", "none.pub"))
	tm.typeText("not a key")
	tm.key("enter")
	tm.typeText("correct horse battery")
	tm.key("enter")
	// Refused, the line stays to be mended.
	tm.waitFor("a refusal", has("the key was not added: that is not an SSH public key", "> not a key█"))
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	sp, _ := ssh.NewPublicKey(pub)
	tm.key("ctrl+u")
	tm.typeText(strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sp))) + " pasted")
	tm.key("enter")
	tm.typeText("correct horse battery")
	tm.key("enter")
	tm.waitFor("the key added", has("your SSH key "+ssh.FingerprintSHA256(sp)+" is added"))
}

// TestPastedPrivateKeyStays: a private key pasted where the public one
// belongs is refused by the client itself, before any request (the
// refusal is on screen as enter is pressed), and taken off the screen.
func TestPastedPrivateKeyStays(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("u")
	tm.typeText("Ann")
	tm.key("tab")
	tm.typeText("correct horse battery")
	tm.key("enter")
	tm.waitFor("signed up", has("signed in as Ann"))
	tm.key("K")
	tm.waitFor("the paste line", has("Add an SSH key"))
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	tm.update(tea.PasteMsg{Content: string(pem.EncodeToMemory(block))})
	tm.key("enter")
	s := tm.m.View().Content
	if !strings.Contains(ansiStrip(s), "that is your private key: it is not sent") {
		t.Errorf("a pasted private key was not refused by the client as enter was pressed:\n%s", ansiStrip(s))
	}
	if strings.Contains(s, "PRIVATE KEY") {
		t.Errorf("the private key stays on screen:\n%s", ansiStrip(s))
	}
}

// TestQuestionMarkTyped: on a form of free text "?" is typed, where on
// other screens it opens the list of keys.
func TestQuestionMarkTyped(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("s")
	tm.waitFor("the sign-in form", has("Sign in", "Name", "then sign in · esc back"))
	tm.key("tab")
	tm.typeText("why?not")
	s := tm.waitFor("the password typed", has("Password  •••••••█"))
	if strings.Contains(s, "Everywhere:") {
		t.Errorf("? opened the help on the password's field:\n%s", s)
	}
	tm.key("esc")
	tm.key("?")
	tm.waitFor("the help at home", has("Everywhere:"))
}

// TestLongPassword: a password as long as the server takes (a
// passphrase of 240 characters, set through the API) is typed whole, its
// dots kept within the screen, and signs in; the form cut it at 200.
func TestLongPassword(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	pw := strings.Repeat("long pass ", 24)
	body := fmt.Sprintf(`{"name": "Lena", "password": %q}`, pw)
	res, err := http.Post(ts.URL+"/api/v1/accounts", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("the account: %s", res.Status)
	}
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("s")
	tm.waitFor("the sign-in form", has("Sign in", "Name"))
	tm.typeText("Lena")
	tm.key("tab")
	tm.typeText(pw)
	tm.waitFor("the password typed", has("Password  •••", "•█"))
	checkFits(t, tm)
	tm.key("enter")
	tm.waitFor("signed in", has("signed in as Lena"))
}

// TestSignOutPlaysOn: once signed out, the player plays on as a guest:
// the next table opens, rather than being refused because the guest
// still bore the account's name, which no guest may take.
func TestSignOutPlaysOn(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("u")
	tm.typeText("Ann")
	tm.key("tab")
	tm.typeText("correct horse battery")
	tm.key("enter")
	tm.waitFor("signed up", has("signed in as Ann"))
	tm.key("o")
	s := tm.waitFor("signed out", has("signed out", "s sign in · u sign up"))
	if strings.Contains(s, "guest Ann") {
		t.Errorf("the guest still bears the account's name:\n%s", s)
	}
	tm.key("1")
	tm.key("enter")
	s = tm.waitFor("a table, or a refusal", func(s string) bool { return strings.Contains(s, "you: ") || strings.Contains(s, "! ") })
	if !strings.Contains(s, "you: ") {
		t.Fatalf("signed out, the next table was not opened:\n%s", s)
	}
}

// TestSignedOutElsewhere: when the account's session ends elsewhere (its
// other sessions signed out from the browser, a new password), the
// client hears it on the player stream and plays on as a guest, saying
// so in a player's words, rather than answering every request after with
// the server's word that it does not know the token.
func TestSignedOutElsewhere(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	var kept []string
	tm.m.cfg.OnSession = func(tok, name string) error {
		kept = append(kept, name+"/"+tok)
		return nil
	}
	tm.key("u")
	tm.typeText("Ann")
	tm.key("tab")
	tm.typeText("correct horse battery")
	tm.key("enter")
	tm.waitFor("signed up", has("signed in as Ann"))

	body := strings.NewReader(`{"name": "Ann", "password": "correct horse battery"}`)
	res, err := http.Post(ts.URL+"/api/v1/sessions", "application/json", body)
	if err != nil {
		t.Fatal(err)
	}
	var other struct{ Token string }
	json.NewDecoder(res.Body).Decode(&other)
	res.Body.Close()
	req, _ := http.NewRequest("DELETE", ts.URL+"/api/v1/account/sessions", nil)
	req.Header.Set("Authorization", "Bearer "+other.Token)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 200 {
		t.Fatalf("signing out the other sessions: %v %v", res, err)
	}

	s := tm.waitFor("the sign-out heard", has("you were signed out", "s sign in"))
	if strings.Contains(s, "token") || strings.Contains(s, "signed in as Ann") {
		t.Errorf("after the session ended elsewhere:\n%s", s)
	}
	if tm.m.cfg.Session != "" || len(kept) != 2 || kept[1] != "/" {
		t.Fatalf("the ended session is kept: %q, OnSession %v", tm.m.cfg.Session, kept)
	}
	tm.key("1")
	tm.key("enter")
	s = tm.waitFor("a table, or a refusal", func(s string) bool { return strings.Contains(s, "you: ") || strings.Contains(s, "! ") })
	if !strings.Contains(s, "you: ") {
		t.Fatalf("a guest again, the next table was not opened:\n%s", s)
	}
}
