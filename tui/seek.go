package tui

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/tui/client"
)

// seekClocks are the clocks a quick game offers, in seconds a turn (0:
// none); the browser's quick games take two minutes a turn.
var seekClocks = []int{120, 0, 60, 300}

// seekPoll is how often a waiting seek is read back: reading it keeps it
// waiting (the server drops a seek whose player has not asked for 30 s)
// and says when it paired.
const seekPoll = 3 * time.Second

// seekOffer is how long a seek waits before the screen offers the
// computer instead.
const seekOffer = 20 * time.Second

// seekScreen is quick pairing: the player chooses a game, rated or
// casual and a clock, and the server pairs them with a player who asked
// for the same, at once or when one does; meanwhile the screen waits,
// and after a while offers a game against the computer at the player's
// level.
type seekScreen struct {
	*shared
	at    int // the field chosen, an index into fields
	game  int // index in twoSeat
	mode  int // index in the choices of the game's mode option, if it has one
	rated bool
	clock int // index in seekClocks

	asking bool
	seek   *client.Seek // waiting, once the server has it
	since  time.Time    // when it began to wait
	token  string       // the identity token the seek was made with
	gen    int          // tells this seek's messages from an earlier one's
	// offer is how long the seek waits before the computer is offered
	// (seekOffer; tests shorten it), every how often the waiting seek
	// is read back (seekPoll).
	offer, every time.Duration
}

// seekAnswerMsg answers a seek made; seekStateMsg a seek read back;
// seekPollMsg says it is time to read it back.
type seekAnswerMsg struct {
	gen      int
	a        client.SeekAnswer
	identity string
	err      error
}

type seekStateMsg struct {
	gen int
	s   client.SeekState
	err error
}

type seekPollMsg struct{ gen int }

// openSeek shows the quick-game form.
func openSeek(sh *shared) {
	sh.err, sh.note = "", ""
	sk := &seekScreen{shared: sh, offer: seekOffer, every: seekPoll}
	sk.mode = sk.defaultMode()
	sh.nav.show(sk)
}

func (sk *seekScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case seekAnswerMsg:
		return sk.answered(msg)
	case seekPollMsg:
		if msg.gen != sk.gen || sk.seek == nil {
			return nil
		}
		return sk.readBack()
	case seekStateMsg:
		return sk.readIn(msg)
	case tea.KeyPressMsg:
		return sk.key(msg.String())
	}
	return nil
}

func (sk *seekScreen) key(s string) tea.Cmd {
	if sk.seek != nil {
		switch s {
		case "esc", "x":
			return sk.cancel("the search is cancelled")
		case "c":
			if time.Since(sk.since) < sk.offer {
				return nil
			}
			// The computer's game, at the player's level; the seek
			// ends, since nothing here would hear of its pairing
			// while the table is on show.
			cancel := sk.cancel("")
			sk.asking = true
			return tea.Batch(cancel, sk.ask(true))
		}
		return nil
	}
	fields := len(sk.fields())
	switch s {
	case "esc":
		sk.nav.goHome()
	case "up", "k":
		sk.at = (sk.at + fields - 1) % fields
	case "down", "j", "tab":
		sk.at = (sk.at + 1) % fields
	case "left", "h", "right", "l", "space":
		step := 1
		if s == "left" || s == "h" {
			step = -1
		}
		switch sk.field() {
		case "game":
			if n := len(sk.twoSeat()); n > 0 {
				sk.game = (sk.game + step + n) % n
				sk.mode = sk.defaultMode()
				sk.at = min(sk.at, len(sk.fields())-1)
			}
		case "mode":
			if o := sk.modeOption(); o != nil && len(o.Choices) > 0 {
				sk.mode = (sk.mode + step + len(o.Choices)) % len(o.Choices)
			}
		case "rated":
			sk.rated = !sk.rated
		case "clock":
			sk.clock = (sk.clock + step + len(seekClocks)) % len(seekClocks)
		}
	case "enter":
		if sk.asking || len(sk.twoSeat()) == 0 {
			return nil
		}
		sk.asking, sk.err, sk.note = true, "", ""
		return sk.ask(sk.cfg.Offline)
	}
	return nil
}

// fields names the form's fields: the game, its mode when it has one
// rated apart, rated (for an account: a guest seeks casual games only)
// and the clock.
func (sk *seekScreen) fields() []string {
	fs := []string{"game"}
	if sk.modeOption() != nil {
		fs = append(fs, "mode")
	}
	if sk.cfg.Session != "" && !sk.cfg.Offline {
		fs = append(fs, "rated")
	}
	return append(fs, "clock")
}

