package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/game"
	"parlour/tui/client"
)

// modScreen is the moderators' screen, as the browser's moderation page
// has it: the queue of reports (open ones first, the chosen one's words
// in full under it, and the chat line it is about) and the log of what
// moderators did. w watches the table a report is about, or opens the
// event whose chat line it is about; t reads its table's whole chat,
// while the game is on too; c closes the chosen report; m, n
// and x open a form that mutes the chat of, renames or closes the
// account of its player, or of any player named there. A
// report of a chat line mutes the line's writer by the line: a guest's
// name is nobody's own, and only the line says which guest. The server
// checks the role on every request.
type modScreen struct {
	*shared
	back    screen
	reports []client.QueuedReport
	lines   []client.ModLine
	loaded  bool
	loadErr string
	at      int // the report chosen
	// form is the action open: "" (the queue), or a modForm.
	form  string
	field int
	// name, reason and newName are the form's lines; length is the
	// mute's length chosen, an index into muteLengths.
	name, reason, newName string
	length                int
	// refund says the account's closing gives its opponents back the
	// points they lost to it.
	refund bool
	// sure says enter was pressed once on the form that closes an
	// account.
	sure bool
	// byLine says the mute is of the chosen report's line's writer, not
	// of the player named.
	byLine bool
	busy   bool
	// reading is the table whose chat is shown in place of the queue
	// (t), and chat its lines.
	reading string
	chat    []client.ChatLine
}

// modForm names the form key opens on the queue: "close" (the report),
// "mute", "rename", "account" (closing it) or "reopen" (the account); ""
// for another key.
func modForm(key string) string {
	switch key {
	case "c":
		return "close"
	case "m":
		return "mute"
	case "n":
		return "rename"
	case "x":
		return "account"
	case "o":
		return "reopen"
	}
	return ""
}

// muteLength is a length of a chat mute as the form offers it.
type muteLength struct {
	minutes int
	words   string
}

// muteLengths are the lengths a mute may be given, in order; 0 lifts a
// mute.
func muteLengths() []muteLength {
	return []muteLength{{60, "1 hour"}, {24 * 60, "1 day"}, {7 * 24 * 60, "1 week"}, {30 * 24 * 60, "30 days"}, {0, "lift a mute"}}
}

// modMsg answers the queue and the log read, or an action done (note
// says what it did); err says what went wrong, in the server's words.
type modMsg struct {
	to      *modScreen
	reports []client.QueuedReport
	lines   []client.ModLine
	read    bool // reports and lines hold what the server answered
	// chat is a reported table's chat, read for reading.
	chat    []client.ChatLine
	reading string
	done    bool // an action was done: its form closes
	note    string
	err     error
}

// screen sends the answer to the moderators' screen that asked, whichever
// is on show: a reported table opened from the queue does not lose an
// action's answer, nor leave the screen busy.
func (m modMsg) screen() screen { return m.to }

// openModeration shows the moderators' screen and reads the queue; esc
// goes back to back.
func openModeration(sh *shared, back screen) tea.Cmd {
	ms := &modScreen{shared: sh, back: back}
	sh.err, sh.note = "", ""
	sh.nav.show(ms)
	return ms.read
}

// readChat asks for the whole chat of table id, both channels, which a
// moderator reads while its game is on too (the server logs it).
func (ms *modScreen) readChat(id string) tea.Cmd {
	ms.busy = true
	c, tok := *ms.c, ms.cfg.Session
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ms.ctx, 15*time.Second)
		defer cancel()
		page, err := c.ReadTableChat(ctx, tok, id, 0)
		if err != nil {
			return modMsg{to: ms, err: fmt.Errorf("the table's chat: %w", err)}
		}
		return modMsg{to: ms, chat: page.Chat, reading: id}
	}
}

