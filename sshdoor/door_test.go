package sshdoor

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"parlour/games"
	"parlour/invite"
	"parlour/lexicon"
	"parlour/server"
	"parlour/server/limit"
	"parlour/server/moderation"
	"parlour/server/players"
	refusal "parlour/server/refuse"
	"parlour/store/sqlite"
	"parlour/web"
)

// fixture is a Parlour server with its SSH door on loopback, as parlour
// serve --ssh runs them.
type fixture struct {
	t       *testing.T
	dir     string
	api     string // the HTTP API on loopback, for the test's own requests
	sshAddr string
	door    *Door
	cfg     Config        // the door's, to start it again
	db      *sqlite.Store // the server's store, for what no request does (a moderator's role)
}

func newFixture(t *testing.T, cfg Config) *fixture {
	t.Helper()
	f := &fixture{t: t, dir: t.TempDir()}
	db, err := sqlite.Open(context.Background(), filepath.Join(f.dir, "p.db"), sqlite.Options{Synchronous: "NORMAL", CommitInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	f.db = db
	svc, err := server.New(context.Background(), server.Config{Store: db, Games: games.Registry(), NewBot: games.NewBot})
	if err != nil {
		t.Fatal(err)
	}
	lim := limit.Defaults()
	lim.SignIns, lim.SignInsBurst = 1e6, 1e6
	h := server.NewHandler(svc, lim)
	h.ServeStatic(web.Handler())
	srv := &http.Server{Handler: h}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	pipe := NewPipe()
	go srv.Serve(h.Listener(pipe))
	f.api = "http://" + ln.Addr().String()
	cfg.API, cfg.DataDir, cfg.HTTP = f.api, f.dir, pipe.Client
	cfg.KeySession = func(ctx context.Context, pub gossh.PublicKey) (string, string, error) {
		s, err := svc.KeySession(ctx, pub)
		switch {
		case refusal.Status(err) == http.StatusForbidden:
			err = fmt.Errorf("%w: %v", ErrClosed, err)
		case errors.Is(err, players.ErrKeyUnconfirmed):
			err = fmt.Errorf("%w: %v", ErrUnconfirmed, err)
		}
		return s.Name, s.Token, err
	}
	cfg.ProveKey = func(ctx context.Context, token string, pub gossh.PublicKey) error {
		_, err := svc.ProveKey(ctx, token, pub, "added over ssh")
		return err
	}
	cfg.Guest, cfg.Remember = svc.GuestToken, svc.RememberGuest
	cfg.GuestName = func(ctx context.Context, name string) error {
		_, err := svc.Auth().GuestName(ctx, name)
		return err
	}
	f.cfg = cfg
	f.startDoor()
	t.Cleanup(func() {
		f.door.Shutdown(context.Background())
		srv.Close()
		h.CloseSockets("test over")
		svc.Close()
		db.Close()
	})
	return f
}

// startDoor starts the fixture's door on a new loopback port.
func (f *fixture) startDoor() {
	f.t.Helper()
	var err error
	f.door, err = New("127.0.0.1:0", f.cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	sln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.t.Fatal(err)
	}
	f.sshAddr = sln.Addr().String()
	go f.door.Serve(sln)
}

// do sends a request to the API with token and decodes the answer.
func (f *fixture) do(method, path, token string, body, out any) int {
	f.t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, f.api+path, bytes.NewReader(b))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	if out != nil {
		json.NewDecoder(res.Body).Decode(out)
	}
	return res.StatusCode
}

// signUp makes an account and returns its token.
func (f *fixture) signUp(name, password string) string {
	f.t.Helper()
	var s struct{ Token string }
	if st := f.do("POST", "/api/v1/accounts", "", map[string]string{"name": name, "password": password}, &s); st != 201 {
		f.t.Fatalf("sign up %s: %d", name, st)
	}
	return s.Token
}

// addKey adds pub to the account of token, whose password is password,
// as its player does: pasted on the account page, then confirmed through
// the door (Config.ProveKey, which the password prompt calls).
func (f *fixture) addKey(token, password string, pub gossh.PublicKey) {
	f.t.Helper()
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(pub))) + " laptop"
	if st := f.do("POST", "/api/v1/keys", token, map[string]string{"key": line, "password": password}, nil); st != 201 {
		f.t.Fatalf("adding a key: %d", st)
	}
	if err := f.cfg.ProveKey(context.Background(), token, pub); err != nil {
		f.t.Fatalf("confirming a key: %v", err)
	}
}

func newSigner(t *testing.T) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// term is one SSH session with a PTY: what it received, escape sequences
// stripped.
type term struct {
	t    *testing.T
	conn *gossh.Client
	sess *gossh.Session
	in   interface{ Write([]byte) (int, error) }
	mu   sync.Mutex
	out  bytes.Buffer
	mark int // the length of out when mark was called
}

// dial connects as user with signer (nil: no key) and opens a session
// with a PTY of 80 x 24 running cmd ("" for the shell).
func (f *fixture) dial(user string, signer gossh.Signer, cmd string) *term {
	f.t.Helper()
	return f.dialTerm(user, signer, cmd, "xterm-256color")
}

// dialTerm is dial with the terminal type the PTY request names.
func (f *fixture) dialTerm(user string, signer gossh.Signer, cmd, termType string) *term {
	f.t.Helper()
	return f.dialEnv(user, signer, cmd, termType, nil)
}

// dialEnv is dialTerm with the environment the client sends (as
// OpenSSH's SetEnv does) before it asks for the PTY.
func (f *fixture) dialEnv(user string, signer gossh.Signer, cmd, termType string, env map[string]string) *term {
	f.t.Helper()
	auth := []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })}
	if signer != nil {
		auth = []gossh.AuthMethod{gossh.PublicKeys(signer)}
	}
	c, err := gossh.Dial("tcp", f.sshAddr, &gossh.ClientConfig{User: user, Auth: auth, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
	if err != nil {
		f.t.Fatalf("ssh dial: %v", err)
	}
	f.t.Cleanup(func() { c.Close() })
	sess, err := c.NewSession()
	if err != nil {
		f.t.Fatal(err)
	}
	tm := &term{t: f.t, conn: c, sess: sess}
	w, _ := sess.StdinPipe()
	tm.in = w
	r, _ := sess.StdoutPipe()
	for k, v := range env {
		if err := sess.Setenv(k, v); err != nil {
			f.t.Fatalf("setenv %s: %v", k, err)
		}
	}
	if err := sess.RequestPty(termType, 24, 80, gossh.TerminalModes{}); err != nil {
		f.t.Fatal(err)
	}
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := r.Read(b)
			tm.mu.Lock()
			tm.out.Write(b[:n])
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	if cmd == "" {
		err = sess.Shell()
	} else {
		err = sess.Start(cmd)
	}
	if err != nil {
		f.t.Fatal(err)
	}
	return tm
}

// text returns what the session received since the last mark, escape
// sequences and spaces removed (the renderer moves the cursor over
// blanks), lower case.
func (tm *term) text() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	s := ansi.Strip(tm.out.String()[tm.mark:])
	return strings.ToLower(strings.Join(strings.Fields(s), ""))
}

