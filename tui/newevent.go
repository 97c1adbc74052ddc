package tui

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// newEventScreen is the form that makes an event, an account's, as the
// browser's events page has it: its kind, name, game, clock, length,
// players a table, whether it is rated, the rated games a player needs
// to join, how many players it takes at most, when it starts and a
// password to join.
type newEventScreen struct {
	*shared
	list     *eventsScreen // esc goes back to it
	at       int           // the field chosen
	swiss    bool
	name     string
	about    string
	game     int        // among the games two or more play
	rules    ruleValues // the game's rule options
	clock    int        // among eventClocks
	typed    typedClock // a clock typed in place of clock's, "" for none
	length   int        // an arena's minutes, a Swiss's rounds
	seats    int        // players a table: 2, or 3-4 for a Swiss of a game that takes them
	rated    bool
	minRated int // rated games in the event's pool a player needs to join
	most     int // the most players it takes; 0 for the server's most
	starts   int // among eventStarts
	secret   string
	busy     bool
	// optTyping says the last key was a digit or backspace typed into
	// the rule option's number chosen, so that the next digit goes on it.
	optTyping bool
}

// eventClocks are the clocks the form offers an event's games: minutes
// for the game plus seconds a move, as the new-table form writes them.
func eventClocks() []string { return []string{"1+0", "3+2", "5+3", "10+5", "15+10"} }

// eventStarts are the starts the form offers, in minutes from now.
func eventStarts() []int { return []int{1, 5, 15, 30, 60, 120, 24 * 60} }

// The form's fixed fields, in order; the game's rule options come
// between evGame and evClock (see fields).
const (
	evKind = iota
	evName
	evAbout
	evGame
	evClock
	evLength
	evSeats
	evRated
	evMinRated
	evMost
	evStarts
	evPassword
	evOption // the first of the game's options: evOption+i is the i-th
)

// fields are the form's rows in order, each a field above or evOption+i.
func (ne *newEventScreen) fields() []int {
	fs := []int{evKind, evName, evAbout, evGame}
	for i := range ne.options() {
		fs = append(fs, evOption+i)
	}
	fs = append(fs, evClock, evLength)
	if ne.maxSeats() > 2 {
		fs = append(fs, evSeats)
	}
	return append(fs, evRated, evMinRated, evMost, evStarts, evPassword)
}

// maxSeats is the most players a table the event may seat: more than two
// only in a casual Swiss of a game that many play (an arena pairs two,
// and a rated game is between two), and four at most.
func (ne *newEventScreen) maxSeats() int {
	gs := ne.games()
	if !ne.swiss || ne.rated || len(gs) == 0 {
		return 2
	}
	return min(4, max(2, gs[ne.game%len(gs)].MaxPlayers))
}

// field is the field chosen.
func (ne *newEventScreen) field() int {
	fs := ne.fields()
	return fs[min(ne.at, len(fs)-1)]
}

// chosen is the game chosen, or nil when the server has none two play.
func (ne *newEventScreen) chosen() *client.Game {
	gs := ne.games()
	if len(gs) == 0 {
		return nil
	}
	return &gs[ne.game%len(gs)]
}

// values are the rule options the event asks for: a rated event's keep
// those a rated game may not change at their defaults.
func (ne *newEventScreen) values() ruleValues {
	if ne.rated {
		return ne.rules.asRated(ne.chosen(), ne.options())
	}
	return ne.rules
}

// options are the rule options of the game chosen.
func (ne *newEventScreen) options() []client.Option {
	gs := ne.games()
	if len(gs) == 0 {
		return nil
	}
	return gs[ne.game%len(gs)].Options
}

// eventMadeMsg answers the making of an event.
type eventMadeMsg struct {
	ev  client.Tournament
	err error
}

// openNewEvent shows the form, from the list of events.
func openNewEvent(sh *shared, list *eventsScreen) {
	sh.err, sh.note = "", ""
	ne := &newEventScreen{shared: sh, list: list, clock: 1, length: 30, seats: 2}
	ne.rules = defaultRules(ne.options())
	sh.nav.show(ne)
}

// games are the games an event may be of: those two or more play.
func (ne *newEventScreen) games() []client.Game {
	var gs []client.Game
	for _, g := range ne.shared.games {
		if g.MaxPlayers >= 2 {
			gs = append(gs, g)
		}
	}
	return gs
}

func (ne *newEventScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case eventMadeMsg:
		ne.busy = false
		if msg.err != nil {
			ne.err = msg.err.Error() // the form stays, to be mended
			return nil
		}
		cmd := openEvent(ne.shared, msg.ev.ID, ne.list)
		ne.note = msg.ev.Name + " is made: it starts " + ne.eventWhen(msg.ev, time.Now(), true)
		return cmd
	case tea.KeyPressMsg:
		return ne.key(msg.String(), msg)
	}
	return nil
}