// chatView draws the chat being read, its newest lines when they do not
// all fit.
func (ms *modScreen) chatView() string {
	var b strings.Builder
	b.WriteString(title("The chat of table "+ms.reading) + "\n\n")
	b.WriteString(faint(wrap("Both channels, as written. Your reading is in the moderators' log.", ms.w)) + "\n\n")
	var lines []string
	for _, l := range ms.chat {
		who := marked(l.Name, l.Player)
		lines = append(lines, twoLines(fmt.Sprintf("%d. %s %s: %s: “%s”", l.Seq, l.At.In(ms.zone()).Format("15:04"), l.Channel, who, l.Text), ms.w)...)
	}
	if len(lines) == 0 {
		lines = []string{faint("nothing written yet")}
	}
	room := max(3, ms.h-8)
	if len(lines) > room {
		lines = lines[len(lines)-room:]
	}
	b.WriteString(strings.Join(lines, "\n") + "\n")
	if ms.err != "" {
		b.WriteString("\n" + bad(wrap(ms.err, ms.w)) + "\n")
	}
	b.WriteString("\n" + faint(wrapKeys("r read again · esc back to the queue", ms.w)))
	return b.String()
}

// read asks for the queue and the log.
func (ms *modScreen) read() tea.Msg {
	ctx, cancel := context.WithTimeout(ms.ctx, 15*time.Second)
	defer cancel()
	rs, err := ms.c.Reports(ctx, ms.cfg.Session)
	if err != nil {
		return modMsg{to: ms, err: fmt.Errorf("the reports: %w", err)}
	}
	ls, err := ms.c.ModLog(ctx, ms.cfg.Session)
	if err != nil {
		return modMsg{to: ms, err: fmt.Errorf("the moderators' log: %w", err)}
	}
	return modMsg{to: ms, reports: rs, lines: ls, read: true}
}

func (ms *modScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case modMsg:
		ms.busy = false
		if msg.read {
			ms.reports, ms.lines, ms.loaded, ms.loadErr = msg.reports, msg.lines, true, ""
			ms.at = min(ms.at, max(0, len(ms.reports)-1))
		}
		if msg.reading != "" && msg.err == nil {
			ms.reading, ms.chat, ms.err, ms.note = msg.reading, msg.chat, "", ""
			return nil
		}
		if msg.err != nil {
			if !ms.loaded {
				ms.loadErr = msg.err.Error() + " (r: try again)"
				return nil
			}
			// The form stays to be mended; closing an account is asked
			// for twice again.
			ms.err, ms.note, ms.sure = msg.err.Error(), "", false
			return nil
		}
		if msg.done {
			ms.err, ms.note = "", msg.note
			ms.form, ms.sure = "", false
			return ms.read
		}
	case tea.KeyPressMsg:
		return ms.key(msg.String(), msg)
	}
	return nil
}

// chosen is the report chosen, or nil when there is none.
func (ms *modScreen) chosen() *client.QueuedReport {
	if ms.at < len(ms.reports) {
		return &ms.reports[ms.at]
	}
	return nil
}

// fields are the open form's fields, in order.
func (ms *modScreen) fields() []string {
	switch ms.form {
	case "close":
		return []string{"Why"}
	case "mute":
		return []string{"Player", "How long", "Why"}
	case "rename":
		return []string{"Player", "New name", "Why"}
	case "reopen":
		return []string{"Player", "Why"}
	}
	return []string{"Player", "Why", "Give back"}
}

