package tui

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/game"
	"parlour/tui/client"
)

// The events: arenas and Swiss tournaments (docs/tournaments.md). The
// list shows those to come, under way and finished; one event shows its
// standings and games under way, and is joined or left there. The event
// a player opened is followed from every screen while they are in it:
// when it pairs them (the player stream's tournamentGame line, or the
// standings naming the table they play at), its table opens, and esc at
// that table comes back to the event.

// eventPoll is how often an event followed is read again: its standings
// move and its pairings come as games end, and a guest, who has no
// player stream, learns of a pairing only so.
const eventPoll = 2 * time.Second

// eventStatuses are the lists' statuses, in the order shown.
var eventStatuses = [3]string{"created", "started", "finished"}

// eventsScreen lists the events: to come, under way and finished.
type eventsScreen struct {
	*shared
	lists  [3][]client.Tournament
	loaded bool
	at     int // the event chosen, counted across the three lists
	gen    int // tells this screen's ticks from an earlier one's
}

type eventsMsg struct {
	lists [3][]client.Tournament
	err   error
}

// eventsTickMsg redraws the list's countdowns.
type eventsTickMsg struct{ gen int }

// openEvents shows the list of events and asks for it.
func openEvents(sh *shared) tea.Cmd {
	sh.eventsGen++
	es := &eventsScreen{shared: sh, gen: sh.eventsGen}
	sh.err, sh.note = "", ""
	sh.nav.show(es)
	return tea.Batch(es.fetch, es.tick())
}

func (es *eventsScreen) fetch() tea.Msg {
	ctx, cancel := context.WithTimeout(es.ctx, 10*time.Second)
	defer cancel()
	var msg eventsMsg
	for i, st := range eventStatuses {
		l, err := es.c.Tournaments(ctx, st)
		if err != nil {
			msg.err = fmt.Errorf("the events: %w", err)
			return msg
		}
		msg.lists[i] = l
	}
	return msg
}

func (es *eventsScreen) tick() tea.Cmd {
	gen := es.gen
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return eventsTickMsg{gen} })
}

func (es *eventsScreen) all() []client.Tournament {
	return append(append(append([]client.Tournament(nil), es.lists[0]...), es.lists[1]...), es.lists[2]...)
}

func (es *eventsScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case eventsMsg:
		if msg.err != nil {
			es.err = msg.err.Error()
			return nil
		}
		es.lists, es.loaded, es.err = msg.lists, true, ""
		if n := len(es.all()); es.at >= n {
			es.at = max(0, n-1)
		}
	case eventsTickMsg:
		if msg.gen == es.gen && es.eventsGen == es.gen {
			return es.tick()
		}
	case tea.KeyPressMsg:
		n := len(es.all())
		switch msg.String() {
		case "esc", "q":
			es.eventsGen++ // its ticks stop
			es.nav.goHome()
		case "r":
			return es.fetch
		case "up", "k":
			if n > 0 {
				es.at = (es.at + n - 1) % n
			}
		case "down", "j":
			if n > 0 {
				es.at = (es.at + 1) % n
			}
		case "enter":
			if es.at < n {
				return openEvent(es.shared, es.all()[es.at].ID, es)
			}
		case "n":
			if es.cfg.Session == "" {
				es.err = "events are made by players with accounts: s on the home screen signs in"
				return nil
			}
			openNewEvent(es.shared, es)
		}
	}
	return nil
}

func (es *eventsScreen) view() string {
	var b strings.Builder
	b.WriteString(title("Events") + "  ·  arenas and Swiss tournaments\n")
	if !es.loaded {
		b.WriteString("\nAsking the server for its events…\n")
	}
	heads := [3]string{"To come", "Under way", "Finished"}
	// The lists share the lines there are: a short one leaves its part
	// to the others, and a list longer than its share ends in a line
	// saying how many more it has.
	var needs [3]int
	for li, l := range es.lists {
		needs[li] = max(1, len(l))
	}
	shares := shareLines(needs[:], es.h-11-es.msgExtra())
	i := 0
	now := time.Now()
	for li, l := range es.lists {
		if !es.loaded {
			break
		}
		note := ""
		if li == 0 {
			note = es.zoneNote() // its starts more than a day off are dates
		}
		b.WriteString("\n" + title(heads[li]) + note + "\n")
		if len(l) == 0 {
			b.WriteString(faint("  none") + "\n")
		}
		room := len(l)
		if shares[li] < len(l) {
			room = max(1, shares[li]-1) // and the line of how many more
		}
		// The chosen event stays in view.
		first := 0
		if es.at >= i && es.at < i+len(l) && es.at-i >= room {
			first = es.at - i - room + 1
		}
		for j, ev := range l {
			if j < first {
				continue
			}
			if j-first >= room {
				fmt.Fprintf(&b, "  … and %d more\n", len(l)-j)
				break
			}
			cur := "  "
			if i+j == es.at {
				cur = hi("> ")
			}
			b.WriteString(fitLine(cur+es.eventLine(ev, now, es.w-2), es.w) + "\n")
		}
		i += len(l)
	}
	msg := es.message()
	if msg == "" && es.loaded {
		// The list's line has no room for an event's terms: the chosen
		// one's show here, as the browser's list marks a rated event.
		if all := es.all(); es.at < len(all) {
			msg = fitLine(faint(es.eventAbout(all[es.at])), es.w)
		}
	}
	b.WriteString("\n" + msg + "\n")
	// Events are made by accounts: a guest is not offered the key (pressed
	// anyway, it says why).
	makeKey := " · n make one"
	if es.cfg.Session == "" {
		makeKey = ""
	}
	b.WriteString(faint(wrapKeys("↑↓ choose · enter open an event"+makeKey+" · r refresh · esc back", es.w)))
	return b.String()
}