// field names the field chosen.
func (sk *seekScreen) field() string {
	fs := sk.fields()
	return fs[sk.at%len(fs)]
}

// twoSeat are the games a seek may ask for: those two people play.
func (sk *seekScreen) twoSeat() []client.Game { return twoPlayerGames(sk.games) }

// modeOption is the option of the game chosen whose choices are rated
// apart (its mode), or nil.
func (sk *seekScreen) modeOption() *client.Option {
	gs := sk.twoSeat()
	if len(gs) == 0 {
		return nil
	}
	g := gs[sk.game%len(gs)]
	for i, o := range g.Options {
		if o.Name == g.ModeOption && o.Name != "" {
			return &g.Options[i]
		}
	}
	return nil
}

// defaultMode is the index of the mode option's default among its
// choices (0 without one).
func (sk *seekScreen) defaultMode() int {
	if o := sk.modeOption(); o != nil {
		for i, c := range o.Choices {
			if c == o.Default {
				return i
			}
		}
	}
	return 0
}

// modeName is the mode chosen, "" for a game without modes.
func (sk *seekScreen) modeName() string {
	if o := sk.modeOption(); o != nil && len(o.Choices) > 0 {
		return o.Choices[sk.mode%len(o.Choices)]
	}
	return ""
}

// ask makes the seek, or, with computer, asks for the computer's game.
func (sk *seekScreen) ask(computer bool) tea.Cmd {
	gs := sk.twoSeat()
	game := gs[sk.game%len(gs)].Name
	rated := sk.rated && sk.cfg.Session != "" && !computer
	r := client.SeekRequest{Game: game, Mode: sk.modeName(), Rated: rated, Clock: seekClocks[sk.clock], Computer: computer}
	tok := sk.idToken
	c := *sk.c // a copy: the name may change while the request is out
	sk.gen++
	gen := sk.gen
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(sk.ctx, 15*time.Second)
		defer cancel()
		idTok, err := identityFor(ctx, c, tok)
		if err != nil {
			return seekAnswerMsg{gen: gen, err: err}
		}
		a, err := c.SeekGame(ctx, idTok, r)
		return seekAnswerMsg{gen: gen, a: a, identity: idTok, err: err}
	}
}

func (sk *seekScreen) answered(msg seekAnswerMsg) tea.Cmd {
	if msg.gen != sk.gen {
		return nil
	}
	sk.asking = false
	// The guest made for the seek plays its game, and the SSH door
	// remembers it for the key.
	sk.adopt(msg.identity)
	if msg.err != nil {
		sk.err = msg.err.Error()
		return nil
	}
	gs := sk.twoSeat()
	game := gs[sk.game%len(gs)].Name
	switch {
	case msg.a.Table != nil:
		return sk.nav.sit(*msg.a.Table, game)
	case msg.a.Seek != nil:
		sk.seek, sk.since, sk.token = msg.a.Seek, time.Now(), msg.identity
		return sk.poll()
	}
	sk.err = "the server answered the seek with neither a seek nor a table"
	return nil
}

// poll asks for the seek to be read back in a moment.
func (sk *seekScreen) poll() tea.Cmd {
	gen := sk.gen
	return tea.Tick(sk.every, func(time.Time) tea.Msg { return seekPollMsg{gen} })
}

// paired answers the news on the player's stream that a table of game
// began without a challenge: when this screen's seek is of that game it
// is read back at once, so that the player goes to the table now rather
// than at the next poll.
func (sk *seekScreen) paired(game string) tea.Cmd {
	if sk.seek == nil || sk.seek.Game != game {
		return nil
	}
	return sk.readBack()
}

// readBack reads the waiting seek back.
func (sk *seekScreen) readBack() tea.Cmd {
	id, tok, gen := sk.seek.ID, sk.token, sk.gen
	c := sk.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(sk.ctx, 15*time.Second)
		defer cancel()
		s, err := c.SeekStatus(ctx, tok, id)
		return seekStateMsg{gen: gen, s: s, err: err}
	}
}

func (sk *seekScreen) readIn(msg seekStateMsg) tea.Cmd {
	if msg.gen != sk.gen || sk.seek == nil {
		return nil
	}
	if msg.err != nil {
		var e *client.Error
		if errors.As(msg.err, &e) && e.Status == http.StatusNotFound {
			sk.seek, sk.err = nil, "the seek is gone: "+msg.err.Error()
			return nil
		}
		sk.err = msg.err.Error() // a passing failure: ask again
		return sk.poll()
	}
	if msg.s.Status == "paired" && msg.s.Table != nil {
		// The identity's own token acts for its seat at a seek's table.
		seat := client.Seated{Table: msg.s.Table.Table, Seat: msg.s.Table.Seat, Token: sk.token, Invite: sk.public() + "/t/" + msg.s.Table.Table}
		game := sk.seek.Game
		sk.seek = nil
		return sk.nav.sit(seat, game)
	}
	// Still waiting: a failure shown since (the server away a moment,
	// restarting) has passed.
	sk.err = ""
	return sk.poll()
}

