package tui

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// newTableScreen is the new-table form: opponents, the further seats of
// a game for more than two, then each rule option.
type newTableScreen struct {
	*shared
	game string
	opp  int // index into opponents(game)
	// more are the seats after the second, each an index into
	// moreSeats, the last one nobody (0) while the game takes more.
	more     []int
	at       int // the field chosen: 0 opponents, then the seats in more, then the options
	values   ruleValues
	rated    bool // asked only when signed in: the last field
	creating bool
	// typing says the last key was a digit or backspace typed into the
	// number field chosen, so that the next digit goes on the number.
	typing bool
}

// moreSeats are the choices for a seat after the second: nobody, which
// ends the list, or the seats "Play against" offers.
var moreSeats = []opponent{
	{"nobody", nil, ""},
	{"the computer, easy", []string{"computer:easy"}, ""},
	{"the computer, medium", []string{"computer:medium"}, ""},
	{"the computer, strong", []string{"computer:strong"}, ""},
	{"a friend (invite link)", []string{"open"}, ""},
}

// computerWait is how long a request that may wait for the computer is
// awaited: a table played alone, made or dealt again, waits for the
// computer to hide its setup, and a deceptive fill for the strong grid
// maker, each of which the server bounds at 20 s (then does without),
// after its turn for a processor. A request given up sooner would leave
// a table made after its player heard it was not.
const computerWait = 45 * time.Second

// seatFields is how many fields the seats after the second take: none
// for a game of two, or when the opponent chosen plays alone.
func (nt *newTableScreen) seatFields(g *client.Game, o opponent) int {
	if g.MaxPlayers <= 2 || len(o.seats) != 2 {
		return 0
	}
	return len(nt.more)
}

// setSeat makes seat field i (of more) choice c: nobody takes the seat
// out of the list, which keeps one nobody at its end while the game
// takes more players.
func (nt *newTableScreen) setSeat(g *client.Game, i, c int) {
	if c == 0 {
		nt.more = slices.Delete(nt.more, i, i+1)
	} else {
		nt.more[i] = c
	}
	nt.more = slices.DeleteFunc(nt.more, func(c int) bool { return c == 0 })
	if 2+len(nt.more) < g.MaxPlayers {
		nt.more = append(nt.more, 0)
	}
	nt.at = min(nt.at, len(nt.more))
}

// opponent is one choice of whom to play.
type opponent struct {
	label string
	seats []string
	maker string
}

// opponents lists whom to play game; the one-seat choices only when the
// server seats one player at that game (min_players 1).
func opponents(g *client.Game) []opponent {
	game := g.Name
	os := []opponent{
		{"the computer, easy", []string{"me", "computer:easy"}, ""},
		{"the computer, medium", []string{"me", "computer:medium"}, ""},
		{"the computer, strong", []string{"me", "computer:strong"}, ""},
		{"a friend (invite link)", []string{"me", "open"}, ""},
	}
	if g.MinPlayers > 1 {
		return os
	}
	switch game {
	case "quizl":
		os = append(os,
			// Short enough to stand whole beside Quizl's long labels on
			// a screen 80 columns wide: the level is what tells them apart.
			opponent{"solitaire, an easy grid", []string{"me"}, "easy"},
			opponent{"solitaire, a medium grid", []string{"me"}, "medium"},
			opponent{"solitaire, a strong grid", []string{"me"}, "strong"})
	case "salvo":
		os = append(os, opponent{"practice: fire at a fleet alone", []string{"me"}, ""})
	}
	return os
}

// clockPresets are the clocks the form offers: none, seconds a turn
// ("60"), minutes for the game plus seconds a move ("5+3", Fischer), and
// days a move ("2d", correspondence); clockRule writes each as the API
// takes it.
var clockPresets = []string{"none", "10", "30", "60", "120", "300", "600", "3600", "1+0", "3+2", "5+3", "15+10", "1d", "2d", "7d"}

// typedClock is a clock typed into a form's clock field ("10+5", "45",
// "3d"), rather than one of clockPresets chosen with the arrows: keys
// add to it until the arrows choose a preset again.
type typedClock string

