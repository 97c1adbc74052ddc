package tui

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/tui/client"
)

// social is what a signed-in player has of the others, on every screen:
// the player stream, which brings the challenges made to them as they
// come, the challenges open to and from them, and their recent games as
// the server keeps them.
type social struct {
	gen    int // tells this stream's messages from an earlier one's
	ctx    context.Context
	cancel context.CancelFunc
	events chan client.PlayerEvent
	errs   chan error
	lost   string // the stream's last failure, until it comes back
	// online is the last note that a followed player came online: the
	// least news there is, which takes the note line only when nothing
	// else holds it (see playerEvent).
	online string

	in, out []client.Challenge // open challenges to and from this player
	// putAway holds this player's challenges a reopened stream found no
	// longer open (recheck): should one have been accepted, its table's
	// gameStart line still takes the player there.
	putAway map[string]bool
	// accepting holds the challenges to this player that this client
	// is accepting: the gameStart of one that is not was accepted in
	// another of the player's windows.
	accepting map[string]bool

	// served is the recent games as the server lists them (nil until
	// it answered): a signed-in player's games follow the account to
	// any terminal.
	served []Recent
}

// playerEventMsg is a line of the player stream; playerErrMsg a failure.
type playerEventMsg struct {
	gen int
	ev  client.PlayerEvent
}

type playerErrMsg struct {
	gen int
	err error
}

// recheckMsg answers, at a reopening of the player stream, which
// challenges are open now (in and out); before holds those shown open
// when it asked.
type recheckMsg struct {
	gen             int
	before, in, out []client.Challenge
	err             error
}

// onlineMsg answers who is online. The challenges come only from the
// player stream, which opens with every open one and follows them: a
// list asked for beside it could be older than a line it brought.
type onlineMsg struct {
	to     screen
	asked  int // shared.asked when it was asked for
	online client.Online
	err    error
}

// servedMsg answers the recent games the server lists.
type servedMsg struct {
	gen    int
	recent []Recent
	err    error
	guest  bool // a guest identity's tables
}

// challengeMsg answers a challenge made, accepted or declined.
type challengeMsg struct {
	ch   client.Challenge
	verb string        // "made", "declined", "accepted"
	seat client.Seated // the seat an accepted challenge gave
	err  error
}

// followPlayer opens the player stream of the account signed in (and
// closes the previous one); a guest has none.
func (m *Model) followPlayer() tea.Cmd {
	so := &m.soc
	if so.cancel != nil {
		so.cancel()
		so.cancel = nil
	}
	so.gen++
	so.in, so.out, so.served, so.lost = nil, nil, nil, ""
	if m.cfg.Session == "" {
		return nil
	}
	so.ctx, so.cancel = context.WithCancel(m.ctx)
	so.events, so.errs = make(chan client.PlayerEvent, 16), make(chan error, 4)
	go m.c.PlayerStream(so.ctx, m.cfg.Session, so.events, so.errs)
	return tea.Batch(m.nextPlayer(), m.loadServed())
}

// unfollow closes the player stream; messages of it still on their way
// are no longer heard.
func (sh *shared) unfollow() {
	so := &sh.soc
	if so.cancel != nil {
		so.cancel()
		so.cancel = nil
	}
	so.gen++
}

// nextPlayer waits for the player stream's next line or failure.
func (m *Model) nextPlayer() tea.Cmd {
	so := &m.soc
	gen, events, errs, ctx := so.gen, so.events, so.errs, so.ctx
	return func() tea.Msg {
		select {
		case ev := <-events:
			return playerEventMsg{gen, ev}
		case err := <-errs:
			return playerErrMsg{gen, err}
		case <-ctx.Done():
			return nil
		}
	}
}