func (tm *term) setMark() {
	tm.mu.Lock()
	tm.mark = tm.out.Len()
	tm.mu.Unlock()
}

// waitFor waits until the text since the mark holds want (spaces
// removed, any case) and returns how long that took.
func (tm *term) waitFor(want string) time.Duration {
	tm.t.Helper()
	want = strings.ToLower(strings.Join(strings.Fields(want), ""))
	start := time.Now()
	for time.Since(start) < 10*time.Second {
		if strings.Contains(tm.text(), want) {
			return time.Since(start)
		}
		time.Sleep(time.Millisecond)
	}
	tm.t.Fatalf("%q never reached the terminal; it shows:\n%s", want, tm.text())
	return 0
}

func (tm *term) send(s string) {
	tm.t.Helper()
	if _, err := tm.in.Write([]byte(s)); err != nil {
		tm.t.Fatal(err)
	}
}

// TestNymphabetOverSSH plays Nymphabet between two SSH sessions: Ann,
// signed in by the key her account added, opens a table for a friend;
// Ben, a guest, joins it with "join CODE", the table's invite code typed
// in lower case with its dash; Ann's word reaches Ben's
// terminal; Ben resigns before his first word, which aborts the game, and
// both screens show the end.
func TestNymphabetOverSSH(t *testing.T) {
	f := newFixture(t, Config{})
	annTok := f.signUp("Ann", "correct horse battery")
	annKey := newSigner(t)
	f.addKey(annTok, "correct horse battery", annKey.PublicKey())

	ann := f.dial("whoever", annKey, "")
	ann.waitFor("signed in as Ann")
	ann.waitFor("Nymphabet")
	ann.send("1")
	ann.waitFor("Nymphabet · new table")
	ann.send("\x1b[C\x1b[C\x1b[C") // right three times: a friend
	ann.waitFor("a friend")
	ann.send("\r")
	var mine struct {
		Tables []struct {
			ID   string `json:"id"`
			Game string `json:"game"`
			Code string `json:"code"`
		} `json:"tables"`
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(mine.Tables) == 0 && time.Now().Before(deadline) {
		f.do("GET", "/api/v1/identity/tables", annTok, nil, &mine)
		time.Sleep(10 * time.Millisecond)
	}
	if len(mine.Tables) != 1 || mine.Tables[0].Game != "nymphabet" {
		t.Fatalf("Ann's tables: %+v: the table was not made as Ann's", mine)
	}
	id := mine.Tables[0].ID

	code := mine.Tables[0].Code
	if len(code) != invite.Len {
		t.Fatalf("Ann's table has the invite code %q", code)
	}
	ben := f.dial("ben", newSigner(t), "join "+strings.ToLower(invite.Format(code)))
	ben.waitFor("enter take a seat") // the table shown first
	ben.send("\r")
	ben.waitFor("you: ben")
	ben.waitFor("waiting for Ann")
	// The mark, not the prompt's "once it is your turn": a word sent
	// before the table reaches Ann's terminal is refused as out of turn.
	ann.waitFor("▶ your turn")

	var word string
	for _, w := range lexicon.Default().OfLength(5) {
		if w[0] == 'a' {
			word = w
			break
		}
	}
	// The word goes in one write, as a paste would: typed key by key,
	// each letter is drawn on its own and the stream never holds the
	// word whole.
	ann.send(word)
	ben.setMark()
	ann.send("\r")
	took := ben.waitFor("Ann:" + word)
	t.Logf("Ann's word %q reached Ben's terminal over SSH %v after her enter", word, took)
	ben.waitFor("▶ your turn")

	ann.setMark()
	ben.send(":resign\r")
	ben.waitFor("enter again resigns") // the first enter asks
	ben.send("\r")
	ben.waitFor("game over")
	ann.waitFor("game over")

	var rec struct {
		Aborted *struct {
			By string `json:"by"`
		} `json:"aborted"`
		Moves []struct {
			By   string `json:"by"`
			Move string `json:"move"`
		} `json:"moves"`
	}
	f.do("GET", "/api/v1/tables/"+id+"/record", annTok, nil, &rec)
	if len(rec.Moves) != 1 || !strings.EqualFold(rec.Moves[0].Move, word) || rec.Moves[0].By != "Ann" || rec.Aborted == nil || rec.Aborted.By != "ben" {
		t.Fatalf("the record's moves: %+v, aborted %+v", rec.Moves, rec.Aborted)
	}
}

// TestNoPTY: a session without a terminal gets the one-line help and
// an exit status, not a client drawing into nothing.
func TestNoPTY(t *testing.T) {
	f := newFixture(t, Config{})
	c, err := gossh.Dial("tcp", f.sshAddr, &gossh.ClientConfig{User: "x", Auth: []gossh.AuthMethod{gossh.PublicKeys(newSigner(t))}, HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, _ := c.NewSession()
	var out, errOut bytes.Buffer
	sess.Stdout, sess.Stderr = &out, &errOut
	err = sess.Run("")
	if ee, ok := err.(*gossh.ExitError); !ok || ee.ExitStatus() != 2 {
		t.Fatalf("exit: %v, want status 2", err)
	}
	if got := errOut.String(); got != usage || strings.Count(got, "\n") != 1 || !strings.Contains(got, "ssh -t") {
		t.Fatalf("help: %q (stdout %q)", got, out.String())
	}
}

// TestHostKeyKept: the host key is made once, mode 0600, and a second
// start presents the same one.
func TestHostKeyKept(t *testing.T) {
	dir := t.TempDir()
	a, err := HostKey(dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, HostKeyFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("host key file: %v, %v", st, err)
	}
	b, err := HostKey(dir)
	if err != nil || !bytes.Equal(a, b) {
		t.Fatalf("second start: a different key (%v)", err)
	}
	s, err := gossh.ParsePrivateKey(a)
	if err != nil || s.PublicKey().Type() != gossh.KeyAlgoED25519 {
		t.Fatalf("host key: %v", err)
	}
	os.WriteFile(filepath.Join(dir, HostKeyFile), []byte("garbage"), 0o600)
	if _, err := HostKey(dir); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("a damaged host key: %v", err)
	}

	// Over the wire: two doors on one data directory present one key.
	f := newFixture(t, Config{})
	var seen []string
	for range 2 {
		d, err := New("127.0.0.1:0", Config{API: f.api, DataDir: f.dir, Guest: f.cfg.Guest, Remember: f.cfg.Remember})
		if err != nil {
			t.Fatal(err)
		}
		ln, _ := net.Listen("tcp", "127.0.0.1:0")
		go d.Serve(ln)
		c, err := gossh.Dial("tcp", ln.Addr().String(), &gossh.ClientConfig{User: "x", Auth: []gossh.AuthMethod{gossh.PublicKeys(newSigner(t))},
			HostKeyCallback: func(_ string, _ net.Addr, k gossh.PublicKey) error {
				seen = append(seen, gossh.FingerprintSHA256(k))
				return nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		c.Close()
		d.Shutdown(context.Background())
	}
	if len(seen) != 2 || seen[0] != seen[1] {
		t.Fatalf("host keys presented: %v", seen)
	}
	if fp := f.door.HostKeyFingerprint(); fp != seen[0] || !strings.HasPrefix(fp, "SHA256:") {
		t.Fatalf("the door says its host key is %s; it presents %s", fp, seen[0])
	}
	// The fingerprint the operator publishes is the one ssh-keygen -lf
	// prints for the key file.
	if kg, err := exec.LookPath("ssh-keygen"); err == nil {
		out, err := exec.Command(kg, "-lf", filepath.Join(f.dir, HostKeyFile)).CombinedOutput()
		if err != nil || !strings.Contains(string(out), " "+seen[0]+" ") {
			t.Errorf("ssh-keygen -lf prints %q (%v), not the fingerprint %s", out, err, seen[0])
		}
	} else {
		t.Log("no ssh-keygen: the fingerprint is checked against the wire only")
	}
}

// TestPastedKeyConfirmed: a public key pasted on a page signs nobody in
// until its holder confirms it with the account's password at the door.
// Mal, who pasted Ann's public key to his own account, does not get her
// sessions: Ann is offered his account's password, and plays as a guest
// without it; signing in to her own account takes the key from his, and
// from then on it signs her in alone. Bob's own pasted key asks his
// password once, under any login.
func TestPastedKeyConfirmed(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Config{Burst: 20, PerAddr: 20})
	annTok := f.signUp("Ann", "correct horse battery")
	malTok := f.signUp("Malcolm", "mallet of the night")
	annKey := newSigner(t)
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(annKey.PublicKey())))
	var added struct{ Confirmed bool }
	if st := f.do("POST", "/api/v1/keys", malTok, map[string]string{"key": line, "password": "mallet of the night"}, &added); st != 201 || added.Confirmed {
		t.Fatalf("Mal pasting Ann's key: %d %+v, want 201 unconfirmed", st, added)
	}

	stranger := f.dial("annie", annKey, "")
	stranger.waitFor("among the keys of the account Malcolm, waiting to be confirmed")
	stranger.send("\r")
	stranger.waitFor("guest annie")
	if strings.Contains(stranger.text(), "signedinasmalcolm") {
		t.Fatalf("Ann's key signed her in to Mal's account")
	}

	ann := f.dial("ann", annKey, "")
	ann.waitFor("ann has an account here, and this key is not among its keys")
	ann.send("correct horse battery\r")
	ann.waitFor("signed in as Ann")
	var list struct {
		Keys []struct {
			Fingerprint string
			Confirmed   bool
		} `json:"keys"`
	}
	f.do("GET", "/api/v1/keys", annTok, nil, &list)
	if len(list.Keys) != 1 || list.Keys[0].Fingerprint != gossh.FingerprintSHA256(annKey.PublicKey()) || !list.Keys[0].Confirmed {
		t.Fatalf("Ann's keys after confirming hers: %+v", list)
	}
	f.do("GET", "/api/v1/keys", malTok, nil, &list)
	if len(list.Keys) != 0 {
		t.Fatalf("Mal's keys after Ann took hers: %+v", list)
	}
	if st := f.do("POST", "/api/v1/keys", malTok, map[string]string{"key": line, "password": "mallet of the night"}, nil); st != 409 {
		t.Fatalf("Mal pasting Ann's confirmed key: %d, want 409", st)
	}
	f.dial("whoever", annKey, "").waitFor("signed in as Ann")

	bobTok := f.signUp("Bob", "correct horse staple")
	bobKey := newSigner(t)
	if st := f.do("POST", "/api/v1/keys", bobTok, map[string]string{"key": strings.TrimSpace(string(gossh.MarshalAuthorizedKey(bobKey.PublicKey()))), "password": "correct horse staple"}, nil); st != 201 {
		t.Fatalf("Bob pasting his key: %d", st)
	}
	bob := f.dial("robert", bobKey, "")
	bob.waitFor("among the keys of the account Bob, waiting to be confirmed")
	bob.send("correct horse staple\r")
	bob.waitFor("signed in as Bob")
	again := f.dial("robert", bobKey, "")
	again.waitFor("signed in as Bob")
	if strings.Contains(again.text(), "password") {
		t.Fatalf("a confirmed key was asked for a password")
	}
}

// TestPasswordAddsKey: ann@ with a key her account lacks is offered a
// password sign-in; a wrong password is refused, the right one signs her
// in and adds the key, and the next session signs in by the key alone.
func TestPasswordAddsKey(t *testing.T) {
	f := newFixture(t, Config{})
	tok := f.signUp("Ann", "correct horse battery")
	key := newSigner(t)
	tm := f.dial("ann", key, "")
	tm.waitFor("Password to sign in and add the key")
	tm.setMark()
	tm.send("wrong password\r")
	tm.waitFor("wrong name or password")
	tm.send("correct horse battery\r")
	tm.waitFor("signed in as Ann")
	var list struct {
		Keys []struct{ Fingerprint, Comment string } `json:"keys"`
	}
	f.do("GET", "/api/v1/keys", tok, nil, &list)
	if len(list.Keys) != 1 || list.Keys[0].Fingerprint != gossh.FingerprintSHA256(key.PublicKey()) {
		t.Fatalf("Ann's keys after the password: %+v", list)
	}
	again := f.dial("anybody", key, "")
	again.waitFor("signed in as Ann")
	if strings.Contains(again.text(), "password") {
		t.Fatalf("a known key was asked for a password")
	}

	// A user name with no account is a guest at once; enter alone skips
	// the offer, and plays as a guest the server names, since a guest
	// may not take an account's name.
	f.dial("nobody", newSigner(t), "").waitFor("guest nobody")
	skip := f.dial("ann", newSigner(t), "")
	skip.waitFor("Password to sign in")
	skip.send("\r")
	skip.waitFor("guest (no name yet)")
}

// TestSessionsEndWithTheConnection: the account session a connection
// plays under ends with it, whether the door signed it in by a key or by
// a password or the player signed in inside the client, and whether the
// player quit or the connection dropped: nothing else holds its token,
// so Ann's "sign out everywhere else" finds none of them left. So does
// the token a guest who came back by key was given.
func TestSessionsEndWithTheConnection(t *testing.T) {
	f := newFixture(t, Config{Burst: 20, PerAddr: 20})
	annTok := f.signUp("Ann", "correct horse battery")
	key := newSigner(t)
	f.addKey(annTok, "correct horse battery", key.PublicKey())
	// The door again, telling the test the sessions it signs keys in
	// with, to see one end when its connection drops.
	if err := f.door.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	minted := make(chan string, 8)
	keySession := f.cfg.KeySession
	f.cfg.KeySession = func(ctx context.Context, pub gossh.PublicKey) (string, string, error) {
		name, tok, err := keySession(ctx, pub)
		if err == nil {
			minted <- tok
		}
		return name, tok, err
	}
	guest := f.cfg.Guest
	f.cfg.Guest = func(ctx context.Context, key string) (string, string, error) {
		name, tok, err := guest(ctx, key)
		if tok != "" {
			minted <- tok
		}
		return name, tok, err
	}
	f.startDoor()

	quit := func(tm *term) {
		t.Helper()
		tm.send("\x03")
		done := make(chan error, 1)
		go func() { done <- tm.sess.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("the session did not end at ctrl+c")
		}
	}
	byKey := f.dial("ann", key, "")
	byKey.waitFor("signed in as Ann")
	<-minted
	quit(byKey)

	byPassword := f.dial("ann", nil, "")
	byPassword.waitFor("Password to sign in")
	byPassword.send("correct horse battery\r")
	byPassword.waitFor("signed in as Ann")
	quit(byPassword)

	inside := f.dial("visitor", nil, "")
	inside.waitFor("guest visitor")
	inside.send("s")
	inside.waitFor("Sign in")
	inside.send("Ann\r")
	inside.send("correct horse battery\r")
	inside.waitFor("signed in as Ann")
	quit(inside)

	// A dropped connection's token ends too: an account's session, and
	// the token a guest who came back by key was given.
	gusKey := newSigner(t)
	f.guestGame("gus", gusKey)
	for _, c := range []struct {
		user string
		key  gossh.Signer
		want string
	}{{"ann", key, "signed in as Ann"}, {"gus", gusKey, "Your recent games"}} {
		dropped := f.dial(c.user, c.key, "")
		dropped.waitFor(c.want)
		tok := <-minted
		if st := f.do("GET", "/api/v1/identity/tables", tok, nil, nil); st != 200 {
			t.Fatalf("%s's token before the drop: %d, want 200", c.user, st)
		}
		dropped.conn.Close()
		for start := time.Now(); f.do("GET", "/api/v1/identity/tables", tok, nil, nil) != 401; time.Sleep(10 * time.Millisecond) {
			if time.Since(start) > 10*time.Second {
				t.Fatalf("%s's token of a dropped connection never ended", c.user)
			}
		}
	}

	var ended struct{ Ended int }
	if st := f.do("DELETE", "/api/v1/account/sessions", annTok, nil, &ended); st != 200 || ended.Ended != 0 {
		t.Errorf("Ann signs out everywhere else: %d, %d other sessions ended, want 200 and none", st, ended.Ended)
	}
	if st := f.do("GET", "/api/v1/account", annTok, nil, nil); st != 200 {
		t.Errorf("Ann's own session after the connections ended: %d, want 200", st)
	}
}

// TestPasswordWithoutKey: a session with no key under an account's name
// is asked that account's password, as an SSH login is, and signed in by
// it; enter alone plays as a guest the server names.
func TestPasswordWithoutKey(t *testing.T) {
	f := newFixture(t, Config{})
	f.signUp("Eve", "correct horse battery")
	tm := f.dial("eve", nil, "")
	tm.waitFor("Password to sign in (enter alone: play as a guest)")
	tm.send("correct horse battery\r")
	tm.waitFor("signed in as Eve")
	if strings.Contains(tm.text(), "add the key") {
		t.Error("a session with no key was offered to add one")
	}

	skip := f.dial("eve", nil, "")
	skip.waitFor("Password to sign in")
	skip.send("\r")
	skip.waitFor("guest (no name yet)")
	f.dial("nobody", nil, "").waitFor("guest nobody")
}

// TestSignUpAddsKey: a guest with a key who signs up in the session
// comes back signed in by that key alone; a key that signed a session in
// is not added again.
func TestSignUpAddsKey(t *testing.T) {
	f := newFixture(t, Config{})
	key := newSigner(t)
	gus := f.dial("gus", key, "")
	gus.waitFor("guest gus")
	gus.send("u")
	gus.waitFor("Choose a name and a password")
	gus.send("gus_acc\r")
	gus.send("tangerine-owl-42\r")
	gus.waitFor("signed in as gus_acc")
	gus.waitFor("is added: ssh to this server signs you in")

	again := f.dial("anybody", key, "")
	again.waitFor("signed in as gus_acc")
	var s struct{ Token string }
	if st := f.do("POST", "/api/v1/sessions", "", map[string]string{"name": "gus_acc", "password": "tangerine-owl-42"}, &s); st != 201 && st != 200 {
		t.Fatalf("sign in: %d", st)
	}
	var list struct {
		Keys []struct{ Fingerprint, Comment string } `json:"keys"`
	}
	f.do("GET", "/api/v1/keys", s.Token, nil, &list)
	if len(list.Keys) != 1 || list.Keys[0].Fingerprint != gossh.FingerprintSHA256(key.PublicKey()) || list.Keys[0].Comment != "added over ssh" {
		t.Fatalf("gus_acc's keys after signing up over ssh: %+v", list)
	}
}

// TestReservedLogin: a login the server keeps from guests (root, admin)
// plays as a guest the server names, rather than under a name the server
// would refuse at the first table.
func TestReservedLogin(t *testing.T) {
	f := newFixture(t, Config{})
	tm := f.dial("root", newSigner(t), "")
	tm.waitFor("guest (no name yet)")
}

// TestRateLimits: connections past an address's burst, or past the
// sessions allowed at once, are closed before the handshake; the others
// are served.
func TestRateLimits(t *testing.T) {
	f := newFixture(t, Config{Burst: 3, NewPerMinute: 1, PerAddr: 2})
	cfg := &gossh.ClientConfig{User: "x", Auth: []gossh.AuthMethod{gossh.PublicKeys(newSigner(t))}, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second}
	var open []*gossh.Client
	defer func() {
		for _, c := range open {
			c.Close()
		}
	}()
	results := ""
	for i := range 4 {
		c, err := gossh.Dial("tcp", f.sshAddr, cfg)
		if err != nil {
			results += "refused "
			continue
		}
		results += "ok "
		if i < 2 {
			// A connection counts once its session is open.
			if _, err := c.NewSession(); err != nil {
				t.Fatal(err)
			}
			open = append(open, c)
		} else {
			c.Close()
		}
	}
	// Two sessions open: the third and fourth connections are refused (two
	// at once from one address), and take no turn of the burst of three.
	if results != "ok ok refused refused " {
		t.Fatalf("connections: %s", results)
	}

	// What a refused client reads: one line saying why, before the SSH
	// version it never gets.
	refusal := func() string {
		t.Helper()
		c, err := net.Dial("tcp", f.sshAddr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(c, "SSH-2.0-test\r\n")
		b, err := io.ReadAll(c)
		if err != nil {
			t.Fatalf("reading the refusal: %v (read %q)", err, b)
		}
		return string(b)
	}
	if got, want := refusal(), "Parlour: too many sessions at once from your address (at most 2); close one and try again.\r\n"; got != want {
		t.Errorf("with two sessions open, a third reads %q, want %q", got, want)
	}
	open[1].Close()
	open = open[:1]
	time.Sleep(100 * time.Millisecond)          // the door sees the close
	c, err := gossh.Dial("tcp", f.sshAddr, cfg) // the third of the burst
	if err != nil {
		t.Fatalf("with one session open, a second was refused: %v", err)
	}
	c.Close()
	time.Sleep(100 * time.Millisecond)
	if got, want := refusal(), "Parlour: too many new connections from your address (1 a minute); try again in a minute.\r\n"; got != want {
		t.Errorf("past the burst, a connection reads %q, want %q", got, want)
	}
	// A flood: with maxRefusing refusals under way, the next refused
	// connection is closed unanswered.
	for range maxRefusing {
		f.door.refusing <- struct{}{}
	}
	raw, err := net.Dial("tcp", f.sshAddr)
	if err != nil {
		t.Fatal(err)
	}
	raw.SetDeadline(time.Now().Add(5 * time.Second))
	got, _ := io.ReadAll(raw)
	raw.Close()
	if len(got) != 0 {
		t.Errorf("in a flood, a refused connection read %q", got)
	}
	for range maxRefusing {
		<-f.door.refusing
	}
	// OpenSSH's client shows the line with -v; without, only that the
	// connection closed (docs/ssh.md says so).
	if ssh, err := exec.LookPath("ssh"); err == nil {
		_, port, _ := net.SplitHostPort(f.sshAddr)
		out, _ := exec.Command(ssh, "-v", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-p", port, "127.0.0.1", "true").CombinedOutput()
		if !strings.Contains(string(out), "banner line 0: Parlour: too many new connections from your address") {
			t.Errorf("ssh -v does not show the refusal:\n%s", out)
		}
	} else {
		t.Log("no ssh program: the refusal is checked on the wire only")
	}

	g := newGate(2, 10, 1000, 1000)
	a := &net.TCPAddr{IP: net.IPv4(10, 0, 0, 1), Port: 1}
	b := &net.TCPAddr{IP: net.IPv4(10, 0, 0, 2), Port: 1}
	p1, _ := g.admit(a)
	p2, _ := g.admit(b)
	if p1.enter() != "" || p2.enter() != "" {
		t.Fatal("two sessions on a server of two")
	}
	if p, why := g.admit(a); p != nil || why != "the server is full" {
		t.Fatalf("a third session on a server of two: %q", why)
	}
	p1.end()
	p1.end() // twice is once
	if p, _ := g.admit(b); p == nil {
		t.Fatalf("a place freed was not given")
	}
}

// TestIdleClose: a session in which no key is pressed for the idle time
// is closed with a line saying so; keys keep it open.
func TestIdleClose(t *testing.T) {
	f := newFixture(t, Config{Idle: 600 * time.Millisecond})
	tm := f.dial("ann", nil, "")
	tm.waitFor("New table")
	for range 4 {
		time.Sleep(250 * time.Millisecond)
		tm.send("j") // down: a key, nothing else
	}
	if strings.Contains(tm.text(), "nokeypressed") {
		t.Fatal("a session with keys pressed was closed as idle")
	}
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- tm.sess.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("an idle session stayed open")
	}
	if took := time.Since(start); took < 500*time.Millisecond {
		t.Fatalf("closed %v after the last key, before the idle time", took)
	}
	tm.waitFor("No key pressed for 600ms: the session is closed")
}

// files lists the names of the files under each of dirs, walked whole.
func files(t *testing.T, dirs ...string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			out[path] = true
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestRecordOverSSH: `s` on the end screen of an SSH session writes no
// file on the server (neither in the server's working directory nor in
// its data directory) and shows the record's address and the command
// that fetches it; the address serves the record.
func TestRecordOverSSH(t *testing.T) {
	f := newFixture(t, Config{})
	tm := f.dial("ann", nil, "")
	tm.waitFor("New table")
	tm.send("1")
	tm.waitFor("Nymphabet · new table")
	tm.send("\r")
	tm.waitFor("▶ your turn")
	tm.send(":resign\r")
	tm.waitFor("enter again resigns") // the first enter asks
	tm.send("\r")
	tm.waitFor("game over")

	before := files(t, ".", f.dir)
	tm.setMark()
	tm.send("s")
	tm.waitFor("Fetch the record on your own computer with:")
	tm.waitFor("curl -o parlour-nymphabet-")
	link := regexp.MustCompile(`http://127\.0\.0\.1:\d+/api/v1/tables/([a-z0-9]+)/record`).FindStringSubmatch(tm.text())
	if link == nil || !strings.HasPrefix(link[0], f.api) {
		t.Fatalf("no link to the record on the screen:\n%s", tm.text())
	}
	tm.waitFor("curl -o parlour-nymphabet-" + link[1] + ".json\\")
	// The old client wrote the file after fetching the record; give a
	// late write the time to land.
	time.Sleep(300 * time.Millisecond)
	after := files(t, ".", f.dir)
	for p := range after {
		if !before[p] && !strings.HasPrefix(filepath.Base(p), "p.db") {
			t.Errorf("the session wrote %s on the server", p)
		}
	}

	res, err := http.Get(link[0])
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var rec struct {
		Game  string `json:"game"`
		Moves []struct {
			Move string `json:"move"`
		} `json:"moves"`
		Aborted *struct {
			By string `json:"by"`
		} `json:"aborted"`
	}
	// Resigned before the computer's first word: the game was aborted.
	if err := json.NewDecoder(res.Body).Decode(&rec); err != nil || res.StatusCode != 200 || rec.Game != "nymphabet" || len(rec.Moves) != 0 || rec.Aborted == nil {
		t.Fatalf("the link serves %d %+v (%v)", res.StatusCode, rec, err)
	}
}

// TestRefusalLines: each limit's line is one line a client reads past
// before the version string (RFC 4253, 4.2: no "SSH-" at its start, at
// most 255 bytes with its CR LF), and names the limit.
func TestRefusalLines(t *testing.T) {
	d := &Door{cfg: Config{MaxSessions: 200, PerAddr: 4, NewPerMinute: 10}}
	for why, want := range map[string]string{
		whyFull:        "the server is full (200 sessions)",
		whyPerAddr:     "too many sessions at once from your address (at most 4)",
		whyRate:        "too many new connections from your address (10 a minute)",
		whyPending:     "too many connections are starting at once",
		whyPendingAddr: "too many connections from your address are starting at once",
		"other":        "the connection is refused: other",
	} {
		l := d.refusal(why)
		if !strings.Contains(l, want) || strings.HasPrefix(l, "SSH-") || strings.ContainsAny(l, "\r\n") || len(l)+2 > 255 {
			t.Errorf("%s: %q", why, l)
		}
	}
}

// TestStyleOverSSH: the door draws with the terminal's styling (bold,
// reverse, faint, colour) when the PTY request names a terminal that has
// it, as the local client does, and plain text for a dumb one.
func TestStyleOverSSH(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Config{})
	sgr := regexp.MustCompile(`\x1b\[([0-9;:]*)m`)
	for _, tc := range []struct {
		term   string
		styled bool
	}{
		{"xterm-256color", true},
		{"xterm", true},
		{"dumb", false},
	} {
		t.Run(tc.term, func(t *testing.T) {
			tm := f.dialTerm("ann", nil, "", tc.term)
			tm.waitFor("New table")
			tm.mu.Lock()
			raw := tm.out.String()
			tm.mu.Unlock()
			var attrs []string
			for _, m := range sgr.FindAllStringSubmatch(raw, -1) {
				if m[1] != "" && m[1] != "0" {
					attrs = append(attrs, m[1])
				}
			}
			if styled := len(attrs) > 0; styled != tc.styled {
				t.Fatalf("TERM=%s: styling %v (SGR attributes %q), want %v", tc.term, styled, attrs, tc.styled)
			}
		})
	}
}

// TestChallengeOverSSH: an SSH session signed in by its key holds the
// player stream, as a browser does: the server lists its player online,
// a challenge made to them reaches their screen as it comes, and they
// accept it there, which seats them at its table; their recent games are
// the server's, though the door keeps no file.
func TestChallengeOverSSH(t *testing.T) {
	t.Parallel()
	f := newFixture(t, Config{})
	annTok := f.signUp("Ann", "correct horse battery")
	annKey := newSigner(t)
	f.addKey(annTok, "correct horse battery", annKey.PublicKey())
	benTok := f.signUp("Ben", "correct horse battery")

	ann := f.dial("ann", annKey, "")
	ann.waitFor("signed in as Ann")
	var ch struct {
		ID string `json:"id"`
	}
	if st := f.do("POST", "/api/v1/challenges", benTok, map[string]any{"to": "ann", "game": "nymphabet"}, &ch); st != 201 {
		t.Fatalf("Ben's challenge: %d", st)
	}
	ann.waitFor("Ben challenges you to Nymphabet: p answers")
	ann.setMark()
	ann.send("p")
	ann.waitFor("Challenges to you")
	ann.waitFor("Ben challenges you to Nymphabet")
	ann.send("a")
	ann.waitFor("you: Ann")
	var out struct {
		Out []struct{ ID string } `json:"out"`
	}
	if st := f.do("GET", "/api/v1/challenges", benTok, nil, &out); st != 200 || len(out.Out) != 0 {
		t.Fatalf("Ben's open challenges after Ann accepted: %d %+v", st, out)
	}
	var mine struct {
		Tables []struct {
			ID string `json:"id"`
		} `json:"tables"`
	}
	if st := f.do("GET", "/api/v1/identity/tables", benTok, nil, &mine); st != 200 || len(mine.Tables) != 1 {
		t.Fatalf("Ben's tables: %d %+v", st, mine)
	}

	// The table is among Ann's recent games in a new session.
	again := f.dial("ann", annKey, "")
	again.waitFor("signed in as Ann")
	again.waitFor("Your recent games")
	again.waitFor("Nymphabet " + mine.Tables[0].ID)
}

// guestGame has user, with key, start a Nymphabet game against the
// computer as a guest, and closes the session once it is their turn.
func (f *fixture) guestGame(user string, key gossh.Signer) {
	f.t.Helper()
	f.guestTable(user, key).sess.Close()
}

// guestTable has user, with key, start a Nymphabet game against the
// computer as a guest, and returns the session at their first turn.
func (f *fixture) guestTable(user string, key gossh.Signer) *term {
	f.t.Helper()
	tm := f.dial(user, key, "")
	tm.waitFor("New table")
	tm.send("1")
	tm.waitFor("Nymphabet · new table")
	tm.send("\r")
	tm.waitFor("▶ your turn")
	return tm
}

// TestGuestKeyComesBack: a guest who plays with a key and loses the
// connection comes back, with the same key and name, as the same guest:
// the home screen lists the table under way, and enter sits them at it
// again. Another key, or the same key under another name, is another
// guest.
func TestGuestKeyComesBack(t *testing.T) {
	f := newFixture(t, Config{})
	key := newSigner(t)
	f.guestGame("gus", key) // the connection drops mid-game

	back := f.dial("gus", key, "")
	back.waitFor("Your recent games")
	back.waitFor("Nymphabet")
	back.waitFor("playing")
	back.send(strings.Repeat("\x1b[B", 7)) // down past the 4 games and 3 lines to the table
	back.send("\r")
	back.waitFor("▶ your turn")

	for _, c := range []struct {
		user string
		key  gossh.Signer
	}{{"gus", newSigner(t)}, {"ann", key}} {
		other := f.dial(c.user, c.key, "")
		other.waitFor("Your recent games")
		other.waitFor("none yet")
	}
}

// TestGuestFinishedGameComesBack: a guest's finished game is listed
// among its recent games when it comes back with its key in another
// session, as a table under way is: the door keeps no list between
// sessions, and the server lists the guest's own games.
func TestGuestFinishedGameComesBack(t *testing.T) {
	f := newFixture(t, Config{})
	key := newSigner(t)
	tm := f.guestTable("gus", key)
	// A word first: a resignation before both players moved would
	// abort the game.
	tm.send("abdicated\r")
	tm.waitFor("Computer (easy): E") // its word, from E, in the list
	tm.waitFor("▶ your turn")
	tm.send(":resign\r")
	tm.waitFor("enter again resigns") // the first enter asks
	tm.send("\r")
	tm.waitFor("Game over")
	tm.sess.Close()

	back := f.dial("gus", key, "")
	back.waitFor("Your recent games")
	back.waitFor("lost")
}

// TestGuestKeyKeptAcrossRestarts: a guest who played with a key comes
// back as the same guest after the door (the server) starts again: the
// home screen lists the table under way. The server keeps the guest; the
// data folder holds no guest's token.
func TestGuestKeyKeptAcrossRestarts(t *testing.T) {
	f := newFixture(t, Config{})
	key := newSigner(t)
	f.guestGame("gus", key)
	if err := f.door.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(f.dir, GuestsFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a guests' file after shutdown: %v", err)
	}

	f.startDoor()
	back := f.dial("gus", key, "")
	back.waitFor("Your recent games")
	back.waitFor("Nymphabet")
	back.waitFor("playing")
}

// TestGuestThroughAnotherDoor: the doors of two servers on one database
// (a cluster's nodes) know the same guests. Gus plays by key through one
// and comes back through the other to his table; Kay, without a key,
// comes back through the other by her resume code.
func TestGuestThroughAnotherDoor(t *testing.T) {
	f := newFixture(t, Config{})
	first := f.door
	t.Cleanup(func() { first.Shutdown(context.Background()) })
	key := newSigner(t)
	f.guestGame("gus", key)
	kay := f.guestTable("kay", nil)
	kay.waitFor("resume ")
	code := resumeCode(t, kay.text())

	f.startDoor() // the second door, on its own port
	back := f.dial("gus", key, "")
	back.waitFor("Your recent games")
	back.waitFor("Nymphabet")
	back.waitFor("playing")
	again := f.dial("kay", nil, "resume "+code)
	again.waitFor("Your recent games")
	again.waitFor("Nymphabet")
	again.waitFor("playing")
}

// resumeCode finds the resume code a keyless session was shown in text
// (spaces removed, lower case).
func resumeCode(t *testing.T, text string) string {
	t.Helper()
	m := regexp.MustCompile(`resume([2-9a-z]{5}-[2-9a-z]{5})`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no resume code shown:\n%s", text)
	}
	return strings.ToUpper(m[1])
}

// TestGuestsFileHandedOver: a data folder whose door kept its guests in
// ssh_guests.json, as doors did before the server kept them, has them
// handed to the server at the next start, and the file, which holds
// tokens, is removed: Gus comes back by his key and Kay by her code, each
// to their table. Entries the server refuses (a token it never issued)
// or long unused are left out.
func TestGuestsFileHandedOver(t *testing.T) {
	f := newFixture(t, Config{})
	if err := f.door.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	guestWithTable := func(name string) string {
		var id struct{ Token string }
		if st := f.do("POST", "/api/v1/identity", "", map[string]string{"name": name}, &id); st != 201 {
			t.Fatalf("guest %s: %d", name, st)
		}
		if st := f.do("POST", "/api/v1/tables", id.Token, map[string]any{"game": "nymphabet", "seats": []string{"me", "computer:easy"}}, nil); st != 201 {
			t.Fatalf("%s's table: %d", name, st)
		}
		return id.Token
	}
	key := newSigner(t)
	now := time.Now().UTC()
	old := []savedGuest{
		{Key: gossh.FingerprintSHA256(key.PublicKey()), Name: "gus", Token: guestWithTable("gus"), Used: now.Add(-time.Hour)},
		{Key: codePrefix + "K7XQM2PA9D", Name: "kay", Token: guestWithTable("kay"), Used: now},
		{Key: "SHA256:forged", Name: "eve", Token: strings.Repeat("A", len(f.signUp("Ann", "correct horse battery"))), Used: now},
		{Key: codePrefix + "MMMMMMMMMM", Name: "old", Token: guestWithTable("old"), Used: now.Add(-GuestTTL - time.Hour)},
	}
	b, err := json.Marshal(map[string]any{"guests": old})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(f.dir, GuestsFile)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}

	f.startDoor()
	for _, tm := range []*term{f.dial("gus", key, ""), f.dial("kay", nil, "resume k7xqm-2pa9d")} {
		tm.waitFor("Your recent games")
		tm.waitFor("Nymphabet")
		tm.waitFor("playing")
	}
	// The door serves once the file is handed over.
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the guests' file after it was handed over: %v", err)
	}
	for _, code := range []string{"MMMMMMMMMM"} {
		tm := f.dial("old", nil, "resume "+code)
		tm.waitFor("No guest has the resume code MMMMM-MMMMM")
	}
}

// TestDamagedGuestsFile: a door whose guests' file cannot be read starts,
// moves the file aside for the operator and says so; its guests come back
// as new guests.
func TestDamagedGuestsFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, GuestsFile), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	d, err := New("127.0.0.1:0", Config{API: "http://127.0.0.1:1", DataDir: dir, Log: slog.New(slog.NewTextHandler(&logged, nil)),
		Guest: func(context.Context, string) (string, string, error) { return "", "", nil },
		Remember: func(context.Context, string, string, string) error {
			t.Error("a guest of a damaged file was handed over")
			return nil
		}})
	if err != nil {
		t.Fatalf("a damaged guests' file stopped the door: %v", err)
	}
	defer d.Shutdown(context.Background())
	d.importGuests()
	if b, err := os.ReadFile(filepath.Join(dir, GuestsFile+".damaged")); err != nil || string(b) != "{not json" {
		t.Errorf("the damaged file was not moved aside whole: %q, %v", b, err)
	}
	if !strings.Contains(logged.String(), "forgotten") || !strings.Contains(logged.String(), ".damaged") {
		t.Errorf("the log does not say so: %q", logged.String())
	}
	if _, err := New("127.0.0.1:0", Config{API: "http://127.0.0.1:1", DataDir: t.TempDir()}); err == nil {
		t.Error("a door with nowhere to keep its guests was made")
	}
	if GuestTTL != players.GuestTTL {
		t.Errorf("the door tells players a guest is kept %v, the server keeps one %v", GuestTTL, players.GuestTTL)
	}
}

