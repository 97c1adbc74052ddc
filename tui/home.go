package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// Recent is one table this client sat at, kept in DataDir so that a guest
// (who has no history on the server) finds their games again.
type Recent struct {
	Server string    `json:"server"`
	Table  string    `json:"table"`
	Game   string    `json:"game"`
	Seat   int       `json:"seat"`
	Token  string    `json:"token"`
	Title  string    `json:"title"`
	Status string    `json:"status"`
	When   time.Time `json:"when"`
	Rated  bool      `json:"rated,omitempty"`
	// Identity is the guest identity's token the seat was taken under,
	// so that reopening the game takes the next seats under it too.
	Identity string `json:"identity,omitempty"`
}

const recentFile = "play-recent.json"
const recentMax = 20

func loadRecent(dir string) []Recent {
	if dir == "" {
		return nil
	}
	raw, err := os.ReadFile(filepath.Join(dir, recentFile))
	if err != nil {
		return nil
	}
	var rs []Recent
	if json.Unmarshal(raw, &rs) != nil {
		return nil
	}
	return rs
}

// remember puts r first in the recent list and saves it.
func (m *Model) remember(r Recent) {
	if len(m.recent) > 0 && m.recent[0].Table == r.Table && m.recent[0].Status == r.Status && m.recent[0].Server == r.Server {
		return // nothing new to keep
	}
	out := []Recent{r}
	for _, o := range m.recent {
		if o.Table != r.Table || o.Server != r.Server {
			out = append(out, o)
		}
	}
	if len(out) > recentMax {
		out = out[:recentMax]
	}
	m.keepRecent(out)
}

// forget drops table id of this server from the recent list: its player
// left it before it began.
func (m *Model) forget(id string) {
	out := slices.DeleteFunc(slices.Clone(m.recent), func(r Recent) bool { return r.Table == id && r.Server == m.serverName() })
	if len(out) != len(m.recent) {
		m.keepRecent(out)
	}
}

// keepRecent makes out the recent list, and saves it.
func (m *Model) keepRecent(out []Recent) {
	m.recent = out
	if m.cfg.DataDir == "" {
		return
	}
	raw, _ := json.MarshalIndent(out, "", "  ")
	if err := os.MkdirAll(m.cfg.DataDir, 0o700); err == nil {
		err = os.WriteFile(filepath.Join(m.cfg.DataDir, recentFile), raw, 0o600)
		if err != nil {
			m.err = "could not keep the list of recent games: " + err.Error()
		}
	}
}

// recentHere lists the recent games of this server: for a signed-in
// player the server's list, once it answered (the account's games, from
// any terminal or browser); for a guest the list this client keeps.
func (m *Model) recentHere() []Recent {
	if m.cfg.Session != "" && m.soc.served != nil {
		rs := slices.Clone(m.soc.served)
		for i, r := range rs {
			if r.Title == "" { // a finished game's, which the server lists by name
				rs[i].Title = m.gameTitle(r.Game)
			}
		}
		return rs
	}
	var rs []Recent
	for _, r := range m.recent {
		if r.Server == m.serverName() {
			rs = append(rs, r)
		}
	}
	return rs
}

// serverName is the server's name in the list of recent games.
func (m *Model) serverName() string {
	if m.cfg.Server != "" {
		return m.cfg.Server
	}
	return m.c.Base()
}

type homeState struct{ at int }

// home items: the games, join, lobby, name, then recent games.
func (m *Model) homeItems() int { return len(m.games) + 3 + len(m.recentHere()) }

