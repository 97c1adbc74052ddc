package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/tui/client"
)

// lobbyScreen lists the open tables, to join one, the players looking
// for a quick game, to accept one's seek, and the games in play, to
// watch one, the featured game first. It reads them again every
// lobbyPoll while shown, as the seeks come and go within seconds.
type lobbyScreen struct {
	*shared
	tables []client.Listed // open
	seeks  []client.Seek   // waiting, oldest first
	live   []client.Listed // in play, the featured game first
	// featured is the featured game's id ("" when none is in play).
	featured string
	at       int // the item chosen: open tables, seeks, then games in play
	err      string
	// busy says a join or an acceptance is on its way.
	busy bool
}

// lobbyPoll is how often the lobby reads its lists again while shown.
const lobbyPoll = 5 * time.Second

type lobbyMsg struct {
	tables, live []client.Listed
	seeks        []client.Seek
	featured     string
	err          error
}

// lobbyPollMsg says it is time for lobby lb to read its lists again.
type lobbyPollMsg struct{ lb *lobbyScreen }

// openLobby shows the lobby and asks for its tables.
func openLobby(sh *shared) tea.Cmd {
	lb := &lobbyScreen{shared: sh}
	sh.err = ""
	sh.nav.show(lb)
	return tea.Batch(lb.fetch(), lb.poll())
}

// poll asks for the lists again after lobbyPoll.
func (lb *lobbyScreen) poll() tea.Cmd {
	return tea.Tick(lobbyPoll, func(time.Time) tea.Msg { return lobbyPollMsg{lb} })
}

// fetch asks for the lobby's lists as the player reads them: their
// identity's token is taken now, as the lists are asked for on their own
// goroutine while the screen goes on.
func (lb *lobbyScreen) fetch() tea.Cmd {
	tok := lb.idToken
	return func() tea.Msg { return lb.read(tok) }
}

// read reads the lobby's lists with the identity of tok.
func (lb *lobbyScreen) read(tok string) tea.Msg {
	ctx, cancel := context.WithTimeout(lb.ctx, 10*time.Second)
	defer cancel()
	open, err := lb.c.Lobby(ctx, tok, "open")
	if err != nil {
		return lobbyMsg{err: err}
	}
	seeks, err := lb.c.Seeks(ctx, tok)
	if err != nil {
		return lobbyMsg{tables: open, err: err}
	}
	live, err := lb.c.Lobby(ctx, tok, "playing")
	if err != nil {
		return lobbyMsg{tables: open, seeks: seeks, err: err}
	}
	var e *client.Error
	f, err := lb.c.TV(ctx)
	switch {
	case errors.As(err, &e) && e.Status == http.StatusNotFound:
		return lobbyMsg{tables: open, seeks: seeks, live: live} // no game in play
	case err != nil:
		return lobbyMsg{tables: open, seeks: seeks, live: live, err: err}
	}
	// The featured game first, the rest as the server lists them.
	i := slices.IndexFunc(live, func(t client.Listed) bool { return t.ID == f.Table.ID })
	if i < 0 {
		live = append([]client.Listed{f.Table}, live...)
	} else {
		live = append(append([]client.Listed{live[i]}, live[:i]...), live[i+1:]...)
	}
	return lobbyMsg{tables: open, seeks: seeks, live: live, featured: f.Table.ID}
}

// items is how many tables, seeks and games the lobby lists.
func (lb *lobbyScreen) items() int { return len(lb.tables) + len(lb.seeks) + len(lb.live) }