// eventLine is an event on one line of w columns: name, game, kind,
// clock, its start or countdown, players. The name, then the game's
// title, take the columns the rest leaves (74 hold it all, with names cut
// to 20 and 14), to be read whole ("Hourly Word Fight Arena", "Sightless
// Word Fight").
func (sh *shared) eventLine(ev client.Tournament, now time.Time, w int) string {
	extra := max(0, w-74)
	nameW := 20 + min(extra, 12)
	gameW := 14 + min(extra-(nameW-20), 6)
	kind := "arena"
	if ev.Kind == "swiss" {
		kind = "Swiss"
	}
	name := ev.Name
	if ev.Password {
		name += " ⚿"
	}
	players := plural(ev.Players, "player", "players")
	if m := ev.MaxPlayers; m > 0 && m < mostPlayers(ev.Kind == "swiss") {
		// A capped event says how many it takes, and when it is full,
		// in the 11 columns an 80-column list leaves it.
		players = fmt.Sprintf("%d of %d", ev.Players, m)
		if ev.Players >= m && (ev.Status == "created" || ev.Status == "started") {
			players = fmt.Sprintf("%d, full", ev.Players)
		}
	}
	return fmt.Sprintf("%-*s %-*s %-5s %-6s %-13s %s", nameW, fit(name, nameW, 1), gameW, fit(sh.gameTitle(ev.Game), gameW, 1), kind,
		fit(ev.ClockText, 6, 1), fit(sh.eventWhen(ev, now, false), 13, 1), players)
}

// eventAbout is what the list's line leaves out of event ev, or cuts:
// rated or casual, its game's whole title and mode, its length and what
// it asks of its players.
func (sh *shared) eventAbout(ev client.Tournament) string {
	ts := []string{"casual", sh.gameTitle(ev.Game)}
	if ev.Rated {
		ts[0] = "rated"
	}
	if ev.Mode != "" {
		ts[1] += " (" + strings.ReplaceAll(ev.Mode, "_", " ") + ")"
	}
	if ev.Kind == "swiss" {
		ts = append(ts, plural(ev.Rounds, "round", "rounds"))
	} else {
		ts = append(ts, plural(ev.Minutes, "minute", "minutes"))
	}
	return ev.Name + ": " + strings.Join(append(ts, entryTerms(ev)...), " · ")
}

// entryTerms are what event ev asks of its players beyond its game and
// clock (a password, the rated games to join, a cap on players) and how
// many a table when more than two.
func entryTerms(ev client.Tournament) []string {
	var ts []string
	if ev.Password {
		ts = append(ts, "⚿ password")
	}
	if ev.MinRatedGames > 0 {
		ts = append(ts, entryWords(ev.MinRatedGames)+" to join")
	}
	if m := ev.MaxPlayers; m > 0 && m < mostPlayers(ev.Kind == "swiss") {
		ts = append(ts, "at most "+plural(m, "player", "players"))
	}
	if ev.Seats > 2 {
		ts = append(ts, fmt.Sprintf("%d players a table", ev.Seats))
	}
	return ts
}

// eventWhen is an event's moment as a player reads it: when it starts,
// how long an arena has left, which round a Swiss plays, or who won. A
// start more than a day off is a date and time in the player's zone,
// named when named is set and the player did not choose the zone (a
// list's column has no room for the name).
func (sh *shared) eventWhen(ev client.Tournament, now time.Time, named bool) string {
	switch ev.Status {
	case "created":
		d := ev.Starts.Sub(now)
		if d <= 0 {
			return "starting now"
		}
		if d > 24*time.Hour && named {
			return sh.when(ev.Starts, "Jan 2 15:04")
		}
		if d > 24*time.Hour {
			return ev.Starts.In(sh.zone()).Format("Jan 2 15:04")
		}
		return "in " + span(d)
	case "started":
		if ev.Kind == "swiss" {
			return fmt.Sprintf("round %d of %d", ev.Round, ev.Rounds)
		}
		if d := arenaEnd(ev).Sub(now); d > 0 {
			return span(d) + " left"
		}
		return "ending" // its last games are played out
	}
	if len(ev.Winners) > 0 && ev.Winners[0] != "" {
		return "won by " + ev.Winners[0]
	}
	return "over"
}

// arenaEnd is when arena ev stops pairing: as the server says, which
// moves it on by the time it was down, else its start and length.
func arenaEnd(ev client.Tournament) time.Time {
	if !ev.Ends.IsZero() {
		return ev.Ends
	}
	return ev.Starts.Add(time.Duration(ev.Minutes) * time.Minute)
}

// span is a length of time to the second under an hour, to the minute
// under a day.
func span(d time.Duration) string {
	d = max(0, d).Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm %02ds", int(d.Minutes()), int(d.Seconds())%60)
	default:
		return fmt.Sprintf("%dh %02dm", int(d.Hours()), int(d.Minutes())%60)
	}
}

// eventScreen is one event: its standings, its games under way (to
// watch), and the keys to join and leave it. While the player is in it,
// it is read again every eventPoll from whatever screen is on show.
type eventScreen struct {
	*shared
	id   string
	ev   *client.Tournament // nil until the server answered
	list *eventsScreen      // the list it was opened from, for esc
	gen  int                // tells this event's messages from an earlier one's
	at   int                // the game chosen, under way or played
	// chosen is the table of the game chosen by ↑↓, which the choice
	// follows as games end and start and the list moves under it.
	chosen string
	// only names the player whose games alone the list shows (/), as
	// the browser's page shows a player's games when the name is
	// clicked; "" for every game.
	only   string
	busy   bool      // a join or leave is on its way
	asked  time.Time // when it was last read (monotonic)
	asking bool      // a read is on its way
	// ticking says a tick is on its way (one at a time).
	ticking bool
	// trouble is the last read's failure, until one succeeds.
	trouble string
	// opened are the tables of the player's games opened for them, each
	// once: esc at one comes back here, and stays.
	opened map[string]bool
	chat   eventChat
	// cancelling is set by its maker's first c: a second cancels the
	// event, any other key keeps it.
	cancelling bool
	// from is the screen esc comes back to when it was opened from no
	// list (nil: home), as the moderators' screen opens a reported
	// line's event.
	from screen
}

