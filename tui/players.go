package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/tui/client"
)

// social is what a signed-in player has of the others: the player
// stream, which counts them online and brings the challenges made to
// them as they come, the challenges open to and from them, who is
// online, and their recent games as the server keeps them.
type social struct {
	gen    int // tells this stream's messages from an earlier one's
	ctx    context.Context
	cancel context.CancelFunc
	events chan client.PlayerEvent
	errs   chan error
	lost   string // the stream's last failure, until it comes back

	in, out []client.Challenge // open challenges to and from this player
	online  client.Online
	at      int // the row chosen on the players screen

	// The challenge form: a name, a game and rated.
	form  bool
	to    string
	game  int
	rated bool
	busy  bool

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

// onlineMsg answers who is online. The challenges come only from the
// player stream, which opens with every open one and follows them: a
// list asked for beside it could be older than a line it brought.
type onlineMsg struct {
	online client.Online
	err    error
}

// servedMsg answers the recent games the server lists.
type servedMsg struct {
	gen    int
	recent []Recent
	err    error
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

// loadServed asks the server for the signed-in player's recent games:
// the tables under way and the latest finished games.
func (m *Model) loadServed() tea.Cmd {
	if m.cfg.Session == "" {
		return nil
	}
	gen, tok, name, c, server := m.soc.gen, m.cfg.Session, m.cfg.Account, *m.c, m.serverName()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(m.ctx, 10*time.Second)
		defer cancel()
		ts, err := c.YourTables(ctx, tok)
		if err != nil {
			return servedMsg{gen: gen, err: err}
		}
		var out []Recent
		for _, t := range ts {
			out = append(out, Recent{Server: server, Table: t.ID, Game: t.Game, Seat: t.Seat, Token: tok,
				Title: t.Title, Status: t.Status, When: t.Created, Rated: t.Rated})
		}
		gs, err := c.PlayedGames(ctx, name, recentMax)
		if err != nil {
			return servedMsg{gen: gen, err: err}
		}
		for _, g := range gs {
			status := map[string]string{"win": "won", "loss": "lost", "draw": "a draw"}[g.Result]
			out = append(out, Recent{Server: server, Table: g.Table, Game: g.Game, Seat: g.Seat, Token: tok,
				Status: status, When: g.Ended, Rated: g.Rated})
		}
		if len(out) > recentMax {
			out = out[:recentMax]
		}
		return servedMsg{gen: gen, recent: out}
	}
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
		if msg.err == nil {
			so.lost = ""
		} else {
			so.lost = msg.err.Error()
		}
		return m.nextPlayer(), true
	case servedMsg:
		if msg.gen == so.gen && msg.err == nil {
			so.served = msg.recent
			if so.served == nil {
				so.served = []Recent{}
			}
		}
		return nil, true
	case onlineMsg:
		if msg.err != nil {
			m.err = "cannot tell who is online: " + msg.err.Error()
			return nil, true
		}
		so.online = msg.online
		return nil, true
	case challengeMsg:
		so.busy = false
		if msg.err != nil {
			m.err = msg.err.Error()
			return nil, true
		}
		m.err = ""
		switch msg.verb {
		case "made":
			so.form = false
			so.out = upsert(so.out, msg.ch)
			m.note = fmt.Sprintf("you challenged %s to %s%s", msg.ch.To, m.gameTitle(msg.ch.Game), ratedWord(msg.ch.Rated))
			if d := msg.ch.Expires.Sub(msg.ch.Created).Round(time.Minute); d > 0 {
				m.note += fmt.Sprintf(": they have %s to answer", plural(int(d.Minutes()), "minute", "minutes"))
			}
		case "accepted":
			so.in = without(so.in, msg.ch.ID)
			return tea.Batch(m.seated(seatedMsg{s: msg.seat, game: msg.ch.Game}), m.loadServed()), true
		case "declined":
			so.in = without(so.in, msg.ch.ID)
			m.note = fmt.Sprintf("you declined %s's challenge", msg.ch.From)
		}
		return nil, true
	}
	return nil, false
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
				m.note = fmt.Sprintf("%s challenges you to %s%s: p answers", ch.From, m.gameTitle(ch.Game), ratedWord(ch.Rated))
			}
			so.in = upsert(so.in, *ch)
		} else {
			so.out = upsert(so.out, *ch)
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
			m.note = fmt.Sprintf("%s declined your challenge to %s", ch.To, m.gameTitle(ch.Game))
		case mine && ch.Status == "expired":
			m.note = fmt.Sprintf("your challenge to %s expired unanswered", ch.To)
		case was && ch.Status == "canceled":
			m.note = fmt.Sprintf("%s withdrew their challenge", ch.From)
		case was && ch.Status == "expired":
			m.note = fmt.Sprintf("%s's challenge expired", ch.From)
		}
	case "gameStart":
		t := ev.Table
		if t == nil {
			return m.loadServed()
		}
		if t.Challenge != "" && hasChallenge(so.out, t.Challenge) {
			// A challenge of this player's was accepted: to the table,
			// unless a game is on screen, which it would hide.
			so.out = without(so.out, t.Challenge)
			if m.scr != scrTable || m.t == nil || m.t.upd != nil && m.t.upd.Table.Status == "finished" {
				s := client.Seated{Table: t.ID, Seat: t.Seat, Token: m.cfg.Session, Invite: m.c.Base() + "/t/" + t.ID}
				return tea.Batch(m.sit(s, t.Game), m.loadServed())
			}
			m.note = fmt.Sprintf("your challenge was accepted: the %s table is in your recent games", m.gameTitle(t.Game))
		}
		return m.loadServed()
	case "gameFinish":
		return m.loadServed()
	}
	return nil
}