func (ms *modScreen) key(s string, k tea.KeyPressMsg) tea.Cmd {
	if ms.busy {
		ms.err = "one moment: the server has not answered yet"
		return nil
	}
	if ms.form != "" {
		return ms.formKey(s, k)
	}
	if ms.reading != "" {
		switch s {
		case "esc", "q":
			// Back to the queue, read again: the log holds the reading.
			ms.reading, ms.chat = "", nil
			return ms.read
		case "r":
			return ms.readChat(ms.reading)
		}
		return nil
	}
	n := len(ms.reports)
	switch s {
	case "esc", "q":
		ms.err, ms.note = "", ""
		ms.nav.show(ms.back)
	case "up", "k":
		if n > 0 {
			ms.at = (ms.at + n - 1) % n
		}
	case "down", "j":
		if n > 0 {
			ms.at = (ms.at + 1) % n
		}
	case "r":
		ms.err, ms.note = "", ""
		return ms.read
	case "t":
		r := ms.chosen()
		if r == nil || r.Table == "" {
			ms.err = "the report chosen names no table"
			return nil
		}
		ms.err, ms.note = "", ""
		return ms.readChat(r.Table)
	case "w":
		// The table the report is about, as a spectator sees it (over,
		// its end and every secret), or the event whose chat line it is
		// about, its chat a ctrl+t away; esc comes back to the queue.
		r := ms.chosen()
		switch {
		case r != nil && r.Tournament != "":
			ms.err, ms.note = "", ""
			return openEventFrom(ms.shared, r.Tournament, ms)
		case r == nil || r.Table == "":
			ms.err = "the report chosen names no table or event"
			return nil
		}
		ms.err, ms.note = "", ""
		return ms.nav.sitFrom(client.Seated{Table: r.Table, Seat: -1, Invite: ms.public() + "/t/" + r.Table}, "", ms)
	case "c", "m", "n", "x", "o":
		r := ms.chosen()
		if s == "c" && (r == nil || r.Status != "open") {
			ms.err = "choose an open report to close"
			return nil
		}
		ms.form, ms.field, ms.sure = modForm(s), 0, false
		ms.name, ms.reason, ms.newName, ms.length, ms.refund, ms.byLine = "", "", "", 0, false, false
		ms.err, ms.note = "", ""
		if r != nil {
			// The report's player, and the next thing to fill in. A
			// guest, reported by their line, is muted by it; their name
			// is nobody's own, so no account is named for them.
			ms.name = r.Name
			if guestReported(r) {
				ms.name = ""
				if ms.form == "rename" || ms.form == "account" || ms.form == "reopen" {
					ms.note = "a guest has no account: m mutes them by their line"
				}
			}
			ms.byLine = ms.form == "mute" && r.Line != nil
			if ms.form != "close" && (ms.name != "" || ms.byLine) {
				ms.field = 1
			}
		}
	}
	return nil
}

// guestReported says report r is of a guest's chat line.
func guestReported(r *client.QueuedReport) bool {
	return r.Line != nil && r.Line.Player == "guest"
}

// lineWords says where report r's chat line was written.
func lineWords(r *client.QueuedReport) string {
	if r.Tournament != "" {
		return fmt.Sprintf("line %d of event %s", r.Seq, r.Tournament)
	}
	return fmt.Sprintf("line %d of table %s", r.Seq, r.Table)
}

// twoLines is s wrapped to w columns in at most two lines, the second
// cut at the edge: a long chat line leaves the queue its room.
func twoLines(s string, w int) []string {
	ls := strings.Split(wrap(s, w), "\n")
	if len(ls) > 2 {
		ls = []string{ls[0], fitLine(strings.Join(ls[1:], " "), w)}
	}
	return ls
}

// formKey edits the open form.
func (ms *modScreen) formKey(s string, k tea.KeyPressMsg) tea.Cmd {
	fs := ms.fields()
	switch s {
	case "esc":
		ms.form, ms.err, ms.sure = "", "", false
		return nil
	case "up", "shift+tab":
		ms.field = (ms.field + len(fs) - 1) % len(fs)
		return nil
	case "down", "tab":
		ms.field = (ms.field + 1) % len(fs)
		return nil
	case "enter":
		return ms.send()
	}
	ms.err, ms.sure = "", false
	switch fs[ms.field] {
	case "Player":
		if ms.byLine {
			// A name typed mutes that account rather than the line's
			// writer.
			ms.byLine = false
		}
		editLine(&ms.name, s, k, 40)
	case "New name":
		editLine(&ms.newName, s, k, 40)
	case "Why":
		editLine(&ms.reason, s, k, 300)
	case "How long":
		if step := stepOf(s); step != 0 {
			n := len(muteLengths())
			ms.length = (ms.length + n + step) % n
		}
	case "Give back":
		if stepOf(s) != 0 {
			ms.refund = !ms.refund
		}
	}
	return nil
}