// cancel withdraws the waiting seek and, with note, says so and goes
// back to the form.
func (sk *seekScreen) cancel(note string) tea.Cmd {
	if sk.seek == nil {
		return nil
	}
	id, tok := sk.seek.ID, sk.token
	c := sk.c
	sk.seek = nil
	sk.gen++
	if note != "" {
		sk.note = note
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(sk.ctx, 15*time.Second)
		defer cancel()
		if err := c.CancelSeek(ctx, tok, id); err != nil {
			return errMsg{fmt.Errorf("cancelling the search: %w", err)}
		}
		return nil
	}
}

// clockWords says a quick game's clock.
func clockWords(secs int) string {
	switch {
	case secs == 0:
		return "no clock"
	case secs%60 == 0:
		n := secs / 60
		if n == 1 {
			return "1 minute a turn"
		}
		return fmt.Sprintf("%d minutes a turn", n)
	}
	return fmt.Sprintf("%d seconds a turn", secs)
}

func (sk *seekScreen) view() string {
	var b strings.Builder
	if sk.cfg.Offline {
		b.WriteString(title("Quick game") + "  ·  the computer at your level\n\n")
	} else {
		b.WriteString(title("Quick game") + "  ·  find an opponent who wants the same game\n\n")
	}
	gs := sk.twoSeat()
	if len(gs) == 0 {
		b.WriteString("no game of this server is played by two\n")
		b.WriteString("\n" + sk.message() + "\n")
		return b.String()
	}
	g := gs[sk.game%len(gs)]
	if sk.seek != nil {
		kind := "casual"
		if sk.seek.Rated {
			kind = "rated"
		}
		waited := time.Since(sk.since).Truncate(time.Second)
		what := g.Title
		if sk.seek.Mode != "" {
			what += " (" + sk.seek.Mode + ")"
		}
		b.WriteString(wrap(fmt.Sprintf("Looking for an opponent: %s, %s, %s (%s so far)", what, kind, clockWords(seekClocks[sk.clock]), waited), sk.w) + "\n")
		b.WriteString(faint(wrap("Your seek is listed in the lobby; anyone asking for the same game is paired with you at once.", sk.w)) + "\n")
		keys := "esc cancel the search"
		if waited >= sk.offer {
			b.WriteString("\n" + wrap("No one yet: play the computer at your level while you wait? (c; the search ends)", sk.w) + "\n")
			keys = "c play the computer · esc cancel the search"
		}
		b.WriteString("\n" + sk.message() + "\n")
		b.WriteString(faint(wrapKeys(keys+" · ? help", sk.w)))
		return b.String()
	}
	mark := func(f string) string {
		if sk.field() == f {
			return hi(">")
		}
		return " "
	}
	fmt.Fprintf(&b, "%s %-12s ‹ %s ›\n", mark("game"), "Game", g.Title)
	if o := sk.modeOption(); o != nil {
		fmt.Fprintf(&b, "%s %-12s ‹ %s ›  %s\n", mark("mode"), optionLabel(*o), sk.modeName(), faint("each rated apart"))
	}
	switch {
	case sk.cfg.Offline:
	case sk.cfg.Session != "":
		r := "no"
		if sk.rated {
			r = "yes"
		}
		fmt.Fprintf(&b, "%s %-12s ‹ %s ›\n", mark("rated"), "Rated", r)
	default:
		b.WriteString(faint("  a guest's quick games are casual: sign in for rated ones") + "\n")
	}
	fmt.Fprintf(&b, "%s %-12s ‹ %s ›\n", mark("clock"), "Clock", clockWords(seekClocks[sk.clock]))
	if sk.asking {
		b.WriteString("\nasking the server…\n")
	}
	keys := "↑↓ field · ←→ change · enter look for an opponent · esc back · ? help"
	if sk.cfg.Offline {
		b.WriteString("\n" + wrap("You play offline, on a server of your own that nobody else can reach: the computer, at your level, takes the other seat.", sk.w) + "\n")
		keys = "↑↓ field · ←→ change · enter play the computer · esc back · ? help"
	}
	b.WriteString("\n" + sk.message() + "\n")
	b.WriteString(faint(wrapKeys(keys, sk.w)))
	return b.String()
}