// loadServed asks the server for the player's recent games: the tables
// under way and the latest finished games, of the signed-in account or
// of the guest identity. A guest's are listed when this client keeps no
// list of its own (NoDisk: the SSH door, whose guest comes back in
// another session), and otherwise say how the games of its own list
// left before their end stand now (recentHere); asking also finds out
// whether the server still knows the guest.
func (sh *shared) loadServed() tea.Cmd {
	tok, guest := sh.cfg.Session, sh.cfg.Session == ""
	if guest {
		if sh.idToken == "" {
			return nil
		}
		tok = sh.idToken
	}
	gen, name, c, server := sh.soc.gen, sh.cfg.Account, *sh.c, sh.serverName()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(sh.ctx, 10*time.Second)
		defer cancel()
		ts, err := c.YourTables(ctx, tok)
		if err != nil {
			return servedMsg{gen: gen, err: err, guest: guest}
		}
		var out []Recent
		for _, t := range ts {
			r := Recent{Server: server, Table: t.ID, Game: t.Game, Seat: t.Seat, Token: tok,
				Title: dailyTitle(t.Title, t.Daily != ""), Status: t.Status, When: t.Created, Rated: t.Rated, Daily: t.Daily != "", Event: eventWords(t.Event)}
			if guest {
				r.Identity = tok
			}
			out = append(out, r)
		}
		var gs []client.PlayedGame
		switch {
		case guest:
			gs, err = c.OwnGames(ctx, tok, recentMax)
		default:
			gs, err = c.PlayedGames(ctx, tok, name, recentMax)
		}
		if err != nil {
			return servedMsg{gen: gen, err: err, guest: guest}
		}
		for _, g := range gs {
			status := map[string]string{"win": "won", "loss": "lost", "draw": "a draw", "aborted": "aborted"}[g.Result]
			if status == "" {
				status = "finished" // a result this client does not know
			}
			r := Recent{Server: server, Table: g.Table, Game: g.Game, Seat: g.Seat, Token: tok,
				Status: status, When: g.Ended, Rated: g.Rated, Daily: g.Daily != "", Pool: g.Pool, Event: eventWords(g.Event), ended: true}
			if g.Forfeited != "" {
				r.Forfeits = append(r.Forfeits, forfeitWords("you", g.Forfeited))
			}
			for _, o := range g.Opponents {
				if o.Forfeited != "" {
					r.Forfeits = append(r.Forfeits, forfeitWords(opponentName(o.Name, o.Kind), o.Forfeited))
				}
			}
			if guest {
				r.Identity = tok
			}
			out = append(out, r)
		}
		if len(out) > recentMax {
			out = out[:recentMax]
		}
		return servedMsg{gen: gen, recent: out, guest: guest}
	}
}

// finishWords says a finished game's result for the player, by the
// result a gameFinish gives; "" for one this client does not know.
func finishWords(result string) string {
	switch result {
	case "win":
		return "you won"
	case "loss":
		return "you lost"
	case "draw":
		return "a draw"
	case "aborted":
		return "aborted, without a result"
	}
	return ""
}

// playerMsg handles the messages of the player stream and of the
// players screen; ok is false for other messages.
func (m *Model) playerMsg(msg tea.Msg) (tea.Cmd, bool) {
	so := &m.soc
	switch msg := msg.(type) {
	case playerEventMsg:
		if msg.gen != so.gen {
			return nil, true
		}
		so.lost = ""
		return tea.Batch(m.nextPlayer(), m.playerEvent(msg.ev)), true
	case playerErrMsg:
		if msg.gen != so.gen {
			return nil, true
		}
		var e *client.Error
		if errors.As(msg.err, &e) && e.Status == http.StatusUnauthorized && m.cfg.Session != "" {
			// The account's session ended elsewhere (signed out from
			// another device, a new password, the account closed): every
			// request with it would be refused from now on. The player
			// plays on as a guest, told why and how to sign in again.
			// The screen on show stays: a game goes on under it.
			m.cfg.Session, m.cfg.Account, m.idToken, m.c.Name = "", "", "", ""
			m.err, m.note = "you were signed out of this terminal (from another device, or by a new password): s on the home screen signs in again; meanwhile you play as a guest", ""
			if m.cfg.OnSession != nil {
				// Forgotten: a start after would find it ended anyway.
				m.cfg.OnSession("", "")
			}
			return m.followPlayer(), true
		}
		if msg.err == nil {
			// The stream is open again after a failure.
			so.lost = ""
			return tea.Batch(m.nextPlayer(), m.recheck()), true
		}
		so.lost = msg.err.Error()
		return m.nextPlayer(), true
	case recheckMsg:
		if msg.gen == so.gen && msg.err == nil {
			m.putAway(msg)
		}
		return nil, true
	case servedMsg:
		var e *client.Error
		if msg.guest && errors.As(msg.err, &e) && e.Status == http.StatusUnauthorized {
			// The server no longer knows the guest the client began
			// as: the next seat makes another.
			m.idToken = ""
		}
		if msg.gen == so.gen && msg.err == nil {
			so.served = msg.recent
			if so.served == nil {
				so.served = []Recent{}
			}
			if m.cur == screen(m.home) {
				// The list was asked for with the player's token, which
				// counts them online: the home screen's count, read
				// before (at a sign-in, say), is read again.
				return m.readHomeNews, true
			}
		}
		return nil, true
	}
	return nil, false
}

// recheck asks, at a reopening of the player stream, which challenges
// are open now, for putAway: what became of a challenge while the stream
// was away (an answer from another device, a withdrawal, the time running
// out) was said then, and a challenge left listed would only earn
// refusals. Only those listed before the asking are judged: a challenge
// made since may be newer than the answer.
func (m *Model) recheck() tea.Cmd {
	so := &m.soc
	before := append(slices.Clone(so.in), so.out...)
	if len(before) == 0 || m.cfg.Session == "" {
		return nil
	}
	gen, ctx, c, tok := so.gen, so.ctx, m.c, m.cfg.Session
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		in, out, err := c.Challenges(ctx, tok)
		return recheckMsg{gen: gen, before: before, in: in, out: out, err: err}
	}
}

