//go:build unix

package sshdoor

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	xterm "github.com/charmbracelet/x/term"
	gossh "golang.org/x/crypto/ssh"

	"parlour/game"
	"parlour/lexicon"
)

// The tests below read the door's screens as a person would: in a real
// terminal. tmux is the terminal; in its pane runs this test binary as an
// SSH client (sshClient, chosen by the environment in TestMain), so the
// tests need no ssh program, only tmux.

// Environment of the test binary run as an SSH client.
const (
	envAddr   = "SSHDOOR_TEST_ADDR"   // the door's address
	envKey    = "SSHDOOR_TEST_KEY"    // the client's private key file
	envUser   = "SSHDOOR_TEST_USER"   // the SSH user name
	envHostFP = "SSHDOOR_TEST_HOSTFP" // the host key's SHA256 fingerprint the client accepts
)

func TestMain(m *testing.M) {
	if addr := os.Getenv(envAddr); addr != "" {
		os.Exit(sshClient(addr))
	}
	os.Exit(m.Run())
}

// sshClient connects to addr with the key in envKey, checks the host key
// against envHostFP as a client's known_hosts would, and runs a session
// with a PTY of the terminal's size on the process's standard input and
// output (put in raw mode by the shell that starts it).
func sshClient(addr string) int {
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "ssh client:", err)
		time.Sleep(time.Minute) // leave the message on the test's screen
		return 1
	}
	pem, err := os.ReadFile(os.Getenv(envKey))
	if err != nil {
		return fail(err)
	}
	signer, err := gossh.ParsePrivateKey(pem)
	if err != nil {
		return fail(err)
	}
	want := os.Getenv(envHostFP)
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User: os.Getenv(envUser),
		Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)},
		HostKeyCallback: func(_ string, _ net.Addr, k gossh.PublicKey) error {
			if got := gossh.FingerprintSHA256(k); got != want {
				return fmt.Errorf("the host key %s is not the server's %s", got, want)
			}
			return nil
		},
		Timeout: 10 * time.Second,
	})
	if err != nil {
		return fail(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		return fail(err)
	}
	term := os.Getenv("TERM")
	if term == "" {
		term = "xterm-256color"
	}
	if err := sess.RequestPty(term, 24, 80, gossh.TerminalModes{}); err != nil {
		return fail(err)
	}
	sess.Stdin, sess.Stdout, sess.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := sess.Shell(); err != nil {
		return fail(err)
	}
	// A resized pane is a resized terminal: tell the door, as ssh does.
	winch := make(chan os.Signal, 1)
	signal.Notify(winch, syscall.SIGWINCH)
	go func() {
		for range winch {
			if w, h, err := xterm.GetSize(os.Stdout.Fd()); err == nil {
				sess.WindowChange(h, w)
			}
		}
	}()
	sess.Wait()
	return 0
}

// pane is a tmux pane of 80 x 24 running an SSH session to the door.
type pane struct {
	t      *testing.T
	socket string
}

// sshPane starts, in tmux, an SSH client signing in as user with the
// private key priv (PEM) to the fixture's door.
func (f *fixture) sshPane(user string, priv []byte) *pane {
	f.t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			f.t.Fatal("tmux is missing: .ci/run installs it (apt-get install -y tmux)")
		}
		f.t.Skip("tmux is not installed")
	}
	bin, err := os.Executable()
	if err != nil {
		f.t.Fatal(err)
	}
	dir := f.t.TempDir()
	key := filepath.Join(dir, "id")
	if err := os.WriteFile(key, priv, 0o600); err != nil {
		f.t.Fatal(err)
	}
	p := &pane{t: f.t, socket: filepath.Join(dir, "tmux.sock")}
	cmd := fmt.Sprintf("stty raw -echo; exec env %s=%s %s=%s %s=%s %s=%s %s",
		envAddr, f.sshAddr, envKey, key, envUser, user, envHostFP, f.door.HostKeyFingerprint(), bin)
	p.run("new-session", "-d", "-s", "door", "-x", "80", "-y", "24", cmd)
	f.t.Cleanup(func() { exec.Command("tmux", "-S", p.socket, "kill-server").Run() })
	return p
}

