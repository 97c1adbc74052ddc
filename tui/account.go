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

// addKey adds the public key in the file Config.SSHKey to the account,
// or, without one, opens a line to paste a key into.
func (m *Model) addKey() tea.Cmd {
	b, err := os.ReadFile(m.cfg.SSHKey)
	if m.cfg.SSHKey == "" || err != nil {
		m.scr, m.input, m.err = scrKey, "", ""
		if m.cfg.SSHKey != "" {
			m.note = "no " + m.cfg.SSHKey + ": paste a public key instead"
		}
		return nil
	}
	return m.sendKey(strings.TrimSpace(string(b)))
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