// clockKeys are the keys a clock is typed with.
const clockKeys = "0123456789+:d"

// clockRule returns preset as the table's "clock" rule, or false for
// none.
func clockRule(preset string) (any, bool) {
	if n, err := strconv.Atoi(preset); err == nil {
		return n, true
	}
	if mins, inc, ok := strings.Cut(preset, "+"); ok {
		m, err1 := strconv.Atoi(mins)
		i, err2 := strconv.Atoi(inc)
		if err1 == nil && err2 == nil {
			return map[string]any{"kind": "fischer", "initial": m * 60, "increment": i}, true
		}
	}
	if days, ok := strings.CutSuffix(preset, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil {
			return map[string]any{"kind": "correspondence", "days": n}, true
		}
	}
	return nil, false
}

// choiceRange lists choices for a field showing cur, within width
// columns: all of them when they fit, else those nearest cur, with "…"
// where the list goes on.
func choiceRange(choices []string, cur string, width int) string {
	if all := strings.Join(choices, "/"); ansi.StringWidth(all) <= width {
		return all
	}
	at := max(slices.Index(choices, cur), 0)
	lo, hi := at, at+1 // choices[lo:hi] are shown
	show := func(lo, hi int) string {
		s := strings.Join(choices[lo:hi], "/")
		if lo > 0 {
			s = "…/" + s
		}
		if hi < len(choices) {
			s += "/…"
		}
		return s
	}
	for grew := true; grew; {
		grew = false
		if hi < len(choices) && ansi.StringWidth(show(lo, hi+1)) <= width {
			hi, grew = hi+1, true
		}
		if lo > 0 && ansi.StringWidth(show(lo-1, hi)) <= width {
			lo, grew = lo-1, true
		}
	}
	return show(lo, hi)
}

// optionLabel names o as players read it: its label, or, from a server
// that gives none, its key in words ("Strike limit" for strike_limit).
func optionLabel(o client.Option) string {
	if o.Label != "" {
		return o.Label
	}
	s := strings.ReplaceAll(o.Name, "_", " ")
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// options are the game's rule options, the table's clock and, for a
// game of words, the word list (its "lexicon", a field of the table, not
// a rule).
func (sh *shared) options(g *client.Game) []client.Option {
	os := append(slices.Clone(g.Options), client.Option{Name: "clock", Label: "Clock", Kind: "choice", Default: "none", Choices: clockPresets,
		Help: "seconds for each turn (60), or minutes for the whole game plus seconds a move (5+3), or days a move (2d): choose one, or type your own (45, 10+5, 3d); when a player's time runs out the server resigns for them (a Word Fight word left to place: cannot)"})
	if g.Words && len(sh.lexicons) > 1 {
		var names []string
		for _, l := range sh.lexicons {
			names = append(names, l.Name)
		}
		os = append(os, client.Option{Name: "lexicon", Label: "Word list", Kind: "choice", Default: sh.lexicon, Choices: names,
			Help: "the word list words are checked against: " + sh.lexiconTitles() + "; rated games use the default"})
	}
	return os
}

// ratedFixed reports whether a rated game of g keeps option o (of
// sh.options) at its default, as the server's rated_options say: the
// word list, and each of the game's own options they do not name; the
// clock is free. Nothing is fixed when the server does not say.
func ratedFixed(g *client.Game, o client.Option) bool {
	if g == nil || g.RatedOptions == nil || o.Name == "clock" {
		return false
	}
	return o.Name == "lexicon" || !slices.Contains(g.RatedOptions, o.Name)
}

// asRated is values v as a rated game of g sends them: those of opts it
// keeps fixed at their defaults, whatever was chosen before Rated was.
func (v ruleValues) asRated(g *client.Game, opts []client.Option) ruleValues {
	out := maps.Clone(v)
	for _, o := range opts {
		if ratedFixed(g, o) {
			out[o.Name] = o.Default
		}
	}
	return out
}

// ratedRefusal is what a key that would change option o says while a
// rated game is chosen.
func ratedRefusal(o client.Option) string {
	return fmt.Sprintf("a rated game keeps %s at its default: set Rated to no to change it", strings.ToLower(optionLabel(o)))
}

// ratedNote is what a form's row of an option a rated game keeps at its
// default shows after the value.
const ratedNote = "rated: the default"

// lexiconTitles says what each word list is.
func (sh *shared) lexiconTitles() string {
	var ts []string
	for _, l := range sh.lexicons {
		ts = append(ts, fmt.Sprintf("%s is %s (%d words)", l.Name, l.Title, l.Words))
	}
	return strings.Join(ts, ", ")
}

// openNewTable shows the form of a new table of game, each option at its
// default.
func openNewTable(sh *shared, game string) {
	nt := &newTableScreen{shared: sh, game: game, values: defaultRules(sh.options(sh.gameByName(game))), more: []int{0}}
	sh.err, sh.note = "", ""
	sh.nav.show(nt)
}

func (nt *newTableScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case seatedMsg:
		nt.creating = false
	case tea.KeyPressMsg:
		return nt.key(msg.String(), msg)
	}
	return nil
}

