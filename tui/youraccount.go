package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/account"
	"parlour/game"
	"parlour/tui/client"
)

// yourAccount is a signed-in player's account, as the browser's account
// page has it: the password, whether the name shows among the players
// online, the e-mail the server may send, the SSH keys, the account's
// deletion, and for a moderator the moderators' screen. The password,
// e-mail and deletion each open a small form in place of the list.
type yourAccount struct {
	*shared
	at   int    // the item chosen
	form string // the form open: "" (the list), "password", "email" or "delete"
	// field is the open form's field chosen.
	field int
	// current and next are the passwords typed: the current one (the
	// password, e-mail and deletion forms) and the new one.
	current, next string
	// sure says enter was pressed once on the deletion form.
	sure bool
	// addr and kinds are the e-mail form's address and the kinds of
	// mail asked for (accountKinds' order).
	addr  string
	kinds [3]bool
	busy  bool
	// settings, email and keys are what the server answered; nil (keys:
	// -1) until it has.
	settings *client.Settings
	email    *client.Email
	keys     int
	// moderator says the account holds the moderator role: the list
	// then offers the moderators' screen.
	moderator bool
}

// items are the account screen's items, in order.
func (ya *yourAccount) items() []string {
	items := []string{"Password", "Players online", "Guests' chat", "E-mail", "SSH keys", "Other sessions", "Delete the account"}
	if ya.moderator {
		items = append(items, "Moderation")
	}
	return items
}

// accountKinds are what the e-mail form calls the kinds of mail, in the
// order of yourAccount.kinds.
func accountKinds() []string {
	return []string{"When it is my move and I am away", "When a game of mine ends", "When someone challenges me"}
}

// accountMsg answers the account's settings, e-mail and keys, read or
// changed; err says what went wrong, in the server's words.
type accountMsg struct {
	settings *client.Settings
	email    *client.Email
	keys     int // -1: not read
	// moderator is the account's role, when read.
	moderator *bool
	// done says a change was made: its form closes.
	done bool
	note string
	err  error
}

// openYourAccount shows the account screen and reads what it lists.
func openYourAccount(sh *shared) tea.Cmd {
	ya := &yourAccount{shared: sh, keys: -1}
	sh.err, sh.note = "", ""
	sh.nav.show(ya)
	return ya.read
}

// read asks the server for the account's settings, e-mail and keys.
func (ya *yourAccount) read() tea.Msg {
	ctx, cancel := context.WithTimeout(ya.ctx, 15*time.Second)
	defer cancel()
	tok := ya.cfg.Session
	st, err := ya.c.Settings(ctx, tok)
	if err != nil {
		return accountMsg{keys: -1, err: fmt.Errorf("your settings: %w", err)}
	}
	em, err := ya.c.Email(ctx, tok)
	if err != nil {
		return accountMsg{settings: &st, keys: -1, err: fmt.Errorf("your e-mail: %w", err)}
	}
	ks, err := ya.c.Keys(ctx, tok)
	if err != nil {
		return accountMsg{settings: &st, email: &em, keys: -1, err: fmt.Errorf("your SSH keys: %w", err)}
	}
	me, err := ya.c.Me(ctx, tok)
	if err != nil {
		return accountMsg{settings: &st, email: &em, keys: len(ks), err: fmt.Errorf("your account: %w", err)}
	}
	return accountMsg{settings: &st, email: &em, keys: len(ks), moderator: &me.Moderator}
}