// The event's messages, routed to the event followed (shared.event)
// whatever screen is on show.
type (
	eventMsg struct {
		gen int
		ev  client.Tournament
		err error
		// chat holds the chat's messages after the last read, last the
		// number to read from next; chatErr why they could not be read.
		chat    []client.ChatLine
		last    int
		chatErr error
	}
	eventTickMsg struct{ gen int }
	// eventJoinedMsg answers a join (left false) or a leave.
	eventJoinedMsg struct {
		gen      int
		left     bool
		ev       client.Tournament
		err      error
		identity string // the guest identity made for the join
	}
	// eventSavedMsg answers the download of every game's record of the
	// event: where they were saved, and how many.
	eventSavedMsg struct {
		gen  int
		path string
		n    int
		err  error
	}
	// eventStartedMsg answers its creator's start of the event, or
	// (cancelled) their cancel of it.
	eventStartedMsg struct {
		gen       int
		ev        client.Tournament
		err       error
		cancelled bool
	}
	// eventPairedMsg is the seat the event gave the player at a table.
	eventPairedMsg struct {
		gen  int
		s    client.Seated
		game string
	}
	// pairingMsg is an event not followed that the player stream said
	// seated the player, as the server read it after.
	pairingMsg struct {
		p   client.TournamentPairing
		ev  client.Tournament
		err error
	}
)

// openEvent shows event id and follows it; list is the list to go back
// to (nil: home).
func openEvent(sh *shared, id string, list *eventsScreen) tea.Cmd {
	e := followEvent(sh, id, list)
	sh.err, sh.note = "", ""
	sh.nav.show(e)
	return e.resume()
}

// openEventFrom shows event id and follows it, as openEvent does, with
// esc back to from.
func openEventFrom(sh *shared, id string, from screen) tea.Cmd {
	cmd := openEvent(sh, id, nil)
	sh.event.from = from
	return cmd
}

// followEvent makes event id the one followed, in place of any other,
// without showing it.
func followEvent(sh *shared, id string, list *eventsScreen) *eventScreen {
	sh.eventsGen++
	e := &eventScreen{shared: sh, id: id, list: list, gen: sh.eventsGen, opened: map[string]bool{}}
	sh.event = e
	return e
}

// resume reads the event again and keeps it ticking: it is on show
// again.
func (e *eventScreen) resume() tea.Cmd {
	var cmds []tea.Cmd
	if !e.asking {
		e.asking = true
		cmds = append(cmds, e.fetch())
	}
	if !e.ticking {
		cmds = append(cmds, e.tick())
	}
	return tea.Batch(cmds...)
}

func (e *eventScreen) fetch() tea.Cmd {
	gen, id, c, since, tok := e.gen, e.id, e.c, e.chat.last, e.idToken
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
		defer cancel()
		ev, err := c.Tournament(ctx, tok, id)
		if err != nil {
			return eventMsg{gen: gen, err: err}
		}
		chat, last, cerr := c.EventChat(ctx, tok, id, since)
		return eventMsg{gen: gen, ev: ev, chat: chat, last: last, chatErr: cerr}
	}
}

func (e *eventScreen) tick() tea.Cmd {
	e.ticking = true
	gen := e.gen
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return eventTickMsg{gen} })
}

// live says whether the event is still followed: on show, or the player
// is in it and it is not over.
func (e *eventScreen) live(onShow bool) bool {
	if e.event != e {
		return false
	}
	if onShow {
		return true
	}
	return e.ev != nil && e.ev.Status != "finished" && e.ev.Status != "cancelled" && e.mine() != nil
}

// descLines is how many lines the event's screen gives, beyond its first,
// to its terms (when they go under its name), its terms of entry and its
// description.
func (e *eventScreen) descLines() int {
	n := len(e.head()) - 1 // the terms under the name, when they do not fit beside it
	n += len(e.entry())    // the terms of entry take lines of their own
	if e.ev == nil || e.ev.Description == "" {
		return n
	}
	return n + min(2, strings.Count(wrap(e.ev.Description, e.w), "\n")+1)
}

// head is the event's first lines: its name and its terms (kind and
// length, game, clock, rated or casual) beside it, or under it when they
// do not fit on one line, so that none is cut.
func (e *eventScreen) head() []string {
	ev := e.ev
	if ev == nil {
		return []string{title("Event")}
	}
	kind := fmt.Sprintf("Arena of %s", plural(ev.Minutes, "minute", "minutes"))
	if ev.Kind == "swiss" {
		kind = fmt.Sprintf("Swiss of %s", plural(ev.Rounds, "round", "rounds"))
	}
	rated := "casual"
	if ev.Rated {
		rated = "rated"
	}
	g := e.gameTitle(ev.Game)
	if ev.Mode != "" {
		g += " (" + strings.ReplaceAll(ev.Mode, "_", " ") + ")"
	}
	terms := fmt.Sprintf("%s · %s · %s · %s", kind, g, ev.ClockText, rated)
	if line := title(ev.Name) + "  ·  " + terms; ansi.StringWidth(line) <= e.w {
		return []string{line}
	}
	return []string{title(ev.Name), terms}
}

// entry is what the event asks of its players beyond its game and clock
// (a password, the rated games to join) and how many a table when more
// than two, then why the player may not join when they may not for want
// of an account or of rated games: on as many lines of the screen's
// width as they take, broken between terms, so that none is cut; none
// when there is nothing to say.
func (e *eventScreen) entry() []string {
	if e.ev == nil {
		return nil
	}
	ts := entryTerms(*e.ev)
	switch {
	case e.guestShut() && e.ev.Rated:
		ts = append(ts, "rated: players with accounts only (sign in or up on the home screen)")
	case e.guestShut():
		ts = append(ts, "for players with accounts only (sign in or up on the home screen)")
	case e.short():
		ts = append(ts, fmt.Sprintf("you have played %d", *e.ev.RatedGames))
	}
	var lines []string
	for _, t := range ts {
		if n := len(lines); n > 0 && ansi.StringWidth(lines[n-1]+" · "+t) <= e.w {
			lines[n-1] += " · " + t
			continue
		}
		lines = append(lines, t)
	}
	return lines
}

