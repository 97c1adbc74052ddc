package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// challengeScreen is the challenge form: the player's name, the game
// (one two can play), its rule options, clock and word list as the
// new-table form has them, and whether the game is rated. The server's
// refusal shows under it; a challenge sent goes back to the screen that
// opened the form, whose news says so.
type challengeScreen struct {
	*shared
	back  screen
	to    string
	game  int // index into pairGames
	rules ruleValues
	rated bool
	at    int // the field chosen: 0 the name, 1 the game, then the options, then rated
	busy  bool
	// typing says the last key was a digit or backspace typed into the
	// number field chosen, so that the next digit goes on the number.
	typing bool
	// names are the account names that begin with the name typed.
	names nameOffer
}

// openChallenge shows the challenge form, the name to prefilled ("": to
// type), the first game chosen with each option at its default; esc goes
// back to back.
func openChallenge(sh *shared, to string, back screen) {
	cs := &challengeScreen{shared: sh, back: back, to: to}
	if to != "" {
		cs.at = 1 // the name is there: the game is the next thing to choose
	}
	cs.reset()
	sh.err = ""
	sh.nav.show(cs)
}

// pairGames are the games a challenge may name: those two can play.
func (cs *challengeScreen) pairGames() []client.Game { return twoPlayerGames(cs.games) }

// chosen is the game chosen, or nil when the server has none two play.
func (cs *challengeScreen) chosen() *client.Game {
	gs := cs.pairGames()
	if len(gs) == 0 {
		return nil
	}
	return &gs[cs.game%len(gs)]
}

// opts are the chosen game's options with the clock and word list.
func (cs *challengeScreen) opts() []client.Option {
	if g := cs.chosen(); g != nil {
		return cs.options(g)
	}
	return nil
}

// reset puts the options of the game chosen at their defaults, keeping
// the clock chosen: every game takes the same clocks.
func (cs *challengeScreen) reset() {
	clock, had := cs.rules["clock"]
	cs.rules = defaultRules(cs.opts())
	if had {
		cs.rules["clock"] = clock
	}
}

func (cs *challengeScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case challengeMsg:
		cs.busy = false
		if msg.err == nil && msg.verb == "made" {
			cs.nav.show(cs.back)
		}
	case tea.KeyPressMsg:
		return cs.key(msg.String(), msg)
	}
	if cmd, ok := cs.names.update(cs.shared, msg, cs.to); ok {
		return cmd
	}
	return nil
}

func (cs *challengeScreen) key(s string, k tea.KeyPressMsg) tea.Cmd {
	// Only a digit or backspace typed into a number keeps it typing:
	// any other key, a move to another field above all, ends it.
	typing := cs.typing
	cs.typing = false
	opts := cs.opts()
	fields := 2 + len(opts) + 1
	switch s {
	case "esc":
		cs.err = ""
		cs.nav.show(cs.back)
		return nil
	case "up", "shift+tab":
		cs.at = (cs.at + fields - 1) % fields
		return nil
	case "down", "tab":
		cs.at = (cs.at + 1) % fields
		return nil
	case "enter":
		return cs.send()
	}
	cs.err = "" // the last refusal was of the challenge as it stood
	// The name takes every letter; elsewhere j and k move too, as on
	// the new-table form.
	if cs.at == 0 {
		if n := cs.names.first(); s == "right" && n != "" {
			cs.to = n
			return nil
		}
		if !editLine(&cs.to, s, k, 40) {
			return nil
		}
		return cs.names.typed(cs.to)
	}
	switch s {
	case "k":
		cs.at = (cs.at + fields - 1) % fields
		return nil
	case "j":
		cs.at = (cs.at + 1) % fields
		return nil
	}
	step := stepOf(s)
	switch {
	case cs.at == 1:
		if n := len(cs.pairGames()); step != 0 && n > 0 {
			cs.game = (cs.game + n + step) % n
			cs.reset()
		}
	case cs.at == fields-1:
		if step != 0 {
			cs.rated = !cs.rated
		}
	default:
		if o := opts[cs.at-2]; cs.rated && ratedFixed(cs.chosen(), o) {
			cs.err = ratedRefusal(o)
			return nil
		}
		if cs.drawShape(cs, cs.rules, opts[cs.at-2], s) {
			return nil
		}
		cs.typing, cs.err = cs.rules.change(opts[cs.at-2], s, k, typing)
	}
	return nil
}

