package tui

import (
	"context"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/tui/client"
)

// eventChat is an event's chat as its screen holds it: the messages kept
// by seq, read with the event, and the line being written, which takes
// the keys while open.
type eventChat struct {
	lines []client.ChatLine
	last  int // the number to read from next
	chatLine
}

// eventChatRows is how many of the chat's messages the event screen shows.
const eventChatRows = 3

// eventSaidMsg answers a message written in an event's chat, or a mute
// its creator typed.
type eventSaidMsg struct {
	gen  int
	text string // as typed, to tell whether the line on screen is still it
	line client.ChatLine
	err  error
	// muted is the mute done (nil for a message), of the player name.
	muted *bool
	name  string
	// reported says whom a report was about ("" for none).
	reported string
}

// muteCommand reads a chat line that mutes a writer, "/mute NAME", or
// lets them write again, "/unmute NAME" (the command in any case): ok is
// false for any other line, which is a message.
func muteCommand(text string) (name string, muted, ok bool) {
	cmd, rest, _ := strings.Cut(text, " ")
	switch strings.ToLower(cmd) {
	case "/mute":
		muted = true
	case "/unmute":
	default:
		return "", false, false
	}
	return strings.TrimSpace(rest), muted, true
}

// take keeps the messages not yet seen, by seq, and where to read next.
func (c *eventChat) take(ls []client.ChatLine, last int) {
	for _, l := range ls {
		if !slices.ContainsFunc(c.lines, func(o client.ChatLine) bool { return o.Seq == l.Seq }) {
			c.lines = append(c.lines, l)
		}
	}
	slices.SortFunc(c.lines, func(a, b client.ChatLine) int { return a.Seq - b.Seq })
	if len(c.lines) > 100 {
		c.lines = c.lines[len(c.lines)-100:]
	}
	c.last = max(c.last, last)
}

// chatKey handles a key while the event's chat line is open.
func (e *eventScreen) chatKey(s string, k tea.KeyPressMsg) tea.Cmd {
	return e.chat.key(s, k, e.say)
}

// say writes text in the event's chat, as the account or as one of the
// event's players.
func (e *eventScreen) say(text string) tea.Cmd {
	tok := e.cfg.Session
	if tok == "" {
		tok = e.idToken
	}
	if tok == "" {
		e.chat.err = "join the event (j) or sign in to write in its chat"
		return nil
	}
	gen, id, cl := e.gen, e.id, e.c
	if name, reason, words, ok := reportCommand(text); ok {
		switch {
		case e.cfg.Session == "":
			e.chat.err = "sign in to report a player: reports are for accounts"
			return nil
		case name == "" || reason == "":
			e.chat.err = reportUsage
			return nil
		}
		// By the writer's latest line here, guest or account: the report
		// is then about this event, and its line is the moderators' to
		// read.
		l, byLine := reportedLine(e.chat.lines, name, true)
		session := e.cfg.Session
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(e.ctx, 15*time.Second)
			defer cancel()
			var err error
			if byLine {
				who := ""
				if l.Player == "account" {
					who = l.Name
				}
				_, err = cl.ReportLine(ctx, session, "", id, l.Seq, who, reason, words)
			} else {
				_, err = cl.Report(ctx, session, name, reason, words, "")
			}
			return eventSaidMsg{gen: gen, text: text, err: err, reported: reportedWords(name, l, byLine)}
		}
	}
	if name, muted, ok := muteCommand(text); ok {
		// The event's creator keeps a writer out of its chat; the server
		// refuses anybody else, in its words.
		if name == "" {
			e.chat.err = "name the player: " + strings.Fields(text)[0] + " NAME"
			return nil
		}
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(e.ctx, 15*time.Second)
			defer cancel()
			err := cl.EventMute(ctx, tok, id, name, muted)
			return eventSaidMsg{gen: gen, text: text, err: err, muted: &muted, name: name}
		}
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(e.ctx, 15*time.Second)
		defer cancel()
		l, err := cl.EventSay(ctx, tok, id, text)
		return eventSaidMsg{gen: gen, text: text, line: l, err: err}
	}
}

// said takes the answer to a message written.
func (e *eventScreen) said(msg eventSaidMsg) tea.Cmd {
	switch {
	case msg.err != nil:
	case msg.reported != "":
		e.err, e.note = "", "your report about "+msg.reported+" went to the moderators"
	case msg.muted == nil:
		e.chat.take([]client.ChatLine{msg.line}, 0)
	case *msg.muted:
		e.err, e.note = "", msg.name+" can no longer write in this chat (/unmute "+msg.name+" lets them)"
	default:
		e.err, e.note = "", msg.name+" may write in this chat again"
	}
	e.chat.sent(msg.text, msg.err)
	return nil
}

// chatView is the chat's lines on the event screen: its title, the latest
// messages and, while writing, the line with the server's refusal in
// place; none while the chat is empty and closed.
func (e *eventScreen) chatView() []string {
	c := &e.chat
	if len(c.lines) == 0 && !c.open {
		return nil
	}
	input := ""
	if c.open {
		input = "say: "
		if c.line == "" && e.cfg.Session != "" {
			input = "say, or /report NAME REASON: "
		}
	}
	return append([]string{title("Chat")}, chatLines(c.lines, eventChatRows, input, c.line, c.err, e.w)...)
}
