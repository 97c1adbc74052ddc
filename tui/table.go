package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// session is the table on screen: its seat, the latest update from the
// event stream and what the player is doing at it.
type session struct {
	id, token, invite, game string
	seat                    int
	gen                     int // tells this session's stream messages from an earlier one's
	upd                     *client.Update
	logged                  int             // the last version whose moves are in log
	log                     []string        // the events, in a player's words
	ends                    *endData        // the end event's data, once seen
	ctx                     context.Context // ends when the player leaves the table
	cancel                  context.CancelFunc
	updates                 chan client.Update
	errs                    chan error
	lost                    string // the stream's last failure, until it comes back
	busy                    bool   // a move or setup is on its way
	pending                 string // the line of the move on its way
	pendingAim              []string
	sent                    int // moves and setups sent
	sentAt                  int // the version the last move was sent at
	setup                   setupState
	play                    playState
	saved                   string
	recordURL, recordFile   string // where a NoDisk client's player fetches the record, and a file name for it
	chat                    chatState
	arrived                 time.Time // when the latest update arrived (monotonic), for the clocks
	ticking                 bool      // a clock tick is on its way
	forced                  []string  // the timeout and claim events, in words, for the end screen
	leaveAsked              bool      // ctrl+x was pressed once: a second press leaves the table
	reports                 reportsState
	abortAsked              bool // ctrl+a was pressed once: a second press aborts the game
}

func (s *session) stop() {
	if s.cancel != nil {
		s.cancel()
	}
}

// updateMsg is an update from a session's event stream.
type updateMsg struct {
	gen int
	u   client.Update
}

// streamErrMsg is a failure of a session's event stream.
type streamErrMsg struct {
	gen int
	err error
}

// answerMsg is the answer to a move or a setup.
type answerMsg struct {
	gen int
	seq int // the number of the move or setup sent
	a   client.Answer
	err error
}

// sit opens the table screen for a seat and follows the table's events.
func (m *Model) sit(s client.Seated, game string) tea.Cmd {
	if m.t != nil {
		m.t.stop()
	}
	m.sessions++
	ctx, cancel := context.WithCancel(m.ctx)
	t := &session{id: s.Table, token: s.Token, invite: s.Invite, game: game, seat: s.Seat, gen: m.sessions,
		ctx: ctx, cancel: cancel, updates: make(chan client.Update, 16), errs: make(chan error, 4)}
	m.t, m.err, m.note = t, "", ""
	go m.c.Stream(ctx, t.token, t.id, 0, t.updates, t.errs)
	return m.next(t)
}

// next waits for the session's next update or failure.
func (m *Model) next(t *session) tea.Cmd {
	return func() tea.Msg {
		select {
		case u := <-t.updates:
			return updateMsg{t.gen, u}
		case err := <-t.errs:
			return streamErrMsg{t.gen, err}
		case <-t.ctx.Done():
			return nil
		}
	}
}

// tableMsg handles the messages of the table on screen; ok is false for
// messages that are not a table's.
func (m *Model) tableMsg(msg tea.Msg) (tea.Cmd, bool) {
	t := m.t
	switch msg := msg.(type) {
	case updateMsg:
		if msg.gen != t.gen {
			return nil, true
		}
		t.lost = ""
		m.apply(msg.u)
		if msg.u.Table.Status == "finished" {
			return m.afterEnd(), true
		}
		return tea.Batch(m.next(t), m.onUpdate(), m.tick()), true
	case streamErrMsg:
		if msg.gen != t.gen {
			return nil, true
		}
		var refused *client.Error
		switch {
		case msg.err == nil:
			t.lost = ""
		case errors.As(msg.err, &refused) && refused.Status >= 400 && refused.Status < 500 && refused.Status != 429:
			// The server refuses to stream this table (gone, or not
			// this seat's): no use asking again.
			t.lost, m.err = "", msg.err.Error()
			return nil, true
		default:
			t.lost = msg.err.Error()
		}
		return m.next(t), true
	case answerMsg:
		if msg.gen != t.gen {
			return nil, true
		}
		if msg.seq == t.sent {
			t.busy = false
		}
		if msg.err != nil {
			m.err = msg.err.Error()
			// Nothing typed is lost: the refused line comes back.
			if t.play.line == "" {
				t.play.line = t.pending
			}
			if len(t.play.aim) == 0 {
				t.play.aim = t.pendingAim
			}
			t.setup.sending = false
			return nil, true
		}
		// send cleared the message line; a late answer must not clear
		// what came after it (a key out of turn).
		if msg.a.Waiting != "" {
			m.note = msg.a.Waiting
		}
		return m.onAnswer(msg.a), true
	case helperMsg:
		if msg.gen != t.gen {
			return nil, true
		}
		return m.onHelper(msg), true
	case chatSentMsg, mutedMsg, claimMsg, abortMsg, tickMsg:
		return m.chatMsg(msg)
	case leftMsg:
		if msg.gen != t.gen {
			return nil, true
		}
		return m.left(msg), true
	case savedMsg:
		if msg.err != nil {
			m.err = msg.err.Error()
		} else {
			t.saved = msg.path
			m.note = "record saved to " + msg.path
		}
		return nil, true
	}
	return nil, false
}