// putAway drops the challenges listed before a recheck that it found no
// longer open, and says so.
func (m *Model) putAway(msg recheckMsg) {
	so := &m.soc
	open := map[string]bool{}
	for _, c := range append(msg.in, msg.out...) {
		open[c.ID] = true
	}
	for _, c := range msg.before {
		if open[c.ID] || !hasChallenge(so.in, c.ID) && !hasChallenge(so.out, c.ID) {
			continue // open, or gone already by a line of the stream
		}
		if hasChallenge(so.in, c.ID) {
			so.in = without(so.in, c.ID)
			m.note = fmt.Sprintf("%s's challenge is no longer open: it was answered elsewhere, withdrawn or ran out while the connection was down", c.From)
			continue
		}
		so.out = without(so.out, c.ID)
		if so.putAway == nil {
			so.putAway = map[string]bool{}
		}
		so.putAway[c.ID] = true
		m.note = fmt.Sprintf("your challenge to %s is no longer open: it was answered, withdrawn or ran out while the connection was down", c.To)
	}
}

// challenged takes in the answer to a challenge made, accepted or
// declined: the challenges open change on every screen.
func (m *Model) challenged(msg challengeMsg) tea.Cmd {
	so := &m.soc
	if msg.verb == "" {
		delete(so.accepting, msg.ch.ID) // an accept refused
	}
	if msg.err != nil {
		m.err = msg.err.Error()
		var e *client.Error
		if errors.As(msg.err, &e) && (e.Status == http.StatusConflict || e.Status == http.StatusGone) && msg.ch.ID != "" {
			// Answered, withdrawn or run out already, the line saying so
			// not yet here: the server's reason stands, and the challenge
			// leaves the lists rather than be offered again.
			so.in, so.out = without(so.in, msg.ch.ID), without(so.out, msg.ch.ID)
		}
		return nil
	}
	m.err = ""
	switch msg.verb {
	case "made":
		so.out = upsert(so.out, msg.ch)
		m.note = fmt.Sprintf("you challenged %s to %s%s", msg.ch.To, m.gameTitle(msg.ch.Game), ratedWord(msg.ch.Rated))
		if d := msg.ch.Expires.Sub(msg.ch.Created).Round(time.Minute); d > 0 {
			m.note += fmt.Sprintf(": they have %s to answer", plural(int(d.Minutes()), "minute", "minutes"))
		}
	case "accepted":
		so.in = without(so.in, msg.ch.ID)
		delete(so.accepting, msg.ch.ID)
		return tea.Batch(m.seated(seatedMsg{s: msg.seat, game: msg.ch.Game}), m.loadServed())
	case "declined":
		so.in = without(so.in, msg.ch.ID)
		m.note = fmt.Sprintf("you declined %s's challenge", msg.ch.From)
	case "withdrawn":
		so.out = without(so.out, msg.ch.ID)
		m.note = fmt.Sprintf("you withdrew your challenge to %s", msg.ch.To)
	}
	return nil
}