// full says the event takes nobody new: it has as many players as its
// maker allowed. A player it has seen before (one who left an arena
// after playing) may still come back, so the join stays theirs.
func (e *eventScreen) full() bool {
	ev := e.ev
	return ev != nil && ev.MaxPlayers > 0 && ev.Players >= ev.MaxPlayers && (ev.Status == "created" || ev.Status == "started") &&
		!slices.ContainsFunc(ev.Standings, func(s client.Standing) bool { return s.You })
}

// guestShut says a guest sees an event they could join but for having no
// account: the server refuses guests rated games, and an event that asks
// for rated games, so neither the browser nor the terminal offers them the
// join.
func (e *eventScreen) guestShut() bool {
	ev := e.ev
	return ev != nil && (ev.Rated || ev.MinRatedGames > 0) && e.cfg.Session == "" && e.open()
}

// short says the signed-in player has played fewer rated games in the
// event's pool than it asks (the server tells an account that is not in
// the event its count), so the join the server would refuse is not
// offered.
func (e *eventScreen) short() bool {
	ev := e.ev
	return ev != nil && ev.RatedGames != nil && *ev.RatedGames < ev.MinRatedGames && e.open()
}

// open says the event takes newcomers: before its start, or an arena
// under way.
func (e *eventScreen) open() bool {
	ev := e.ev
	return ev.Status == "created" || ev.Status == "started" && ev.Kind != "swiss"
}

// maker says whether the signed-in player made the event, and so may
// start it early.
func (e *eventScreen) maker() bool {
	return e.ev != nil && e.cfg.Session != "" && e.ev.Creator != "" && strings.EqualFold(e.ev.Creator, e.cfg.Account)
}

// unplayed begins the name the server gives a game of an event that no
// player showed up for: there is no table to see.
const unplayed = "unplayed-"

// playedShown is how many of an event's games played its screen lists,
// as many as the browser's page.
const playedShown = 50

// games are the games the event's screen lists, to choose with ↑↓: those
// under way, then those played, the newest first; only those of the
// player chosen with /, when one is.
func (e *eventScreen) games() []client.TournamentGame {
	var gs []client.TournamentGame
	for _, g := range e.ev.Playing {
		if e.only == "" || slices.Contains(g.Players, e.only) {
			gs = append(gs, g)
		}
	}
	played := 0
	for _, g := range e.ev.Games {
		if !g.Ended.IsZero() && played < playedShown && (e.only == "" || slices.Contains(g.Players, e.only)) {
			gs = append(gs, g)
			played++
		}
	}
	return gs
}

// pickPlayer shows the games of the player of the standings called name
// alone: in any case, and a name's start will do when it starts one name
// only. A name nobody has is refused, and the list stays as it was.
func (e *eventScreen) pickPlayer(name string) tea.Cmd {
	e.err, e.note = "", ""
	if e.ev == nil {
		return nil
	}
	var starts []string
	for _, s := range e.ev.Standings {
		if strings.EqualFold(s.Name, name) {
			starts = []string{s.Name}
			break
		}
		if strings.HasPrefix(strings.ToLower(s.Name), strings.ToLower(name)) {
			starts = append(starts, s.Name)
		}
	}
	switch len(starts) {
	case 0:
		e.err = fmt.Sprintf("nobody in %s is called %s", e.ev.Name, name)
	case 1:
		e.only, e.at, e.chosen = starts[0], 0, ""
	default:
		e.err = fmt.Sprintf("the names of %d players start %s: type more of it", len(starts), name)
	}
	return nil
}

// noShows is how many games a Swiss player may miss before the event
// withdraws them for good: they may not join it again.
const noShows = 2

// joinKeys are the join and leave keys that apply to the player now, as
// the browser offers its buttons: none once the event is over, x while
// they are in it, j when it would take them (not a Swiss under way that
// they were never in, nor one that withdrew them for their no-shows, nor
// a rated event a guest's).
func (e *eventScreen) joinKeys() string {
	ev := e.ev
	if ev.Status != "created" && ev.Status != "started" {
		return ""
	}
	swissOn := ev.Kind == "swiss" && ev.Status == "started"
	if e.mine() != nil {
		if swissOn {
			return "x withdraw"
		}
		return "x leave"
	}
	if !swissOn {
		if e.guestShut() || e.short() || e.full() {
			return ""
		}
		return "j join"
	}
	for _, s := range ev.Standings {
		if s.You && s.Left && s.Forfeits < noShows && (e.cfg.Session != "" || e.idToken != "") {
			return "j join again"
		}
	}
	return ""
}

// mine is the player's line of the standings, when they are in the
// event (and have not left it).
func (e *eventScreen) mine() *client.Standing { return e.standing(e.ev) }

// standing is the player's line of event ev's standings, when they are
// in it and have not left it; nil for ev nil.
func (sh *shared) standing(ev *client.Tournament) *client.Standing {
	if ev == nil || (sh.cfg.Session == "" && sh.idToken == "") {
		return nil // a guest with no identity yet is in no event
	}
	// The server marks the asker's line; a guest's name may be another
	// guest's too, and so is no way to find it.
	for i, s := range ev.Standings {
		if s.You {
			if s.Left {
				return nil
			}
			return &ev.Standings[i]
		}
	}
	return nil
}