func (m *Model) homeKey(s string, k tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	n := m.homeItems()
	switch s {
	case "up", "k":
		m.home.at = (m.home.at + n - 1) % n
	case "down", "j", "tab":
		m.home.at = (m.home.at + 1) % n
	case "q", "esc":
		m.Close()
		return m, tea.Quit
	case "l":
		return m.openLobby()
	case "p":
		return m.openPlayers()
	case "i":
		m.scr, m.input, m.err = scrJoin, "", ""
	case "s", "u":
		if m.cfg.Session != "" {
			m.err = "you are signed in as " + m.cfg.Account + ": o signs out"
			return m, nil
		}
		m.openAccount(s == "u")
	case "o":
		if m.cfg.Session == "" {
			m.err = "you are not signed in"
			return m, nil
		}
		return m, m.signOut()
	case "K":
		if m.cfg.Session == "" {
			m.err = "sign in first: keys belong to accounts"
			return m, nil
		}
		return m, m.addKey()
	case "n":
		if m.cfg.Session != "" {
			m.err = "you are signed in as " + m.cfg.Account + ": your name is your account's"
			return m, nil
		}
		m.scr, m.input, m.err = scrName, m.c.Name, ""
	case "1", "2", "3", "4":
		i := int(s[0] - '1')
		if i < len(m.games) {
			m.openNew(m.games[i].Name)
		}
	case "enter", "space":
		at := m.home.at
		switch {
		case at < len(m.games):
			m.openNew(m.games[at].Name)
		case at == len(m.games):
			m.scr, m.input, m.err = scrJoin, "", ""
		case at == len(m.games)+1:
			return m.openLobby()
		case at == len(m.games)+2:
			if m.cfg.Session != "" {
				m.err = "you are signed in as " + m.cfg.Account + ": your name is your account's"
				return m, nil
			}
			m.scr, m.input, m.err = scrName, m.c.Name, ""
		default:
			r := m.recentHere()[at-len(m.games)-3]
			if r.Identity != "" && m.cfg.Session == "" {
				m.idToken = r.Identity
			}
			return m, m.sit(client.Seated{Table: r.Table, Seat: r.Seat, Token: r.Token, Invite: m.c.Base() + "/t/" + r.Table}, r.Game)
		}
	}
	return m, nil
}

func (m *Model) homeView() string {
	var b strings.Builder
	name := m.c.Name
	if name == "" {
		name = "(no name yet)"
	}
	who := "guest " + name
	if m.cfg.Account != "" {
		who = "signed in as " + m.cfg.Account
	}
	fmt.Fprintf(&b, "%s  ·  %s  ·  %s\n\n", title("Parlour"), who, m.c.Base())
	cur := func(i int) string {
		if i == m.home.at {
			return hi("> ")
		}
		return "  "
	}
	b.WriteString(title("New table") + "\n")
	for i, g := range m.games {
		fmt.Fprintf(&b, "%s%d %-22s %s\n", cur(i), i+1, g.Title, faint(players(g)))
	}
	i := len(m.games)
	b.WriteString("\n")
	fmt.Fprintf(&b, "%si Join a table by invite code, link or id\n", cur(i))
	fmt.Fprintf(&b, "%sl Lobby: open tables · p players online and challenges\n", cur(i+1))
	fmt.Fprintf(&b, "%sn Name: play as %q\n", cur(i+2), m.c.Name)
	if m.cfg.Account != "" {
		line := "  o sign out"
		if m.cfg.SSHKey != "" {
			line += " · K SSH keys: add this computer's"
			if l := line + " (" + m.cfg.SSHKey + ")"; ansi.StringWidth(l) <= m.w {
				line = l
			} else {
				line += "\n    (" + m.cfg.SSHKey + ")"
			}
		}
		b.WriteString(line + "\n\n")
	} else {
		b.WriteString("  s sign in · u sign up (you play as a guest until then)\n\n")
	}
	b.WriteString(title("Your recent games") + "\n")
	rs := m.recentHere()
	if len(rs) == 0 {
		b.WriteString(faint("  none yet") + "\n")
	}
	room := m.h - strings.Count(b.String(), "\n") - 3
	for j, r := range rs {
		if j >= room {
			fmt.Fprintf(&b, "  … and %d more\n", len(rs)-j)
			break
		}
		rated := "     "
		if r.Rated {
			rated = "rated"
		}
		when := ""
		if !r.When.IsZero() {
			when = r.When.Local().Format("Jan 2 15:04")
		}
		fmt.Fprintf(&b, "%s%-22s %-16s %-9s %s %s\n", cur(i+3+j), r.Title, r.Table, r.Status, rated, when)
	}
	b.WriteString("\n" + m.message() + "\n")
	b.WriteString(faint(wrap("↑↓ choose · enter open · 1-4 new table · i join · l lobby · p players · ? help", m.w)))
	return b.String()
}

func players(g client.Game) string {
	if g.MinPlayers == g.MaxPlayers {
		return fmt.Sprintf("%d players", g.MinPlayers)
	}
	return fmt.Sprintf("%d-%d players", g.MinPlayers, g.MaxPlayers)
}

// Lobby.
type lobbyState struct {
	tables []client.Listed
	at     int
	err    string
}

type lobbyMsg struct {
	tables []client.Listed
	err    error
}

func (m *Model) openLobby() (tea.Model, tea.Cmd) {
	m.scr, m.lob, m.err = scrLobby, lobbyState{}, ""
	return m, m.fetchLobby
}