// TestRefusedCommands: a command the door does not know, or "join"
// without its code, is answered with a line saying what to type, and
// the session ends with status 2, starting no client.
func TestRefusedCommands(t *testing.T) {
	f := newFixture(t, Config{Burst: 20, PerAddr: 20})
	for _, tc := range []struct{ cmd, want string }{
		{"join", `Say which table to join: "join CODE"`},
		{"play chess", `Parlour knows two commands, "join CODE" and "resume CODE"; "play chess" is neither.`},
		{"resume", `Say which guest to come back as: "resume CODE"`},
		{"resume K7XQ", `"K7XQ" is not a resume code`},
		{"resume 0000011111", `"0000011111" is not a resume code`},
	} {
		tm := f.dial("gus", newSigner(t), tc.cmd)
		tm.waitFor(tc.want)
		var exit *gossh.ExitError
		if err := tm.sess.Wait(); !errors.As(err, &exit) || exit.ExitStatus() != 2 {
			t.Errorf("%q: the session ended with %v, want status 2", tc.cmd, err)
		}
		if strings.Contains(tm.text(), "newtable") {
			t.Errorf("%q: a client started: %s", tc.cmd, tm.text())
		}
	}
}

// TestCtrlCAtThePasswordPrompt: ctrl+c at the password prompt leaves, as
// it does on every screen of the client after it (and at an SSH login's
// own prompt); it does not carry the player on as a guest. ctrl+d, like
// enter alone, plays as a guest.
func TestCtrlCAtThePasswordPrompt(t *testing.T) {
	f := newFixture(t, Config{})
	f.signUp("Ann", "correct horse battery")
	for _, key := range []gossh.Signer{nil, newSigner(t)} {
		tm := f.dial("ann", key, "")
		tm.waitFor("Password to sign in")
		tm.send("secr\x03")
		done := make(chan error, 1)
		go func() { done <- tm.sess.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("ctrl+c at the password prompt did not close the session; the screen:\n%s", tm.text())
		}
		tm.waitFor("Not signed in: the session is closed.")
		if strings.Contains(tm.text(), "newtable") {
			t.Errorf("ctrl+c at the password prompt went on to the home screen:\n%s", tm.text())
		}
	}
	guest := f.dial("ann", nil, "")
	guest.waitFor("Password to sign in")
	guest.send("\x04")
	guest.waitFor("guest (no name yet)")
}

