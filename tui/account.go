package tui

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/account"
	"parlour/tui/client"
)

// accountScreen is the sign-in / sign-up form.
type accountScreen struct {
	*shared
	signUp   bool
	name     string
	password string
	onPass   bool // the cursor is on the password
	busy     bool
	// resets says the server mails password reset links (ctrl+f), once
	// it has said so.
	resets bool
}

// resetOfferMsg answers whether the server mails password reset links.
type resetOfferMsg struct{ on bool }

// resetAskedMsg answers the ask for a password reset link.
type resetAskedMsg struct {
	said string
	err  error
}

// sessionMsg answers a sign-in, a sign-up or a sign-out.
type sessionMsg struct {
	s   client.Session
	out bool
	// deleted says the account was deleted: the client plays as a guest
	// from now on.
	deleted bool
	err     error
}

// sshKeyMsg answers adding the terminal's SSH key.
type sshKeyMsg struct {
	fp string
	// confirmed says the key signs in now: the SSH door's own, proved;
	// one pasted waits for its holder to confirm it at the door.
	confirmed bool
	err       error
}

// openAccount shows the form to sign in, or to sign up; signing in, it
// asks whether the server mails password reset links.
func openAccount(sh *shared, signUp bool) tea.Cmd {
	sh.err, sh.note = "", ""
	sh.nav.show(&accountScreen{shared: sh, signUp: signUp})
	if signUp {
		return nil
	}
	c := *sh.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(sh.ctx, 15*time.Second)
		defer cancel()
		on, err := c.ResetOffered(ctx)
		return resetOfferMsg{on && err == nil}
	}
}

func (a *accountScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case sessionMsg:
		a.busy = false
		if msg.err != nil {
			a.password = ""
		}
		return nil
	case resetOfferMsg:
		a.resets = msg.on
		return nil
	case resetAskedMsg:
		a.busy = false
		if msg.err != nil {
			a.err, a.note = msg.err.Error(), ""
			return nil
		}
		said := msg.said
		if said != "" {
			said = strings.ToUpper(said[:1]) + said[1:]
		}
		a.err, a.note = "", said+". Open it in a browser, then sign in here with the new password."
		return nil
	case tea.KeyPressMsg:
		return a.key(msg.String(), msg)
	}
	return nil
}

func (a *accountScreen) key(s string, k tea.KeyPressMsg) tea.Cmd {
	if a.busy {
		a.err = "one moment"
		return nil
	}
	switch s {
	case "esc":
		a.nav.goHome()
		return nil
	case "tab", "down", "up", "shift+tab":
		a.onPass = !a.onPass
		return nil
	case "ctrl+f":
		if a.signUp || !a.resets {
			return nil
		}
		return a.askReset()
	case "enter":
		if !a.onPass {
			a.onPass = true
			return nil
		}
		name, pw := strings.TrimSpace(a.name), a.password
		if name == "" || pw == "" {
			a.err = "type your name and your password"
			return nil
		}
		a.busy, a.err = true, ""
		c, up, guest := *a.c, a.signUp, a.idToken
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(a.ctx, 30*time.Second)
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
		field, max = &a.password, account.MaxPasswordBytes
	}
	editLine(field, s, k, max)
	return nil
}

// askReset asks for a link to choose a new password for the account
// named in the form, mailed to its confirmed address.
func (a *accountScreen) askReset() tea.Cmd {
	name := strings.TrimSpace(a.name)
	if name == "" {
		a.err, a.note = "type the account's name first: the link goes to its e-mail address", ""
		return nil
	}
	a.busy, a.err, a.note = true, "", ""
	c := *a.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(a.ctx, 30*time.Second)
		defer cancel()
		said, err := c.AskReset(ctx, name)
		return resetAskedMsg{said: said, err: err}
	}
}

// signedIn takes a session's answer.
func (m *Model) signedIn(msg sessionMsg) {
	if msg.err != nil {
		m.err = msg.err.Error()
		return
	}
	m.err = ""
	if msg.out {
		m.cfg.Session, m.cfg.Account, m.idToken = "", "", ""
		// The account's name is no guest's to take: the server names
		// the guest, and n chooses another.
		m.c.Name = ""
		m.note = "signed out: you play as a guest"
		if msg.deleted {
			m.note = "your account is deleted: you play as a guest"
		}
	} else {
		m.cfg.Session, m.cfg.Account, m.idToken = msg.s.Token, msg.s.Name, msg.s.Token
		m.c.Name = msg.s.Name
		m.note = "signed in as " + msg.s.Name
	}
	m.goHome()
	if m.cfg.OnSession != nil {
		if err := m.cfg.OnSession(m.cfg.Session, m.cfg.Account); err != nil {
			m.err = "the session could not be kept for next time: " + err.Error()
		}
	}
}

// proveKey adds the key an SSH player came with to the account just
// signed in to, confirmed (Config.ProveKey).
func (sh *shared) proveKey(prove func(ctx context.Context, token string) (string, error)) tea.Cmd {
	tok := sh.cfg.Session
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(sh.ctx, 15*time.Second)
		defer cancel()
		fp, err := prove(ctx, tok)
		return sshKeyMsg{fp: fp, confirmed: true, err: err}
	}
}