func (m *Model) fetchLobby() tea.Msg {
	ctx, cancel := context.WithTimeout(m.ctx, 10*time.Second)
	defer cancel()
	ts, err := m.c.Lobby(ctx, "open")
	return lobbyMsg{ts, err}
}

func (m *Model) lobbyKey(s string) (tea.Model, tea.Cmd) {
	n := len(m.lob.tables)
	switch s {
	case "esc", "q":
		m.scr = scrHome
	case "r":
		return m, m.fetchLobby
	case "up", "k":
		if n > 0 {
			m.lob.at = (m.lob.at + n - 1) % n
		}
	case "down", "j":
		if n > 0 {
			m.lob.at = (m.lob.at + 1) % n
		}
	case "enter":
		if n > 0 {
			m.scr = scrHome
			return m, m.join(m.lob.tables[m.lob.at].ID)
		}
	}
	return m, nil
}

func (m *Model) lobbyView() string {
	var b strings.Builder
	b.WriteString(title("Lobby: open tables") + "\n\n")
	if m.lob.err != "" {
		b.WriteString(bad("! "+m.lob.err) + "\n")
	}
	if len(m.lob.tables) == 0 {
		b.WriteString(faint("no open tables: open one from the home screen and invite a friend") + "\n")
	}
	for i, t := range m.lob.tables {
		if i >= m.h-6 {
			break
		}
		var names []string
		for _, s := range t.Seats {
			n := marked(s.Name, s.Player)
			if s.Kind == "open" || s.Name == "" {
				n = "(open)"
			}
			names = append(names, n)
		}
		cur := "  "
		if i == m.lob.at {
			cur = hi("> ")
		}
		rated := "     "
		if t.Rated {
			rated = "rated"
		}
		fmt.Fprintf(&b, "%s%-22s %-16s %s %s\n", cur, t.Title, t.ID, rated, strings.Join(names, ", "))
	}
	b.WriteString("\n" + m.message() + "\n")
	b.WriteString(faint("↑↓ choose · enter join · r refresh · esc back"))
	return b.String()
}

// seatedMsg is a seat taken (created or joined) or refused.
type seatedMsg struct {
	s    client.Seated
	game string
	err  error
	// identity is the guest identity's token made for the request, when
	// the client had none.
	identity string
}

// identityFor returns tok, or, when it is empty, the token of a new guest
// identity called name: a seat's token acts for its seat alone, so the
// next seats are bound to the guest by its identity token.
func identityFor(ctx context.Context, c client.Client, tok string) (string, error) {
	if tok != "" {
		return tok, nil
	}
	id, err := c.NewIdentity(ctx, c.Name)
	if err != nil {
		return "", fmt.Errorf("making your guest identity: %w", err)
	}
	return id.Token, nil
}

// joinAny joins the table line names: an invite code, read aloud or in
// a /j/ link, or a table id or invite link.
func (m *Model) joinAny(line string) tea.Cmd {
	code := client.InviteCode(line)
	if code == "" {
		return m.join(client.TableID(line))
	}
	return m.joinTable(code, "")
}

func (m *Model) join(id string) tea.Cmd { return m.joinTable("", id) }

// joinTable takes a seat at table id, or at the table of invite code
// code when it is not empty.
func (m *Model) joinTable(code, id string) tea.Cmd {
	tok := m.idToken
	c := *m.c // a copy: the name may change while the request is out
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(m.ctx, 15*time.Second)
		defer cancel()
		if code != "" {
			var err error
			if id, err = c.Resolve(ctx, code); err != nil {
				return seatedMsg{err: fmt.Errorf("invite code %s: %w", code, err)}
			}
		}
		idTok, err := identityFor(ctx, c, tok)
		if err != nil {
			return seatedMsg{err: err}
		}
		s, err := c.Join(ctx, idTok, id)
		if err != nil {
			return seatedMsg{err: fmt.Errorf("joining %s: %w", id, err), identity: idTok}
		}
		return seatedMsg{s: s, identity: idTok}
	}
}

func (m *Model) seated(msg seatedMsg) tea.Cmd {
	m.nt.creating = false
	if m.idToken == "" && msg.identity != "" {
		// The guest made for this seat takes the next ones too.
		m.idToken = msg.identity
	}
	if msg.err != nil {
		m.err = msg.err.Error()
		return nil
	}
	return m.sit(msg.s, msg.game)
}
