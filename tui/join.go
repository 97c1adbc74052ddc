package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"parlour/tui/client"
)

// joinScreen shows the table an invite code, link or id names before
// the player sits down, as the browser's invite page does: its game,
// whether it is rated, its seats and its rules. enter takes the seat;
// esc goes back home. A line that names no table goes back to the form
// that took it.
type joinScreen struct {
	*shared
	line string // as typed
	code string // the invite code, when line is one
	id   string // the table, once known
	upd  *client.Update
}

// previewMsg is the table a join screen asked for, or why it has none.
type previewMsg struct {
	id  string
	upd client.Update
	err error
}

// openJoinPreview shows the table line names, once the server has said
// what it is.
func (sh *shared) openJoinPreview(line string) tea.Cmd {
	js := &joinScreen{shared: sh, line: line, code: client.InviteCode(line)}
	if js.code == "" {
		js.id = client.TableID(line)
	}
	sh.err = ""
	sh.nav.show(js)
	return js.fetch
}

func (js *joinScreen) fetch() tea.Msg {
	ctx, cancel := context.WithTimeout(js.ctx, 15*time.Second)
	defer cancel()
	id := js.id
	if js.code != "" {
		var err error
		if id, err = js.c.Resolve(ctx, js.code); err != nil {
			return previewMsg{err: fmt.Errorf("invite code %s: %w", js.code, err)}
		}
	}
	u, err := js.c.Get(ctx, "", id)
	if err != nil {
		return previewMsg{err: fmt.Errorf("joining %s: %w", id, err)}
	}
	return previewMsg{id: id, upd: u}
}

func (js *joinScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case previewMsg:
		if msg.err != nil {
			// Back to the line as typed, the refusal under it, to be
			// mended: a mistyped code is the usual slip.
			openJoin(js.shared, js.line)
			js.err = msg.err.Error()
			return nil
		}
		js.id, js.upd = msg.id, &msg.upd
	case tea.KeyPressMsg:
		switch msg.String() {
		case "esc", "q":
			js.nav.goHome()
		case "enter":
			if js.upd == nil {
				return nil // still asking the server
			}
			js.nav.goHome()
			if r, ok := js.mine(); ok {
				return js.sitHeld(js.id, js.upd.Table.Game, r)
			}
			if js.upd.Table.Status != "open" {
				// No seat to take: the game is watched, as from the lobby.
				return js.nav.sit(client.Seated{Table: js.id, Seat: -1, Invite: js.public() + "/t/" + js.id}, js.upd.Table.Game)
			}
			return js.join(js.id)
		}
	}
	return nil
}

func (js *joinScreen) view() string {
	var b strings.Builder
	b.WriteString(title("Join a table") + "\n\n")
	if js.upd == nil {
		b.WriteString("looking up " + tailOf(js.line, js.w-12) + "…\n\n" + faint("esc back"))
		return b.String()
	}
	t := js.upd.Table
	head := title(t.Title)
	if t.Rated {
		head += " · " + warm("rated") + ": both players' ratings change"
	}
	b.WriteString(wrap(head+" · table "+js.id, js.w) + "\n\n")
	for _, s := range t.Seats {
		who := marked(s.Name, s.Player)
		if s.Kind == "open" {
			who = "(open)"
		}
		b.WriteString("  " + fitLine(who, js.w-2) + "\n")
	}
	b.WriteString("\n" + wrap("rules: "+rulesLine(js.gameByName(t.Game), tableRules(t.Rules)), js.w) + "\n")
	keys := "enter take a seat · esc back"
	_, mine := js.mine()
	switch {
	case mine:
		b.WriteString(faint("you have a seat here") + "\n")
		keys = "enter back to your seat · esc back"
	case t.Status == "open":
	case t.Status == "finished":
		b.WriteString(faint("the game is over") + "\n")
		keys = "enter see how it ended · esc back"
	default:
		b.WriteString(faint("no seat is open: the game is "+t.Status) + "\n")
		keys = "enter watch the game · esc back"
	}
	b.WriteString("\n" + js.message() + "\n" + faint(keys))
	return b.String()
}

// mine finds the seat the player holds at the table, if any.
func (js *joinScreen) mine() (Recent, bool) { return js.heldSeat(js.id, js.upd.Table.Seats) }

// heldSeat finds the seat the player holds at table id, whose seats are
// seats, as the recent games name it: by the account's name on a seat an
// account holds, or, for a guest, the table among their recent games.
func (sh *shared) heldSeat(id string, seats []client.Seat) (Recent, bool) {
	if sh.cfg.Session != "" {
		for _, s := range seats {
			if s.Player == "account" && s.Name == sh.cfg.Account {
				return Recent{Seat: s.Seat, Token: sh.cfg.Session}, true
			}
		}
		return Recent{}, false
	}
	for _, r := range sh.recentHere() {
		if r.Table == id && r.Seat >= 0 && r.Token != "" {
			return r, true
		}
	}
	return Recent{}, false
}

// sitHeld opens seat r, which the player holds at table id of game: the
// server seats nobody twice, so the seat is opened with what holds it,
// as from the recent games.
func (sh *shared) sitHeld(id, game string, r Recent) tea.Cmd {
	if r.Identity != "" && sh.cfg.Session == "" {
		sh.idToken = r.Identity
	}
	return sh.nav.sit(client.Seated{Table: id, Seat: r.Seat, Token: r.Token, Invite: sh.public() + "/t/" + id}, game)
}
