package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// reportForm is the line that reports a player to the moderators, which R
// opens on the players screen and on a profile: the reason, chosen with
// ←→ among client.ReportReasons, and the reporter's words.
type reportForm struct {
	name   string // the player reported; "" while the form is closed
	reason int
	text   string
}

// reportKeys are the keys while the form is open.
const reportKeys = "←→ reason · type what happened · enter send to the moderators · esc back"

// open opens the form about the player called name.
func (f *reportForm) open(name string) { *f = reportForm{name: name} }

// key edits the form: esc closes it, ←→ choose the reason, every other
// key but enter edits the words. It answers whether enter was pressed.
func (f *reportForm) key(s string, k tea.KeyPressMsg) (send bool) {
	n := len(client.ReportReasons)
	switch s {
	case "esc":
		f.name = ""
	case "left":
		f.reason = (f.reason + n - 1) % n
	case "right":
		f.reason = (f.reason + 1) % n
	case "enter":
		return true
	default:
		editLine(&f.text, s, k, 500)
	}
	return false
}

// send sends the report with session's account, answering the screen to
// with a relatedMsg whose news says it went.
func (f *reportForm) send(sh *shared, to screen) tea.Cmd {
	tok, c, name, reason, text := sh.cfg.Session, *sh.c, f.name, client.ReportReasons[f.reason].Key, strings.TrimSpace(f.text)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(sh.ctx, 15*time.Second)
		defer cancel()
		if _, err := c.Report(ctx, tok, name, reason, text, ""); err != nil {
			return relatedMsg{to: to, err: fmt.Errorf("the report about %s: %w", name, err)}
		}
		return relatedMsg{to: to, note: reportSent(name)}
	}
}

// went closes the form when note is the news that its report went.
func (f *reportForm) went(note string) {
	if f.name != "" && note == reportSent(f.name) {
		f.name = ""
	}
}

// reportSent is the news of a report about name that went.
func reportSent(name string) string { return "your report about " + name + " went to the moderators" }

// view is the form's line, w columns wide, its words' end in sight.
func (f *reportForm) view(w int) string {
	head := fmt.Sprintf("Report %s for ‹ %s ›: ", f.name, client.ReportReasons[f.reason].Words)
	return head + tailOf(f.text, max(10, w-ansi.StringWidth(head)-2)) + "█"
}