func (lb *lobbyScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case lobbyMsg:
		lb.tables, lb.seeks, lb.live, lb.featured, lb.err = msg.tables, msg.seeks, msg.live, msg.featured, ""
		if msg.err != nil {
			lb.err = msg.err.Error()
		}
		if n := lb.items(); lb.at >= n {
			lb.at = max(0, n-1)
		}
		return nil
	case lobbyPollMsg:
		if msg.lb != lb {
			// An earlier lobby's: messages reach the screen shown
			// alone, so a lobby left stops polling, and this one
			// polls on its own.
			return nil
		}
		return tea.Batch(lb.fetch(), lb.poll())
	case seatedMsg:
		// The answer to a join or an acceptance: the table opens, or
		// the refusal (the seat or seek taken or withdrawn meanwhile)
		// shows under the lists, read again.
		lb.busy = false
		if msg.err != nil {
			return lb.fetch()
		}
		return nil
	case tea.KeyPressMsg:
		return lb.key(msg.String())
	}
	return nil
}

func (lb *lobbyScreen) key(s string) tea.Cmd {
	n := lb.items()
	switch s {
	case "esc", "q":
		lb.nav.goHome()
	case "r":
		return lb.fetch()
	case "up", "k":
		if n > 0 {
			lb.at = (lb.at + n - 1) % n
		}
	case "down", "j":
		if n > 0 {
			lb.at = (lb.at + 1) % n
		}
	case "enter":
		switch {
		case lb.at < len(lb.tables):
			t := lb.tables[lb.at]
			if r, ok := lb.heldSeat(t.ID, t.Seats); ok {
				return lb.sitHeld(t.ID, t.Game, r)
			}
			if t.Rated && lb.cfg.Session == "" {
				lb.shared.err, lb.note = accountsOnly, ""
				return nil
			}
			return lb.join(t.ID)
		case lb.at < len(lb.tables)+len(lb.seeks):
			s := lb.seeks[lb.at-len(lb.tables)]
			if s.Rated && lb.cfg.Session == "" {
				lb.shared.err, lb.note = accountsOnly, ""
				return nil
			}
			if (s.OutOfRange || s.RatingRange != nil && lb.cfg.Session == "") && !lb.own(s) {
				lb.shared.err, lb.note = outOfRange(s, lb.cfg.Session != ""), ""
				return nil
			}
			return lb.accept(lb.seeks[lb.at-len(lb.tables)])
		case lb.at < n:
			t := lb.live[lb.at-len(lb.tables)-len(lb.seeks)]
			if r, ok := lb.heldSeat(t.ID, t.Seats); ok {
				return lb.sitHeld(t.ID, t.Game, r)
			}
			// Another's game in play is watched: no seat, no token.
			return lb.nav.sit(client.Seated{Table: t.ID, Seat: -1, Invite: lb.public() + "/t/" + t.ID}, t.Game)
		}
	}
	return nil
}

// outOfRange is why a player may not take seek s, whose rating range
// leaves them out (the server marks it so), said before the server is
// asked, as the browser's lobby offers no accept.
func outOfRange(s client.Seek, account bool) string {
	r := s.RatingRange
	if r == nil {
		return s.Player + "'s seek takes players of other ratings"
	}
	if !account {
		return fmt.Sprintf("%s seeks players rated %d to %d, and a guest has no rating: sign in or sign up on the home screen (s, u)", s.Player, r.Min, r.Max)
	}
	return fmt.Sprintf("%s seeks players rated %d to %d, and your rating is outside it", s.Player, r.Min, r.Max)
}

// accountsOnly is why a guest may not sit at a rated table or take a
// rated seek, said before the server is asked, as the browser's lobby
// offers a guest neither.
const accountsOnly = "rated games are for accounts: sign in or sign up on the home screen (s, u)"

// join takes a seat at table id; a refusal (the seat taken meanwhile)
// shows under the lists, read again.
func (lb *lobbyScreen) join(id string) tea.Cmd {
	if lb.busy {
		return nil
	}
	lb.busy, lb.err = true, ""
	lb.shared.err, lb.note = "", "joining "+id+"…"
	return lb.shared.join(id)
}