// send does what the open form says, once what it needs is filled in:
// closing an account takes enter twice.
func (ms *modScreen) send() tea.Cmd {
	name, reason, newName := strings.TrimSpace(ms.name), strings.TrimSpace(ms.reason), strings.TrimSpace(ms.newName)
	switch {
	case ms.form != "close" && name == "" && !ms.byLine:
		ms.err, ms.field = "name the player", 0
		return nil
	case ms.form == "rename" && newName == "":
		ms.err, ms.field = "type the new name", 1
		return nil
	case (ms.form == "mute" || ms.form == "account" || ms.form == "reopen") && reason == "":
		ms.err, ms.field = "give a reason: it goes in the moderators' log", slices.Index(ms.fields(), "Why")
		return nil
	case ms.form == "account" && !ms.sure:
		ms.sure = true
		return nil
	}
	r, length, refund, byLine := ms.chosen(), muteLengths()[ms.length], ms.refund, ms.byLine
	form, tok, c := ms.form, ms.cfg.Session, *ms.c
	ms.busy, ms.err, ms.note = true, "", "asking the server…"
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ms.ctx, 30*time.Second)
		defer cancel()
		var note string
		var err error
		switch form {
		case "close":
			_, err = c.CloseReport(ctx, tok, r.ID, reason)
			note = "the report about " + r.Name + " is closed"
		case "mute":
			var m client.Muted
			if byLine {
				m, err = c.MuteLine(ctx, tok, r.Table, r.Tournament, r.Seq, length.minutes, reason)
			} else {
				m, err = c.MutePlayer(ctx, tok, name, length.minutes, reason)
			}
			who := m.Name
			if m.Player == "guest" {
				who = "the guest " + m.Name
			}
			note = who + " may chat again"
			if m.Until != nil {
				note = fmt.Sprintf("%s is kept out of every chat until %s", who, ms.when(*m.Until, "Mon 2 Jan 15:04"))
			}
		case "rename":
			var rn client.Renamed
			rn, err = c.Rename(ctx, tok, name, newName, reason)
			note = fmt.Sprintf("%s is now %s, in %s", rn.OldName, rn.Name, game.Count(rn.Games, "finished game", "finished games"))
		case "reopen":
			var ro client.Reopened
			ro, err = c.ReopenAccount(ctx, tok, name, reason)
			note = ro.Name + "'s account is open again: they sign in with their password"
			if !ro.Password {
				note = ro.Name + "'s account is open again, without a password: they set one with a reset link to their e-mail address, or sign in with an SSH key"
			}
		case "account":
			var cl client.Closed
			cl, err = c.CloseAccount(ctx, tok, name, reason, refund)
			note = fmt.Sprintf("%s's account is closed: %s ended", cl.Name, game.Count(cl.Sessions, "session", "sessions"))
			if refund {
				note += "; " + refundNote(cl.Refunds)
			}
		}
		return modMsg{to: ms, done: err == nil, note: note, err: err}
	}
}

// refundNote says what a closing's refund gave back.
func refundNote(rs []client.Refund) string {
	if len(rs) == 0 {
		return "no points to give back"
	}
	var points float64
	names := map[string]bool{}
	for _, r := range rs {
		points += r.Points
		names[r.Name] = true
	}
	return fmt.Sprintf("%.1f points given back to %s", points, game.Count(len(names), "player", "players"))
}

// reasonShort says a report's reason in a word or two, for the queue's
// columns.
func reasonShort(key string) string {
	switch key {
	case "chat":
		return "abuse in chat"
	case "name":
		return "offensive name"
	}
	return key
}

