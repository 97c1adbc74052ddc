package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// chatState is a table's chat as this client holds it: the messages kept
// by seq, the channels muted and the line being written.
type chatState struct {
	lines   []client.ChatLine
	seen    map[int]bool
	muted   []string
	open    bool   // the input line takes the keys
	line    string // what is being written
	err     string // the server's refusal of the last line, shown in place
	sending bool
}

// take keeps the messages of an update not yet seen, by seq.
func (c *chatState) take(ls []client.ChatLine, muted []string) {
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

// chatSentMsg is the answer to a chat message.
type chatSentMsg struct {
	gen  int
	text string // as typed, to tell whether the line on screen is still it
	line client.ChatLine
	err  error
}

// mutedMsg is the answer to a mute or unmute.
type mutedMsg struct {
	gen   int
	muted []string
	err   error
}

// abortMsg is the answer to an abort.
type abortMsg struct {
	gen int
	err error
}

// abort ends the game without a result, on a second ctrl+a, while some
// player has not yet moved.
func (t *tableScreen) abort() tea.Cmd {
	if t.upd.Table.Status != "playing" || t.seat < 0 {
		t.err = "there is no game of yours under way to abort"
		return nil
	}
	if !t.upd.Table.Abortable {
		t.abortAsked = false
		t.err = "every player has moved: the game can no longer be aborted (:resign gives up)"
		return nil
	}
	if !t.abortAsked {
		t.abortAsked = true
		t.err, t.note = "", "ctrl+a again aborts the game: it ends without a result, and no rating changes"
		return nil
	}
	t.abortAsked = false
	tok, id, gen := t.token, t.id, t.gen
	t.note, t.err = "aborting the game…", ""
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(t.ctx, 15*time.Second)
		defer cancel()
		return abortMsg{gen, t.c.Abort(ctx, tok, id)}
	}
}

// claimMsg is the answer to a claim.
type claimMsg struct {
	gen int
	err error
}

// tickMsg redraws a running clock once a second.
type tickMsg struct{ gen int }

// chatKey handles a key while the chat line is open.
func (t *tableScreen) chatKey(s string, k tea.KeyPressMsg) tea.Cmd {
	c := &t.chat
	switch s {
	case "esc":
		c.open, c.line, c.err = false, "", ""
		return nil
	case "enter":
		text := strings.TrimSpace(c.line)
		if text == "" || c.sending {
			return nil
		}
		c.sending, c.err = true, ""
		ch, tok, id, gen := t.channel(), t.token, t.id, t.gen
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(t.ctx, 15*time.Second)
			defer cancel()
			l, err := t.c.Chat(ctx, tok, id, ch, text)
			return chatSentMsg{gen, text, l, err}
		}
	}
	// Longer lines than the server takes are typed, and refused in place
	// with its words, so that the limit is the server's alone.
	editLine(&c.line, s, k, 400)
	return nil
}

// toggleMute mutes the channel this seat reads, or hears it again.
func (t *tableScreen) toggleMute() tea.Cmd {
	ch := t.channel()
	mute := !slices.Contains(t.chat.muted, ch)
	tok, id, gen := t.token, t.id, t.gen
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(t.ctx, 15*time.Second)
		defer cancel()
		ms, err := t.c.Mute(ctx, tok, id, ch, mute)
		if ms == nil {
			ms = []string{}
		}
		return mutedMsg{gen, ms, err}
	}
}

// claim asks the server to claim the game against the players to move
// who have been away; it decides.
func (t *tableScreen) claim() tea.Cmd {
	tok, id, gen := t.token, t.id, t.gen
	t.note, t.err = "claiming the game…", ""
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(t.ctx, 15*time.Second)
		defer cancel()
		_, err := t.c.Claim(ctx, tok, id)
		return claimMsg{gen, err}
	}
}

// chatMsg handles the answers of chat, mute, claim and the clock's tick.
func (t *tableScreen) chatMsg(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case chatSentMsg:
		if msg.gen != t.gen {
			return nil
		}
		t.chat.sending = false
		if msg.err != nil {
			t.chat.err = msg.err.Error() // the line stays, to be mended
			return nil
		}
		t.chat.take([]client.ChatLine{msg.line}, nil)
		// The stream may have shown the line already, and the player
		// opened a new one: only the line sent is cleared.
		if strings.TrimSpace(t.chat.line) == msg.text {
			t.chat.line, t.chat.err, t.chat.open = "", "", false
		}
		return nil
	case mutedMsg:
		if msg.gen != t.gen {
			return nil
		}
		if msg.err != nil {
			t.err = msg.err.Error()
			return nil
		}
		t.chat.muted = msg.muted
		if slices.Contains(msg.muted, t.channel()) {
			t.note = "the " + t.channel() + "' chat is muted (ctrl+o hears it again)"
		} else {
			t.note = "the " + t.channel() + "' chat is heard again"
		}
		return nil
	case abortMsg:
		if msg.gen != t.gen {
			return nil
		}
		if msg.err != nil {
			t.note, t.err = "", msg.err.Error()
		} else {
			t.note = "the game is aborted"
		}
		return nil
	case claimMsg:
		if msg.gen != t.gen {
			return nil
		}
		if msg.err != nil {
			t.note, t.err = "", msg.err.Error()
		} else {
			t.note = "the game is claimed"
		}
		return nil
	case tickMsg:
		if msg.gen != t.gen {
			return nil
		}
		t.ticking = false
		return t.tick()
	}
	return nil
}