// eventUpdate handles the messages of the event followed, whatever
// screen is on show; ok is false for other messages.
func (m *Model) eventUpdate(msg tea.Msg) (tea.Cmd, bool) {
	e := m.event
	switch msg := msg.(type) {
	case eventMsg:
		if e == nil || msg.gen != e.gen {
			return nil, true
		}
		return e.got(msg), true
	case eventTickMsg:
		if e == nil || msg.gen != e.gen {
			return nil, true
		}
		e.ticking = false
		if !e.live(m.cur == e) {
			return nil, true
		}
		cmds := []tea.Cmd{e.tick()}
		if !e.asking && time.Since(e.asked) >= eventPoll {
			e.asking = true
			cmds = append(cmds, e.fetch())
		}
		return tea.Batch(cmds...), true
	case eventJoinedMsg:
		if e == nil || msg.gen != e.gen {
			return nil, true
		}
		return e.joined(msg), true
	case eventPairedMsg:
		if e == nil || msg.gen != e.gen {
			return nil, true
		}
		return m.paired(e, msg.s, msg.game, ""), true
	case eventSaidMsg:
		if e == nil || msg.gen != e.gen {
			return nil, true
		}
		return e.said(msg), true
	case eventSavedMsg:
		if e == nil || msg.gen != e.gen {
			return nil, true
		}
		e.busy = false
		switch {
		case msg.err != nil:
			e.err, e.note = "saving the records: "+msg.err.Error(), ""
		case msg.n == 0:
			e.err, e.note = "", "the event has no finished game to save"
		default:
			e.err, e.note = "", fmt.Sprintf("saved %s, one a line, to %s", game.Count(msg.n, "game's record", "games' records"), msg.path)
		}
		return nil, true
	case pairingMsg:
		return m.pairing(msg), true
	case eventStartedMsg:
		if e == nil || msg.gen != e.gen {
			return nil, true
		}
		e.busy = false
		what, done := "starting", "you started "
		if msg.cancelled {
			what, done = "cancelling", "you cancelled "
		}
		if msg.err != nil {
			e.err, e.note = what+" the event: "+msg.err.Error(), ""
			return nil, true
		}
		e.err = ""
		cmd := e.got(eventMsg{gen: msg.gen, ev: msg.ev, last: e.chat.last})
		e.note = done + msg.ev.Name // after got, which clears a note of the event before
		return cmd, true
	}
	return nil, false
}

// got takes in the event as the server last read it; a table the
// standings say the player plays at is looked up and opened.
func (e *eventScreen) got(msg eventMsg) tea.Cmd {
	e.asking, e.asked = false, time.Now()
	if msg.err != nil {
		e.trouble = msg.err.Error()
		return nil
	}
	if e.ev != nil && e.ev.Status != msg.ev.Status {
		e.note = "" // said of the event as it was ("it starts in 45s")
	}
	e.ev, e.trouble = &msg.ev, ""
	if msg.chatErr != nil {
		e.trouble = "the chat: " + msg.chatErr.Error()
	} else {
		e.chat.take(msg.chat, msg.last)
	}
	games := e.games()
	if i := slices.IndexFunc(games, func(g client.TournamentGame) bool { return g.Table == e.chosen }); i >= 0 && e.chosen != "" {
		e.at = i
	} else if e.at >= len(games) {
		e.at = max(0, len(games)-1)
	}
	if me := e.mine(); me != nil && me.Playing != "" && !e.opened[me.Playing] {
		return e.seatAt(me.Playing)
	}
	return nil
}

// seatAt finds the player's seat at table id among their tables under
// way (the standings name the table, not the seat).
func (e *eventScreen) seatAt(id string) tea.Cmd {
	gen, c, tok, game, base := e.gen, e.c, e.idToken, e.ev.Game, e.public()
	if tok == "" {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(e.ctx, 10*time.Second)
		defer cancel()
		ts, err := c.YourTables(ctx, tok)
		if err != nil {
			return nil // the next read tries again
		}
		for _, t := range ts {
			if t.ID == id {
				return eventPairedMsg{gen: gen, s: client.Seated{Table: id, Seat: t.Seat, Token: tok, Invite: base + "/t/" + id}, game: game}
			}
		}
		return nil
	}
}

// askPairing reads the event of pairing p, which the player stream
// named, before its table opens (pairing).
func (sh *shared) askPairing(p client.TournamentPairing) tea.Cmd {
	c, tok := sh.c, sh.idToken
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(sh.ctx, 10*time.Second)
		defer cancel()
		ev, err := c.Tournament(ctx, tok, p.Event)
		return pairingMsg{p: p, ev: ev, err: err}
	}
}

// pairing opens the table of a pairing the player stream named in an
// event not followed, once the event's standings say the player is in
// it: the stream names again, each time it opens, the game of every
// event that seated the player, also one they left since (their game
// goes on), and a player who left an event is no longer taken to it.
func (m *Model) pairing(msg pairingMsg) tea.Cmd {
	if msg.err != nil || m.standing(&msg.ev) == nil {
		return nil // not read (the next pairing says it again), or left
	}
	p := msg.p
	e := m.event
	var cmds []tea.Cmd
	if e == nil || e.id != p.Event {
		e = followEvent(m.shared, p.Event, nil)
		cmds = append(cmds, e.resume())
	}
	s := client.Seated{Table: p.Table, Seat: p.Seat, Token: m.idToken, Invite: m.public() + "/t/" + p.Table}
	return tea.Batch(append(cmds, m.paired(e, s, p.Game, p.Name))...)
}