func (nt *newTableScreen) key(s string, k tea.KeyPressMsg) tea.Cmd {
	// Only a digit or backspace typed into a number keeps it typing:
	// any other key, a move to another field above all, ends it.
	typing := nt.typing
	nt.typing = false
	g := nt.gameByName(nt.game)
	opps := opponents(g)
	opts := nt.options(g)
	sf := nt.seatFields(g, opps[nt.opp])
	fields := 1 + sf + len(opts)
	if nt.cfg.Session != "" {
		fields++ // rated
	}
	switch s {
	case "esc":
		nt.nav.goHome()
		return nil
	case "up", "k":
		nt.at = (nt.at + fields - 1) % fields
		return nil
	case "down", "j", "tab":
		nt.at = (nt.at + 1) % fields
		return nil
	case "enter":
		if nt.creating {
			return nil
		}
		nt.creating, nt.err = true, ""
		o := opps[nt.opp]
		seats := nt.seats()
		extra := map[string]any{}
		if o.maker != "" {
			extra["maker"] = o.maker
		}
		values := nt.values
		if nt.isRated() {
			extra["rated"] = true
			values = values.asRated(g, opts)
		}
		rules, lexicon := values.request(nt.lexicon)
		if lexicon != "" {
			extra["lexicon"] = lexicon
		}
		game, tok := nt.game, nt.idToken
		c := *nt.c // a copy: the name may change while the request is out
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(nt.ctx, computerWait)
			defer cancel()
			idTok, err := identityFor(ctx, c, tok)
			if err != nil {
				return seatedMsg{err: err}
			}
			s, err := c.Create(ctx, idTok, game, rules, seats, extra)
			return seatedMsg{s: s, game: game, err: err, identity: idTok}
		}
	}
	step := stepOf(s)
	if nt.at == 0 {
		if step != 0 {
			nt.opp = (nt.opp + len(opps) + step) % len(opps)
		}
		return nil
	}
	if nt.at <= sf {
		if step != 0 {
			nt.setSeat(g, nt.at-1, (nt.more[nt.at-1]+len(moreSeats)+step)%len(moreSeats))
		}
		return nil
	}
	if nt.at > sf+len(opts) {
		if step != 0 {
			if why := nt.unrated(); why != "" {
				nt.err = why
				return nil
			}
			nt.rated = !nt.rated
		}
		return nil
	}
	if o := opts[nt.at-1-sf]; nt.isRated() && ratedFixed(g, o) {
		nt.err = ratedRefusal(o)
		return nil
	}
	if nt.drawShape(nt, nt.values, opts[nt.at-1-sf], s) {
		return nil
	}
	// A refusal shown was of the form as it stood before this key.
	nt.typing, nt.err = nt.values.change(opts[nt.at-1-sf], s, k, typing)
	return nil
}

// isRated says whether the table asked for is rated: Rated chosen, by
// a player signed in (nobody else is asked), at a table that may be.
func (nt *newTableScreen) isRated() bool {
	return nt.rated && nt.cfg.Session != "" && nt.unrated() == ""
}