// playerEvent takes in a line of the player stream.
func (m *Model) playerEvent(ev client.PlayerEvent) tea.Cmd {
	so := &m.soc
	me := strings.ToLower(m.cfg.Account)
	switch ev.Type {
	case "challenge":
		ch := ev.Challenge
		if ch == nil || ch.Status != "open" {
			return nil
		}
		if strings.ToLower(ch.To) == me {
			if !hasChallenge(so.in, ch.ID) {
				m.tell(fmt.Sprintf("%s challenges you to %s: %s", ch.From, m.challengeTerms(*ch), m.answerHint()))
			}
			so.in = upsert(so.in, *ch)
		} else {
			so.out = upsert(so.out, *ch)
		}
	case "followOnline", "followPlaying":
		f := ev.Follow
		if f == nil {
			return nil
		}
		if ev.Type == "followOnline" {
			// News that can come late (it is told as the player's first
			// request is seen) and says least: it does not hide the
			// answer to what this player just did, nor a followed
			// player's game, which says they are online anyway.
			if m.note == "" || m.note == so.online {
				m.note = f.Name + ", whom you follow, is online"
				so.online = m.note
			}
		} else if f.Table != nil {
			news := fmt.Sprintf("%s, whom you follow, started a game of %s", f.Name, m.gameTitle(f.Table.Game))
			if f.Table.ID != "" { // a game open to spectators
				if _, ok := m.cur.(*playersScreen); ok {
					news += ": w on them watches it"
				} else {
					news += ": w on the players screen watches it"
				}
			}
			m.tell(news)
		}
	case "challengeDeclined", "challengeCanceled":
		ch := ev.Challenge
		if ch == nil {
			return nil
		}
		mine := hasChallenge(so.out, ch.ID)
		was := hasChallenge(so.in, ch.ID)
		so.in, so.out = without(so.in, ch.ID), without(so.out, ch.ID)
		switch {
		case mine && ch.Status == "declined":
			m.tell(fmt.Sprintf("%s declined your challenge to %s", ch.To, m.gameTitle(ch.Game)))
		case mine && ch.Status == "expired":
			m.tell(fmt.Sprintf("your challenge to %s expired unanswered", ch.To))
		case was && ch.Status == "canceled":
			m.tell(fmt.Sprintf("%s withdrew their challenge", ch.From))
		case was && ch.Status == "expired":
			m.tell(fmt.Sprintf("%s's challenge expired", ch.From))
		}
	case "gameStart":
		t := ev.Table
		if t == nil {
			return m.loadServed()
		}
		if t.Challenge != "" && (hasChallenge(so.out, t.Challenge) || so.putAway[t.Challenge]) {
			// A challenge of this player's was accepted: to the table,
			// unless a game is on screen, which it would hide.
			so.out = without(so.out, t.Challenge)
			delete(so.putAway, t.Challenge)
			if on := m.table(); on == nil || on.upd != nil && on.upd.Table.Status == "finished" {
				s := client.Seated{Table: t.ID, Seat: t.Seat, Token: m.cfg.Session, Invite: m.public() + "/t/" + t.ID}
				return tea.Batch(m.sit(s, t.Game), m.loadServed())
			}
			m.tell(fmt.Sprintf("your challenge was accepted: the %s table is in your recent games", m.gameTitle(t.Game)))
		}
		if t.Challenge != "" && hasChallenge(so.in, t.Challenge) && !so.accepting[t.Challenge] {
			// A challenge to this player, accepted in another of their
			// windows (a browser, another terminal): it is answered.
			for _, ch := range so.in {
				if ch.ID == t.Challenge {
					m.tell(fmt.Sprintf("you accepted %s's challenge elsewhere: the %s table is in your recent games", ch.From, m.gameTitle(t.Game)))
				}
			}
			so.in = without(so.in, t.Challenge)
		}
		if sk, ok := m.cur.(*seekScreen); ok && t.Challenge == "" {
			return tea.Batch(sk.paired(t.Game), m.loadServed())
		}
		return m.loadServed()
	case "gameFinish":
		// A game that ended away from its table (a clock that ran out,
		// an opponent who resigned or was claimed against) is told
		// where the player is; at the table the end screen says it.
		if t := ev.Table; t != nil {
			if on := m.table(); on == nil || on.id != t.ID {
				if w := finishWords(t.Result); w != "" {
					m.tell(fmt.Sprintf("your %s game %s is over: %s", m.gameTitle(t.Game), t.ID, w))
				}
			}
		}
		return m.loadServed()
	case "refund":
		if r := ev.Refund; r != nil {
			m.tell(fmt.Sprintf("you got back %.0f rating points in %s, lost to a player a moderator closed for cheating", r.Points, m.poolTitle(r.Pool)))
		}
	case "rematch":
		r := ev.Rematch
		if r == nil {
			return nil
		}
		// The finished game's end screen offers the rematch itself, and
		// the next table needs no word of its own start.
		if on := m.table(); on == nil || on.id != r.Prev && on.id != r.Table {
			m.tell(fmt.Sprintf("%s asks for a rematch of %s%s: the table is in your recent games", r.From, m.gameTitle(r.Game), ratedWord(r.Rated)))
		}
		return m.loadServed()
	case "tournamentGame":
		p := ev.Tournament
		if p == nil {
			return nil
		}
		// The event's table opens, and esc there goes back to the event:
		// the one followed, unless the player left it, or this one,
		// followed from now on once read (pairing).
		e := m.event
		if e == nil || e.id != p.Event {
			return tea.Batch(m.askPairing(*p), m.loadServed())
		}
		if e.ev != nil && e.mine() == nil {
			return m.loadServed() // left: the game is among the recent ones
		}
		s := client.Seated{Table: p.Table, Seat: p.Seat, Token: m.idToken, Invite: m.public() + "/t/" + p.Table}
		return tea.Batch(m.paired(e, s, p.Game, p.Name), m.loadServed())
	}
	return nil
}

// playersScreen shows who is online and the challenges open, to answer
// one or to challenge a player.
type playersScreen struct {
	*shared
	online client.Online
	at     int // the row chosen

	busy bool // a follow, block or report, or an answer to a challenge, is on its way

	// follows and blocks are whom the account follows and blocks (their
	// names in lower case), as the server last said; followed and
	// blocked the same in the server's order, with what the account may
	// see of each followed player.
	follows, blocks map[string]bool
	followed        []client.Followed
	blocked         []client.Relation
	// onlineAt and relationsAt are the shared.asked of the answers
	// shown: an answer asked for before is left unread.
	onlineAt, relationsAt int
	// report is the report form, open on a player online.
	report reportForm
}

