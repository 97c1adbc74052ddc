package tui

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// tableScreen is a table: its seat, the latest update from the event
// stream, the events in words and the chat. It draws the table's first
// line and the chat, and passes the rest to the screen of the table's
// state: the setup editor while this seat's setup is due, the play
// screen while the game is under way, the end screen once it is over,
// and the list of every report over either of the last two.
type tableScreen struct {
	*shared
	id, token, invite, game string
	seat                    int
	gen                     int // tells this table's stream messages from an earlier one's
	upd                     *client.Update
	logged                  int             // the last version whose moves are in log
	log                     []string        // the events, in a player's words
	logBy                   []logMove       // for each event of log, the move it came with
	ends                    *endData        // the end event's data, once seen
	stream                  context.Context // ends when the player leaves the table
	cancel                  context.CancelFunc
	updates                 chan client.Update
	errs                    chan error
	lost                    string // the stream's last failure, until it comes back
	busy                    bool   // a move or setup is on its way
	pending                 string // the line of the move on its way
	pendingAim              []string
	sent                    int    // moves and setups sent
	sentAt                  int    // the version the last move was sent at
	landed                  int    // the number of the last move sent that the table showed played
	waiting                 string // the note a setup's answer left, what kept play from starting
	chat                    *chatPanel
	arrived                 time.Time // when the latest update arrived (monotonic), for the clocks
	ticking                 bool      // a clock tick is on its way
	forced                  []string  // the timeout and claim events, in words, for the end screen
	leaveAsked              bool      // ctrl+x was pressed once: a second press leaves the table
	abortAsked              bool      // ctrl+a was pressed once: a second press aborts the game
	resignAsked             bool      // resign was sent once: a second enter resigns
	cannotAsked             bool      // Word Fight's c was pressed once: a second press says the word cannot be placed
	errSeen                 string    // the error on screen after the last message
	errSince                time.Time // when errSeen came on screen
	// refusal is the referee's refusal of a move and the line it gave
	// back, while both are on screen (keptRefusal).
	refusal struct{ err, line string }
	// moves counts the moves seen, each the next of the record's;
	// forcedAt holds those the server played for a seat, by their
	// number in the record: the record says only the move, not why,
	// so the replay learns it here.
	moves    int
	forcedAt map[int]forcedMove

	setup   *setupScreen
	play    *playScreen
	end     *endScreen
	reports *reportsScreen // every report, while open
	replay  *replayScreen  // the game's replay, while open
	// replaying says the screen draws a step of a replay: no cursor, no
	// line to type, the replay's keys.
	replaying bool
	// event is the event the game belongs to, when opened from one: esc
	// goes back to it rather than home.
	event *eventScreen
	// from is the screen esc goes back to (a profile whose game this
	// is), when not home.
	from screen
	// guide is the first-game guide, while open; guideAsked says the
	// table has asked whether to open it by itself.
	guide      *guidePanel
	guideAsked bool
	// heldBefore says the player held this table, in play, before this
	// screen opened it: a game come back to (by a resume code, or chosen
	// among the recent games), whose first-game guide is not for it.
	// The screen puts the table among the recent games itself, so this
	// is asked as it opens.
	heldBefore bool
	// moved says the seat's own moves are among those logged: the
	// player has played this game already.
	moved bool
}

// openTable makes the screen of a seat at a table, the gen-th this
// client opened, and follows the table's events.
func openTable(sh *shared, s client.Seated, game string, gen int) *tableScreen {
	ctx, cancel := context.WithCancel(sh.ctx)
	t := &tableScreen{shared: sh, id: s.Table, token: s.Token, invite: s.Invite, game: game, seat: s.Seat, gen: gen,
		stream: ctx, cancel: cancel, updates: make(chan client.Update, 16), errs: make(chan error, 4)}
	t.setup, t.play, t.end, t.chat = &setupScreen{t: t}, &playScreen{t: t}, &endScreen{t: t}, &chatPanel{t: t}
	t.heldBefore = slices.ContainsFunc(sh.recentHere(), func(r Recent) bool {
		return r.Table == s.Table && r.Status != "open" && r.Status != "setup"
	})
	go sh.c.Stream(ctx, t.token, t.id, 0, t.updates, t.errs)
	return t
}