// seats are the seats the form asks for.
func (nt *newTableScreen) seats() []string {
	g := nt.gameByName(nt.game)
	o := opponents(g)[nt.opp]
	seats := slices.Clone(o.seats)
	for _, c := range nt.more[:nt.seatFields(g, o)] {
		seats = append(seats, moreSeats[c].seats...)
	}
	return seats
}

// unrated says why the table the form asks for cannot be rated, as the
// server would refuse it; "" when it may be. A rated game is between two
// people.
func (nt *newTableScreen) unrated() string {
	if !slices.Equal(nt.seats(), []string{"me", "open"}) {
		return "a rated game is between two people: choose a friend (invite link) to play against, and nobody in the seats after"
	}
	return ""
}

// ruleValues are the values of a form's rule options (sh.options: the
// game's own, the clock and the word list), by option name; the
// new-table and challenge forms share them.
type ruleValues map[string]any

// defaultRules are the options opts each at its default.
func defaultRules(opts []client.Option) ruleValues {
	v := ruleValues{}
	for _, o := range opts {
		v[o.Name] = o.Default
	}
	return v
}

// change changes option o by key s (k the key itself): ←→ step a choice
// or turn a yes/no, digits type a number and keys edit a text.
//
// A number's first digit replaces the number shown (its default, or one
// stepped to), as in any form; the digits after it, and backspace, edit
// the number typed. typing says the key before was a digit or backspace
// typed into this field; change reports whether s was one, for the next
// key. A digit that would take the number over its maximum is refused,
// the number typed kept, and refused says so; "" when nothing was.
func (v ruleValues) change(o client.Option, s string, k tea.KeyPressMsg, typing bool) (typed bool, refused string) {
	step := stepOf(s)
	cur := v[o.Name]
	switch o.Kind {
	case "bool":
		if step != 0 {
			b, _ := cur.(bool)
			v[o.Name] = !b
		}
	case "choice":
		if o.Name == "clock" && v.typeClock(s, k) {
			return
		}
		if step != 0 && len(o.Choices) > 0 { // a choice of none stays as it is
			i := 0
			for j, c := range o.Choices {
				if c == cur {
					i = j
				}
			}
			v[o.Name] = o.Choices[(i+len(o.Choices)+step)%len(o.Choices)]
		}
	case "int":
		n := toInt(cur)
		if step != 0 {
			n += step
		} else if d, err := strconv.Atoi(k.Key().Text); err == nil && len(k.Key().Text) == 1 {
			if !typing {
				n = 0
			}
			if o.Max != nil && n*10+d > *o.Max {
				// Starting again from the digit, or from the maximum,
				// would lose what was typed without a word.
				return typing, fmt.Sprintf("%s: %d at most, not %d", optionLabel(o), *o.Max, n*10+d)
			}
			n, typed = n*10+d, true
		} else if s == "backspace" {
			n, typed = n/10, true
		}
		if o.Min != nil && n < *o.Min && step != 0 {
			n = *o.Min
		}
		if o.Max != nil && n > *o.Max {
			n = *o.Max
		}
		v[o.Name] = n
	case "text":
		t, _ := cur.(string)
		if s != "space" {
			editLine(&t, s, k, 200)
		}
		v[o.Name] = t
	}
	return typed, ""
}

// typeClock types key s (k the key itself) into the clock field,
// reporting whether it took the key: a digit starts a clock of the
// player's own, or adds to the one being typed, as "+", ":" and "d" do
// (before a digit, "+" steps through the presets as elsewhere);
// backspace takes the last key back, and from the last one leaves no
// clock. The server says what is wrong with a clock typed.
func (v ruleValues) typeClock(s string, k tea.KeyPressMsg) bool {
	t, typing := v["clock"].(typedClock)
	switch text := k.Key().Text; {
	case len(text) == 1 && strings.Contains(clockKeys, text) && (typing || text[0] >= '0' && text[0] <= '9'):
		if !typing {
			t = ""
		}
		if len(t) < 12 {
			v["clock"] = t + typedClock(text)
		}
		return true
	case s == "backspace" && typing:
		if t = t[:len(t)-1]; t == "" {
			v["clock"] = "none"
		} else {
			v["clock"] = t
		}
		return true
	}
	return false
}