// accept takes seek s: the server pairs the player with its seeker on
// its terms, and the table opens (Model.seated).
func (lb *lobbyScreen) accept(s client.Seek) tea.Cmd {
	if lb.busy {
		return nil
	}
	if lb.own(s) {
		lb.err = "that is your own seek: it waits for another player"
		return nil
	}
	lb.busy, lb.err = true, ""
	lb.shared.err, lb.note = "", "asking to play "+s.Player+"…"
	tok := lb.idToken
	c := *lb.c // a copy: the name may change while the request is out
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(lb.ctx, 15*time.Second)
		defer cancel()
		idTok, err := identityFor(ctx, c, tok)
		if err != nil {
			return seatedMsg{err: err}
		}
		a, err := c.AcceptSeek(ctx, idTok, s.ID)
		if err == nil && a.Table == nil {
			err = fmt.Errorf("the server answered %q without a table", a.Status)
		}
		if err != nil {
			return seatedMsg{err: fmt.Errorf("accepting %s's game: %w", s.Player, err), identity: idTok}
		}
		return seatedMsg{s: *a.Table, game: s.Game, identity: idTok}
	}
}

// own says whether seek s is the signed-in player's own (a guest's
// cannot be told by its name).
func (lb *lobbyScreen) own(s client.Seek) bool {
	return lb.cfg.Session != "" && strings.EqualFold(s.Player, lb.cfg.Account)
}

// seekTerms says what a seek asks for: "a rated Nymphabet game, 1
// minute a turn", with its rules away from the defaults.
func (lb *lobbyScreen) seekTerms(s client.Seek) string {
	g := lb.gameByName(s.Game)
	name := s.Game
	if g != nil {
		name = g.Title
	}
	kind := "a casual"
	if s.Rated {
		kind = "a rated"
	}
	terms := kind + " " + name
	if s.Mode != "" {
		terms += " (" + strings.ReplaceAll(s.Mode, "_", " ") + ")"
	}
	terms += " game"
	var secs int
	if len(s.Clock) == 0 {
		terms += ", no clock"
	} else if json.Unmarshal(s.Clock, &secs) == nil {
		terms += ", " + clockWords(secs)
	}
	rules := map[string]json.RawMessage{}
	for k, v := range s.Rules {
		rules[k] = v
	}
	if len(s.Clock) > 0 && secs == 0 {
		rules["clock"] = s.Clock // a clock other than seconds a turn, in the rules' words
	}
	if len(rules) > 0 {
		terms += "; " + rulesLine(g, rules)
	}
	if s.Lexicon != "" {
		terms += "; word list " + s.Lexicon
	}
	return terms
}