// addKey adds key, one authorized_keys line pasted on the keys screen,
// to the signed-in account whose password is password.
func (sh *shared) addKey(key, password string) tea.Cmd {
	tok, c := sh.cfg.Session, *sh.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(sh.ctx, 15*time.Second)
		defer cancel()
		k, err := c.AddKey(ctx, tok, key, password)
		return sshKeyMsg{fp: k.Fingerprint, confirmed: k.Confirmed, err: err}
	}
}

// signOut ends the account's session.
func (hm *homeScreen) signOut() tea.Cmd {
	tok, c := hm.cfg.Session, *hm.c
	// The stream's last word, that the session ended, is this sign-out's
	// own: no news to act on.
	hm.unfollow()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(hm.ctx, 15*time.Second)
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

// keysScreen lists the account's SSH keys, each with when it was added
// and last signed in, under a line to add one.
type keysScreen struct {
	*shared
	keys  []client.Key // nil: asked
	input string
	// asking says enter was pressed on a key: the screen asks for the
	// account's password, typed into password, which adding a key needs.
	asking   bool
	password string
	at       int // the key chosen, for ctrl+d
	// sure is the fingerprint ctrl+d was pressed on once: a second press
	// removes it.
	sure string
	// back is the screen esc goes back to (the account's), when not home.
	back screen
}

// openKeys shows the keys screen, its line holding the public key in the
// file Config.SSHKey when there is one, and asks for the account's keys.
func openKeys(sh *shared) tea.Cmd { return openKeysFrom(sh, nil) }

// openKeysFrom is openKeys from screen back, where esc goes back to (nil:
// home).
func openKeysFrom(sh *shared, back screen) tea.Cmd {
	ks := &keysScreen{shared: sh, back: back}
	sh.err, sh.note = "", ""
	sh.nav.show(ks)
	if b, err := os.ReadFile(sh.cfg.SSHKey); sh.cfg.SSHKey != "" && err == nil {
		ks.input = strings.TrimSpace(string(b))
		sh.note = "enter adds " + sh.cfg.SSHKey
	} else if sh.cfg.SSHKey != "" {
		sh.note = "no " + sh.cfg.SSHKey + ": paste a public key instead"
	}
	return ks.fetch
}

// fetch asks for the account's keys.
func (ks *keysScreen) fetch() tea.Msg {
	ctx, cancel := context.WithTimeout(ks.ctx, 15*time.Second)
	defer cancel()
	keys, err := ks.c.Keys(ctx, ks.cfg.Session)
	return keysMsg{keys, err}
}

// keyRemovedMsg answers the removal of the key of fingerprint fp.
type keyRemovedMsg struct {
	fp  string
	err error
}

func (ks *keysScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case keysMsg:
		if msg.err != nil {
			ks.err = "your keys: " + msg.err.Error()
			ks.keys = []client.Key{}
		} else {
			ks.keys = append([]client.Key{}, msg.keys...)
		}
		ks.at = max(0, min(ks.at, len(ks.keys)-1))
	case sshKeyMsg:
		// Model said how it went. Added, the key joins the list; refused
		// for the password (or too many tries), the password is asked
		// again; refused for the key, its line stays to be mended.
		ks.password = ""
		if msg.err == nil {
			ks.input, ks.asking = "", false
			return ks.fetch
		}
		if e, ok := msg.err.(*client.Error); !ok || e.Status != 403 && e.Status != 429 {
			ks.asking = false
		}
	case keyRemovedMsg:
		if msg.err != nil {
			ks.err, ks.note = "the key was not removed: "+msg.err.Error(), ""
			return nil
		}
		ks.err, ks.note = "", "your SSH key "+msg.fp+" is removed: it signs in no more"
		return ks.fetch
	case tea.KeyPressMsg:
		s := msg.String()
		if s != "ctrl+d" {
			ks.sure = ""
		}
		if ks.asking {
			switch s {
			case "esc":
				ks.asking, ks.password, ks.err, ks.note = false, "", "", ""
			case "enter":
				if ks.password == "" {
					ks.err = "type your password: a key signs in as you without one"
					return nil
				}
				return ks.sendKey(strings.TrimSpace(ks.input), ks.password)
			default:
				editLine(&ks.password, s, msg, 200)
			}
			return nil
		}
		switch s {
		case "esc":
			if ks.back != nil {
				ks.nav.show(ks.back)
				if ya, ok := ks.back.(*yourAccount); ok {
					return ya.read // the count of keys may have changed
				}
				return nil
			}
			ks.nav.goHome()
		case "up":
			if len(ks.keys) > 0 {
				ks.at = (ks.at + len(ks.keys) - 1) % len(ks.keys)
			}
		case "down":
			if len(ks.keys) > 0 {
				ks.at = (ks.at + 1) % len(ks.keys)
			}
		case "ctrl+d":
			return ks.remove()
		case "enter":
			line := strings.TrimSpace(ks.input)
			if line == "" {
				ks.err = "paste a public key first"
				return nil
			}
			if strings.Contains(line, "PRIVATE KEY") {
				// Refused here, not by the server: a private key is
				// sent nowhere, and taken off the screen.
				ks.input, ks.note = "", ""
				ks.err = "that is your private key: it is not sent, and you should not show it anywhere; paste the public one (the .pub file)"
				return nil
			}
			ks.asking, ks.err, ks.note = true, "", ""
			return nil
		default:
			editLine(&ks.input, s, msg, 4096)
		}
	}
	return nil
}