// logWords says a line of the moderators' log in words: who did what to
// whom, when (in zone), and why.
func logWords(l client.ModLine, zone *time.Location) string {
	did := map[string]string{
		"grant":        "made %s a moderator",
		"revoke":       "took the moderator role from %s",
		"close-report": "closed a report about %s",
		"mute":         "muted %s's chat",
		"rename":       "renamed %s",
		"close":        "closed %s's account",
		"reopen":       "reopened %s's account",
		"password":     "gave %s's account a new password",
		"read-chat":    "read the chat of a table where %s was reported",
		"refund":       "gave back the points %s's opponents lost",
	}
	what := l.Action + " " + l.Name
	if f, ok := did[l.Action]; ok {
		what = fmt.Sprintf(f, l.Name)
	}
	if l.Action == "cancel-event" {
		what = "cancelled " + l.Name + "'s event"
		if l.Name == "" {
			what = "cancelled one of the server's own events"
		}
	}
	s := l.At.In(zone).Format("Jan 2 15:04") + " " + l.Moderator + " " + what
	if l.Detail != "" {
		s += " (" + l.Detail + ")"
	}
	if l.Reason != "" {
		s += ": " + l.Reason
	}
	return s
}

func (ms *modScreen) view() string {
	var b strings.Builder
	if ms.form != "" {
		return ms.formView()
	}
	if ms.reading != "" {
		return ms.chatView()
	}
	open := 0
	for _, r := range ms.reports {
		if r.Status == "open" {
			open++
		}
	}
	b.WriteString(title("Moderation") + "  ·  " + game.Count(open, "open report", "open reports") + ms.zoneNote() + "\n\n")
	switch {
	case ms.loadErr != "":
		b.WriteString(bad(wrap(ms.loadErr, ms.w)) + "\n")
	case !ms.loaded:
		b.WriteString(faint("asking the server…") + "\n")
	case len(ms.reports) == 0:
		b.WriteString("No reports.\n")
	}
	// The queue takes what room the log and the chosen report's words
	// leave: a window around the report chosen.
	room := max(3, ms.h-16)
	first := min(max(0, ms.at-room/2), max(0, len(ms.reports)-room))
	for i := first; i < len(ms.reports) && i < first+room; i++ {
		r := ms.reports[i]
		mark := "  "
		if i == ms.at {
			mark = hi("> ")
		}
		status := warm("open")
		if r.Status != "open" {
			status = faint("closed by " + r.ClosedBy)
		}
		name := r.Name
		if r.Line != nil {
			name = marked(r.Name, r.Line.Player)
		}
		line := fmt.Sprintf("%-14s %-14s by %-14s %-12s %s", name, reasonShort(r.Reason), r.Reporter, r.Created.In(ms.zone()).Format("Jan 2 15:04"), status)
		b.WriteString(mark + fitLine(line, ms.w-2) + "\n")
	}
	if r := ms.chosen(); r != nil {
		words := r.Text
		if words == "" {
			words = "(no words given)"
		}
		about, name := "", r.Name
		switch {
		case r.Seq > 0:
			about = " · about " + lineWords(r)
		case r.Table != "":
			about = " · about table " + r.Table
		}
		if r.Line != nil {
			name = marked(r.Name, r.Line.Player)
		}
		b.WriteString("\n" + wrap(fmt.Sprintf("%s reported %s (%s)%s: %s", r.Reporter, name, reasonShort(r.Reason), about, words), ms.w) + "\n")
		switch {
		case r.Line != nil:
			// The line as stored, whose writer m mutes by it.
			b.WriteString(strings.Join(twoLines(fmt.Sprintf("the line: %s: “%s” (m mutes its writer)", marked(r.Line.Name, r.Line.Player), r.Line.Text), ms.w), "\n") + "\n")
		case r.Seq > 0:
			b.WriteString(faint("the line is no longer kept") + "\n")
		}
	}
	b.WriteString("\n" + title("What moderators did") + "\n")
	if ms.loaded && len(ms.lines) == 0 {
		b.WriteString(faint("nothing yet") + "\n")
	}
	keys := faint(wrapKeys("↑↓ choose · w watch its table or event · t read its table's chat · c close the report · m mute · n rename · x close the account · o reopen one · r read again · esc back", ms.w))
	tail := "\n" + ms.message() + "\n" + keys
	// The newest lines of the log, as many as the screen has room for
	// (the browser's page has the rest).
	room = ms.h - strings.Count(b.String(), "\n") - strings.Count(tail, "\n") - 1
	var log []string
	for _, l := range ms.lines {
		more := hanging(logWords(l, ms.zone()), ms.w)
		if len(log)+len(more) > room {
			break
		}
		log = append(log, more...)
	}
	if len(log) > 0 {
		b.WriteString(strings.Join(log, "\n") + "\n")
	}
	b.WriteString(tail)
	return b.String()
}