// apply takes an update in: the view, and the events of the moves not yet
// logged (so that a reconnect neither loses nor repeats any).
func (m *Model) apply(u client.Update) {
	t := m.t
	first := t.upd == nil
	t.upd = &u
	t.arrived = time.Now()
	t.chat.take(u.Chat, u.Muted)
	if t.busy && u.Version > t.sentAt && t.sentAt > 0 {
		// The move is in: the table moved on past it.
		t.busy = false
	}
	if first && t.game == "" {
		t.game = u.Table.Game
	}
	for _, mv := range u.Moves {
		if mv.Version <= t.logged {
			continue
		}
		for _, e := range mv.Events {
			t.log = append(t.log, e.Text)
			if e.Kind == "timeout" || e.Kind == "claim" {
				t.forced = append(t.forced, e.Text)
			}
			if e.Kind == "end" {
				var d endData
				if json.Unmarshal(e.Data, &d) == nil {
					t.ends = &d
				}
			}
		}
		t.logged = mv.Version
	}
	if len(t.log) > 500 {
		t.log = t.log[len(t.log)-500:]
	}
	r := Recent{Server: m.serverName(), Table: t.id, Game: u.Table.Game, Seat: t.seat, Token: t.token,
		Title: u.Table.Title, Status: u.Table.Status, When: time.Now(), Rated: u.Table.Rated}
	if m.cfg.Session == "" {
		r.Identity = m.idToken
	}
	m.remember(r)
}

// endData is the data of a game's end event (docs/protocol.md).
type endData struct {
	Reason  string `json:"reason"`
	Seat    int    `json:"seat"`
	Against int    `json:"against"`
	Word    string `json:"word"`
	Winners []int  `json:"winners"`
	Scores  []int  `json:"scores"`
}

// myTurn says whether the table waits for this seat.
func (t *session) myTurn() bool {
	if t.upd == nil || t.upd.Table.Status != "playing" {
		return false
	}
	for _, s := range t.upd.Table.ToMove {
		if s == t.seat {
			return true
		}
	}
	return false
}

func (t *session) name(seat int) string {
	if t.upd != nil && seat >= 0 && seat < len(t.upd.Table.Seats) {
		return t.upd.Table.Seats[seat].Name
	}
	// A player of the game who is no seat of the table (the computer
	// that hid Salvo practice's fleet) is named in the view.
	var v struct {
		Players []struct {
			Name string `json:"name"`
		} `json:"players"`
	}
	if t.upd != nil && json.Unmarshal(t.upd.View, &v) == nil && seat >= 0 && seat < len(v.Players) {
		return v.Players[seat].Name
	}
	return fmt.Sprintf("seat %d", seat)
}

// practice says whether the table is Salvo practice: one seat firing at
// a fleet the computer hid, whose setup is that fleet.
func (t *session) practice() bool {
	return t.game == "salvo" && t.upd != nil && len(t.upd.Table.Seats) == 1
}