// TestRefusedThriceSaysWhy: a session refused three times at the
// password prompt plays as a guest, and the home screen drawn over the
// prompt's refusals says why, and how to sign in.
func TestRefusedThriceSaysWhy(t *testing.T) {
	f := newFixture(t, Config{})
	f.signUp("Ann", "correct horse battery")
	tm := f.dial("ann", nil, "")
	tm.waitFor("Password to sign in")
	tm.send("one\rtwo\rthree\r")
	tm.waitFor("guest (no name yet)")
	tm.waitFor("Not signed in as ann, three times refused (the last: wrong name or password): you play as a guest; s signs in.")
}

// TestGuestWithoutKeyResumes: a guest who came without a key is shown,
// once seated, the command that brings them back; after a dropped
// connection that command, typed in any case, sits them as the same
// guest (under the name they played as, whatever the login) with the
// table under way listed; a session that ends prints it again. Without
// the code a keyless session is a stranger, and a code nobody holds is
// refused, starting nothing.
func TestGuestWithoutKeyResumes(t *testing.T) {
	f := newFixture(t, Config{Burst: 20, PerAddr: 20})
	tm := f.guestTable("gus", nil)
	tm.waitFor("You came without an SSH key")
	m := regexp.MustCompile(`resume([0-9a-z]{5}-[0-9a-z]{5})bringsyou`).FindStringSubmatch(tm.text())
	if m == nil {
		t.Fatalf("no resume code on the table's screen:\n%s", tm.text())
	}
	code := m[1]
	_, port, _ := net.SplitHostPort(f.sshAddr)
	if !strings.Contains(tm.text(), "ssh-t-p"+port) {
		t.Errorf("the command does not name the door's port %s:\n%s", port, tm.text())
	}
	tm.sess.Close() // the connection drops mid-game

	stranger := f.dial("gus", nil, "")
	stranger.waitFor("Your recent games")
	stranger.waitFor("none yet")

	back := f.dial("someone", nil, "resume "+code)
	back.waitFor("guest gus")
	back.waitFor("Nymphabet")
	back.waitFor("playing")
	back.waitFor("Back to your tables after a dropped connection")
	back.waitFor("resume " + strings.ToUpper(code))
	back.send(strings.Repeat("\x1b[B", 7)) // down past the 4 games and 3 lines to the table
	back.send("\r")
	back.waitFor("▶ your turn")
	back.setMark()
	back.send("\x03")
	back.waitFor("To come back to your tables as this guest")
	back.waitFor("resume " + code)

	for _, wrong := range []string{"22222-33333", "2222233333"} {
		tm := f.dial("gus", nil, "resume "+wrong)
		tm.waitFor("No guest has the resume code 22222-33333")
		var exit *gossh.ExitError
		if err := tm.sess.Wait(); !errors.As(err, &exit) || exit.ExitStatus() != 1 {
			t.Errorf("%s: the session ended with %v, want status 1", wrong, err)
		}
	}
}