// text is option o's value as a form shows it.
func (v ruleValues) text(o client.Option) string {
	cur := v[o.Name]
	switch o.Kind {
	case "int":
		return strconv.Itoa(toInt(cur))
	case "bool":
		if on, _ := cur.(bool); on {
			return "yes"
		}
		return "no"
	case "text":
		if t, _ := cur.(string); t == "" {
			return "(none)"
		}
	}
	return fmt.Sprint(cur)
}

// request splits the values as the API takes them: the rules, with the
// clock written out and left out when none, and the word list apart
// (a field of the table, not a rule), "" when it is def, the default.
func (v ruleValues) request(def string) (rules map[string]any, lexicon string) {
	rules = map[string]any{}
	for k, val := range v {
		rules[k] = val
	}
	switch c := rules["clock"].(type) {
	case string:
		if r, ok := clockRule(c); ok {
			rules["clock"] = r
		} else {
			delete(rules, "clock") // none, the default
		}
	case typedClock:
		if r, ok := clockRule(string(c)); ok {
			rules["clock"] = r
		} else {
			rules["clock"] = string(c) // as typed: the server's refusal says why
		}
	}
	if l, ok := rules["lexicon"].(string); ok {
		delete(rules, "lexicon")
		if l != def {
			lexicon = l
		}
	}
	return rules, lexicon
}

// optionRange is what a form's row shows after option o's value val:
// its range, or as many of its choices as fit in room columns.
func optionRange(o client.Option, val string, room int) string {
	switch {
	case o.Min != nil && o.Max != nil:
		return fmt.Sprintf("%d-%d", *o.Min, *o.Max)
	case len(o.Choices) > 0:
		return choiceRange(o.Choices, val, room)
	case o.Kind == "bool":
		return "yes/no"
	}
	return ""
}

// formRow writes a form's row: the mark of the field chosen, the label
// padded to lw columns, the value between ‹ › and what may follow it.
func formRow(b *strings.Builder, chosen bool, label string, lw int, val, rng string) {
	mark := " "
	if chosen {
		mark = hi(">")
	}
	pad := strings.Repeat(" ", max(0, lw-ansi.StringWidth(label)))
	fmt.Fprintf(b, "%s %s%s ‹ %s ›", mark, label, pad, val)
	if rng != "" {
		fmt.Fprintf(b, "  %s", faint(rng))
	}
	b.WriteString("\n")
}

// formWindow is the rows of a form that fit in room lines, the row at
// among them: when they do not all fit, a line above and one below say
// how many more there are that way.
func formWindow(rows []string, at, room int) []string {
	if len(rows) <= room {
		return rows
	}
	n := max(1, room)
	first := 0
	for {
		first = max(0, min(at-n/2, len(rows)-n))
		marks := 0
		if first > 0 {
			marks++
		}
		if first+n < len(rows) {
			marks++
		}
		if n+marks <= room || n == 1 {
			break
		}
		n--
	}
	var out []string
	if first > 0 {
		out = append(out, faint(fmt.Sprintf("  ↑ %d more", first)))
	}
	out = append(out, rows[first:first+n]...)
	if more := len(rows) - first - n; more > 0 {
		out = append(out, faint(fmt.Sprintf("  ↓ %d more", more)))
	}
	return out
}

// formText writes a form's row of a text typed in, w columns wide: the
// text (its end, when long), a cursor after it while chosen, and
// "(none)" while empty and not.
func formText(b *strings.Builder, chosen bool, label string, lw int, val string, w int) {
	mark := " "
	switch {
	case chosen:
		mark = hi(">")
		val = tailOf(val, max(1, w-lw-4)) + "█"
	case val == "":
		val = faint("(none)")
	}
	pad := strings.Repeat(" ", max(0, lw-ansi.StringWidth(label)))
	b.WriteString(fitLine(fmt.Sprintf("%s %s%s %s", mark, label, pad, val), w) + "\n")
}

// rowRoom is the room a row leaves for the range after a value val, in
// a form w columns wide whose labels take lw: the mark and a space,
// " ‹ ", " ›" and two spaces take 9.
func rowRoom(w, lw int, val string) int { return w - (lw + 9 + ansi.StringWidth(val)) }

