package tui

import (
	"context"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// chatPanel is a table's chat as this client holds it, drawn under the
// table: the messages kept by seq, the channels muted and the line being
// written, which takes the keys while open.
type chatPanel struct {
	t     *tableScreen
	lines []client.ChatLine
	seen  map[int]bool
	muted []string
	chatLine
}

// chatLine is a chat's line being written, which takes the keys while
// open: the table's and an event's.
type chatLine struct {
	open    bool   // the input line takes the keys
	line    string // what is being written
	err     string // the server's refusal of the last line, shown in place
	sending bool
}

// key handles a key while the line is open: esc closes it, enter sends
// it with send (when there is something to send and nothing on its way),
// every other key edits it.
func (c *chatLine) key(s string, k tea.KeyPressMsg, send func(text string) tea.Cmd) tea.Cmd {
	switch s {
	case "esc":
		c.open, c.line, c.err = false, "", ""
		return nil
	case "enter":
		text := strings.TrimSpace(c.line)
		if text == "" || c.sending {
			return nil
		}
		c.err = ""
		cmd := send(text)
		c.sending = cmd != nil
		return cmd
	}
	// Lines longer than the server takes are typed, and refused in place
	// with its words, so that the limit is the server's alone.
	editLine(&c.line, s, k, 400)
	return nil
}

// sent takes the answer to text sent: refused, the line stays to be
// mended; taken, it closes, unless the player has written on since.
func (c *chatLine) sent(text string, err error) {
	c.sending = false
	if err != nil {
		c.err = err.Error()
		return
	}
	if strings.TrimSpace(c.line) == text {
		c.line, c.err, c.open = "", "", false
	}
}

// take keeps the messages of an update not yet seen, by seq.
func (c *chatPanel) take(ls []client.ChatLine, muted []string) {
	if c.seen == nil {
		c.seen = map[int]bool{}
	}
	for _, l := range ls {
		if c.seen[l.Seq] {
			continue
		}
		c.seen[l.Seq] = true
		c.lines = append(c.lines, l)
	}
	slices.SortFunc(c.lines, func(a, b client.ChatLine) int { return a.Seq - b.Seq })
	if len(c.lines) > 100 {
		c.lines = c.lines[len(c.lines)-100:]
	}
	if muted != nil {
		c.muted = muted
	}
}

// channel is the chat channel this seat may write in: the players' while
// seated, the spectators' otherwise.
func (t *tableScreen) channel() string {
	if t.seat < 0 {
		return "spectators"
	}
	return "players"
}

// speaker is the token the chat is written and muted with: the seat's,
// else, for a spectator, who has none, the player's own (the account's
// session, else the guest identity the client plays under); "" when the
// client has no identity yet.
func (t *tableScreen) speaker() string {
	switch {
	case t.token != "":
		return t.token
	case t.cfg.Session != "":
		return t.cfg.Session
	}
	return t.idToken
}

// chatSentMsg is the answer to a chat message, or to a report typed on
// the chat's line.
type chatSentMsg struct {
	gen  int
	text string // as typed, to tell whether the line on screen is still it
	line client.ChatLine
	err  error
	// reported is the player a report was about ("" for a message).
	reported string
	// identity is the guest identity made to write as, if one was.
	identity string
}

// reportUsage says how to write a report on a chat's line.
const reportUsage = "write /report NAME REASON, then what happened: REASON is cheating, chat, name (an offensive name) or other"

// reportCommand reads a chat line that reports a player to the
// moderators, "/report NAME REASON [what happened]" (the command in any
// case): ok is false for any other line, which is a message.
func reportCommand(text string) (name, reason, words string, ok bool) {
	f := strings.Fields(text)
	if len(f) == 0 || !strings.EqualFold(f[0], "/report") {
		return "", "", "", false
	}
	if len(f) > 1 {
		name = f[1]
	}
	if len(f) > 2 {
		reason = strings.ToLower(f[2])
	}
	if len(f) > 3 {
		words = strings.Join(f[3:], " ")
	}
	return name, reason, words, true
}

// reportedLine returns the latest of lines written by a player called
// name, when a report is to name them by it: a guest's name is nobody's
// own (an account may bear it too), so a guest is reported by a line
// they wrote, which the server finds them by (as the browser's Report
// button in the chat offers the guests' lines). The latest writer of
// that name is the one meant; an account's line is taken only with
// anyWriter, where a name alone would lose what the report is about (an
// event's chat).
func reportedLine(lines []client.ChatLine, name string, anyWriter bool) (client.ChatLine, bool) {
	for _, l := range slices.Backward(lines) {
		if strings.EqualFold(l.Name, name) {
			return l, l.Player == "guest" || anyWriter && l.Player == "account"
		}
	}
	return client.ChatLine{}, false
}

// reportedWords says whom a report was about: the player called name,
// or the writer of line l, with the line's start, so that the reporter
// sees which line the moderators were given.
func reportedWords(name string, l client.ChatLine, byLine bool) string {
	if !byLine {
		return name
	}
	text := []rune(l.Text)
	if len(text) > 30 {
		text = append(text[:29], '…')
	}
	return marked(l.Name, l.Player) + ", by their line “" + string(text) + "”,"
}

// mutedMsg is the answer to a mute or unmute.
type mutedMsg struct {
	gen   int
	muted []string
	err   error
	// identity is the guest identity made to mute as, if one was.
	identity string
}

// speakAs returns the token to write as: tok, or, when it is "" (a
// spectator new to the server), a guest identity made for the client,
// returned as made too, for the client to keep.
func speakAs(ctx context.Context, c client.Client, tok string) (id, made string, err error) {
	id, err = identityFor(ctx, c, tok)
	if err == nil && tok == "" {
		made = id
	}
	return id, made, err
}

// send writes text in the channel this seat may write in, or sends the
// report it types to the moderators, about this table.
func (c *chatPanel) send(text string) tea.Cmd {
	t := c.t
	ch, tok, id, gen := t.channel(), t.speaker(), t.id, t.gen
	if name, reason, words, ok := reportCommand(text); ok {
		switch {
		case t.cfg.Session == "":
			c.err = "sign in to report a player: reports are for accounts"
			return nil
		case name == "" || reason == "":
			c.err = reportUsage
			return nil
		}
		session := t.cfg.Session
		l, byLine := reportedLine(c.shown(), name, false)
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(t.ctx, 15*time.Second)
			defer cancel()
			var err error
			if byLine {
				_, err = t.c.ReportLine(ctx, session, id, "", l.Seq, "", reason, words)
			} else {
				_, err = t.c.Report(ctx, session, name, reason, words, id)
			}
			return chatSentMsg{gen: gen, text: text, err: err, reported: reportedWords(name, l, byLine)}
		}
	}
	cl := *t.c // a copy: the name may change while the request is out
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(t.ctx, 15*time.Second)
		defer cancel()
		tok, made, err := speakAs(ctx, cl, tok)
		if err != nil {
			return chatSentMsg{gen: gen, text: text, err: err}
		}
		l, err := cl.Chat(ctx, tok, id, ch, text)
		return chatSentMsg{gen: gen, text: text, line: l, err: err, identity: made}
	}
}