// checkView reports a view that is not the game's: the play screens
// decode it again wherever they draw or take a key, and may then count
// on every field having its type. No view (before play starts) is fine.
func checkView(game string, raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var v any
	switch game {
	case "quizl":
		v = &quizlView{}
	case "salvo":
		v = &salvoView{}
	case "wordfight":
		v = &wordfightView{}
	case "nymphabet":
		v = &nymphView{}
	default:
		return nil // drawn as it came (playScreen.view)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("this client cannot read the table's view (is it older than the server?): %w", err)
	}
	return nil
}

// stop ends the table's stream and requests.
func (t *tableScreen) stop() {
	if t.cancel != nil {
		t.cancel()
	}
}

// takeHeld opens seat r, which the player holds at this table, opened
// to watch (a followed player's game, an event's): a spectator cannot
// move, and the player would sit unable to play their own game. Esc
// there goes back where it would have from here.
func (t *tableScreen) takeHeld(r Recent, game string) tea.Cmd {
	if r.Identity != "" && t.cfg.Session == "" {
		t.idToken = r.Identity
	}
	s := client.Seated{Table: t.id, Seat: r.Seat, Token: r.Token, Invite: t.invite}
	switch {
	case t.event != nil:
		return t.nav.sitFor(s, game, t.event)
	case t.from != nil:
		return t.nav.sitFrom(s, game, t.from)
	}
	return t.nav.sit(s, game)
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

// next waits for the table's next update or failure.
func (t *tableScreen) next() tea.Cmd {
	return func() tea.Msg {
		select {
		case u := <-t.updates:
			return updateMsg{t.gen, u}
		case err := <-t.errs:
			return streamErrMsg{t.gen, err}
		case <-t.stream.Done():
			return nil
		}
	}
}

func (t *tableScreen) update(msg tea.Msg) tea.Cmd {
	defer t.markErr()
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return t.key(msg.String(), msg)
	case updateMsg:
		if msg.gen != t.gen {
			return nil
		}
		if err := checkView(cmp.Or(t.game, msg.u.Table.Game), msg.u.View); err != nil {
			// Keep the last update the screen could draw, and say why
			// the table stands still.
			t.err = err.Error()
			return t.next()
		}
		if t.watching() && msg.u.Table.Status != "finished" {
			if r, ok := t.heldSeat(t.id, msg.u.Table.Seats); ok {
				return t.takeHeld(r, cmp.Or(t.game, msg.u.Table.Game))
			}
		}
		// Something happened at the table, or the server is back: an
		// error on screen was about the table as it stood before ("it
		// is not your turn", "cannot reach the server").
		stale := t.upd != nil && msg.u.Version != t.upd.Version || t.lost != ""
		t.lost = ""
		waited := t.upd != nil && !t.myTurn()
		t.apply(msg.u)
		var bell, clear tea.Cmd
		if waited && t.myTurn() {
			bell = t.turnBell()
		}
		if stale {
			clear = t.staleErr()
		}
		if msg.u.Table.Status == "finished" {
			t.play.line = ""
			return tea.Batch(t.end.askRating(0), t.end.poll(), clear)
		}
		return tea.Batch(t.next(), t.onUpdate(), t.tick(), bell, clear)
	case errStaleMsg:
		if msg.gen == t.gen && t.err == msg.err && t.errSince.Equal(msg.since) && !t.keptRefusal() {
			t.err = ""
		}
		return nil
	case streamErrMsg:
		if msg.gen != t.gen {
			return nil
		}
		var refused *client.Error
		switch {
		case msg.err == nil:
			var clear tea.Cmd
			if t.lost != "" {
				// The server is back, with nothing new at the table
				// (news would have come as an update).
				clear = t.staleErr()
			}
			t.lost = ""
			return tea.Batch(t.next(), clear)
		case errors.As(msg.err, &refused) && refused.Status >= 400 && refused.Status < 500 && refused.Status != 429:
			// The server refuses to stream this table (gone, or not
			// this seat's): no use asking again.
			t.lost, t.err = "", msg.err.Error()
			return nil
		default:
			t.lost = msg.err.Error()
		}
		return t.next()
	case answerMsg:
		if msg.gen != t.gen {
			return nil
		}
		if msg.seq == t.sent {
			t.busy = false
		}
		if msg.err != nil && msg.seq == t.landed {
			// The table showed the move played before its answer failed
			// (the connection dropped on the way back): it is in, and
			// its line must not come back to be sent again.
			return nil
		}
		if msg.err != nil {
			t.err = msg.err.Error()
			t.refusal.err, t.refusal.line = "", ""
			// Nothing typed is lost: the refused line comes back.
			if t.play.line == "" {
				t.play.line = t.pending
				var refused *client.Error
				if errors.As(msg.err, &refused) && refused.Status == http.StatusUnprocessableEntity && t.pending != "" {
					t.refusal.err, t.refusal.line = t.err, t.pending
				}
			}
			if len(t.play.aim) == 0 {
				t.play.aim = t.pendingAim
			}
			t.setup.sending = false
			return nil
		}
		// send cleared the message line; a late answer must not clear
		// what came after it (a key out of turn).
		if msg.a.Waiting != "" {
			t.note, t.waiting = msg.a.Waiting, msg.a.Waiting
		}
		t.setup.sending = false
		return nil
	case helperMsg:
		if msg.gen != t.gen {
			return nil
		}
		if strings.HasPrefix(msg.kind, "preview:") || strings.HasPrefix(msg.kind, "outline:") {
			return t.play.update(msg)
		}
		return t.setup.update(msg)
	case chatSentMsg, mutedMsg:
		return t.chat.update(msg)
	case claimMsg, tickMsg:
		return t.clockMsg(msg)
	case abortMsg:
		return t.aborted(msg)
	case leftMsg:
		if msg.gen != t.gen {
			return nil
		}
		return t.left(msg)
	case savedMsg, analysisMsg, replayMsg, ratingMsg, endPollMsg:
		return t.end.update(msg)
	}
	return nil
}