func toInt(v any) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case int:
		return n
	}
	return 0
}

func (nt *newTableScreen) view() string {
	g := nt.gameByName(nt.game)
	opts := nt.options(g)
	var b strings.Builder
	fmt.Fprintf(&b, "%s  ·  new table\n\n", title(g.Title))
	// The labels take one column, as wide as the widest.
	lw := ansi.StringWidth("Play against")
	for _, o := range opts {
		lw = max(lw, ansi.StringWidth(optionLabel(o)))
	}
	// The rows go to rb, to show as many as the screen holds.
	var rb strings.Builder
	row := func(at int, label, val, rng string) { formRow(&rb, at == nt.at, label, lw, val, rng) }
	opps := opponents(g)
	row(0, "Play against", opps[nt.opp].label, "")
	sf := nt.seatFields(g, opps[nt.opp])
	for i, c := range nt.more[:sf] {
		row(1+i, fmt.Sprintf("Seat %d", 3+i), moreSeats[c].label, "")
	}
	typing := false // the field chosen takes a text typed in
	rated := nt.isRated()
	values := nt.values
	if rated {
		values = values.asRated(g, opts)
	}
	for i, o := range opts {
		if rated && ratedFixed(g, o) {
			// Shown at the default a rated game keeps it at; what
			// was chosen comes back with Rated no.
			row(1+sf+i, optionLabel(o), values.text(o), ratedNote)
			continue
		}
		if o.Kind == "text" {
			t, _ := values[o.Name].(string)
			typing = typing || 1+sf+i == nt.at
			formText(&rb, 1+sf+i == nt.at, optionLabel(o), lw, t, nt.w)
			continue
		}
		val := values.text(o)
		row(1+sf+i, optionLabel(o), val, optionRange(o, val, rowRoom(nt.w, lw, val)))
	}
	if nt.cfg.Session != "" {
		r, rng := "no", "yes/no"
		if rated {
			r = "yes"
		}
		if nt.unrated() != "" {
			rng = "for two people: play against a friend"
			if ansi.StringWidth(rng) > rowRoom(nt.w, lw, r) {
				rng = "for two people"
			}
		}
		row(1+sf+len(opts), "Rated", r, rng)
	}
	help := "choose whom to play"
	switch {
	case nt.at > sf+len(opts):
		help = "a rated game changes both players' ratings; both must be signed in, and neither a computer; it keeps the game's rules at their defaults (a few, such as Nymphabet's mode, may change) and the default word list"
	case nt.at > sf:
		help = opts[nt.at-1-sf].Help
	case nt.at > 0:
		help = fmt.Sprintf("another player: the computer at a level, or a friend who joins with the invite link; nobody takes the seat out (%s plays %d to %d)", g.Title, g.MinPlayers, g.MaxPlayers)
	}
	var tail strings.Builder
	tail.WriteString("\n" + wrap(help, nt.w-2) + "\n\n")
	if nt.creating {
		tail.WriteString("opening the table…\n")
	}
	tail.WriteString(nt.message() + "\n")
	keys := "↑↓ field · ←→ change (digits type a number or a clock: 10+5) · enter open the table · esc back · ? help"
	if typing {
		keys = "type · backspace erase · ↑↓ field · enter open the table · esc back · ? help"
		if isShape(opts[nt.at-1-sf]) {
			keys = "type · backspace erase · " + shapeKeys + "↑↓ field · enter open the table · esc back · ? help"
		}
	}
	tail.WriteString(faint(wrapKeys(keys, nt.w)))
	rows := strings.Split(strings.TrimSuffix(rb.String(), "\n"), "\n")
	for _, l := range formWindow(rows, nt.at, nt.h-2-strings.Count(tail.String(), "\n")-1) {
		b.WriteString(l + "\n")
	}
	b.WriteString(tail.String())
	return b.String()
}

// stepOf is the step a form's key takes a choice by: -1 back, 1 on, 0
// for a key that is no step.
func stepOf(key string) int {
	switch key {
	case "left", "h", "-":
		return -1
	case "right", "l", "+", "space":
		return 1
	}
	return 0
}