// paired opens the table event e seated the player at, unless a game
// under way is on show, which it would hide: then the news says so, and
// the next read of the event tries again.
func (m *Model) paired(e *eventScreen, s client.Seated, game, name string) tea.Cmd {
	if e.opened[s.Table] {
		return nil
	}
	if name == "" && e.ev != nil {
		name = e.ev.Name
	}
	if on := m.table(); on != nil && on.id != s.Table && on.seat >= 0 && (on.upd == nil || on.upd.Table.Status != "finished") {
		m.tell(fmt.Sprintf("%s paired you at a table: esc, and it opens", name))
		return nil
	}
	if on := m.table(); on != nil && on.id == s.Table {
		// On show already (opened from the recent games, say): esc
		// there comes back to the event.
		e.opened[s.Table], on.event = true, e
		return nil
	}
	// The next game takes the place of the one that ended, often within
	// a second of its end: the news says how that one ended.
	last := ""
	if on := m.table(); on != nil && on.seat >= 0 {
		last = on.endNews()
	}
	e.opened[s.Table] = true
	cmd := m.sitFor(s, game, e)
	m.note = fmt.Sprintf("%s paired you: your game (esc goes back to the event)", name)
	if last != "" {
		m.note = "Your last game: " + last + ". " + m.note
	}
	return cmd
}

// join enters the player in the event, with password when it has one.
func (e *eventScreen) join(password string) tea.Cmd {
	e.busy = true
	gen, id, tok, c := e.gen, e.id, e.idToken, *e.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(e.ctx, 15*time.Second)
		defer cancel()
		idTok, err := identityFor(ctx, c, tok)
		if err != nil {
			return eventJoinedMsg{gen: gen, err: err}
		}
		ev, err := c.JoinTournament(ctx, idTok, id, password)
		return eventJoinedMsg{gen: gen, ev: ev, err: err, identity: idTok}
	}
}

func (e *eventScreen) leave() tea.Cmd {
	e.busy = true
	gen, id, tok, c := e.gen, e.id, e.idToken, e.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(e.ctx, 15*time.Second)
		defer cancel()
		ev, err := c.LeaveTournament(ctx, tok, id)
		return eventJoinedMsg{gen: gen, left: true, ev: ev, err: err}
	}
}

// joined takes in the answer to a join or a leave.
func (e *eventScreen) joined(msg eventJoinedMsg) tea.Cmd {
	e.busy = false
	e.adopt(msg.identity) // the guest made for the join plays its games
	if msg.err != nil {
		verb := "joining"
		if msg.left {
			verb = "leaving"
		}
		e.err = fmt.Sprintf("%s the event: %v", verb, msg.err)
		return nil
	}
	e.ev, e.err = &msg.ev, ""
	if msg.left {
		e.note = "you left " + msg.ev.Name
		switch {
		case msg.ev.Kind == "arena":
			e.note += ": you keep your points, and are paired no more"
		case msg.ev.Status == "started":
			e.note = "you withdrew from " + msg.ev.Name + ": you keep your points, and are paired no more until you join again"
		}
		return nil
	}
	e.note = "you joined " + msg.ev.Name
	switch msg.ev.Status {
	case "created":
		e.note += fmt.Sprintf(": it starts in %s; stay about, and your games open here", span(time.Until(msg.ev.Starts)))
	case "started":
		e.note += ": your games open as you are paired"
	}
	return nil
}

func (e *eventScreen) update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if e.chat.open {
		return e.chatKey(k.String(), k)
	}
	var games []client.TournamentGame
	if e.ev != nil {
		games = e.games()
	}
	n := len(games)
	if e.cancelling && k.String() != "c" {
		e.cancelling, e.note = false, "" // kept
	}
	switch k.String() {
	case "esc", "q":
		if e.only != "" && k.String() == "esc" {
			// From a player's games, back to every game.
			e.only, e.at, e.chosen, e.err = "", 0, "", ""
			return nil
		}
		if e.list != nil {
			e.list.eventsGen++
			e.list.gen = e.list.eventsGen
			e.err, e.note = "", ""
			e.nav.show(e.list)
			return tea.Batch(e.list.fetch, e.list.tick(), e.keepTicking())
		}
		if e.from != nil {
			e.err, e.note = "", ""
			e.nav.show(e.from)
			return e.keepTicking()
		}
		e.nav.goHome()
		return e.keepTicking()
	case "r":
		if !e.asking {
			e.asking = true
			return e.fetch()
		}
	case "ctrl+t":
		if e.ev == nil {
			return nil
		}
		// The server takes lines from accounts and from the event's
		// players: anyone else is told what would let them write before
		// typing a line it would refuse.
		if e.cfg.Session == "" && e.mine() == nil {
			e.err, e.note = "sign in on the home screen to write in the event's chat", ""
			if strings.HasPrefix(e.joinKeys(), "j join") {
				e.err = "join the event (j), or sign in on the home screen, to write in its chat"
			}
			return nil
		}
		e.chat.open, e.chat.err = true, ""
	case "s":
		if !e.maker() || e.ev.Status != "created" || e.busy {
			return nil
		}
		if e.ev.CannotStart != "" {
			// The server says why it would refuse: say it without asking.
			e.err, e.note = e.ev.CannotStart, ""
			return nil
		}
		e.busy = true
		gen, id, tok, c := e.gen, e.id, e.cfg.Session, e.c
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(e.ctx, 15*time.Second)
			defer cancel()
			ev, err := c.StartTournament(ctx, tok, id)
			return eventStartedMsg{gen, ev, err, false}
		}
	case "c":
		if !e.maker() || e.ev.Status != "created" || e.busy {
			return nil
		}
		if !e.cancelling {
			e.cancelling, e.err, e.note = true, "", "c again cancels "+e.ev.Name+" for good, and tells its players; any other key keeps it"
			return nil
		}
		e.cancelling, e.busy = false, true
		gen, id, tok, c := e.gen, e.id, e.cfg.Session, e.c
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(e.ctx, 15*time.Second)
			defer cancel()
			ev, err := c.CancelTournament(ctx, tok, id)
			return eventStartedMsg{gen, ev, err, true}
		}
	case "d":
		return e.saveRecords()
	case "up":
		if n > 0 {
			e.at = (e.at + n - 1) % n
			e.chosen, e.err = games[e.at].Table, "" // a refusal about the game left
		}
	case "down":
		if n > 0 {
			e.at = (e.at + 1) % n
			e.chosen, e.err = games[e.at].Table, "" // a refusal about the game left
		}
	case "/":
		if e.ev != nil && len(e.ev.Standings) > 0 && len(e.ev.Games)+len(e.ev.Playing) > 0 {
			e.err = ""
			e.nav.show(&promptScreen{shared: e.shared, head: "A player's games in " + e.ev.Name,
				help:  "Type the name of a player of the standings (its start will do), then enter (esc: back; esc on the event shows every game again).",
				input: e.only, max: 40, enter: e.pickPlayer, back: e})
		}
	case "enter":
		if e.at < n && !games[e.at].Ended.IsZero() {
			g := games[e.at]
			if strings.HasPrefix(g.Table, unplayed) {
				e.err = "that game was not played: no player showed up for it"
				return nil
			}
			// Over: its end, from which its replay and analysis open.
			return e.nav.sitFor(client.Seated{Table: g.Table, Seat: -1, Invite: e.public() + "/t/" + g.Table}, e.ev.Game, e)
		}
		if e.at < n {
			g := games[e.at]
			if e.opened[g.Table] || e.mine() != nil && e.mine().Playing == g.Table {
				// The player's own game: to their seat.
				e.opened[g.Table] = false
				return e.seatAt(g.Table)
			}
			return e.nav.sitFor(client.Seated{Table: g.Table, Seat: -1, Invite: e.public() + "/t/" + g.Table}, e.ev.Game, e)
		}
	case "j":
		if e.ev == nil || e.busy {
			return nil
		}
		if e.ev.Password {
			sh := e.shared
			openSecret(sh, "The password of "+e.ev.Name, "This event has a password: type it, then enter (esc: back).", e, e.join)
			return nil
		}
		return e.join("")
	case "x":
		if e.ev == nil || e.busy {
			return nil
		}
		if e.idToken == "" {
			e.err = "you are not in this event"
			return nil
		}
		return e.leave()
	}
	return nil
}