func (ya *yourAccount) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case accountMsg:
		ya.busy = false
		if msg.settings != nil {
			ya.settings = msg.settings
		}
		if msg.email != nil {
			ya.email = msg.email
		}
		if msg.keys >= 0 {
			ya.keys = msg.keys
		}
		if msg.moderator != nil {
			ya.moderator = *msg.moderator
			ya.at = min(ya.at, len(ya.items())-1)
		}
		if msg.err != nil {
			// The form stays to be mended; a deletion refused is asked
			// for twice again.
			ya.err, ya.note, ya.sure = msg.err.Error(), "", false
			return nil
		}
		if !msg.done {
			return nil // the account read again: a form open stays as it is
		}
		ya.err, ya.note = "", msg.note
		ya.form, ya.current, ya.next, ya.sure = "", "", "", false
	case sessionMsg:
		ya.busy = false // the deletion's answer; Model.signedIn takes it
	case tea.KeyPressMsg:
		return ya.key(msg.String(), msg)
	}
	return nil
}

func (ya *yourAccount) key(s string, k tea.KeyPressMsg) tea.Cmd {
	if ya.busy {
		ya.err = "one moment: the server has not answered yet"
		return nil
	}
	switch ya.form {
	case "password":
		return ya.passwordKey(s, k)
	case "email":
		return ya.emailKey(s, k)
	case "delete":
		return ya.deleteKey(s, k)
	}
	n := len(ya.items())
	switch s {
	case "esc", "q":
		ya.nav.goHome()
	case "up", "k":
		ya.at = (ya.at + n - 1) % n
	case "down", "j", "tab":
		ya.at = (ya.at + 1) % n
	case "r":
		return ya.read
	case "enter", "space":
		ya.err, ya.note = "", ""
		switch ya.items()[ya.at] {
		case "Password":
			ya.form, ya.field = "password", 0
		case "Other sessions":
			return ya.change("signing out everywhere else…", func(ctx context.Context, c client.Client, tok string) (accountMsg, error) {
				n, err := c.EndOtherSessions(ctx, tok)
				if n == 0 {
					return accountMsg{note: "no other session was signed in"}, err
				}
				return accountMsg{note: "signed out of " + game.Count(n, "other session", "other sessions")}, err
			})
		case "Players online":
			if ya.settings == nil {
				ya.err = "your settings are not read yet (r asks again)"
				return nil
			}
			return ya.setHidden(!ya.settings.Hidden)
		case "Guests' chat":
			if ya.settings == nil {
				ya.err = "your settings are not read yet (r asks again)"
				return nil
			}
			return ya.setGuestChat(!ya.settings.GuestChat)
		case "E-mail":
			return ya.openEmail()
		case "SSH keys":
			return openKeysFrom(ya.shared, ya)
		case "Delete the account":
			ya.form, ya.sure = "delete", false
		case "Moderation":
			return openModeration(ya.shared, ya)
		}
	}
	return nil
}

// change sends one change to the server: do makes it, and answers the
// settings or e-mail it changed (nil when none) and the news to show.
func (ya *yourAccount) change(doing string, do func(ctx context.Context, c client.Client, tok string) (accountMsg, error)) tea.Cmd {
	ya.busy, ya.err, ya.note = true, "", doing
	tok, c := ya.cfg.Session, *ya.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ya.ctx, 30*time.Second)
		defer cancel()
		m, err := do(ctx, c, tok)
		m.keys, m.done, m.err = -1, err == nil, err
		return m
	}
}

// setHidden hides the account's name from the players online, or shows
// it again.
func (ya *yourAccount) setHidden(hidden bool) tea.Cmd {
	return ya.change("asking the server…", func(ctx context.Context, c client.Client, tok string) (accountMsg, error) {
		st, err := c.SetHidden(ctx, tok, hidden)
		if err != nil {
			return accountMsg{}, err
		}
		note := "your name shows among the players online again"
		if st.Hidden {
			note = "your name no longer shows among the players online (you still count among them)"
		}
		return accountMsg{settings: &st, note: note}, nil
	})
}

// setGuestChat lets guests write in the chat of the account's tables, or
// keeps that chat to players with accounts.
func (ya *yourAccount) setGuestChat(allowed bool) tea.Cmd {
	return ya.change("asking the server…", func(ctx context.Context, c client.Client, tok string) (accountMsg, error) {
		st, err := c.SetGuestChat(ctx, tok, allowed)
		if err != nil {
			return accountMsg{}, err
		}
		note := "guests may write in the chat of your tables again"
		if !st.GuestChat {
			note = "only players with accounts may write in the chat of your tables now"
		}
		return accountMsg{settings: &st, note: note}, nil
	})
}