func (ne *newEventScreen) key(s string, k tea.KeyPressMsg) tea.Cmd {
	if ne.busy {
		ne.err = "one moment: the server has not answered yet"
		return nil
	}
	typing := ne.takesText()
	// Only a digit or backspace typed into a rule's number keeps it
	// typing: any other key, a move to another field above all, ends it.
	optTyping := ne.optTyping
	ne.optTyping = false
	switch s {
	case "esc":
		ne.err, ne.note = "", ""
		ne.nav.show(ne.list)
		return ne.list.fetch
	case "up", "shift+tab":
		n := len(ne.fields())
		ne.at = (ne.at + n - 1) % n
		return nil
	case "down", "tab":
		ne.at = (ne.at + 1) % len(ne.fields())
		return nil
	case "enter":
		return ne.make()
	}
	f := ne.field()
	if f >= evOption {
		o := ne.options()[f-evOption]
		if ne.rated && ratedFixed(ne.chosen(), o) {
			ne.err = ratedRefusal(o)
			return nil
		}
		if ne.drawShape(ne, ne.rules, o, s) {
			return nil
		}
		ne.optTyping, ne.err = ne.rules.change(o, s, k, optTyping)
		return nil
	}
	if typing {
		field, limit := &ne.name, 60
		switch f {
		case evAbout:
			field, limit = &ne.about, 1000
		case evPassword:
			field, limit = &ne.secret, 200
		}
		editLine(field, s, k, limit)
		return nil
	}
	step := stepOf(s)
	switch f {
	case evKind:
		if step != 0 {
			ne.swiss = !ne.swiss
			ne.length = 30
			if ne.swiss {
				ne.length = 5
			}
		}
	case evGame:
		if n := len(ne.games()); n > 0 && step != 0 {
			ne.game = (ne.game + step + n) % n
			ne.rules = defaultRules(ne.options())
		}
	case evClock:
		// Typed as on the new-table form; backspace from the last key
		// goes back to the preset.
		v := ruleValues{"clock": eventClocks()[ne.clock]}
		if ne.typed != "" {
			v["clock"] = ne.typed
		}
		if v.typeClock(s, k) {
			ne.typed, _ = v["clock"].(typedClock)
			return nil
		}
		if step != 0 {
			n := len(eventClocks())
			ne.clock, ne.typed = (ne.clock+step+n)%n, ""
		}
	case evLength:
		if typeNumber(&ne.length, s, ne.maxLength()) {
			return nil
		}
		by := 5
		if ne.swiss {
			by = 1
		}
		ne.length = max(1, min(ne.maxLength(), ne.length+step*by))
	case evSeats:
		n := ne.maxSeats() - 1 // the choices, from 2
		ne.seats = 2 + (ne.seats-2+step+n)%n
	case evRated:
		if step != 0 {
			ne.rated = !ne.rated
		}
	case evMinRated:
		if !typeNumber(&ne.minRated, s, maxMinRated) {
			ne.minRated = max(0, min(maxMinRated, ne.minRated+step))
		}
	case evMost:
		top := mostPlayers(ne.swiss)
		if !typeNumber(&ne.most, s, top) && step != 0 {
			// From no cap up to two, and from two down to no cap: one
			// player is no event.
			ne.most = max(0, min(top, ne.most+step))
			if ne.most == 1 {
				ne.most = map[bool]int{true: 2, false: 0}[step > 0]
			}
		}
	case evStarts:
		n := len(eventStarts())
		ne.starts = max(0, min(n-1, ne.starts+step))
	}
	return nil
}

// typeNumber types key s into the number n, as the new-table form's
// numbers are typed: a digit goes on its end (one that would take it past
// top starts it again), backspace takes the last off. It says whether s
// was one of those keys.
func typeNumber(n *int, s string, top int) bool {
	if d, err := strconv.Atoi(s); err == nil && len(s) == 1 {
		if *n = *n*10 + d; *n > top {
			*n = d
		}
		return true
	}
	if s == "backspace" {
		*n /= 10
		return true
	}
	return false
}

// maxMinRated is the most rated games the form asks of an entrant.
const maxMinRated = 1000

// mostPlayers is the most players the server lets a Swiss (swiss) or an
// arena take: the most the form's cap goes to, and an event that takes
// fewer says so.
func mostPlayers(swiss bool) int {
	if swiss {
		return 500
	}
	return 5000
}

// mostWords says the form's cap on players in words.
func mostWords(n int) string {
	if n == 0 {
		return "no cap"
	}
	return plural(n, "player", "players")
}

// maxLength is the most minutes an arena runs, or rounds a Swiss plays.
func (ne *newEventScreen) maxLength() int {
	if ne.swiss {
		return 50
	}
	return 1440
}