// turnLine says whose turn it is, in words and with a mark that needs no
// colour.
func (t *session) turnLine() string {
	u := t.upd
	if u == nil {
		return "connecting…"
	}
	switch u.Table.Status {
	case "open":
		return "waiting for players to join"
	case "setup":
		return "waiting for the secret setups"
	case "finished":
		return "game over"
	}
	if t.myTurn() {
		line := warm("▶ your turn")
		if c := t.clockText(t.seat); c != "" {
			line += " " + c
		}
		if len(u.Table.ToMove) == 1 {
			return line
		}
	}
	var names []string
	for _, s := range u.Table.ToMove {
		if s == t.seat {
			continue
		}
		n := t.name(s)
		if c := t.clockText(s); c != "" {
			n += " " + c
		}
		if u.Table.Seats[s].AwaySince != nil {
			n += " (away)"
		} else if c := u.Table.Seats[s].Connected; c != nil && !*c {
			n += " (disconnected)"
		}
		names = append(names, n)
	}
	if t.myTurn() {
		line := warm("▶ your turn")
		if c := t.clockText(t.seat); c != "" {
			line += " " + c
		}
		return line + " · also " + strings.Join(names, ", ")
	}
	if len(names) == 0 {
		return "waiting"
	}
	return "waiting for " + strings.Join(names, ", ")
}

// send plays a move in the game's notation, conditional on the version the
// player saw, so that a retry never plays it twice.
func (m *Model) send(move string) tea.Cmd {
	t := m.t
	if t.busy {
		m.note = "one moment: the last move is on its way"
		return nil
	}
	if t.upd == nil || t.upd.Table.Status != "playing" {
		m.err = "the game is not under way"
		return nil
	}
	// A player may resign at any time the game is in play.
	resign := strings.EqualFold(move, "resign")
	if !t.myTurn() && !resign {
		m.err = "it is not your turn: " + t.turnLine()
		return nil
	}
	t.busy, m.err, m.note = true, "", ""
	t.pending, t.play.line = t.play.line, ""
	t.pendingAim, t.play.aim = t.play.aim, nil
	t.sent++
	version, seq := t.upd.Version, t.sent
	t.sentAt = version
	// A move is conditional on the version seen when the table waits for
	// this seat alone, so that it is never played on a table that moved
	// on unseen. Where several seats move at once (Word Fight's answers)
	// the others' moves change the version at any moment, and the
	// referee alone judges.
	cond := version
	if len(t.upd.Table.ToMove) > 1 || !t.myTurn() {
		cond = 0
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(m.ctx, 30*time.Second)
		defer cancel()
		a, err := m.c.Move(ctx, t.token, t.id, move, cond, false)
		return answerMsg{gen: t.gen, seq: seq, a: a, err: err}
	}
}

// helperMsg is the answer of one of the server's helpers.
type helperMsg struct {
	gen  int
	kind string
	raw  json.RawMessage
	err  error
}

// helper calls a server helper for the session.
func (m *Model) helper(kind, path string, body any) tea.Cmd {
	t := m.t
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(m.ctx, 15*time.Second)
		defer cancel()
		var raw json.RawMessage
		err := m.c.Helper(ctx, path, body, &raw)
		return helperMsg{gen: t.gen, kind: kind, raw: raw, err: err}
	}
}

func (m *Model) tableKey(s string, k tea.KeyPressMsg) tea.Cmd {
	t := m.t
	if t.chat.open {
		return m.chatKey(s, k)
	}
	if t.reports.open {
		m.reportsKey(s)
		return nil
	}
	if s != "ctrl+x" {
		t.leaveAsked = false
	}
	if s != "ctrl+a" {
		t.abortAsked = false
	}
	if t.upd != nil {
		switch s {
		case "ctrl+x":
			return m.leave()
		case "ctrl+a":
			return m.abort()
		case "ctrl+t":
			t.chat.open, t.chat.err = true, ""
			return nil
		case "ctrl+o":
			return m.toggleMute()
		case "ctrl+g":
			if t.awayToMove() == "" {
				m.err = "nobody to move is away: there is no game to claim"
				return nil
			}
			return m.claim()
		}
	}
	if s == "esc" && !m.typing() {
		t.stop()
		m.t, m.err, m.note = nil, "", ""
		m.goHome()
		return nil
	}
	if t.upd == nil {
		return nil
	}
	switch t.upd.Table.Status {
	case "finished":
		return m.endKey(s)
	case "open", "setup":
		if t.upd.Setup == nil && m.hasSetup() {
			return m.setupKey(s, k)
		}
		return nil
	}
	return m.playKey(s, k)
}

// typing says whether esc should clear a line being typed rather than
// leave the table.
func (m *Model) typing() bool {
	if m.t != nil && (m.t.play.line != "" || m.t.play.outlining) {
		return true
	}
	return false
}

func (m *Model) hasSetup() bool {
	g := m.gameByName(m.t.game)
	return g != nil && g.HasSetup
}