// errRead is the least time an error stays on screen when news makes it
// stale: a refusal of the player's own move must not vanish unread
// because the table moved on in the same instant.
const errRead = 3 * time.Second

// errStaleMsg clears err, on screen since since, once it has been read.
type errStaleMsg struct {
	gen   int
	err   string
	since time.Time
}

// markErr notes when the error on screen came on, after each message.
func (t *tableScreen) markErr() {
	if t.err != t.errSeen {
		t.errSeen, t.errSince = t.err, time.Now()
	}
}

// staleErr clears the error on screen, made stale by news from the
// table: at once when it has been on screen errRead, else when it has
// (if it is still the one on screen then).
func (t *tableScreen) staleErr() tea.Cmd {
	if t.err == "" || t.keptRefusal() {
		return nil
	}
	t.markErr() // set while this message was handled: on screen from now
	left := errRead - time.Since(t.errSince)
	if left <= 0 {
		t.err = ""
		return nil
	}
	msg := errStaleMsg{t.gen, t.err, t.errSince}
	return tea.Tick(left, func(time.Time) tea.Msg { return msg })
}

// keptRefusal reports whether the error on screen is the referee's
// refusal of the move still on the line, with the seat still to move:
// news from the table leaves it, however long it has been on screen. In
// a Word Fight of four the others' answers come every second or two,
// and a refused placement's line, back without its reason, would say
// nothing of what to mend. Mending the line, or the turn passing, makes
// it stale as any other.
func (t *tableScreen) keptRefusal() bool {
	return t.refusal.err != "" && t.err == t.refusal.err && t.play.line == t.refusal.line && t.myTurn()
}