// clockRuns says whether a seat's clock is counting down.
func (t *tableScreen) clockRuns() bool {
	if t.upd == nil || t.upd.Table.Clock == nil || t.upd.Table.Status != "playing" {
		return false
	}
	for _, s := range t.upd.Table.Seats {
		if s.TimeLeft != nil {
			return true
		}
	}
	return false
}

// tick asks for a redraw in a second while a clock runs, one at a time.
func (t *tableScreen) tick() tea.Cmd {
	if t == nil || t.ticking || !t.clockRuns() {
		return nil
	}
	t.ticking = true
	gen := t.gen
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{gen} })
}

// timeLeft is a seat's time left now: its time_left counted down against
// the local monotonic time since the update arrived. ok is false for a
// seat without a deadline.
func (t *tableScreen) timeLeft(seat int) (time.Duration, bool) {
	if t.upd == nil || seat < 0 || seat >= len(t.upd.Table.Seats) {
		return 0, false
	}
	tl := t.upd.Table.Seats[seat].TimeLeft
	if tl == nil {
		return 0, false
	}
	d := time.Duration(*tl*float64(time.Second)) - time.Since(t.arrived)
	return max(d, 0), true
}

// clockText is a seat's time left, marked "!" when low (a quarter of the
// turn, or 10 seconds, whichever is less), or "" without a clock.
func (t *tableScreen) clockText(seat int) string {
	d, ok := t.timeLeft(seat)
	if !ok {
		return ""
	}
	secs := int((d + time.Second - 1) / time.Second)
	var s string
	switch {
	case secs >= 3600:
		s = fmt.Sprintf("%d:%02d:%02d", secs/3600, secs/60%60, secs%60)
	default:
		s = fmt.Sprintf("%d:%02d", secs/60, secs%60)
	}
	low := 10
	if turn := t.upd.Table.Clock.Turn; turn/4 < low {
		low = turn / 4
	}
	if secs <= low {
		return bad("⏱" + s + "!")
	}
	return "⏱" + s
}

// awayToMove names the person to move whom the view shows away, if any.
func (t *tableScreen) awayToMove() string {
	if t.upd == nil || t.upd.Table.Status != "playing" {
		return ""
	}
	for _, s := range t.upd.Table.ToMove {
		if s != t.seat && s >= 0 && s < len(t.upd.Table.Seats) && t.upd.Table.Seats[s].AwaySince != nil {
			return t.upd.Table.Seats[s].Name
		}
	}
	return ""
}

// claimAt is when the claim against the person to move who is away
// becomes valid, as the view says (zero: not said).
func (t *tableScreen) claimAt() time.Time {
	for _, s := range t.upd.Table.ToMove {
		if s != t.seat && s >= 0 && s < len(t.upd.Table.Seats) && t.upd.Table.Seats[s].ClaimAt != nil {
			return *t.upd.Table.Seats[s].ClaimAt
		}
	}
	return time.Time{}
}

// chatPanel is the chat's lines for the play screen: the last n messages
// of the channels heard and, while writing, the input line with the
// server's refusal in place.
func (t *tableScreen) chatPanel(n int) []string {
	c := &t.chat
	w := t.w
	var out []string
	from := max(0, len(c.lines)-n)
	for _, l := range c.lines[from:] {
		out = append(out, fit(faint(marked(l.Name, l.Player)+": ")+l.Text, w, 1))
	}
	if c.open {
		if c.err != "" {
			out = append(out, fit(bad("! "+c.err), w, 1))
		}
		// The end of a long line stays in sight.
		prefix := "say (" + t.channel() + "): "
		line := []rune(c.line)
		room := w - ansi.StringWidth(prefix) - 1
		if len(line) > room {
			line = line[len(line)-room:]
		}
		out = append(out, prefix+string(line)+"█")
	}
	return out
}

// marked is a player's name as others see it: a guest's says so, so that
// nobody passes for an account, as the browser marks it too.
func marked(name, player string) string {
	if player == "guest" {
		return name + " (guest)"
	}
	return name
}