// toggleMute mutes the channel this seat reads, or hears it again.
func (c *chatPanel) toggleMute() tea.Cmd {
	t := c.t
	ch := t.channel()
	mute := !slices.Contains(c.muted, ch)
	tok, id, gen := t.speaker(), t.id, t.gen
	cl := *t.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(t.ctx, 15*time.Second)
		defer cancel()
		tok, made, err := speakAs(ctx, cl, tok)
		if err != nil {
			return mutedMsg{gen: gen, err: err}
		}
		ms, err := cl.Mute(ctx, tok, id, ch, mute)
		if ms == nil {
			ms = []string{}
		}
		return mutedMsg{gen, ms, err, made}
	}
}

// update handles the keys while the line is open, and the answers of
// chat and mute.
func (c *chatPanel) update(msg tea.Msg) tea.Cmd {
	t := c.t
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return c.key(msg.String(), msg, c.send)
	case chatSentMsg:
		if msg.gen != t.gen {
			return nil
		}
		t.adopt(msg.identity) // the guest made to write as plays as well
		switch {
		case msg.err != nil:
		case msg.reported != "":
			t.err, t.note = "", "your report about "+msg.reported+" went to the moderators, with this table"
		default:
			// The stream may have shown the line already, and the
			// player opened a new one: only the line sent is cleared.
			c.take([]client.ChatLine{msg.line}, nil)
		}
		c.sent(msg.text, msg.err)
		return nil
	case mutedMsg:
		if msg.gen != t.gen {
			return nil
		}
		t.adopt(msg.identity)
		if msg.err != nil {
			t.err = msg.err.Error()
			return nil
		}
		c.muted = msg.muted
		if slices.Contains(msg.muted, t.channel()) {
			t.note = "the " + t.channel() + "' chat is muted (ctrl+o hears it again)"
		} else {
			t.note = "the " + t.channel() + "' chat is heard again"
		}
		return nil
	}
	return nil
}