// passwordKey edits the password form: the current password, the new
// one; enter on the new one sends them.
func (ya *yourAccount) passwordKey(s string, k tea.KeyPressMsg) tea.Cmd {
	switch s {
	case "esc":
		ya.form, ya.current, ya.next, ya.err = "", "", "", ""
		return nil
	case "tab", "down", "up", "shift+tab":
		ya.field = 1 - ya.field
		return nil
	case "enter":
		if ya.field == 0 {
			ya.field = 1
			return nil
		}
		if ya.current == "" || ya.next == "" {
			ya.err = "type your current password and the new one"
			return nil
		}
		current, next := ya.current, ya.next
		return ya.change("changing your password…", func(ctx context.Context, c client.Client, tok string) (accountMsg, error) {
			if err := c.ChangePassword(ctx, tok, current, next); err != nil {
				return accountMsg{}, err
			}
			return accountMsg{note: "your password is changed: your other devices and terminals are signed out"}, nil
		})
	}
	field := &ya.current
	if ya.field == 1 {
		field = &ya.next
	}
	editLine(field, s, k, account.MaxPasswordBytes)
	return nil
}

// openEmail opens the e-mail form, with the address and kinds the
// account has (all kinds, for a first address), when the server sends
// mail.
func (ya *yourAccount) openEmail() tea.Cmd {
	e := ya.email
	switch {
	case e == nil:
		ya.err = "your e-mail settings are not read yet (r asks again)"
		return nil
	case !e.Offered && e.Address != "":
		ya.form, ya.field = "email", 0 // only to remove it
	case !e.Offered:
		ya.note = "this server sends no e-mail: its operator has set up no mail server"
		return nil
	default:
		ya.form, ya.field = "email", 0
	}
	ya.addr = e.Address
	ya.kinds = [3]bool{true, true, true}
	if e.Address != "" {
		ya.kinds = [3]bool{e.YourMove, e.GameEnd, e.Challenge}
	}
	return nil
}

// emailKey edits the e-mail form: the address, then the kinds, each
// turned on or off with space, then the password, which a new address
// needs; enter saves, ctrl+d removes the address.
func (ya *yourAccount) emailKey(s string, k tea.KeyPressMsg) tea.Cmd {
	offered := ya.email != nil && ya.email.Offered
	switch s {
	case "esc":
		ya.form, ya.current, ya.err = "", "", ""
		return nil
	case "ctrl+d":
		if ya.email == nil || ya.email.Address == "" {
			ya.err = "you have given no address to remove"
			return nil
		}
		return ya.change("removing your address…", func(ctx context.Context, c client.Client, tok string) (accountMsg, error) {
			if err := c.RemoveEmail(ctx, tok); err != nil {
				return accountMsg{}, err
			}
			em, err := c.Email(ctx, tok)
			if err != nil {
				return accountMsg{}, fmt.Errorf("the address is removed, but reading your e-mail settings again: %w", err)
			}
			return accountMsg{email: &em, note: "your address is removed: Parlour keeps none and mails you nothing"}, nil
		})
	}
	if !offered {
		ya.err = "this server sends no e-mail: ctrl+d removes the address it keeps, esc goes back"
		return nil
	}
	switch s {
	case "up", "shift+tab":
		ya.field = (ya.field + len(accountKinds()) + 1) % (len(accountKinds()) + 2)
		return nil
	case "down", "tab":
		ya.field = (ya.field + 1) % (len(accountKinds()) + 2)
		return nil
	case "space":
		if ya.field > 0 && ya.field <= len(accountKinds()) {
			ya.kinds[ya.field-1] = !ya.kinds[ya.field-1]
			return nil
		}
	case "enter":
		addr := strings.TrimSpace(ya.addr)
		if addr == "" {
			ya.err = "type your address first (ctrl+d removes the one you gave)"
			return nil
		}
		want := client.Email{Address: addr, YourMove: ya.kinds[0], GameEnd: ya.kinds[1], Challenge: ya.kinds[2]}
		was, pw := *ya.email, ya.current
		return ya.change("saving your e-mail settings…", func(ctx context.Context, c client.Client, tok string) (accountMsg, error) {
			em, err := c.SetEmail(ctx, tok, want, pw)
			if err != nil {
				return accountMsg{}, err
			}
			note := "your e-mail choices are saved"
			if em.Pending && (em.Address != was.Address || !was.Pending) {
				note = "a link to confirm it was mailed to " + em.Address + ": open it, and Parlour mails you"
			}
			return accountMsg{email: &em, note: note}, nil
		})
	}
	switch ya.field {
	case 0:
		editLine(&ya.addr, s, k, 254)
	case emailPasswordField:
		editLine(&ya.current, s, k, account.MaxPasswordBytes)
	}
	return nil
}