// remove removes the chosen key, at the second ctrl+d on it.
func (ks *keysScreen) remove() tea.Cmd {
	if ks.at >= len(ks.keys) {
		ks.err = "no key to remove"
		return nil
	}
	k := ks.keys[ks.at]
	if ks.sure != k.Fingerprint {
		ks.sure = k.Fingerprint
		ks.err, ks.note = "", "ctrl+d again removes "+k.Fingerprint+": it will sign in no more"
		return nil
	}
	ks.sure, ks.err, ks.note = "", "", "removing the key…"
	tok, c := ks.cfg.Session, *ks.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ks.ctx, 15*time.Second)
		defer cancel()
		return keyRemovedMsg{k.Fingerprint, c.DeleteKey(ctx, tok, k.Fingerprint)}
	}
}

func (ks *keysScreen) view() string {
	keys := "enter add it · esc back"
	if len(ks.keys) > 0 {
		keys = "↑↓ choose a key · ctrl+d remove it (twice) · enter add the pasted key · esc back"
	}
	line := "> " + tailOf(ks.input, ks.w-3) + "█\n"
	if ks.asking {
		keys = "enter add the key · esc back to the key"
		line = "> " + tailOf(ks.input, ks.w-3) + "\n" + wrap("Your password, to add the key (it signs in as you without one):", ks.w) +
			"\n  " + dots(ks.password, ks.w-3) + "█\n"
	}
	return title("SSH keys") + "\n\n" + ks.list() + "\n" + wrap("Add an SSH key: paste your public key (one line, \"ssh-ed25519 AAAA… you@host\", the .pub file), then enter.", ks.w) +
		"\n\n" + line + "\n" + ks.message() + "\n" + faint(wrapKeys(keys, ks.w))
}

// list lists the account's keys, the chosen one marked.
func (ks *keysScreen) list() string {
	var b strings.Builder
	switch {
	case ks.keys == nil:
		b.WriteString(faint("your keys: asking the server…"))
	case len(ks.keys) == 0:
		b.WriteString("Your account has no SSH keys yet.")
	default:
		b.WriteString("Your keys:\n")
		for i, k := range ks.keys {
			used := "never used yet"
			if k.Used != nil {
				used = "last signed in " + ks.when(*k.Used, "2006-01-02 15:04")
			}
			mark := "  "
			if i == ks.at {
				mark = hi("> ")
			}
			line := fmt.Sprintf("%s%s %s", mark, k.Fingerprint, k.Type)
			if k.Comment != "" {
				line += " (" + k.Comment + ")"
			}
			about := "added " + ks.when(k.Added, "2006-01-02 15:04") + " · " + used
			if !k.Confirmed {
				about = "added " + ks.when(k.Added, "2006-01-02 15:04") + " · not confirmed: it signs in once you ssh here with it and type your password"
			}
			b.WriteString(wrap(line, ks.w) + "\n" + "    " + faint(wrap(about, ks.w-4)) + "\n")
		}
	}
	return b.String()
}

// sendKey adds key, one authorized_keys line, to the account whose
// password is password.
func (ks *keysScreen) sendKey(key, password string) tea.Cmd {
	ks.err, ks.note = "", "adding your SSH key…"
	return ks.addKey(key, password)
}

func (a *accountScreen) view() string {
	head, keys := "Sign in", "tab the other field · enter the password, then sign in · esc back"
	if a.resets {
		keys = "tab the other field · enter the password, then sign in · ctrl+f forgot it: mail a link · esc back"
	}
	help := "Your account's name and password."
	if a.signUp {
		head, keys = "Sign up", "tab the other field · enter the password, then sign up · esc back"
		help = "Choose a name and a password (at least 8 characters, not a common one, without your name in it); the games you played as a guest here become the account's."
	}
	cur := func(on bool) string {
		if on {
			return "█"
		}
		return ""
	}
	var b strings.Builder
	b.WriteString(title(head) + "\n\n" + wrap(help, a.w) + "\n\n")
	fmt.Fprintf(&b, "  Name      %s%s\n", a.name, cur(!a.onPass))
	fmt.Fprintf(&b, "  Password  %s%s\n\n", dots(a.password, a.w-13), cur(a.onPass))
	if a.busy {
		b.WriteString(faint("asking the server…") + "\n")
	}
	b.WriteString(a.message() + "\n")
	b.WriteString(faint(wrapKeys(keys, a.w)))
	return b.String()
}