// relationsMsg answers whom the account follows and blocks; relatedMsg
// a follow, block or report made or undone.
type relationsMsg struct {
	to      screen
	asked   int // shared.asked when it was asked for
	follows []client.Followed
	blocks  []client.Relation
	err     error
}

type relatedMsg struct {
	to   screen
	note string
	err  error
	// again asks for the lists again: a follow or block changed them.
	again bool
}

// The players' and a profile's answers go to the screen that asked,
// whichever is on show: a game opened from the list does not lose a
// follow's answer and leave the screen busy.
func (m onlineMsg) screen() screen    { return m.to }
func (m relationsMsg) screen() screen { return m.to }
func (m relatedMsg) screen() screen   { return m.to }

// openPlayers shows the players screen and asks who is online.
func openPlayers(sh *shared) tea.Cmd {
	ps := &playersScreen{shared: sh}
	sh.err = ""
	sh.nav.show(ps)
	return tea.Batch(ps.loadOnline(), ps.loadRelations(ps))
}

// loadRelations asks whom the account follows and blocks, for the
// screen to.
func (sh *shared) loadRelations(to screen) tea.Cmd {
	if sh.cfg.Session == "" {
		return nil
	}
	tok, c := sh.cfg.Session, *sh.c
	sh.asked++
	asked := sh.asked
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(sh.ctx, 10*time.Second)
		defer cancel()
		fs, err := c.Follows(ctx, tok)
		if err != nil {
			return relationsMsg{to: to, asked: asked, err: err}
		}
		bs, err := c.Blocks(ctx, tok)
		return relationsMsg{to: to, asked: asked, follows: fs, blocks: bs, err: err}
	}
}

// relate follows or blocks name (what: "follow" or "block"), or undoes
// it; the answer, to the screen to, asks for the lists again.
func (sh *shared) relate(what, name string, on bool, to screen) tea.Cmd {
	tok, c := sh.cfg.Session, *sh.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(sh.ctx, 10*time.Second)
		defer cancel()
		var err error
		if what == "follow" {
			err = c.Follow(ctx, tok, name, on)
		} else {
			err = c.Block(ctx, tok, name, on)
		}
		done := map[string]string{"follow": "you follow ", "block": "you block "}[what] + name
		if !on {
			done = map[string]string{"follow": "you no longer follow ", "block": "you no longer block "}[what] + name
		}
		return relatedMsg{to: to, note: done, err: err, again: true}
	}
}

func (ps *playersScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case onlineMsg:
		if msg.asked < ps.onlineAt {
			return nil // older than the list shown
		}
		ps.onlineAt = msg.asked
		if msg.err != nil {
			ps.err = "cannot tell who is online: " + msg.err.Error()
			return nil
		}
		ps.online = msg.online
	case challengeMsg:
		ps.busy = false
	case relationsMsg:
		if msg.asked < ps.relationsAt {
			return nil // older than the lists shown
		}
		ps.relationsAt = msg.asked
		if msg.err != nil {
			ps.err = "cannot tell whom you follow and block: " + msg.err.Error()
			return nil
		}
		ps.follows, ps.blocks = map[string]bool{}, map[string]bool{}
		ps.followed, ps.blocked = msg.follows, msg.blocks
		for _, f := range msg.follows {
			ps.follows[strings.ToLower(f.Name)] = true
		}
		for _, b := range msg.blocks {
			ps.blocks[strings.ToLower(b.Name)] = true
		}
	case relatedMsg:
		ps.busy = false
		if msg.err != nil {
			ps.err = msg.err.Error()
			return nil
		}
		ps.err, ps.note = "", msg.note
		ps.report.went(msg.note)
		if msg.again {
			return ps.loadRelations(ps)
		}
	case tea.KeyPressMsg:
		return ps.key(msg.String(), msg)
	}
	return nil
}

func (ps *playersScreen) loadOnline() tea.Cmd {
	c, tok := *ps.c, ps.idToken
	ps.asked++
	asked := ps.asked
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ps.ctx, 10*time.Second)
		defer cancel()
		o, err := c.Online(ctx, tok)
		return onlineMsg{to: ps, asked: asked, online: o, err: err}
	}
}

// twoPlayerGames are the games of gs a challenge may name: those two
// can play.
func twoPlayerGames(gs []client.Game) []client.Game {
	var out []client.Game
	for _, g := range gs {
		if g.MinPlayers <= 2 && g.MaxPlayers >= 2 {
			out = append(out, g)
		}
	}
	return out
}

// people are the players the screen lists, after the challenges to the
// player, by section: online, followed, blocked (the last two an
// account's); each may be chosen, to challenge, follow, block, report or
// view.
func (ps *playersScreen) people() [][]string {
	out := [][]string{ps.others(), nil, nil}
	for _, f := range ps.followed {
		out[1] = append(out[1], f.Name)
	}
	for _, b := range ps.blocked {
		out[2] = append(out[2], b.Name)
	}
	return out
}