// emailPasswordField is the e-mail form's password field, after the
// address and the kinds.
const emailPasswordField = 4

// deleteKey edits the deletion form: the password; enter asks once more,
// and a second enter deletes the account.
func (ya *yourAccount) deleteKey(s string, k tea.KeyPressMsg) tea.Cmd {
	switch s {
	case "esc":
		ya.form, ya.current, ya.sure, ya.err = "", "", false, ""
		return nil
	case "enter":
		if ya.current == "" {
			ya.err = "type your password first"
			return nil
		}
		if !ya.sure {
			ya.sure, ya.err = true, ""
			return nil
		}
		ya.busy, ya.err, ya.note = true, "", "deleting your account…"
		tok, c, pw := ya.cfg.Session, *ya.c, ya.current
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(ya.ctx, 30*time.Second)
			defer cancel()
			if err := c.DeleteAccount(ctx, tok, pw); err != nil {
				return accountMsg{keys: -1, err: err}
			}
			return sessionMsg{out: true, deleted: true}
		}
	}
	if editLine(&ya.current, s, k, account.MaxPasswordBytes) {
		ya.sure = false // another password: ask again
	}
	return nil
}

func (ya *yourAccount) view() string {
	var b strings.Builder
	b.WriteString(title("Your account: "+ya.cfg.Account) + "\n\n")
	switch ya.form {
	case "password":
		b.WriteString(wrap("Change your password: the current one, then the new one (at least 8 characters, not a common one, without your name in it). Your other devices and terminals are signed out.", ya.w) + "\n\n")
		b.WriteString(passwordLine("Current password", ya.current, ya.field == 0, ya.w) + "\n")
		b.WriteString(passwordLine("New password", ya.next, ya.field == 1, ya.w) + "\n\n")
		b.WriteString(ya.message() + "\n")
		b.WriteString(faint(wrapKeys("tab the other field · enter change it · esc back", ya.w)))
		return b.String()
	case "email":
		return b.String() + ya.emailView()
	case "delete":
		b.WriteString(wrap("Delete your account: your ratings, history, keys and address go; your finished games stay, under “deleted player”, and your name becomes free. Finish or resign your games first.", ya.w) + "\n\n")
		b.WriteString(passwordLine("Password", ya.current, true, ya.w) + "\n\n")
		if ya.sure {
			b.WriteString(bad(wrap("Enter again deletes the account "+ya.cfg.Account+" for good: it cannot be undone.", ya.w)) + "\n")
		}
		b.WriteString(ya.message() + "\n")
		b.WriteString(faint(wrapKeys("enter delete it (twice) · esc back", ya.w)))
		return b.String()
	}
	for i, item := range ya.items() {
		mark := "  "
		if i == ya.at {
			mark = hi("> ")
		}
		fmt.Fprintf(&b, "%s%-20s %s\n", mark, item, fitLine(ya.state(item), ya.w-23))
	}
	b.WriteString("\n" + ya.message() + "\n")
	b.WriteString(faint(wrapKeys("↑↓ choose · enter open or change · r read again · esc back", ya.w)))
	return b.String()
}

