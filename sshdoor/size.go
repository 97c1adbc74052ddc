package sshdoor

import (
	"fmt"
	"io"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/ssh"
)

// The terminal sizes the door draws for. The client's renderer keeps
// about 220 bytes for every cell of the size it is told, and keeps them
// when the terminal shrinks again; the size comes from the SSH client,
// unchecked by anyone before the door. So the door draws at most
// MaxWidth x MaxHeight (about 7 MB a session, 1.3 GB for the default
// 200 sessions): a larger terminal shows the client in its top-left
// corner, which is all the client's screens use (they are laid out from
// the left, for 80 x 24). A size of 0, or beyond RefuseWidth x
// RefuseHeight, is no terminal's: the session is told so and closed.
const (
	MaxWidth     = 300 // a full-screen terminal at 2560 pixels, at a small font
	MaxHeight    = 100
	RefuseWidth  = 5000 // more than any screen holds
	RefuseHeight = 2000
)

// fitWindow returns the size to draw a terminal of w x h columns and
// rows at: w x h clamped to MaxWidth x MaxHeight. refusal, when not
// empty, says in the player's words why no terminal has that size and the
// session closes instead.
func fitWindow(w, h int) (cw, ch int, refusal string) {
	size := fmt.Sprintf("%s and %s", plural(w, "column"), plural(h, "row"))
	switch {
	case w <= 0 || h <= 0:
		return 0, 0, "Parlour: your terminal reports " + size + "; Parlour is drawn in a full-screen terminal: connect with ssh -t from one."
	case w > RefuseWidth || h > RefuseHeight:
		return 0, 0, fmt.Sprintf("Parlour: your terminal reports %s, more than any screen holds (at most %s and %s); the session is closed.",
			size, plural(RefuseWidth, "column"), plural(RefuseHeight, "row"))
	}
	return min(w, MaxWidth), min(h, MaxHeight), ""
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// refuseWindow writes refusal to the session, on a line of its own, and
// ends the session with status 1.
func refuseWindow(sess ssh.Session, refusal string) {
	io.WriteString(sess, "\r\n"+refusal+"\r\n")
	sess.Exit(1)
}

// clampWindow is the programs' message filter for sizes: every
// WindowSizeMsg, whether the door's from the SSH client's window-change
// or one Bubble Tea parsed from a size report typed into the session's
// input (which the SSH client controls too), is clamped as fitWindow
// clamps, or dropped when no terminal has its size, before the renderer
// resizes to it.
func clampWindow(msg tea.Msg) tea.Msg {
	if m, ok := msg.(tea.WindowSizeMsg); ok {
		w, h, refusal := fitWindow(m.Width, m.Height)
		if refusal != "" {
			return nil
		}
		return tea.WindowSizeMsg{Width: w, Height: h}
	}
	return msg
}

// drain reads a session's window changes until the session's requests
// end, once the door reads them no more: the SSH server hands each to
// winch (which holds one) from the loop that reads the session's
// requests, which would otherwise wait on the next for good, and with it
// the session's end.
func drain(winch <-chan ssh.Window) {
	for range winch {
	}
}