// TestResumeCodes: codes drawn are of the door's alphabet and length,
// and differ; a code is read in any case, with its dash or spaces.
func TestResumeCodes(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for range 1000 {
		c := newCode()
		if len(c) != codeLen || strings.Trim(c, codeAlphabet) != "" || seen[c] {
			t.Fatalf("drawn %q (seen before: %v)", c, seen[c])
		}
		seen[c] = true
		if got, err := readCode(strings.ToLower(showCode(c))); err != nil || got != c {
			t.Errorf("readCode(%q) = %q, %v", strings.ToLower(showCode(c)), got, err)
		}
	}
	for _, bad := range []string{"", "K7XQM", "K7XQM2PA9DX", "O7XQM2PA9D", "K7XQM 2PA9!"} {
		if _, err := readCode(bad); err == nil {
			t.Errorf("readCode(%q) read a code", bad)
		}
	}
}

// FuzzReadCode: whatever a player types after "resume", readCode either
// refuses it or reads a code of the door's alphabet and length, which it
// reads again the same when shown.
func FuzzReadCode(f *testing.F) {
	for _, s := range []string{"K7XQM-2PA9D", "k7xqm 2pa9d", "", "resume", "ÄÖÜ-12345", "2222233333"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		code, err := readCode(s)
		if err != nil {
			if code != "" || !strings.Contains(err.Error(), "is not a resume code") {
				t.Fatalf("readCode(%q) = %q, %v", s, code, err)
			}
			return
		}
		if len(code) != codeLen || strings.Trim(code, codeAlphabet) != "" {
			t.Fatalf("readCode(%q) read %q", s, code)
		}
		if again, err := readCode(showCode(code)); err != nil || again != code {
			t.Fatalf("readCode(showCode(%q)) = %q, %v", code, again, err)
		}
	})
}