// followedNamed is the followed player called name, or nil when the
// account does not follow them: the server says where a player is
// playing only to those who follow them.
func (ps *playersScreen) followedNamed(name string) *client.Followed {
	for i, f := range ps.followed {
		if strings.EqualFold(f.Name, name) {
			return &ps.followed[i]
		}
	}
	return nil
}

// watchable is the table of a game f plays that may be watched, if any.
func watchable(f *client.Followed) (id, game string) {
	for _, g := range f.Playing {
		if g.ID != "" {
			return g.ID, g.Game
		}
	}
	return "", ""
}

// others is the players online other than this one.
func (ps *playersScreen) others() []string {
	var out []string
	for _, p := range ps.online.Players {
		if !strings.EqualFold(p.Name, ps.cfg.Account) {
			out = append(out, p.Name)
		}
	}
	return out
}

func (ps *playersScreen) key(s string, k tea.KeyPressMsg) tea.Cmd {
	so := &ps.soc
	if ps.report.name != "" {
		return ps.reportKey(s, k)
	}
	var others []string // every row's player, section after section
	for _, sec := range ps.people() {
		others = append(others, sec...)
	}
	// The rows: the challenges to this player, then theirs, then the
	// players.
	head := len(so.in) + len(so.out)
	n := head + len(others)
	// chosen is the player on the row chosen, if any.
	chosen := ""
	if i := ps.at - head; i >= 0 && i < len(others) {
		chosen = others[i]
	}
	switch s {
	case "v":
		if chosen == "" {
			ps.err = "choose a player online first (↑↓)"
			return nil
		}
		return openProfile(ps.shared, chosen, ps)
	case "w":
		// Any row's player, online or followed, whose game the server
		// names: it names those of the players the account follows.
		f := ps.followedNamed(chosen)
		switch {
		case ps.cfg.Session == "":
			ps.err = "sign in first (s on the home screen): w watches the games of the players you follow"
		case chosen == "":
			ps.err = "choose a player (↑↓), then w watches their game"
		case f == nil:
			ps.err = "only the games of players you follow show here: f follows " + chosen + ", then w watches theirs"
		default:
			if id, game := watchable(f); id != "" {
				return ps.nav.sitFrom(client.Seated{Table: id, Seat: -1, Invite: ps.public() + "/t/" + id}, game, ps)
			}
			ps.err = f.Name + " is not playing a game open to watch right now"
		}
		return nil
	case "f", "b", "R":
		switch {
		case ps.cfg.Session == "":
			ps.err = "sign in first (s on the home screen): following, blocking and reporting are for accounts"
		case chosen == "":
			ps.err = "choose a player online first (↑↓)"
		case ps.busy:
			ps.err = "one moment"
		case s == "R":
			ps.report.open(chosen)
			ps.err = ""
		default:
			what := map[string]string{"f": "follow", "b": "block"}[s]
			on := !map[string]map[string]bool{"follow": ps.follows, "block": ps.blocks}[what][strings.ToLower(chosen)]
			ps.busy = true
			return ps.relate(what, chosen, on, ps)
		}
		return nil
	case "esc", "q":
		ps.nav.goHome()
	case "r":
		return tea.Batch(ps.loadOnline(), ps.loadRelations(ps))
	case "up", "k":
		if n > 0 {
			ps.at = (ps.at + n - 1) % n
		}
	case "down", "j":
		if n > 0 {
			ps.at = (ps.at + 1) % n
		}
	case "c":
		if ps.cfg.Session == "" {
			ps.err = "sign in first (s on the home screen): challenges are between accounts"
			return nil
		}
		openChallenge(ps.shared, "", ps)
	case "x":
		i := ps.at - len(so.in)
		switch {
		case i < 0 || i >= len(so.out):
			ps.err = "choose one of your challenges (↑↓) to withdraw it"
		case ps.busy:
			ps.err = "one moment"
		default:
			ps.busy = true
			return ps.withdraw(so.out[i])
		}
		return nil
	case "a", "d", "enter":
		if n == 0 {
			return nil
		}
		ps.at = min(ps.at, n-1)
		if ps.at >= len(so.in) && ps.at < head {
			ps.err = "this challenge is yours: x withdraws it"
			return nil
		}
		if ps.at >= head {
			if s != "enter" {
				return nil
			}
			if ps.cfg.Session == "" {
				ps.err = "sign in first (s on the home screen): challenges are between accounts"
				return nil
			}
			openChallenge(ps.shared, others[ps.at-head], ps)
			return nil
		}
		ch := so.in[ps.at]
		if ps.busy {
			ps.err = "one moment"
			return nil
		}
		ps.busy = true
		if s == "d" {
			return ps.decline(ch)
		}
		return ps.accept(ch)
	}
	return nil
}

