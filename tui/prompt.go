package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// promptScreen asks for one line (an invite, a name) and hands it to
// enter, back on the home screen.
type promptScreen struct {
	*shared
	head, help string
	max        int // the most characters the line takes
	input      string
	enter      func(line string) tea.Cmd
	// secret shows the line as dots (a password); back is the screen
	// esc and enter go back to (nil: home).
	secret bool
	back   screen
	// check, when set, asks the server about the line on enter, in
	// place of enter: the prompt stays until it answers (checkedMsg),
	// and is left only for a line it takes; busy says it is asked.
	check func(line string) tea.Cmd
	busy  bool
}

// checkedMsg is the server's answer to a prompt's line (check): err
// refuses it, and the line stays to be mended; else take takes it in.
type checkedMsg struct {
	err  error
	take func()
}

// openPrompt shows a prompt for a line of at most max characters, which
// starts as input.
func openPrompt(sh *shared, head, help, input string, max int, enter func(string) tea.Cmd) {
	sh.err = ""
	sh.nav.show(&promptScreen{shared: sh, head: head, help: help, input: input, max: max, enter: enter})
}

// openSecret asks for a secret line (an event's password), shown as
// dots, and goes back to back with it.
func openSecret(sh *shared, head, help string, back screen, enter func(string) tea.Cmd) {
	sh.err = ""
	sh.nav.show(&promptScreen{shared: sh, head: head, help: help, max: 200, enter: enter, secret: true, back: back})
}

// leave goes back to the screen the prompt was opened from, and has it
// read its news again where it keeps some (an event's standings, which
// stop being read while it is out of sight).
func (pr *promptScreen) leave() tea.Cmd {
	if pr.back != nil {
		pr.nav.show(pr.back)
		if r, ok := pr.back.(interface{ resume() tea.Cmd }); ok {
			return r.resume()
		}
		return nil
	}
	pr.nav.goHome()
	return nil
}

// openJoin asks for a table to join (an invite code, link or table id),
// the line starting as line, and shows it before the player sits down.
func openJoin(sh *shared, line string) {
	openPrompt(sh, "Join a table", "Type the invite code (K7M-4PX), or paste an invite link or a table id, then enter (esc: back).", line, 200, sh.openJoinPreview)
}

// openChecked shows a prompt as openPrompt does, whose line check asks
// the server about before it is taken.
func openChecked(sh *shared, head, help, input string, max int, check func(string) tea.Cmd) {
	sh.err = ""
	sh.nav.show(&promptScreen{shared: sh, head: head, help: help, input: input, max: max, check: check})
}

func (pr *promptScreen) update(msg tea.Msg) tea.Cmd {
	if msg, ok := msg.(checkedMsg); ok {
		pr.busy = false
		if msg.err != nil {
			pr.err, pr.note = msg.err.Error(), ""
			return nil
		}
		pr.input, pr.err = "", ""
		back := pr.leave()
		msg.take()
		return back
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch s := k.String(); s {
	case "esc":
		// Given up: the refusal of the line goes with it, rather than
		// stand on the screen esc goes back to.
		pr.err = ""
		return pr.leave()
	case "enter":
		line := strings.TrimSpace(pr.input)
		if line == "" {
			pr.err = "type something first"
			return nil
		}
		if pr.secret {
			// A password is taken as typed, spaces at its ends too, as
			// the form that set it sent it.
			line = pr.input
		}
		if pr.check != nil {
			if pr.busy {
				return nil
			}
			pr.busy, pr.err = true, ""
			return pr.check(line)
		}
		pr.input, pr.err = "", ""
		return tea.Batch(pr.leave(), pr.enter(line))
	default:
		editLine(&pr.input, s, k, pr.max)
	}
	return nil
}

func (pr *promptScreen) view() string {
	line := pr.input
	if pr.secret {
		line = strings.Repeat("•", len([]rune(line)))
	}
	return title(pr.head) + "\n\n" + wrap(pr.help, pr.w) + "\n\n> " + tailOf(line, pr.w-3) + "█\n\n" + pr.message()
}