func (lb *lobbyScreen) view() string {
	var b strings.Builder
	b.WriteString(title("Lobby: open tables") + "\n\n")
	if lb.err != "" {
		b.WriteString(bad(fitLine("! "+lb.err, lb.w)) + "\n")
	}
	// The three lists share the lines the screen has beside the titles
	// and blank lines (7), the message and the keys (2), the chosen
	// item's details (2) and each list's line that says how much of it
	// shows (3), a short list leaving its part to the others; each shows
	// the part of it around the chosen item.
	fixed := 14 + lb.msgExtra()
	if lb.err != "" {
		fixed++
	}
	shares := shareLines([]int{max(1, len(lb.tables)), max(1, len(lb.seeks)), max(1, len(lb.live))}, lb.h-fixed)
	first, li := 0, 0
	list := func(n int, empty string, row func(i int) string, details func(i int) string) {
		if n == 0 {
			b.WriteString(faint(empty) + "\n")
		}
		from, to := window(n, max(1, shares[li]), lb.at-first)
		li++
		for i := from; i < to; i++ {
			mark := "  "
			if first+i == lb.at {
				mark = hi("> ")
			}
			b.WriteString(mark + row(i) + "\n")
			if first+i == lb.at {
				b.WriteString(details(i) + "\n")
			}
		}
		if n > to-from {
			b.WriteString(faint(fmt.Sprintf("  %d of %d shown: ↑↓ for the rest", to-from, n)) + "\n")
		}
		first += n
	}
	list(len(lb.tables), "no open tables: open one from the home screen and invite a friend", func(i int) string {
		t := lb.tables[i]
		// How many seats are open comes first: at a table of more than
		// two, the names after it may not fit.
		var names []string
		open := 0
		for _, s := range t.Seats {
			if s.Kind == "open" || s.Name == "" {
				open++
				continue
			}
			names = append(names, marked(s.Name, s.Player))
		}
		rated := "     "
		if t.Rated {
			rated = "rated"
		}
		return fitLine(fmt.Sprintf("%-22s %-16s %s %d of %d open: %s", t.Title, t.ID, rated, open, len(t.Seats), strings.Join(names, ", ")), lb.w-2)
	}, func(i int) string { return lb.rulesLines(lb.tables[i]) })

	b.WriteString("\n" + title("Players looking for a game") + "\n")
	list(len(lb.seeks), "nobody just now: g on the home screen looks for an opponent", func(i int) string {
		sk := lb.seeks[i]
		who := sk.Player
		if sk.Rating > 0 {
			// A provisional rating has its question mark, as on a
			// profile: a player new to the pool may be far from it.
			q := ""
			if sk.Provisional {
				q = "?"
			}
			who += fmt.Sprintf(" (%d%s)", sk.Rating, q)
		}
		return fitLine(fmt.Sprintf("%-22s %s", who, lb.seekTerms(sk)), lb.w-2)
	}, func(i int) string {
		sk := lb.seeks[i]
		var about []string
		if r := sk.RatingRange; r != nil {
			about = append(about, fmt.Sprintf("takes players rated %d to %d", r.Min, r.Max))
		}
		switch {
		case lb.own(sk):
			about = append(about, "your own: it waits for an opponent")
		case sk.RatingRange != nil && lb.cfg.Session == "":
			// A ranged seek takes no guest, who has no rating.
			about = append(about, "not you: a guest has no rating")
		case sk.OutOfRange:
			about = append(about, "not you: your rating is outside it")
		default:
			about = append(about, "enter plays "+sk.Player+" on these terms")
		}
		return faint(fitLine("    "+strings.Join(about, " · "), lb.w))
	})

	b.WriteString("\n" + title("Games to watch") + "\n")
	list(len(lb.live), "no game is being played just now", func(i int) string {
		t := lb.live[i]
		var names []string
		for _, s := range t.Seats {
			names = append(names, marked(s.Name, s.Player))
		}
		watchers := 0
		if t.Spectators != nil {
			watchers = *t.Spectators
		}
		about := fmt.Sprintf("%d watching", watchers)
		if t.Rating != nil {
			about = fmt.Sprintf("rated %.0f · %s", *t.Rating, about)
		}
		if t.ID == lb.featured {
			about = warm("featured") + " · " + about
		}
		// The players take what a terminal wider than 80 columns gives.
		nw := 30 + min(max(0, lb.w-80), 30)
		return fmt.Sprintf("%-22s %-*s %s", t.Title, nw, fit(strings.Join(names, " v "), nw, 1), faint(about))
	}, func(i int) string { return lb.rulesLines(lb.live[i]) })

	b.WriteString("\n" + lb.message() + "\n")
	b.WriteString(faint(wrapKeys("↑↓ choose · enter join, play or watch · r refresh · esc back", lb.w)))
	return b.String()
}

// rulesLines says the rules of t, the table chosen, under its row, in
// at most two lines: those that differ from its game's defaults, or that
// it keeps them all.
func (lb *lobbyScreen) rulesLines(t client.Listed) string {
	const head = "    rules: "
	lines := strings.Split(wrap(rulesLine(lb.gameByName(t.Game), t.Rules), lb.w-len(head)), "\n")
	if len(lines) > 2 {
		lines = []string{lines[0], lines[1] + " " + strings.Join(lines[2:], " ")}
	}
	for i, l := range lines {
		pad := head
		if i > 0 {
			pad = strings.Repeat(" ", len(head))
		}
		lines[i] = faint(fitLine(pad+l, lb.w))
	}
	return strings.Join(lines, "\n")
}