// formView draws the open form.
func (ms *modScreen) formView() string {
	var b strings.Builder
	heads := map[string]string{
		"close":   "Close the report",
		"mute":    "Keep a player out of every chat",
		"rename":  "Give an account a new name",
		"account": "Close an account",
		"reopen":  "Reopen a closed account",
	}
	b.WriteString(title(heads[ms.form]) + "\n\n")
	help := map[string]string{
		"close":   "Closing a report says it has been dealt with; the reason (it may be left out) goes in the moderators' log.",
		"mute":    "The player can read every chat but write in none until the mute ends. The reason goes in the moderators' log.",
		"rename":  "Their finished games' records carry the new name too. A player at a game under way is renamed once it ends.",
		"reopen":  "For an appeal heard or a closing in error: they sign in again with their password and play. What the closing ended stays ended. The reason goes in the moderators' log.",
		"account": "They can no longer sign in, with a password or an SSH key, and their sessions end at once. Their games and records stay. For cheating, give their opponents back the rating points they lost to them in the last 30 days (of an account closed before, that alone is done).",
	}
	if r := ms.chosen(); ms.form == "close" && r != nil {
		help = map[string]string{"close": fmt.Sprintf("Close %s's report about %s (%s): it has been dealt with. The reason (it may be left out) goes in the moderators' log.", r.Reporter, r.Name, reasonShort(r.Reason))}
	}
	if ms.form == "mute" && ms.byLine {
		help["mute"] = "The writer of the reported line, guest or account, can read every chat but write in none until the mute ends (a name typed mutes that account instead). The reason goes in the moderators' log."
	}
	b.WriteString(wrap(help[ms.form], ms.w) + "\n\n")
	lw := ansi.StringWidth("Give back")
	for i, f := range ms.fields() {
		val := ""
		switch f {
		case "Player":
			val = ms.name
			if r := ms.chosen(); ms.byLine && r != nil && r.Line != nil {
				val = marked(r.Line.Name, r.Line.Player) + ", the writer of " + lineWords(r)
				if i == ms.field {
					val += " █"
				}
				formRow(&b, i == ms.field, f, lw, fitLine(val, max(8, ms.w-lw-8)), "")
				continue
			}
		case "New name":
			val = ms.newName
		case "Why":
			val = ms.reason
		case "How long":
			var words []string
			for _, l := range muteLengths() {
				words = append(words, l.words)
			}
			formRow(&b, i == ms.field, f, lw, words[ms.length], choiceRange(words, words[ms.length], rowRoom(ms.w, lw, words[ms.length])))
			continue
		case "Give back":
			words := []string{"nothing", "their opponents' points"}
			w := words[0]
			if ms.refund {
				w = words[1]
			}
			formRow(&b, i == ms.field, f, lw, w, choiceRange(words, w, rowRoom(ms.w, lw, w)))
			continue
		}
		if i == ms.field {
			val = tailOf(val, max(8, ms.w-lw-10)) + "█"
		}
		formRow(&b, i == ms.field, f, lw, val, "")
	}
	b.WriteString("\n")
	if ms.sure {
		sure := "Enter again closes " + strings.TrimSpace(ms.name) + "'s account."
		if ms.refund {
			sure = "Enter again closes " + strings.TrimSpace(ms.name) + "'s account and gives back the points."
		}
		b.WriteString(bad(wrap(sure, ms.w)) + "\n")
	}
	b.WriteString(ms.message() + "\n")
	keys := "↑↓ field · type · enter do it · esc back"
	switch ms.form {
	case "mute":
		keys = "↑↓ field · type · ←→ how long · enter do it · esc back"
	case "account":
		keys = "↑↓ field · type · ←→ give back · enter close it (twice) · esc back"
	}
	b.WriteString(faint(wrapKeys(keys, ms.w)))
	return b.String()
}