// header is the table's first line: game, table, you, whose turn.
func (m *Model) header() string {
	t := m.t
	game := title(t.game)
	if t.upd != nil {
		game = title(t.upd.Table.Title)
		if t.upd.Table.Rated {
			// Said on every table screen: a rated game changes ratings.
			game += " · " + warm("rated")
		}
	}
	tail := t.turnLine()
	if t.lost != "" {
		tail += " · " + bad("reconnecting")
	}
	line := fmt.Sprintf("%s · %s · you: %s · %s", game, t.id, t.name(t.seat), tail)
	if ansi.StringWidth(line) > m.w {
		// Whose turn matters more than the table's id.
		line = fmt.Sprintf("%s · you: %s · %s", game, t.name(t.seat), tail)
	}
	return line
}

func (m *Model) tableView() string {
	t := m.t
	if t.upd == nil {
		msg := "Connecting to table " + t.id + "…"
		if t.lost != "" {
			msg += "\n" + bad(t.lost)
		}
		return msg + "\n\n" + m.message() + "\n" + faint("esc home · ctrl+c quit")
	}
	if t.reports.open {
		return m.header() + "\n" + m.reportsView()
	}
	var body string
	switch t.upd.Table.Status {
	case "open", "setup":
		body = m.waitingView()
	case "finished":
		body = m.endView()
	default:
		body = m.playView()
	}
	return m.withChat(m.header() + "\n" + body)
}

// withChat adds the chat panel to a table screen in the lines left free
// (at most 3 messages); the input line, while open, takes the place of
// the keys' line when no line is free.
func (m *Model) withChat(screen string) string {
	t := m.t
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	if a := t.awayToMove(); a != "" {
		away := warm(a + " is away: ctrl+g claims the game (the server decides)")
		if at := t.claimAt(); at.After(time.Now()) {
			away = warm(a + " is away: ctrl+g claims the game from " + at.Local().Format("15:04:05"))
		}
		if len(lines) >= m.h {
			lines[m.h-1] = away // in place of the keys' line, on a full screen
			lines = lines[:m.h]
		} else {
			lines = append(lines, away)
		}
	}
	free := m.h - len(lines)
	n := min(3, len(t.chat.lines))
	extra := 0
	if t.chat.open {
		extra = 1
		if t.chat.err != "" {
			extra++
		}
	}
	n = max(0, min(n, free-extra))
	panel := m.chatPanel(n)
	if len(panel) == 0 {
		return strings.Join(lines, "\n")
	}
	if over := len(lines) + len(panel) - m.h; over > 0 {
		lines = lines[:max(1, len(lines)-over)]
	}
	return strings.Join(append(lines, panel...), "\n")
}

// waitingView is the table before play: the invite, and the setup editor
// while this seat's setup is missing.
func (m *Model) waitingView() string {
	t := m.t
	var b strings.Builder
	if t.upd.Table.Status == "open" {
		inv := t.invite
		if inv == "" {
			inv = m.c.Base() + "/t/" + t.id
		}
		// The link on a line of its own: cut at the edge, it would lead
		// nowhere.
		fmt.Fprintf(&b, "Invite a friend: %s\n", inv)
		if c := t.upd.Table.Code; c != "" {
			fmt.Fprintf(&b, "or read out the code %s  (table id %s)\n", client.FormatCode(c), t.id)
		} else {
			fmt.Fprintf(&b, "(table id %s)\n", t.id)
		}
	}
	if t.upd.Setup == nil && m.hasSetup() {
		b.WriteString(m.setupView())
		return b.String()
	}
	b.WriteString("\n")
	for _, s := range t.upd.Table.Seats {
		st := "ready"
		if s.Kind == "open" {
			st = "open seat"
		} else if !s.Ready {
			st = "making their setup"
		}
		fmt.Fprintf(&b, "  %-24s %s\n", marked(s.Name, s.Player), st)
	}
	keys := "esc home · ? help"
	if t.seat >= 0 {
		keys = "ctrl+x leave the table · " + keys
	}
	b.WriteString("\n" + m.message() + "\n" + faint(keys))
	return b.String()
}

// logTail is the last n lines of the event log, each cut to w columns.
func (t *session) logTail(n, w int) []string {
	var out []string
	for i := max(0, len(t.log)-n); i < len(t.log); i++ {
		out = append(out, t.log[i])
	}
	return out
}
