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
}

// openPrompt shows a prompt for a line of at most max characters, which
// starts as input.
func openPrompt(sh *shared, head, help, input string, max int, enter func(string) tea.Cmd) {
	sh.err = ""
	sh.nav.show(&promptScreen{shared: sh, head: head, help: help, input: input, max: max, enter: enter})
}

// openJoin asks for a table to join: an invite code, link or table id.
func openJoin(sh *shared) {
	openPrompt(sh, "Join a table", "Type the invite code (K7M-4PX), or paste an invite link or a table id, then enter (esc: back).", "", 200, sh.joinAny)
}

func (pr *promptScreen) update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch s := k.String(); s {
	case "esc":
		pr.nav.goHome()
		return nil
	case "enter":
		line := strings.TrimSpace(pr.input)
		if line == "" {
			pr.err = "type something first"
			return nil
		}
		pr.input, pr.err = "", ""
		pr.nav.goHome()
		return pr.enter(line)
	default:
		editLine(&pr.input, s, k, pr.max)
	}
	return nil
}

func (pr *promptScreen) view() string {
	return title(pr.head) + "\n\n" + wrap(pr.help, pr.w) + "\n\n> " + tailOf(pr.input, pr.w-3) + "█\n\n" + pr.message()
}