// state says an item's state in a few words.
func (ya *yourAccount) state(item string) string {
	switch item {
	case "Password":
		return "enter changes it"
	case "Other sessions":
		return "enter signs you out everywhere else"
	case "Players online":
		switch {
		case ya.settings == nil:
			return faint("asking the server…")
		case ya.settings.Hidden:
			return "your name is hidden (enter shows it)"
		}
		return "your name shows (enter hides it)"
	case "Guests' chat":
		switch {
		case ya.settings == nil:
			return faint("asking the server…")
		case ya.settings.GuestChat:
			return "guests may write at your tables (enter keeps them out)"
		}
		return "accounts only write at your tables (enter lets guests in)"
	case "E-mail":
		e := ya.email
		switch {
		case e == nil:
			return faint("asking the server…")
		case !e.Offered && e.Address != "":
			return "this server sends no e-mail; it keeps " + e.Address
		case !e.Offered:
			return "this server sends no e-mail"
		case e.Address == "":
			return "none given: Parlour mails you nothing"
		case e.Verified:
			return e.Address + ", confirmed"
		}
		return e.Address + ", waiting for you to open the link mailed to it"
	case "SSH keys":
		switch ya.keys {
		case -1:
			return faint("asking the server…")
		case 0:
			return "none: enter adds one"
		case 1:
			return "1 key: enter lists, adds or removes"
		}
		return fmt.Sprintf("%d keys: enter lists, adds or removes", ya.keys)
	case "Delete the account":
		return "enter deletes it, after your password"
	case "Moderation":
		return "the reports, and what moderators did: enter opens them"
	}
	return ""
}

// emailView is the e-mail form.
func (ya *yourAccount) emailView() string {
	var b strings.Builder
	e := ya.email
	if !e.Offered {
		b.WriteString(wrap("This server sends no e-mail, and keeps "+e.Address+" until you remove it: ctrl+d removes it.", ya.w) + "\n\n")
		b.WriteString(ya.message() + "\n")
		b.WriteString(faint("ctrl+d remove the address · esc back"))
		return b.String()
	}
	b.WriteString(wrap("Parlour can mail you about your games; every message has a link that stops them. A new address is sent a link to confirm it first. A confirmed address is also how you choose a new password if you forget yours.", ya.w) + "\n\n")
	mark := func(i int) string {
		if ya.field == i {
			return hi("> ")
		}
		return "  "
	}
	cursor := ""
	if ya.field == 0 {
		cursor = "█"
	}
	fmt.Fprintf(&b, "%sAddress  %s%s\n", mark(0), tailOf(ya.addr, ya.w-14), cursor)
	for i, k := range accountKinds() {
		box := "[ ]"
		if ya.kinds[i] {
			box = "[x]"
		}
		fmt.Fprintf(&b, "%s%s %s\n", mark(i+1), box, k)
	}
	b.WriteString(passwordLine("Password", ya.current, ya.field == emailPasswordField, ya.w-20) + faint(" (for a new address)") + "\n")
	b.WriteString("\n" + ya.message() + "\n")
	keys := "↑↓ choose · space on or off · enter save · esc back"
	if e.Address != "" {
		keys = "↑↓ choose · space on or off · enter save · ctrl+d remove the address · esc back"
	}
	b.WriteString(faint(wrapKeys(keys, ya.w)))
	return b.String()
}

// passwordLine is a password field w columns wide: its label, a dot for
// each character typed (the last that fit), and the cursor when on.
func passwordLine(label, pw string, on bool, w int) string {
	line := fmt.Sprintf("  %-18s %s", label, dots(pw, w-22))
	if on {
		line += "█"
	}
	return line
}