// reportKey edits the report form, and sends it on enter.
func (ps *playersScreen) reportKey(s string, k tea.KeyPressMsg) tea.Cmd {
	if s == "esc" {
		ps.err = ""
	}
	if !ps.report.key(s, k) || ps.busy {
		return nil
	}
	ps.busy = true
	return ps.report.send(ps.shared, ps)
}

// withdraw withdraws ch, a challenge this player made.
func (ps *playersScreen) withdraw(ch client.Challenge) tea.Cmd {
	tok, c := ps.cfg.Session, *ps.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ps.ctx, 15*time.Second)
		defer cancel()
		got, err := c.Withdraw(ctx, tok, ch.ID)
		if err != nil {
			return challengeMsg{ch: ch, verb: "withdrawn", err: fmt.Errorf("withdrawing your challenge to %s: %w", ch.To, err)}
		}
		return challengeMsg{ch: got, verb: "withdrawn"}
	}
}

func (ps *playersScreen) accept(ch client.Challenge) tea.Cmd {
	tok, c := ps.cfg.Session, *ps.c
	so := &ps.soc
	if so.accepting == nil {
		so.accepting = map[string]bool{}
	}
	so.accepting[ch.ID] = true
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ps.ctx, 15*time.Second)
		defer cancel()
		s, err := c.Accept(ctx, tok, ch.ID)
		if err != nil {
			return challengeMsg{ch: ch, err: fmt.Errorf("accepting %s's challenge: %w", ch.From, err)}
		}
		return challengeMsg{ch: ch, verb: "accepted", seat: s}
	}
}

func (ps *playersScreen) decline(ch client.Challenge) tea.Cmd {
	tok, c := ps.cfg.Session, *ps.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ps.ctx, 15*time.Second)
		defer cancel()
		got, err := c.Decline(ctx, tok, ch.ID)
		if err != nil {
			return challengeMsg{ch: ch, verb: "declined", err: fmt.Errorf("declining %s's challenge: %w", ch.From, err)}
		}
		return challengeMsg{ch: got, verb: "declined"}
	}
}

func (ps *playersScreen) view() string {
	so := &ps.soc
	var b strings.Builder
	o := ps.online
	fmt.Fprintf(&b, "%s  ·  %s online, guests included\n\n", title("Players"), plural(o.Count, "player", "players"))
	row := 0
	cur := func() string {
		defer func() { row++ }()
		if row == ps.at {
			return hi("> ")
		}
		return "  "
	}
	if ps.cfg.Session == "" {
		b.WriteString(wrap("Sign in (s on the home screen) to challenge players and to receive their challenges.", ps.w) + "\n\n")
	} else {
		if so.lost != "" {
			b.WriteString(bad(wrap("challenges cannot reach you right now: "+so.lost, ps.w)) + "\n")
		}
		b.WriteString(title("Challenges to you") + "\n")
		if len(so.in) == 0 {
			b.WriteString(faint("  none") + "\n")
		}
		for _, ch := range so.in {
			line := fmt.Sprintf("%s challenges you to %s%s%s", ch.From, ps.gameTitle(ch.Game), ratedWord(ch.Rated), ps.challengeRules(ch))
			b.WriteString(cur() + fitLine(line, ps.w-2) + "\n")
		}
		for _, ch := range so.out {
			line := fmt.Sprintf("you challenged %s to %s%s, waiting for an answer%s", ch.To, ps.gameTitle(ch.Game), ratedWord(ch.Rated), ps.challengeRules(ch))
			b.WriteString(cur() + faint(fitLine(line, ps.w-2)) + "\n")
		}
		b.WriteString("\n")
	}
	// The sections share the lines left, a short one leaving its part to
	// the others, each showing the part around the chosen row.
	secs := ps.people()
	heads := []string{"Online", "You follow", "You block"}
	shown := 1
	needs := []int{max(1, len(secs[0])), len(secs[1]), len(secs[2])}
	if len(secs[1]) > 0 {
		shown++
	}
	if len(secs[2]) > 0 {
		shown++
	}
	shares := shareLines(needs, ps.h-strings.Count(b.String(), "\n")-6-3*shown)
	first := len(so.in) + len(so.out)
	for si, sec := range secs {
		if si > 0 && len(sec) == 0 {
			continue // no follows or blocks: no section
		}
		if si > 0 {
			b.WriteString("\n")
		}
		b.WriteString(title(heads[si]) + "\n")
		if len(sec) == 0 {
			b.WriteString(faint("  nobody else who shows") + "\n")
		}
		from, to := window(len(sec), max(1, shares[si]), ps.at-first)
		for i := from; i < to; i++ {
			mark := "  "
			if first+i == ps.at {
				mark = hi("> ")
			}
			b.WriteString(fitLine(mark+sec[i]+ps.about(si, i), ps.w) + "\n")
		}
		if len(sec) > to-from {
			b.WriteString(faint(fmt.Sprintf("  %d of %d shown: ↑↓ for the rest", to-from, len(sec))) + "\n")
		}
		first += len(sec)
	}
	b.WriteString("\n")
	if ps.report.name != "" {
		b.WriteString(ps.report.view(ps.w) + "\n")
	} else {
		b.WriteString("\n")
	}
	b.WriteString(ps.message() + "\n")
	keys := "↑↓ choose · enter accept/challenge · a accept · d decline · x withdraw yours · c challenge by name · v profile · f follow · b block · R report · w watch · r refresh · esc back"
	if ps.cfg.Session == "" {
		// Challenges, follows (and so watching one), blocks and
		// reports are an account's.
		keys = "↑↓ choose · v profile · r refresh · esc back"
	}
	if ps.report.name != "" {
		keys = reportKeys
	}
	b.WriteString(faint(wrapKeys(keys, ps.w)))
	return b.String()
}