// TestTimeZoneOverSSH: the player over SSH reads times of day in the zone
// their client sent as TZ; a client that sent none reads them in UTC,
// named so (the lists whose times leave the zone out name it beside their
// titles), and the help says how to send one.
func TestTimeZoneOverSSH(t *testing.T) {
	f := newFixture(t, Config{})
	for _, tc := range []struct {
		env   map[string]string
		want  string
		named bool // the recent games' title names the zone
	}{
		{map[string]string{"TZ": "Asia/Tokyo"}, "Times of day: Asia/Tokyo, as your client's TZ says", false},
		{nil, "Times of day: UTC, named so; in your own zone with ssh -o SetEnv=TZ=Area/City", true},
		{map[string]string{"TZ": "Nowhere/Atall"}, "Times of day: UTC, named so", true},
	} {
		tm := f.dialEnv("gus", nil, "", "xterm-256color", tc.env)
		tm.waitFor("New table")
		if tc.named {
			tm.waitFor("Your recent games · times in UTC")
		} else if tm.waitFor("Your recent games"); strings.Contains(tm.text(), "timesin") {
			t.Errorf("with TZ %s the home screen names a zone:\n%s", tc.env["TZ"], tm.text())
		}
		tm.setMark()
		tm.send("?")
		tm.waitFor(tc.want)
		tm.conn.Close()
	}
}