// values are the rules the challenge sends: a rated game's keep those it
// may not change at their defaults.
func (cs *challengeScreen) values() ruleValues {
	if cs.rated {
		return cs.rules.asRated(cs.chosen(), cs.opts())
	}
	return cs.rules
}

// send sends the challenge, unless one is on its way or the name is
// missing.
func (cs *challengeScreen) send() tea.Cmd {
	to, g := strings.TrimSpace(cs.to), cs.chosen()
	if to == "" {
		cs.err, cs.at = "type the name of the player to challenge", 0
		return nil
	}
	if g == nil || cs.busy {
		return nil
	}
	cs.busy, cs.err = true, ""
	rules, lexicon := cs.values().request(cs.lexicon)
	p := client.Proposal{Game: g.Name, Rated: cs.rated, Rules: rules, Lexicon: lexicon}
	tok, c := cs.cfg.Session, *cs.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(cs.ctx, 15*time.Second)
		defer cancel()
		ch, err := c.Challenge(ctx, tok, to, p)
		if err != nil {
			err = fmt.Errorf("the challenge to %s: %w", to, err)
		}
		return challengeMsg{ch: ch, verb: "made", err: err}
	}
}

func (cs *challengeScreen) view() string {
	var b strings.Builder
	b.WriteString(title("Challenge a player") + "\n\n")
	opts := cs.opts()
	lw := ansi.StringWidth("Player")
	for _, o := range opts {
		lw = max(lw, ansi.StringWidth(optionLabel(o)))
	}
	row := func(at int, label, val, rng string) { formRow(&b, at == cs.at, label, lw, val, rng) }
	// The name gives way to the rest of its row: its end, where the
	// cursor is.
	name := cs.to
	if cs.at == 0 {
		name = tailOf(cs.to, max(8, cs.w-lw-10)) + "█"
	}
	offered := ""
	if cs.at == 0 {
		offered = ansi.Truncate(cs.names.line(), max(0, rowRoom(cs.w, lw, name)), "…")
	}
	row(0, "Player", name, offered)
	gs := cs.pairGames()
	game := "(none)"
	var titles []string
	for _, g := range gs {
		titles = append(titles, g.Title)
	}
	if g := cs.chosen(); g != nil {
		game = g.Title
	}
	row(1, "Game", game, choiceRange(titles, game, rowRoom(cs.w, lw, game)))
	typing := false // the field chosen takes a text typed in
	values := cs.values()
	for i, o := range opts {
		if cs.rated && ratedFixed(cs.chosen(), o) {
			row(2+i, optionLabel(o), values.text(o), ratedNote)
			continue
		}
		if o.Kind == "text" {
			t, _ := values[o.Name].(string)
			typing = typing || 2+i == cs.at
			formText(&b, 2+i == cs.at, optionLabel(o), lw, t, cs.w)
			continue
		}
		val := values.text(o)
		row(2+i, optionLabel(o), val, optionRange(o, val, rowRoom(cs.w, lw, val)))
	}
	rated := "no"
	if cs.rated {
		rated = "yes"
	}
	last := 2 + len(opts)
	row(last, "Rated", rated, "yes/no")
	help := ""
	switch {
	case cs.at == 0:
		help = "the name of the player to challenge (enter on a player online fills it in); the names that begin as it does show beside it, and → takes the first"
	case cs.at == 1:
		help = "the games two can play"
	case cs.at == last:
		help = "a rated game changes both players' ratings; its rules must then be the defaults (a few, such as Nymphabet's mode, may change) and its word list the default"
	default:
		help = opts[cs.at-2].Help
	}
	b.WriteString("\n" + wrap(help, cs.w-2) + "\n\n")
	if cs.busy {
		b.WriteString("sending the challenge…\n")
	}
	b.WriteString(cs.message() + "\n")
	keys := "↑↓ field · type the name · ←→ change (digits type a number or a clock: 10+5) · enter send · esc back"
	if typing {
		keys = "type · backspace erase · ↑↓ field · enter send · esc back"
		if cs.at >= 2 && cs.at < last && isShape(opts[cs.at-2]) {
			keys = "type · backspace erase · " + shapeKeys + "↑↓ field · enter send · esc back"
		}
	}
	b.WriteString(faint(wrapKeys(keys, cs.w)))
	return b.String()
}