// gameLine names an event's game by its players, and a Swiss's by its
// round too.
func gameLine(g client.TournamentGame) string {
	s := strings.Join(g.Players, " v ")
	if g.Round > 0 {
		s = fmt.Sprintf("round %d: %s", g.Round, s)
	}
	return s
}

// gameEnd is how an event's game stands: its table while under way, each
// player's points once over.
func gameEnd(g client.TournamentGame) string {
	switch {
	case g.Ended.IsZero():
		return g.Table
	case strings.HasPrefix(g.Table, unplayed):
		return "not played"
	}
	var pts []string
	for i, p := range g.Points {
		if i < len(g.Players) {
			pts = append(pts, fmt.Sprintf("%s %d", g.Players[i], p))
		}
	}
	return strings.Join(pts, ", ")
}

// saveRecords saves every finished game's record of a finished event,
// one a line, as the browser's download does; a client whose player is
// elsewhere (the SSH door's) says where to fetch them instead.
func (e *eventScreen) saveRecords() tea.Cmd {
	switch {
	case e.ev == nil || e.busy:
		return nil
	case e.ev.Status != "finished":
		e.err, e.note = "the records can be saved once the event is over", ""
		return nil
	}
	gen, id, c := e.gen, e.id, e.c
	cmd := e.archive("/api/v1/tournaments/"+url.PathEscape(id)+"/export", "event-"+id+".ndjson",
		func(ctx context.Context) (string, int, error) { return c.EventExport(ctx, id) },
		func(path string, n int, err error) tea.Msg {
			return eventSavedMsg{gen: gen, path: path, n: n, err: err}
		})
	e.busy = cmd != nil
	return cmd
}

// keepTicking keeps the event followed once its screen is left, for as
// long as the player is in it: its tick ends when live says so.
func (e *eventScreen) keepTicking() tea.Cmd {
	if e.live(false) && !e.ticking {
		return e.tick()
	}
	return nil
}

