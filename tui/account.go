package tui

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/tui/client"
)

// account is the sign-in / sign-up form.
type account struct {
	signUp   bool
	name     string
	password string
	onPass   bool // the cursor is on the password
	busy     bool
}

// sessionMsg answers a sign-in, a sign-up or a sign-out.
type sessionMsg struct {
	s   client.Session
	out bool
	err error
}

// sshKeyMsg answers adding the terminal's SSH key.
type sshKeyMsg struct {
	fp  string
	err error
}

func (m *Model) openAccount(signUp bool) {
	m.scr, m.err, m.note = scrAccount, "", ""
	m.acct = account{signUp: signUp}
}

func (m *Model) accountKey(s string, k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	a := &m.acct
	if a.busy {
		m.err = "one moment"
		return m, nil
	}
	switch s {
	case "esc":
		m.scr = scrHome
		return m, nil
	case "tab", "down", "up", "shift+tab":
		a.onPass = !a.onPass
		return m, nil
	case "enter":
		if !a.onPass {
			a.onPass = true
			return m, nil
		}
		name, pw := strings.TrimSpace(a.name), a.password
		if name == "" || pw == "" {
			m.err = "type your name and your password"
			return m, nil
		}
		a.busy, m.err = true, ""
		c, up, guest := *m.c, a.signUp, m.idToken
		return m, func() tea.Msg {
			ctx, cancel := context.WithTimeout(m.ctx, 30*time.Second)
			defer cancel()
			var s client.Session
			var err error
			if up {
				s, err = c.SignUp(ctx, guest, name, pw)
			} else {
				s, err = c.SignIn(ctx, name, pw)
			}
			return sessionMsg{s: s, err: err}
		}
	}
	field := &a.name
	max := 40
	if a.onPass {
		field, max = &a.password, 200
	}
	editLine(field, s, k, max)
	return m, nil
}

// signedIn takes a session's answer.
func (m *Model) signedIn(msg sessionMsg) {
	m.acct.busy = false
	if msg.err != nil {
		m.err = msg.err.Error()
		m.acct.password = ""
		return
	}
	if msg.out {
		m.cfg.Session, m.cfg.Account, m.idToken = "", "", ""
		m.note = "signed out: you play as a guest"
	} else {
		m.cfg.Session, m.cfg.Account, m.idToken = msg.s.Token, msg.s.Name, msg.s.Token
		m.c.Name = msg.s.Name
		m.note = "signed in as " + msg.s.Name
	}
	m.acct = account{}
	m.scr = scrHome
	if m.cfg.OnSession != nil {
		if err := m.cfg.OnSession(m.cfg.Session, m.cfg.Account); err != nil {
			m.err = "the session could not be kept for next time: " + err.Error()
		}
	}
}

func (m *Model) signOut() tea.Cmd {
	tok, c := m.cfg.Session, *m.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(m.ctx, 15*time.Second)
		defer cancel()
		err := c.SignOut(ctx, tok)
		if e, ok := err.(*client.Error); ok && e.Status == 401 {
			err = nil // the session had ended already
		}
		return sessionMsg{out: true, err: err}
	}
}

// keysMsg answers the list of the account's SSH keys.
type keysMsg struct {
	keys []client.Key
	err  error
}

// addKey opens the keys screen: the account's keys, each with when it was
// added and last signed in, and a line to add one, holding the public key
// in the file Config.SSHKey when there is one.
func (m *Model) addKey() tea.Cmd {
	m.scr, m.input, m.err, m.keys = scrKey, "", "", nil
	if b, err := os.ReadFile(m.cfg.SSHKey); m.cfg.SSHKey != "" && err == nil {
		m.input = strings.TrimSpace(string(b))
		m.note = "enter adds " + m.cfg.SSHKey
	} else if m.cfg.SSHKey != "" {
		m.note = "no " + m.cfg.SSHKey + ": paste a public key instead"
	}
	tok, c := m.cfg.Session, *m.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(m.ctx, 15*time.Second)
		defer cancel()
		ks, err := c.Keys(ctx, tok)
		return keysMsg{ks, err}
	}
}

// keysView lists the account's keys for the keys screen.
func (m *Model) keysView() string {
	var b strings.Builder
	switch {
	case m.keys == nil:
		b.WriteString(faint("your keys: asking the server…"))
	case len(m.keys) == 0:
		b.WriteString("Your account has no SSH keys yet.")
	default:
		b.WriteString("Your keys:\n")
		for _, k := range m.keys {
			used := "never used yet"
			if k.Used != nil {
				used = "last signed in " + k.Used.Local().Format("2006-01-02 15:04")
			}
			line := fmt.Sprintf("  %s %s", k.Fingerprint, k.Type)
			if k.Comment != "" {
				line += " (" + k.Comment + ")"
			}
			b.WriteString(wrap(line, m.w) + "\n" + faint(wrap("    added "+k.Added.Local().Format("2006-01-02 15:04")+" · "+used, m.w)) + "\n")
		}
	}
	return b.String()
}

// sendKey adds key, one authorized_keys line, to the account.
func (m *Model) sendKey(key string) tea.Cmd {
	m.err, m.note = "", "adding your SSH key…"
	tok, c := m.cfg.Session, *m.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(m.ctx, 15*time.Second)
		defer cancel()
		fp, err := c.AddKey(ctx, tok, key)
		return sshKeyMsg{fp, err}
	}
}

func (m *Model) accountView() string {
	a := m.acct
	head := "Sign in"
	help := "Your account's name and password; enter signs in (tab: the other field · esc: back)."
	if a.signUp {
		head = "Sign up"
		help = "Choose a name and a password (at least 8 characters); the games you played as a guest here become the account's."
	}
	cur := func(on bool) string {
		if on {
			return "█"
		}
		return ""
	}
	var b strings.Builder
	b.WriteString(title(head) + "\n\n" + wrap(help, m.w) + "\n\n")
	fmt.Fprintf(&b, "  Name      %s%s\n", a.name, cur(!a.onPass))
	fmt.Fprintf(&b, "  Password  %s%s\n\n", strings.Repeat("•", len([]rune(a.password))), cur(a.onPass))
	if a.busy {
		b.WriteString(faint("asking the server…") + "\n")
	}
	b.WriteString(m.message())
	return b.String()
}