// about is what the screen says beside the i-th player of section si
// (people's order): a player online's follow and block, a followed
// player's whereabouts.
func (ps *playersScreen) about(si, i int) string {
	switch si {
	case 0:
		name := strings.ToLower(ps.others()[i])
		mark := ""
		if ps.follows[name] {
			mark += faint(" (following)")
		}
		if ps.blocks[name] {
			mark += faint(" (blocked)")
		}
		if f := ps.followedNamed(name); f != nil {
			if _, game := watchable(f); game != "" {
				mark += faint(" playing " + ps.gameTitle(game) + " (w watches)")
			}
		}
		return mark
	case 1:
		f := ps.followed[i]
		switch {
		case len(f.Playing) > 0:
			var gs []string
			for _, p := range f.Playing {
				gs = append(gs, ps.gameTitle(p.Game))
			}
			watch := ""
			for _, p := range f.Playing {
				if p.ID != "" {
					watch = " (w watches)"
				}
			}
			return faint(" playing " + strings.Join(gs, ", ") + watch)
		case f.Online:
			return faint(" online")
		}
		return faint(" away")
	}
	return faint(" (blocked since " + ps.blocked[i].Since.In(ps.zone()).Format("2 Jan 2006") + ")")
}

// gameTitle is a game's title on this server, or its name.
func (sh *shared) gameTitle(name string) string {
	if g := sh.gameByName(name); g != nil {
		return g.Title
	}
	return name
}

func ratedWord(rated bool) string {
	if rated {
		return " (rated)"
	}
	return ""
}

// answerHint says how to answer a challenge from the screen on show:
// p is the home screen's key, and the players screen lists it already.
func (m *Model) answerHint() string {
	switch m.cur.(type) {
	case *homeScreen:
		return "p answers"
	case *playersScreen:
		return "listed above, a accepts it"
	}
	return "p on the home screen answers"
}

// challengeTerms says a challenge's game and terms in a few words, as
// the news line has room for them: "Nymphabet (rated) with changed
// rules, clock 1 minute a turn, on the en-large word list"; the players
// screen says which rules.
func (sh *shared) challengeTerms(ch client.Challenge) string {
	s := sh.gameTitle(ch.Game) + ratedWord(ch.Rated)
	for k := range ch.Rules {
		if k != "clock" { // a clock changes no rule of the game
			s += " with changed rules"
			break
		}
	}
	if c := clockRuleWords(ch.Rules["clock"]); c != "" {
		s += ", clock " + c
	}
	if ch.Lexicon != "" {
		s += " on the " + ch.Lexicon + " word list"
	}
	return s
}

// challengeRules says a challenge's rules that are not the defaults and
// its word list when not the default, after a separator; "" when it keeps them all.
func (ps *playersScreen) challengeRules(ch client.Challenge) string {
	words := rulesWords(ps.gameByName(ch.Game), ch.Rules)
	if ch.Lexicon != "" {
		words = append(words, "Word list: "+ch.Lexicon)
	}
	if len(words) == 0 {
		return ""
	}
	return " · " + strings.Join(words, "; ")
}

// fitLine cuts a line that cannot be wrapped (a row to choose) to w
// columns.
func fitLine(s string, w int) string { return fit(s, w, 1) }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func hasChallenge(cs []client.Challenge, id string) bool {
	for _, c := range cs {
		if c.ID == id {
			return true
		}
	}
	return false
}

func without(cs []client.Challenge, id string) []client.Challenge {
	var out []client.Challenge
	for _, c := range cs {
		if c.ID != id {
			out = append(out, c)
		}
	}
	return out
}

// upsert puts ch first in cs, or in place of the one with its id.
func upsert(cs []client.Challenge, ch client.Challenge) []client.Challenge {
	for i, c := range cs {
		if c.ID == ch.ID {
			cs[i] = ch
			return cs
		}
	}
	return append([]client.Challenge{ch}, cs...)
}