// TestLookalikeLoginIsNoGuestName: a login that passes for an account's
// name (b0b beside Bob) is no name for a guest, as a reserved one is
// not: the server names the guest, who opens a table at once, rather
// than one shown as b0b and refused at every table.
func TestLookalikeLoginIsNoGuestName(t *testing.T) {
	f := newFixture(t, Config{})
	f.signUp("Bob", "correct horse battery")
	tm := f.dial("b0b", nil, "")
	tm.waitFor("guest (no name yet)")
	if strings.Contains(tm.text(), "b0b") {
		t.Errorf("the guest is shown under the look-alike login:\n%s", tm.text())
	}
}

// TestClosedAccountsKey: the owner of an account a moderator closed, who
// comes with the account's key, is told the account is closed and plays
// as a guest the server names, without being asked for a password that
// could sign nothing in, nor told the key is not the account's.
func TestClosedAccountsKey(t *testing.T) {
	f := newFixture(t, Config{})
	robinTok := f.signUp("Robin", "correct horse battery")
	moeTok := f.signUp("Moe", "correct horse staple")
	key := newSigner(t)
	f.addKey(robinTok, "correct horse battery", key.PublicKey())
	if _, err := moderation.Grant(context.Background(), f.db, "Moe", true, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	if st := f.do("POST", "/api/v1/moderation/close", moeTok, map[string]string{"name": "Robin", "reason": "cheating"}, nil); st != 200 {
		t.Fatalf("closing Robin's account: %d", st)
	}
	tm := f.dial("robin", key, "")
	tm.waitFor("The account this key belongs to was closed by a moderator: you play as a guest.")
	tm.waitFor("guest (no name yet)")
	if s := tm.text(); strings.Contains(s, "Password") || strings.Contains(s, "not among its keys") {
		t.Errorf("the closed account's owner is asked for a password, or told the key is not theirs:\n%s", s)
	}
}