// apply takes an update in: the view, and the events of the moves not yet
// logged (so that a reconnect neither loses nor repeats any).
func (t *tableScreen) apply(u client.Update) {
	first := t.upd == nil
	if !first && t.upd.Table.Status != "finished" && u.Table.Status == "finished" {
		// The game is over: a refusal of a move, and the line being
		// typed, are moot; the end says how it ended.
		t.err, t.play.line = "", ""
	}
	if !first && t.game == "quizl" && !t.watching() {
		t.play.followTarget(t.upd.View, u.View)
	}
	t.upd = &u
	if t.waiting != "" && (u.Table.Status == "playing" || u.Table.Status == "finished") {
		// Play began: what kept it waiting is old news.
		if t.note == t.waiting {
			t.note = ""
		}
		t.waiting = ""
	}
	t.arrived = time.Now()
	t.chat.take(u.Chat, u.Muted)
	if t.busy && u.Version > t.sentAt && t.sentAt > 0 {
		// The move is in: the table moved on past it. When the update
		// shows it played, a failure of its answer (the connection
		// dropped on the way back) is no refusal (landed).
		for _, mv := range u.Moves {
			if mv.Seat == t.seat && mv.Version > t.sentAt && !forced(mv) {
				t.landed = t.sent
			}
		}
		t.busy = false
	}
	if first && t.game == "" {
		t.game = u.Table.Game
	}
	for _, mv := range u.Moves {
		if mv.Version <= t.logged {
			continue
		}
		t.moves++
		if t.seat >= 0 && mv.Seat == t.seat && !forced(mv) {
			t.moved = true
		}
		for _, e := range mv.Events {
			t.log = append(t.log, e.Text)
			t.logBy = append(t.logBy, logMove{seat: mv.Seat, version: mv.Version})
			if forcedEvent(e) {
				t.forced = append(t.forced, e.Text)
				f := forcedMove{why: e.Kind, text: e.Text, seat: mv.Seat}
				json.Unmarshal(e.Data, &f.data) // who claimed the game, if anybody
				if t.forcedAt == nil {
					t.forcedAt = map[int]forcedMove{}
				}
				t.forcedAt[t.moves] = f
			}
			if e.Kind == "end" {
				var d endData
				if json.Unmarshal(e.Data, &d) == nil {
					d.move = t.moves
					t.ends = &d
				}
			}
		}
		t.logged = mv.Version
	}
	if len(t.log) > 500 {
		t.log = t.log[len(t.log)-500:]
		t.logBy = t.logBy[len(t.logBy)-500:]
	}
	if t.seat < 0 {
		// A game watched (from the lobby, a profile or an event) is none
		// of the player's: the recent games are the tables sat at.
		return
	}
	r := Recent{Server: t.serverName(), Table: t.id, Game: u.Table.Game, Seat: t.seat, Token: t.token,
		Title: dailyTitle(u.Table.Title, u.Table.Daily != ""), Status: recentStatus(u.Table, t.seat), When: time.Now(), Rated: u.Table.Rated, Daily: u.Table.Daily != "", Event: eventWords(u.Table.Event)}
	if t.cfg.Session == "" {
		r.Identity, r.Name = t.idToken, t.c.Name
	}
	if u.Table.Status == "finished" {
		r.Forfeits = t.forfeitWords()
	}
	t.remember(r)
}