// openPlayers opens the players screen and asks who is online.
func (m *Model) openPlayers() (tea.Model, tea.Cmd) {
	m.scr, m.err, m.soc.form, m.soc.at = scrPlayers, "", false, 0
	return m, m.loadOnline()
}

func (m *Model) loadOnline() tea.Cmd {
	c := *m.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(m.ctx, 10*time.Second)
		defer cancel()
		o, err := c.Online(ctx)
		return onlineMsg{online: o, err: err}
	}
}

// twoPlayerGames are the games a challenge may name: those two can play.
func (m *Model) twoPlayerGames() []client.Game {
	var out []client.Game
	for _, g := range m.games {
		if g.MinPlayers <= 2 && g.MaxPlayers >= 2 {
			out = append(out, g)
		}
	}
	return out
}

// others is the players online other than this one.
func (m *Model) others() []string {
	var out []string
	for _, p := range m.soc.online.Players {
		if !strings.EqualFold(p.Name, m.cfg.Account) {
			out = append(out, p.Name)
		}
	}
	return out
}

func (m *Model) playersKey(s string, k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	so := &m.soc
	if so.form {
		return m, m.formKey(s, k)
	}
	others := m.others()
	n := len(so.in) + len(others)
	switch s {
	case "esc", "q":
		m.scr = scrHome
	case "r":
		return m, m.loadOnline()
	case "up", "k":
		if n > 0 {
			so.at = (so.at + n - 1) % n
		}
	case "down", "j":
		if n > 0 {
			so.at = (so.at + 1) % n
		}
	case "c":
		if m.cfg.Session == "" {
			m.err = "sign in first (s on the home screen): challenges are between accounts"
			return m, nil
		}
		so.form, so.to, so.game, so.rated, m.err = true, "", 0, false, ""
	case "a", "d", "enter":
		if n == 0 {
			return m, nil
		}
		so.at = min(so.at, n-1)
		if so.at >= len(so.in) {
			if s != "enter" {
				return m, nil
			}
			if m.cfg.Session == "" {
				m.err = "sign in first (s on the home screen): challenges are between accounts"
				return m, nil
			}
			so.form, so.to, so.game, so.rated, m.err = true, others[so.at-len(so.in)], 0, false, ""
			return m, nil
		}
		ch := so.in[so.at]
		if so.busy {
			m.err = "one moment"
			return m, nil
		}
		so.busy = true
		if s == "d" {
			return m, m.decline(ch)
		}
		return m, m.accept(ch)
	}
	return m, nil
}

// formKey edits the challenge form: the name typed, ←→ the game, tab
// rated, enter sends.
func (m *Model) formKey(s string, k tea.KeyPressMsg) tea.Cmd {
	so := &m.soc
	gs := m.twoPlayerGames()
	switch s {
	case "esc":
		so.form, m.err = false, ""
		return nil
	case "left":
		so.game = (so.game + len(gs) - 1) % max(1, len(gs))
		return nil
	case "right":
		so.game = (so.game + 1) % max(1, len(gs))
		return nil
	case "tab":
		so.rated = !so.rated
		return nil
	case "enter":
		to := strings.TrimSpace(so.to)
		if to == "" {
			m.err = "type the name of the player to challenge"
			return nil
		}
		if len(gs) == 0 || so.busy {
			return nil
		}
		so.busy = true
		tok, c, game, rated := m.cfg.Session, *m.c, gs[so.game%len(gs)].Name, so.rated
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(m.ctx, 15*time.Second)
			defer cancel()
			ch, err := c.Challenge(ctx, tok, to, game, rated)
			if err != nil {
				err = fmt.Errorf("the challenge to %s: %w", to, err)
			}
			return challengeMsg{ch: ch, verb: "made", err: err}
		}
	}
	editLine(&so.to, s, k, 40)
	return nil
}