func (p *pane) run(args ...string) string {
	p.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", p.socket}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen is what the terminal shows.
func (p *pane) screen() string {
	return p.run("capture-pane", "-p", "-t", "door")
}

// waitFor reads the screen until ok holds, and returns it.
func (p *pane) waitFor(what string, ok func(string) bool) string {
	p.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := p.screen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("waited 20 s for %s; the terminal:\n%s", what, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// typeText types s as keys, literally.
func (p *pane) typeText(s string) { p.run("send-keys", "-t", "door", "-l", s) }

// key presses a named key (Enter, Escape, C-u).
func (p *pane) key(k string) { p.run("send-keys", "-t", "door", k) }

func shows(parts ...string) func(string) bool {
	return func(s string) bool {
		for _, p := range parts {
			if !strings.Contains(s, p) {
				return false
			}
		}
		return true
	}
}

// line finds the screen's line matching re.
func line(s string, re *regexp.Regexp) string {
	for _, l := range strings.Split(s, "\n") {
		if re.MatchString(l) {
			return l
		}
	}
	return ""
}

// newKey makes an ed25519 key: its signer and its private key as
// OpenSSH PEM.
func newKey(t *testing.T) (gossh.Signer, []byte) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	return s, pem.EncodeToMemory(block)
}

// nymphState is what the test reads of Ann's seat through the API, to
// check the screen against.
type nymphState struct {
	Version int `json:"version"`
	Seat    int `json:"seat"`
	Table   struct {
		ID     string `json:"id"`
		Status string `json:"status"`
		ToMove []int  `json:"to_move"`
		Seats  []struct {
			Name string `json:"name"`
		} `json:"seats"`
		Result *struct {
			Winners []int `json:"winners"`
			Scores  []int `json:"scores"`
		} `json:"result"`
	} `json:"table"`
	View struct {
		Mode     string `json:"mode"`
		Current  string `json:"current"`
		Left     int    `json:"left"`
		Alphabet []struct {
			Letter  string `json:"letter"`
			Deleted bool   `json:"deleted"`
		} `json:"alphabet"`
		Words []struct {
			By      int    `json:"by"`
			Word    string `json:"word"`
			Deleted string `json:"deleted"`
		} `json:"words"`
		Players []struct {
			Name    string `json:"name"`
			Letters int    `json:"letters"`
			Turns   int    `json:"turns"`
		} `json:"players"`
	} `json:"view"`
}

// capitals writes a word in lower case with the letters it deleted in
// capitals, each at its first place after the one before, as the
// referee lists them.
func capitals(word, deleted string) string {
	del := strings.FieldsFunc(strings.ToUpper(deleted), func(r rune) bool { return r == ',' || r == ' ' })
	w := []rune(strings.ToLower(word))
	k := 0
	for i := range w {
		if k < len(del) && strings.EqualFold(string(w[i]), del[k]) {
			w[i] = []rune(strings.ToUpper(string(w[i])))[0]
			k++
		}
	}
	return string(w)
}

// mismatch says how the screen s differs from Ann's view st, "" when
// it agrees: the header's turn, the alphabet with every deleted letter
// struck and the current one in [ ], the letters and words counted, the
// words listed with their deleted letters in capitals.
func (st *nymphState) mismatch(s string) string {
	lines := strings.Split(s, "\n")
	v := st.View
	turn := "waiting for " + st.Table.Seats[1].Name
	if len(st.Table.ToMove) == 1 && st.Table.ToMove[0] == st.Seat {
		turn = "▶ your turn"
	}
	if want := "Nymphabet · " + st.Table.ID + " · you: Ann · " + turn; !strings.HasPrefix(lines[0], want) {
		return fmt.Sprintf("the header is %q, not %q", lines[0], want)
	}
	var alpha []string
	for _, l := range v.Alphabet {
		switch {
		case l.Deleted:
			alpha = append(alpha, strings.ToLower(l.Letter)+"\u0336")
		case l.Letter == v.Current:
			alpha = append(alpha, "["+l.Letter+"]")
		default:
			alpha = append(alpha, l.Letter)
		}
	}
	if want := "  " + strings.Join(alpha, " "); strings.TrimRight(lines[2], " ") != want {
		return fmt.Sprintf("the alphabet is\n%q, not\n%q", lines[2], want)
	}
	if want := fmt.Sprintf("  current letter %s · %s left · mode %s", v.Current, game.Count(v.Left, "letter", "letters"), v.Mode); strings.TrimRight(lines[4], " ") != want {
		return fmt.Sprintf("the current letter's line is %q, not %q", lines[4], want)
	}
	var ps []string
	for _, p := range v.Players {
		ps = append(ps, fmt.Sprintf("%s: %s in %s", p.Name, game.Count(p.Letters, "letter", "letters"), game.Count(p.Turns, "word", "words")))
	}
	if want := "  " + strings.Join(ps, " · "); strings.TrimRight(lines[5], " ") != want {
		return fmt.Sprintf("the players' line is %q, not %q", lines[5], want)
	}
	// The screen has room for 24 - 12 lines of words: one a line while
	// they fit, then in columns, down and across, every one in sight.
	const room = 12
	if len(v.Words) <= room {
		for i, w := range v.Words {
			want := fmt.Sprintf("  %-20s %s", v.Players[w.By].Name+":", capitals(w.Word, w.Deleted))
			if got := strings.TrimRight(lines[7+i], " "); got != want {
				return fmt.Sprintf("word %d is listed as %q, not %q", i, got, want)
			}
		}
		return ""
	}
	var listed []string
	cols := 0
	for r, l := range lines[7 : 7+room] {
		items := regexp.MustCompile(`\s{3,}`).Split(strings.TrimSpace(l), -1)
		if r == 0 {
			cols = len(items)
		}
		for _, item := range items {
			if item != "" {
				listed = append(listed, item)
			}
		}
	}
	// The latest words, as many as the columns hold, down each column
	// and then across.
	shown := v.Words[max(0, len(v.Words)-len(listed)):]
	rows := (len(listed) + cols - 1) / cols
	if cols < 2 || rows > room || len(shown) < room {
		return fmt.Sprintf("%d words are not in columns: %q", len(v.Words), listed)
	}
	var want []string // read across each line, as listed is
	for r := range rows {
		for c := range cols {
			if i := c*rows + r; i < len(shown) {
				w := shown[i]
				want = append(want, v.Players[w.By].Name+": "+capitals(w.Word, w.Deleted))
			}
		}
	}
	if !slices.Equal(listed, want) {
		return fmt.Sprintf("the words are listed as\n%q, not\n%q", listed, want)
	}
	return ""
}

// TestNymphabetGameOverSSH plays a whole Nymphabet game against the
// computer in a real terminal (tmux) through an SSH session signed in by
// the key Ann's account added, typing as a person would. After every move
// the screen is read and compared with Ann's view from the API: whose
// turn, the alphabet with the deleted letters struck, the letters and
// words counted, every word listed with its deleted letters in capitals;
// at the end, why it ended, who won and the scores.
func TestNymphabetGameOverSSH(t *testing.T) {
	f := newFixture(t, Config{})
	tok := f.signUp("Ann", "correct horse battery")
	signer, priv := newKey(t)
	f.addKey(tok, "correct horse battery", signer.PublicKey())
	p := f.sshPane("whoever", priv)
	p.waitFor("the home screen, signed in", shows("signed in as Ann", "Nymphabet"))
	p.typeText("1")
	p.waitFor("the new-table form", shows("Nymphabet  ·  new table", "the computer, easy"))
	p.key("Enter")
	p.waitFor("the first turn", shows("▶ your turn", "[A]"))

	var mine struct {
		Tables []struct {
			ID string `json:"id"`
		} `json:"tables"`
	}
	f.do("GET", "/api/v1/identity/tables", tok, nil, &mine)
	if len(mine.Tables) != 1 {
		t.Fatalf("Ann's tables: %+v", mine)
	}
	id := mine.Tables[0].ID

	// state waits until the screen agrees with Ann's view at a point where
	// the table waits for her or is over, and returns both.
	state := func(after int) (*nymphState, string) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		why := ""
		for {
			var st nymphState
			f.do("GET", "/api/v1/tables/"+id, tok, nil, &st)
			settled := st.Version > after && (st.Table.Status == "finished" || len(st.Table.ToMove) == 1 && st.Table.ToMove[0] == st.Seat)
			s := p.screen()
			if settled {
				if st.Table.Status == "finished" {
					if strings.Contains(s, "Game over") {
						return &st, s
					}
					why = "no Game over on the screen"
				} else if why = st.mismatch(s); why == "" {
					return &st, s
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("the screen never agreed with the view (version %d, %s): %s; the terminal:\n%s", st.Version, st.Table.Status, why, s)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}

	byLetter := map[byte][]string{}
	for n := 4; n <= 9; n++ {
		for _, w := range lexicon.Default().OfLength(n) {
			byLetter[w[0]] = append(byLetter[w[0]], w)
		}
	}
	st, s := state(0)
	if st.Seat != 0 || st.View.Current != "A" {
		t.Fatalf("the first state: seat %d, current %q", st.Seat, st.View.Current)
	}
	moves := 0
	for st.Table.Status != "finished" {
		if moves++; moves > 60 {
			t.Fatalf("no end after 60 words:\n%s", s)
		}
		list := byLetter[strings.ToLower(st.View.Current)[0]]
		w := list[(moves*7919)%len(list)]
		p.typeText(w)
		p.waitFor("the typed word", shows("A word starting with "+st.View.Current+": "+w+"█"))
		p.key("Enter")
		before := st.Version
		st, s = state(before)
		if strings.Contains(s, "! ") {
			t.Fatalf("the referee refused %q:\n%s", w, s)
		}
		// Ann's word is the one the view lists after her turn.
		var last string
		for _, x := range st.View.Words {
			if x.By == 0 {
				last = x.Word
			}
		}
		if !strings.EqualFold(last, w) {
			t.Fatalf("Ann played %q; her last word in the view is %q", w, last)
		}
	}
	res := st.Table.Result
	if res == nil || len(res.Scores) != 2 {
		t.Fatalf("the finished table has no result: %+v", st.Table)
	}
	if want := fmt.Sprintf("letters deleted: Ann %d · Computer (easy) %d", res.Scores[0], res.Scores[1]); !strings.Contains(s, want) {
		t.Errorf("the end does not show %q:\n%s", want, s)
	}
	won := "a draw"
	switch {
	case len(res.Winners) == 1 && res.Winners[0] == 0:
		won = "★ you won (Ann)"
	case len(res.Winners) == 1:
		won = "Computer (easy) won"
	}
	if !strings.Contains(s, won) {
		t.Errorf("the end does not say %q:\n%s", won, s)
	}
	if l := line(s, regexp.MustCompile(`^Game over: .*(deleted Z|deleted the last letter|deleted the last letters|resigned)`)); l == "" {
		t.Errorf("the end does not say why:\n%s", s)
	}
	if !strings.Contains(strings.SplitN(s, "\n", 2)[0], "game over") {
		t.Errorf("the header does not say the game is over:\n%s", s)
	}
	t.Logf("%d words by Ann; %s", moves, line(s, regexp.MustCompile(`scores:`)))
}

// TestResizeAtThePasswordPrompt: a terminal resized while the door asks
// for the password is drawn at its new size once the player is in, not
// at the size it had when it connected.
func TestResizeAtThePasswordPrompt(t *testing.T) {
	f := newFixture(t, Config{})
	f.signUp("Ann", "correct horse battery")
	_, priv := newKey(t)
	p := f.sshPane("ann", priv)
	p.waitFor("the password prompt", shows("Password to sign in and add the key"))
	p.run("resize-window", "-t", "door", "-x", "100", "-y", "30")
	p.typeText("correct horse battery")
	p.key("Enter")
	p.waitFor("the home screen drawn 100 columns wide", func(s string) bool {
		// At 80 columns the keys' line breaks before "i join", at 100
		// after "l lobby".
		return strings.Contains(s, "signed in as Ann") && strings.Contains(s, "d daily · i join · l lobby ·\n")
	})
}