func (e *eventScreen) view() string {
	var b strings.Builder
	if e.ev == nil {
		b.WriteString(title("Event") + "\n\nAsking the server for the event…\n\n" + e.message() + "\n")
		b.WriteString(faint("esc back"))
		return b.String()
	}
	ev := e.ev
	for _, l := range e.head() {
		b.WriteString(fitLine(l, e.w) + "\n")
	}
	for _, l := range e.entry() {
		b.WriteString(fitLine(l, e.w) + "\n")
	}
	var state string
	switch ev.Status {
	case "created":
		state = "starts " + e.eventWhen(*ev, time.Now(), true)
	case "started":
		state = "under way: " + e.eventWhen(*ev, time.Now(), true)
	case "cancelled":
		state = "cancelled: it will not be played"
	default:
		// Winners is the podium, first place first: the event is won by
		// the first alone.
		state = "finished"
		places := []string{": won by ", " · second ", " · third "}
		for i, w := range ev.Winners[:min(len(ev.Winners), len(places))] {
			state += places[i] + w
		}
	}
	state += " · " + plural(ev.Players, "player", "players")
	if e.full() {
		state += " (full)"
	}
	if me := e.mine(); me != nil && ev.Status == "finished" {
		state += " · " + good("you played in it")
	} else if me != nil && ev.Status != "cancelled" {
		state += " · " + good("you are in it")
		switch {
		case me.Playing != "":
			state += " (playing)"
		case ev.Kind != "swiss" || ev.Status != "started" || len(ev.Playing) == 0:
		case me.Bye:
			// No table opens for a bye: say why.
			state += " (a bye this round: it scores as a win)"
		case me.Games+me.Byes >= ev.Round:
			state += " (your game of this round is over)"
		}
	}
	b.WriteString(fitLine(state, e.w) + "\n")
	if ev.Description != "" {
		// Its maker's words, in at most two lines.
		lines := strings.Split(wrap(ev.Description, e.w), "\n")
		if len(lines) > 2 {
			lines = []string{lines[0], fitLine(strings.Join(lines[1:], " "), e.w)}
		}
		b.WriteString(faint(strings.Join(lines, "\n")) + "\n")
	}
	if e.trouble != "" {
		b.WriteString(bad(fitLine("! "+e.trouble, e.w)))
	}
	b.WriteString("\n")

	b.WriteString(title("Standings") + "\n")
	games := e.games()
	playRoom := min(len(games), 4)
	chat := e.chatView()
	keys := "ctrl+t chat · r refresh · esc back"
	if k := e.joinKeys(); k != "" {
		keys = k + " · " + keys
	}
	if e.maker() && ev.Status == "created" {
		keys = "c cancel it · " + keys
		if ev.CannotStart == "" {
			keys = "s start it now · " + keys
		}
	}
	if ev.Status == "finished" {
		keys = "d save every game's record · " + keys
	}
	if len(ev.Standings) > 0 && len(ev.Games)+len(ev.Playing) > 0 {
		keys = strings.Replace(keys, "r refresh", "/ a player's games · r refresh", 1)
	}
	if e.only != "" {
		keys = strings.Replace(keys, "esc back", "esc every game", 1)
	}
	switch {
	case slices.ContainsFunc(games, func(g client.TournamentGame) bool { return g.Ended.IsZero() }):
		keys = "↑↓ game · enter watch (yours: play) · " + keys
	case len(games) > 0:
		keys = "↑↓ game · enter see how it ended · " + keys
	}
	if e.chat.open {
		keys = "type a message · enter send it · esc close the chat"
		if e.maker() {
			keys = "type a message · enter send it · /mute NAME keeps a player out of it (/unmute NAME) · esc close the chat"
		}
	}
	keys = wrapKeys(keys, e.w)
	playLines := playRoom
	if e.only != "" && len(games) == 0 {
		playLines = 1 // "none yet"
	}
	if len(games) > playRoom {
		playLines++ // how many more, or before
	}
	room := max(1, e.h-10-playLines-e.msgExtra()-len(chat)-strings.Count(keys, "\n")-e.descLines())
	if len(ev.Standings) == 0 {
		if strings.HasPrefix(e.joinKeys(), "j join") {
			b.WriteString(faint("  nobody yet: j joins") + "\n")
		} else {
			b.WriteString(faint("  nobody yet") + "\n")
		}
	} else {
		b.WriteString(faint(fmt.Sprintf("  %4s  %-24s %5s %6s", "rank", "name", "score", "games")) + "\n")
		room--
	}
	line := func(s client.Standing) {
		mark := ""
		if s.Streak {
			mark = warm(" ★ streak")
		}
		// A Swiss's byes score as wins; its no-shows are games lost by
		// not showing up.
		var counts []string
		if s.Byes > 0 {
			counts = append(counts, plural(s.Byes, "bye", "byes"))
		}
		if s.Forfeits > 0 {
			counts = append(counts, plural(s.Forfeits, "no-show", "no-shows"))
		}
		if len(counts) > 0 {
			mark += faint(" (" + strings.Join(counts, ", ") + ")")
		}
		switch {
		case s.Left && ev.Kind == "swiss":
			mark += faint(" withdrawn")
		case s.Left:
			mark += faint(" left")
		case s.Playing != "":
			mark += faint(" playing")
		case ev.Status == "started":
			mark += faint(" waiting")
		}
		name := fit(s.Name, 24, 1)
		if s.You {
			name = title(fmt.Sprintf("%-24s", name))
		} else {
			name = fmt.Sprintf("%-24s", name)
		}
		b.WriteString(fitLine(fmt.Sprintf("  %4d  %s %5d %6d%s", s.Rank, name, s.Score, s.Games, mark), e.w) + "\n")
	}
	// A player ranked below the lines there are still sees their own
	// line, after the leaders and before those ranked below them.
	mine := slices.IndexFunc(ev.Standings, func(s client.Standing) bool { return s.You })
	switch n := len(ev.Standings); {
	case n <= room || mine < room:
		for i, s := range ev.Standings {
			if i >= room {
				fmt.Fprintf(&b, "  … and %d more\n", n-i)
				break
			}
			line(s)
		}
	default:
		top := max(0, room-2)
		for _, s := range ev.Standings[:top] {
			line(s)
		}
		fmt.Fprintf(&b, "  … %d more\n", mine-top)
		line(ev.Standings[mine])
		if after := n - mine - 1; after > 0 {
			fmt.Fprintf(&b, "  … and %d more\n", after)
		}
	}
	if e.only != "" && len(games) == 0 {
		b.WriteString("\n" + title(e.only+"'s games") + "\n" + faint("  none yet") + "\n")
	}
	if len(games) > 0 {
		head := "Games"
		live := slices.IndexFunc(games, func(g client.TournamentGame) bool { return !g.Ended.IsZero() })
		switch live {
		case -1:
			head = "Games under way"
		case 0:
			head = "Games played"
		}
		if e.only != "" {
			head = e.only + "'s games"
		}
		b.WriteString("\n" + title(head) + "\n")
		// The chosen game stays in view, a line saying how many come
		// before it where they are out of sight.
		first, shown := 0, playRoom
		if e.at >= playRoom {
			shown = playRoom - 1
			first = e.at - shown + 1
			fmt.Fprintf(&b, "  … %d before\n", first)
		}
		for i, g := range games {
			if i < first {
				continue
			}
			if i >= first+shown {
				fmt.Fprintf(&b, "  … and %d more\n", len(games)-i)
				break
			}
			cur := "  "
			if i == e.at {
				cur = hi("> ")
			}
			b.WriteString(fitLine(fmt.Sprintf("%s%-40s %s", cur, gameLine(g), faint(gameEnd(g))), e.w) + "\n")
		}
	}
	for _, l := range chat {
		b.WriteString(l + "\n")
	}
	b.WriteString("\n" + e.message() + "\n")
	b.WriteString(faint(keys))
	return b.String()
}