func (m *Model) accept(ch client.Challenge) tea.Cmd {
	tok, c := m.cfg.Session, *m.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(m.ctx, 15*time.Second)
		defer cancel()
		s, err := c.Accept(ctx, tok, ch.ID)
		if err != nil {
			return challengeMsg{err: fmt.Errorf("accepting %s's challenge: %w", ch.From, err)}
		}
		return challengeMsg{ch: ch, verb: "accepted", seat: s}
	}
}

func (m *Model) decline(ch client.Challenge) tea.Cmd {
	tok, c := m.cfg.Session, *m.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(m.ctx, 15*time.Second)
		defer cancel()
		got, err := c.Decline(ctx, tok, ch.ID)
		if err != nil {
			err = fmt.Errorf("declining %s's challenge: %w", ch.From, err)
		}
		return challengeMsg{ch: got, verb: "declined", err: err}
	}
}

func (m *Model) playersView() string {
	so := &m.soc
	var b strings.Builder
	o := so.online
	fmt.Fprintf(&b, "%s  ·  %s online, guests included\n\n", title("Players"), plural(o.Count, "player", "players"))
	row := 0
	cur := func() string {
		defer func() { row++ }()
		if row == so.at && !so.form {
			return hi("> ")
		}
		return "  "
	}
	if m.cfg.Session == "" {
		b.WriteString(wrap("Sign in (s on the home screen) to challenge players and to receive their challenges.", m.w) + "\n\n")
	} else {
		if so.lost != "" {
			b.WriteString(bad(wrap("challenges cannot reach you right now: "+so.lost, m.w)) + "\n")
		}
		b.WriteString(title("Challenges to you") + "\n")
		if len(so.in) == 0 {
			b.WriteString(faint("  none") + "\n")
		}
		for _, ch := range so.in {
			line := fmt.Sprintf("%s challenges you to %s%s%s", ch.From, m.gameTitle(ch.Game), ratedWord(ch.Rated), rulesWords(ch))
			b.WriteString(cur() + fitLine(line, m.w-2) + "\n")
		}
		for _, ch := range so.out {
			b.WriteString(faint(fitLine(fmt.Sprintf("  you challenged %s to %s%s: waiting for an answer", ch.To, m.gameTitle(ch.Game), ratedWord(ch.Rated)), m.w)) + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(title("Online") + "\n")
	others := m.others()
	room := m.h - strings.Count(b.String(), "\n") - 6
	if len(others) == 0 {
		b.WriteString(faint("  nobody else who shows") + "\n")
	}
	for i, name := range others {
		if i >= room {
			fmt.Fprintf(&b, "  … and %d more\n", len(others)-i)
			break
		}
		b.WriteString(cur() + name + "\n")
	}
	b.WriteString("\n")
	if so.form {
		gs := m.twoPlayerGames()
		game := ""
		if len(gs) > 0 {
			game = gs[so.game%len(gs)].Title
		}
		rated := "not rated"
		if so.rated {
			rated = "rated"
		}
		fmt.Fprintf(&b, "Challenge %s█ to ‹ %s › · ‹ %s ›\n", tailOf(so.to, 40), game, rated)
	} else {
		b.WriteString("\n")
	}
	b.WriteString(m.message() + "\n")
	keys := "↑↓ choose · enter accept/challenge · a accept · d decline · c challenge by name · r refresh · esc back"
	if so.form {
		keys = "type the name · ←→ game · tab rated · enter send · esc back"
	}
	b.WriteString(faint(wrap(keys, m.w)))
	return b.String()
}

// gameTitle is a game's title on this server, or its name.
func (m *Model) gameTitle(name string) string {
	if g := m.gameByName(name); g != nil {
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

// rulesWords says that a challenge's rules are not the defaults.
func rulesWords(ch client.Challenge) string {
	if len(ch.Rules) == 0 {
		return ""
	}
	return " with its own rules"
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