// view is the chat's lines for the play screen: the last n messages
// of the channels heard and, while writing, the input line with the
// server's refusal in place.
func (c *chatPanel) view(n int) []string {
	input := ""
	if c.open {
		input = "say (" + c.t.channel() + "): "
		if c.line == "" && c.t.cfg.Session != "" {
			// Until the player types, how to report one.
			input = "say (" + c.t.channel() + "), or /report NAME REASON: "
		}
	}
	return chatLines(c.shown(), n, input, c.line, c.err, c.t.w)
}

// shown is the messages of the channels heard.
func (c *chatPanel) shown() []client.ChatLine {
	if len(c.muted) == 0 {
		return c.lines
	}
	// A spectator's stream is nobody's in particular, so the server
	// cannot leave the channels they muted out of it, as it does for a
	// seat's: they are left out here.
	return slices.DeleteFunc(slices.Clone(c.lines), func(l client.ChatLine) bool { return slices.Contains(c.muted, l.Channel) })
}

// chatLines draws a chat in lines of w columns: its last n messages and,
// when input (the line's prompt) is not empty, the line being written,
// its end in sight, with err, the server's refusal of it, above.
func chatLines(lines []client.ChatLine, n int, input, line, err string, w int) []string {
	var out []string
	for _, l := range lines[max(0, len(lines)-n):] {
		out = append(out, fit(faint(marked(l.Name, l.Player)+": ")+l.Text, w, 1))
	}
	if input == "" {
		return out
	}
	if err != "" {
		out = append(out, chatErr(err, w)...)
	}
	r := []rune(line)
	if room := w - ansi.StringWidth(input) - 1; len(r) > room {
		r = r[len(r)-room:]
	}
	return append(out, input+string(r)+"█")
}

// chatErr is the server's refusal of a chat's line in at most two lines
// of w columns: cut at the edge, it lost its reason ("… or once they
// have played a game: wait a moment").
func chatErr(err string, w int) []string {
	ls := strings.Split(wrap("! "+err, w), "\n")
	if len(ls) > 2 {
		ls = []string{ls[0], strings.Join(ls[1:], " ")}
	}
	for i, l := range ls {
		ls[i] = bad(fit(l, w, 1))
	}
	return ls
}

// marked is a player's name as others see it: a guest's says so, so that
// nobody passes for an account, as the browser marks it too.
func marked(name, player string) string {
	if player == "guest" {
		return name + " (guest)"
	}
	return name
}