// make asks the server to make the event; its refusal (a clock slower
// than the arena is long, too many events today) shows under the form.
func (ne *newEventScreen) make() tea.Cmd {
	gs := ne.games()
	if len(gs) == 0 {
		ne.err = "this server has no game two can play"
		return nil
	}
	if ne.length < 1 {
		ne.err = "type how long it runs: a number, at least 1"
		return nil
	}
	var clock any
	if ne.typed != "" {
		rules, _ := ruleValues{"clock": ne.typed}.request("")
		clock = rules["clock"]
	} else {
		clock, _ = clockRule(eventClocks()[ne.clock])
	}
	ev := client.NewEvent{Kind: "arena", Name: strings.TrimSpace(ne.name), Description: strings.TrimSpace(ne.about), Game: gs[ne.game%len(gs)].Name,
		Clock: clock, Rated: ne.rated, Password: ne.secret, MinRatedGames: ne.minRated, MaxPlayers: min(ne.most, mostPlayers(ne.swiss)), Rules: ne.changed()}
	if seats := min(ne.seats, ne.maxSeats()); seats > 2 {
		ev.Seats = seats
	}
	if ne.swiss {
		ev.Kind, ev.Rounds = "swiss", ne.length
	} else {
		ev.Minutes = ne.length
	}
	if m := eventStarts()[ne.starts]; m > 1 {
		ev.Starts = time.Now().Add(time.Duration(m) * time.Minute)
	}
	ne.busy, ne.err, ne.note = true, "", "making the event…"
	tok, c := ne.cfg.Session, *ne.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ne.ctx, 15*time.Second)
		defer cancel()
		t, err := c.CreateTournament(ctx, tok, ev)
		return eventMadeMsg{t, err}
	}
}

// changed are the game's rule options set away from their defaults, as
// the event takes them; nil when none is.
func (ne *newEventScreen) changed() map[string]any {
	var out map[string]any
	values := ne.values()
	for _, o := range ne.options() {
		if v := values[o.Name]; fmt.Sprint(v) != fmt.Sprint(o.Default) {
			if out == nil {
				out = map[string]any{}
			}
			out[o.Name] = v
		}
	}
	return out
}

// entryWords says who may join an event asking n rated games of them.
func entryWords(n int) string {
	if n == 0 {
		return "anybody"
	}
	return "at least " + plural(n, "rated game", "rated games")
}

// startsWords says a start of eventStarts in words.
func startsWords(m int) string {
	switch {
	case m == 1:
		return "in a minute"
	case m < 60:
		return fmt.Sprintf("in %d minutes", m)
	case m == 60:
		return "in an hour"
	case m < 24*60:
		return fmt.Sprintf("in %d hours", m/60)
	}
	return "tomorrow at this time"
}