// forfeitWords says whom the server played for in this game and why, as
// a line of the recent games has it: "you ran out of time".
func (t *tableScreen) forfeitWords() []string {
	var out []string
	for _, mv := range slices.Sorted(maps.Keys(t.forcedAt)) {
		f := t.forcedAt[mv]
		who := "you"
		if f.seat != t.seat {
			who = t.name(f.seat)
		}
		if w := forfeitWords(who, f.why); !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// recentStatus is a table's status as the recent games list it: a
// finished game by its result for seat ("won", "lost", "a draw" or
// "aborted"), as the server's list of an account's games words it, so
// that a guest's list says as much as an account's.
func recentStatus(tb client.Table, seat int) string {
	res := tb.Result
	switch {
	case tb.Status != "finished" || res == nil:
		return tb.Status
	case res.Status == "aborted":
		return "aborted"
	case slices.Contains(res.Winners, seat):
		return "won"
	case len(res.Winners) == 0 && len(tb.Seats) > 1:
		return "a draw"
	}
	return "lost"
}

// logMove is the move an event of the log came with: its seat and version.
type logMove struct{ seat, version int }

// ownLatest returns where in the log the events of this seat's latest
// move lie, log[from:to]; from == to when it has made none (a spectator
// never has).
func (t *tableScreen) ownLatest() (from, to int) {
	if t.seat < 0 {
		return 0, 0
	}
	for i := len(t.logBy) - 1; i >= 0; i-- {
		if t.logBy[i].seat != t.seat {
			continue
		}
		from = i
		for from > 0 && t.logBy[from-1] == t.logBy[i] {
			from--
		}
		return from, i + 1
	}
	return 0, 0
}

// forced reports whether mv is a move the server played for its seat
// (forcedEvent).
func forced(mv client.Move) bool { return slices.ContainsFunc(mv.Events, forcedEvent) }

// forcedEvent reports whether e tells of a move the server played for a
// seat: its time ran out, or the game was claimed.
func forcedEvent(e client.Event) bool { return e.Kind == "timeout" || e.Kind == "claim" }

// forcedMove is a move the server played for a seat (forcedEvent): why
// (the event's kind, "timeout" or "claim"), the event's words, and the
// seat it played for.
type forcedMove struct {
	why, text string
	seat      int
	data      struct {
		By int `json:"by"` // who claimed the game
	}
}

// cause says in a few words why the server played the move: "time ran
// out", or who claimed the game against the seat away.
func (t *tableScreen) cause(f forcedMove) string {
	if f.why == "claim" {
		return "away, claimed by " + t.name(f.data.By)
	}
	return "time ran out"
}

// endData is the data of a game's end event (docs/protocol.md), and the
// number of the move it came with in the record.
type endData struct {
	Reason  string `json:"reason"`
	Seat    int    `json:"seat"`
	Against int    `json:"against"`
	Word    string `json:"word"`
	Winners []int  `json:"winners"`
	Scores  []int  `json:"scores"`
	move    int
}

// myTurn says whether the table waits for this seat.
func (t *tableScreen) myTurn() bool {
	if t.upd == nil || t.upd.Table.Status != "playing" || t.upd.Table.DayOver {
		return false
	}
	for _, s := range t.upd.Table.ToMove {
		if s == t.seat {
			return true
		}
	}
	return false
}

func (t *tableScreen) name(seat int) string {
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
func (t *tableScreen) practice() bool {
	return t.game == "salvo" && t.upd != nil && len(t.upd.Table.Seats) == 1
}

// turnLine says whose turn it is, in words and with a mark that needs no
// colour.
func (t *tableScreen) turnLine() string {
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
	if u.Table.DayOver {
		// Its answer is open to everyone now: the server takes no move
		// at it but a resignation.
		return "the day is over: :resign ends this attempt"
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
func (t *tableScreen) send(move string) tea.Cmd {
	if t.busy {
		t.note = "one moment: the last move is on its way"
		return nil
	}
	if t.upd == nil || t.upd.Table.Status != "playing" {
		t.err = "the game is not under way"
		return nil
	}
	// A player may resign at any time the game is in play, after
	// saying so twice: the first enter only says what it would do.
	resign := strings.EqualFold(move, "resign")
	if !t.myTurn() && !resign {
		t.err = "it is not your turn: " + t.turnLine()
		// In Word Fight a player who has answered the word waits for the
		// others' answers: it was their turn, and may seem it still.
		if t.game == "wordfight" {
			if v := t.wfView(); v.Current != "" && t.seat >= 0 && t.seat < len(v.Answered) && v.Answered[t.seat] {
				t.err = "you have answered " + strings.ToUpper(v.Current) + " already: " + t.turnLine()
			}
		}
		return nil
	}
	if resign && !t.resignAsked {
		t.resignAsked = true
		words := t.resignWords()
		if t.game == "nymphabet" && !strings.HasPrefix(strings.TrimSpace(t.play.line), ":") {
			// Typed as a word at R: the player may have meant the word.
			words = "RESIGN is no word to play: it gives up the game. " + words
		}
		t.err, t.note = "", words+" enter again resigns; any other key takes it back"
		return nil
	}
	t.resignAsked = false
	t.busy, t.err, t.note = true, "", ""
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
		ctx, cancel := context.WithTimeout(t.ctx, 30*time.Second)
		defer cancel()
		a, err := t.c.Move(ctx, t.token, t.id, move, cond, false)
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

// helperWait is how long a helper's answer is awaited: the others answer
// at once, a deceptive fill waits for the computer (computerWait).
func helperWait(kind string) time.Duration {
	if kind == "fill" {
		return computerWait
	}
	return 15 * time.Second
}

// helper calls a server helper for the session.
func (t *tableScreen) helper(kind, path string, body any) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(t.ctx, helperWait(kind))
		defer cancel()
		var raw json.RawMessage
		err := t.c.Helper(ctx, path, body, &raw)
		return helperMsg{gen: t.gen, kind: kind, raw: raw, err: err}
	}
}

func (t *tableScreen) key(s string, k tea.KeyPressMsg) tea.Cmd {
	if t.chat.open {
		return t.chat.update(k)
	}
	if t.replay != nil {
		return t.replay.key(s)
	}
	if t.reports != nil {
		return t.reports.update(k)
	}
	// Any other key takes a question back, and its note with it.
	if s != "ctrl+x" && t.leaveAsked {
		t.leaveAsked, t.note = false, ""
	}
	if s != "ctrl+a" && t.abortAsked {
		t.abortAsked, t.note = false, ""
	}
	if s != "enter" && t.resignAsked {
		t.resignAsked, t.note = false, ""
	}
	if s != "c" && t.cannotAsked {
		t.cannotAsked, t.note = false, ""
	}
	if t.watching() {
		return t.watchKey(s, k)
	}
	if t.guide != nil && t.guideKey(s) {
		return nil
	}
	if t.upd != nil {
		switch s {
		case "ctrl+x":
			return t.leave()
		case "ctrl+a":
			return t.abort()
		case "ctrl+t":
			t.chat.open, t.chat.err = true, ""
			return nil
		case "ctrl+o":
			return t.chat.toggleMute()
		case "ctrl+b":
			return t.toggleBell()
		case "ctrl+s":
			return t.saveSoFar()
		case "ctrl+g":
			if t.awayToMove() == "" {
				t.err = "nobody to move is away: there is no game to claim"
				return nil
			}
			return t.claim()
		}
	}
	if s == "esc" && !t.typing() {
		t.stop()
		t.err, t.note = "", ""
		return t.back()
	}
	if t.upd == nil {
		return nil
	}
	switch t.upd.Table.Status {
	case "finished":
		return t.end.update(k)
	case "open", "setup":
		if t.upd.Setup == nil && t.hasSetup() {
			return t.setup.update(k)
		}
		return nil
	}
	cmd := t.play.update(k)
	if t.refusal.err != "" && t.err == t.refusal.err && t.play.line != t.refusal.line {
		// The line the referee refused is changed: its reason speaks of
		// a line no longer there.
		t.err = ""
		t.refusal.err, t.refusal.line = "", ""
	}
	return cmd
}

// back leaves the table for the event it belongs to, while that is the
// event followed, or home.
func (t *tableScreen) back() tea.Cmd {
	if e := t.event; e != nil && e.event == e {
		t.nav.show(e)
		return e.resume()
	}
	if t.from != nil {
		t.nav.show(t.from)
		return nil
	}
	if t.daily() {
		// The result and its share text are the daily screen's, with
		// this game's puzzle chosen.
		return openDaily(t.shared, t.upd.Table.Game)
	}
	t.nav.goHome()
	if t.guestUnderWay() {
		// A game of the guest's list may have ended since it was left.
		return t.loadServed()
	}
	return nil
}

// daily says whether the table is the player's attempt at a daily
// puzzle.
func (t *tableScreen) daily() bool {
	return t.upd != nil && t.upd.Table.Daily != "" && !t.watching()
}

// typing says whether esc should clear a line being typed rather than
// leave the table.
func (t *tableScreen) typing() bool {
	if t != nil && (t.play.line != "" || t.play.outlining) {
		return true
	}
	return false
}

func (t *tableScreen) hasSetup() bool {
	g := t.gameByName(t.game)
	return g != nil && g.HasSetup
}

// watching says whether the table is watched, without a seat: a
// spectator's, opened from the lobby's games to watch.
func (t *tableScreen) watching() bool { return t.seat < 0 }

// watchKeys are a spectator's keys.
const watchKeys = "watching · ctrl+t chat with the spectators · ctrl+o mute · esc home · ? help"

// watchKey handles a spectator's key: the chat, home, and the end's
// record; nothing that plays.
func (t *tableScreen) watchKey(s string, k tea.KeyPressMsg) tea.Cmd {
	switch s {
	case "ctrl+t":
		if t.upd != nil {
			t.chat.open, t.chat.err = true, ""
		}
		return nil
	case "ctrl+o":
		if t.upd != nil {
			return t.chat.toggleMute()
		}
		return nil
	case "esc":
		t.stop()
		t.err, t.note = "", ""
		return t.back()
	case "tab":
		// A Salvo of three or more: the next oceans.
		if t.upd != nil && t.upd.Table.Status == "playing" && t.game == "salvo" {
			t.play.board++
		}
		return nil
	case "s", "a", "b", "l", "p":
		if t.upd != nil && t.upd.Table.Status == "finished" {
			return t.end.update(k)
		}
	case "ctrl+a":
		return t.abort() // says a spectator has no game to abort
	case "ctrl+x":
		return t.leave() // says a spectator has no seat to leave
	}
	if t.upd != nil && t.upd.Table.Status != "finished" && (s == "enter" || s == "ctrl+g" || s == "ctrl+s" || len([]rune(k.Key().Text)) == 1) {
		// A key that would play, claim or save at a seat: a spectator
		// is told why nothing happens, and what they may do.
		t.err = "you are watching: nothing to play here · ctrl+t writes in the spectators' chat · esc goes back"
	}
	return nil
}

// saveSoFar saves the record of the game as it stands, as the player's
// seat may read it: their own setup, the others' secrets masked. The end
// screen's s saves it whole; over SSH it says where to fetch it then.
func (t *tableScreen) saveSoFar() tea.Cmd {
	if t.upd.Table.Status == "finished" {
		return t.end.key("s")
	}
	if t.cfg.NoDisk {
		t.err = "over SSH the record stays on the server: once the game is over, s says where to fetch it"
		return nil
	}
	return t.saveRecord(true)
}

// header is the table's first line: game, table, you, whose turn.
func (t *tableScreen) header() string {
	game := title(t.game)
	if t.upd != nil {
		game = title(t.upd.Table.Title)
		if t.upd.Table.Rated {
			// Said on every table screen: a rated game changes ratings.
			game += " · " + warm("rated")
		}
		if lx := t.upd.Table.Lexicon; lx != "" && t.lexicon != "" && lx != t.lexicon {
			// A list other than the default changes which words count.
			game += " · word list " + lx
		}
	}
	tail := t.turnLine()
	if k := t.kept(); k != "" {
		tail += " · " + k
	}
	if t.lost != "" {
		tail += " · " + bad("reconnecting")
	}
	you := "you: " + t.name(t.seat)
	if t.watching() {
		you = "watching"
	}
	// An event's game names the event, as the browser's table does, while
	// there is room: whose turn it is matters more than the event, and
	// the event more than the table's id.
	ev := ""
	if t.upd != nil && t.upd.Table.Event != nil {
		ev = strings.TrimPrefix(eventWords(t.upd.Table.Event), "in ")
	}
	line := strings.Join(nonEmpty(game, ev, t.id, you, tail), " · ")
	if ansi.StringWidth(line) > t.w {
		line = strings.Join(nonEmpty(game, ev, you, tail), " · ")
	}
	if ansi.StringWidth(line) > t.w {
		line = strings.Join(nonEmpty(game, you, tail), " · ")
	}
	return line
}

// nonEmpty is ss without its empty strings.
func nonEmpty(ss ...string) []string {
	return slices.DeleteFunc(ss, func(s string) bool { return s == "" })
}

// kept is the time a seat not to move keeps under a Fischer clock, for
// the header beside the time of the seats to move: the player's own while
// they wait, and at a table of two their opponent's while it is their
// turn. A player under a Fischer clock plans by both.
func (t *tableScreen) kept() string {
	if t.upd == nil || t.upd.Table.Status != "playing" || t.upd.Table.Clock == nil || t.upd.Table.Clock.Kind != "fischer" || t.seat < 0 {
		return ""
	}
	if !t.myTurn() {
		if c := t.clockText(t.seat); c != "" {
			return "you " + c
		}
		return ""
	}
	if len(t.upd.Table.Seats) != 2 {
		return ""
	}
	o := 1 - t.seat
	if slices.Contains(t.upd.Table.ToMove, o) {
		return ""
	}
	if c := t.clockText(o); c != "" {
		return t.name(o) + " " + c
	}
	return ""
}

func (t *tableScreen) view() string {
	v := t.screenView()
	if t.event != nil || t.from != nil || t.daily() {
		// esc goes back to the event the game belongs to, or to the
		// daily puzzles.
		v = strings.Replace(v, "esc home", "esc back", 1)
	}
	return v
}

func (t *tableScreen) screenView() string {
	if t.upd == nil {
		msg := "Connecting to table " + t.id + "…"
		if t.lost != "" {
			msg += "\n" + bad(t.lost)
		}
		return msg + "\n\n" + t.message() + "\n" + faint("esc home · ctrl+c quit")
	}
	if t.replay != nil {
		return t.replay.view()
	}
	if t.reports != nil {
		return t.header() + "\n" + t.reports.view()
	}
	var body string
	switch t.upd.Table.Status {
	case "open", "setup":
		body = t.waitingView()
	case "finished":
		body = t.end.view()
	default:
		return t.withChat(t.withGuide(t.header() + "\n" + t.play.view()))
	}
	return t.withChat(t.header() + "\n" + body)
}

// withChat adds the chat panel to a table screen in the lines left free
// (at most 3 messages); the input line, while open, takes the place of
// the keys' line when no line is free.
func (t *tableScreen) withChat(screen string) string {
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	if a := t.awayToMove(); a != "" {
		away := warm(a + " is away: ctrl+g claims the game (the server decides)")
		if at := t.claimAt(); at.After(time.Now()) {
			away = warm(a + " is away: ctrl+g claims the game from " + t.when(at, "15:04:05"))
		}
		if t.watching() {
			away = warm(a + " is away") // a spectator claims nothing
		}
		if len(lines) >= t.h {
			lines[t.h-1] = away // in place of the keys' line, on a full screen
			lines = lines[:t.h]
		} else {
			lines = append(lines, away)
		}
	}
	free := t.h - len(lines)
	n := min(3, len(t.chat.lines))
	extra := 0
	if t.chat.open {
		extra = 1
		if t.chat.err != "" {
			extra += len(chatErr(t.chat.err, t.w))
		}
	}
	n = max(0, min(n, free-extra))
	panel := t.chat.view(n)
	if len(panel) == 0 {
		return strings.Join(lines, "\n")
	}
	if over := len(lines) + len(panel) - t.h; over > 0 {
		lines = lines[:max(1, len(lines)-over)]
	}
	return strings.Join(append(lines, panel...), "\n")
}

// rulesText says the table's rules that differ from its game's
// defaults ("Clock: 5+3; Strike limit: 1"), or "standard".
func (t *tableScreen) rulesText() string {
	var rules map[string]json.RawMessage
	if t.upd != nil {
		rules = tableRules(t.upd.Table.Rules)
	}
	return rulesLine(t.gameByName(t.game), rules)
}

// waitingView is the table before play: the invite, and the setup editor
// while this seat's setup is missing.
func (t *tableScreen) waitingView() string {
	var b strings.Builder
	if t.upd.Table.Status == "open" {
		inv := t.invite
		if inv == "" {
			inv = t.public() + "/t/" + t.id
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
	if t.upd.Setup == nil && t.hasSetup() && !t.watching() {
		b.WriteString(t.setup.view())
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
	b.WriteString(faint(wrap("rules: "+t.rulesText(), t.w)) + "\n")
	keys := "esc home · ? help"
	switch {
	case t.watching():
		keys = watchKeys
	case t.seat >= 0:
		keys = "ctrl+x leave the table · " + keys
	}
	b.WriteString("\n" + t.message() + "\n" + faint(keys))
	return b.String()
}