func (ne *newEventScreen) view() string {
	var b strings.Builder
	b.WriteString(title("New event") + "  ·  an arena or a Swiss of your own\n\n")
	gs := ne.games()
	game := "(none)"
	if len(gs) > 0 {
		game = gs[ne.game%len(gs)].Title
	}
	kind, length, lengthLabel, lengthRange := "arena", plural(ne.length, "minute", "minutes"), "Runs for", "1-1440, ←→ 5"
	if ne.swiss {
		kind, length, lengthLabel, lengthRange = "Swiss", plural(ne.length, "round", "rounds"), "Rounds", "1-50"
	}
	rated := "no"
	if ne.rated {
		rated = "yes"
	}
	f := ne.field()
	name := ne.name
	if f == evName {
		name += "█"
	} else if name == "" {
		name = faint("(the game and the kind: " + game + " " + strings.ToUpper(kind[:1]) + kind[1:] + ")")
	}
	about := ne.about
	if f == evAbout {
		about = tailOf(about, ne.w-14) + "█"
	} else if about == "" {
		about = faint("(none)")
	}
	secret := dots(ne.secret, ne.w-15)
	if f == evPassword {
		secret += "█"
	} else if secret == "" {
		secret = faint("(none: anybody joins)")
	}
	clockShown := eventClocks()[ne.clock]
	if ne.typed != "" {
		clockShown = string(ne.typed)
	}
	type row struct{ label, value, rng string }
	rows := map[int]row{
		evKind:     {"Kind", "‹ " + kind + " ›", "arena/Swiss"},
		evName:     {"Name", name, ""},
		evAbout:    {"About", about, ""},
		evGame:     {"Game", "‹ " + game + " ›", ""},
		evClock:    {"Clock", "‹ " + clockShown + " ›", "minutes + seconds a move"},
		evLength:   {lengthLabel, "‹ " + length + " ›", lengthRange},
		evSeats:    {"Seats", "‹ " + plural(min(ne.seats, ne.maxSeats()), "player", "players") + " a table ›", fmt.Sprintf("2-%d", ne.maxSeats())},
		evRated:    {"Rated", "‹ " + rated + " ›", "yes/no"},
		evMinRated: {"Entry", "‹ " + entryWords(ne.minRated) + " ›", "0-1000 rated games"},
		evMost:     {"At most", "‹ " + mostWords(min(ne.most, mostPlayers(ne.swiss))) + " ›", fmt.Sprintf("2-%d players", mostPlayers(ne.swiss))},
		evStarts:   {"Starts", "‹ " + startsWords(eventStarts()[ne.starts]) + " ›", ""},
		evPassword: {"Password", secret, ""},
	}
	// The labels take one column, as wide as the widest.
	lw := 9
	for _, o := range ne.options() {
		lw = max(lw, ansi.StringWidth(optionLabel(o)))
	}
	values := ne.values()
	for i, o := range ne.options() {
		val := values.text(o)
		rows[evOption+i] = row{optionLabel(o), "‹ " + val + " ›", optionRange(o, val, rowRoom(ne.w, lw, val))}
		switch {
		case ne.rated && ratedFixed(ne.chosen(), o):
			rows[evOption+i] = row{optionLabel(o), "‹ " + val + " ›", ratedNote}
		case o.Kind == "text":
			// Typed in, as the name is.
			t, _ := values[o.Name].(string)
			switch {
			case f == evOption+i:
				t = tailOf(t, max(1, ne.w-lw-4)) + "█"
			case t == "":
				t = faint("(none)")
			}
			rows[evOption+i] = row{optionLabel(o), t, ""}
		}
	}
	var lines []string
	for i, fi := range ne.fields() {
		r := rows[fi]
		mark := " "
		if i == ne.at {
			mark = hi(">")
		}
		line := fmt.Sprintf("%s %s%s %s", mark, r.label, strings.Repeat(" ", max(0, lw-ansi.StringWidth(r.label))), r.value)
		if r.rng != "" {
			line += "  " + faint(r.rng)
		}
		lines = append(lines, fitLine(line, ne.w))
	}
	help := ""
	if f >= evOption {
		help = ne.options()[f-evOption].Help + "; a rated event keeps the standard rules, but for a mode rated apart (Nymphabet's)"
	}
	help = map[int]string{
		evKind:     "an arena pairs whoever is free until its time is up, a win on a streak scoring double; a Swiss plays rounds, each pairing players of like scores",
		evName:     "up to 60 characters; empty, the game and the kind name it",
		evAbout:    "a few words players read on the event's screen (up to 1,000 characters)",
		evGame:     "the game every table of the event plays, on the rules below (a rated event's are the standard ones)",
		evClock:    "every game's clock: minutes for the game, plus seconds for each move; choose one, or type your own (10+5, or 60: seconds a turn)",
		evLength:   "how long the arena pairs players: none of its games starts that could not end in time",
		evSeats:    "three or four a table suit a Swiss of Quizl or Word Fight, casual: places score 6, 4, 2, 0 at four (4, 2, 0 at three), as a win scores 2",
		evRated:    "rated games change ratings; only players with accounts may enter a rated event",
		evMinRated: "the rated games in the event's rating pool a player needs to join; 0: anybody may",
		evMost:     "the most players who may join (one who leaves before playing frees a place); a Swiss needs enough of them for its rounds",
		evStarts:   "as its maker you may also start it early, from its screen (s)",
		evPassword: "players must type it to join; kept as a hash, never as typed",
	}[f] + help
	if f == evLength && ne.swiss {
		help = "how many rounds the Swiss plays: fewer, should its field be too small to play them all without two players meeting twice"
	}
	tail := "\n" + wrap(help, ne.w) + "\n\n" + ne.message() + "\n"
	keys := "↑↓ field · ←→ change (digits type a number or a clock: 10+5) · enter make the event · esc back"
	if ne.takesText() {
		keys = "type · ↑↓ field · enter make the event · esc back"
		if f >= evOption && isShape(ne.options()[f-evOption]) {
			keys = "type · " + shapeKeys + "↑↓ field · enter make the event · esc back"
		}
	}
	tail += faint(wrapKeys(keys, ne.w))
	// As many of the fields as the screen holds, the chosen among them.
	for _, l := range formWindow(lines, ne.at, ne.h-2-strings.Count(tail, "\n")-1) {
		b.WriteString(l + "\n")
	}
	b.WriteString(tail)
	return b.String()
}

// takesText: the name, the words about it and the password are free
// text.
func (ne *newEventScreen) takesText() bool {
	switch f := ne.field(); {
	case f == evName || f == evAbout || f == evPassword:
		return true
	case f >= evOption:
		return ne.options()[f-evOption].Kind == "text"
	}
	return false
}
