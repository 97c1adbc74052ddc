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
	// Daily says the game is an attempt at a daily puzzle.
	Daily bool `json:"daily,omitempty"`
	// Pool is a rated game's rating pool, when its game rates modes
	// apart ("nymphabet-cyclic"), so that the list names the mode.
	Pool string `json:"pool,omitempty"`
	// Identity is the guest identity's token the seat was taken under,
	// so that reopening the game takes the next seats under it too, and
	// Name the name the guest played as.
	Identity string `json:"identity,omitempty"`
	Name     string `json:"name,omitempty"`

	// ended marks a finished game the server lists by its result
	// (Status "won", "lost", "a draw" or "aborted"), which no table's
	// status replaces.
	ended bool
	// Forfeits say whom the server played for in a finished game, and
	// why ("you ran out of time"), as the player's history has it.
	Forfeits []string `json:"forfeits,omitempty"`
	// Event names the event that paired the game, "in Friday Swiss,
	// round 2", as the table and the player's history have it.
	Event string `json:"event,omitempty"`
}

// lastGuest is the guest identity this client last played under at its
// server as name, from the list of recent games: a guest who starts the
// client again is the same guest, as a browser keeps its guest (one
// daily attempt a day is the guest's, not the run's).
func (sh *shared) lastGuest(name string) string {
	for _, r := range sh.recent { // the latest first
		if r.Server == sh.serverName() && r.Identity != "" && r.Name == name {
			return r.Identity
		}
	}
	return ""
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

// remember puts r first in the recent list and saves it, and gives the
// table's entry in the server's list, read before this update, its
// status now: the list is read again only when a game starts or ends,
// and would say "setup" of a game long under way.
func (sh *shared) remember(r Recent) {
	for i, o := range sh.soc.served {
		if o.Table == r.Table && o.Server == r.Server && !o.ended {
			sh.soc.served[i].Status, sh.soc.served[i].Forfeits = r.Status, r.Forfeits
		}
	}
	if len(sh.recent) > 0 && sh.recent[0].Table == r.Table && sh.recent[0].Status == r.Status && sh.recent[0].Server == r.Server &&
		slices.Equal(sh.recent[0].Forfeits, r.Forfeits) {
		return // nothing new to keep
	}
	out := []Recent{r}
	for _, o := range sh.recent {
		if o.Table != r.Table || o.Server != r.Server {
			out = append(out, o)
		}
	}
	if len(out) > recentMax {
		out = out[:recentMax]
	}
	sh.keepRecent(out)
}

// forget drops table id of this server from the recent list: its player
// left it before it began.
func (sh *shared) forget(id string) {
	out := slices.DeleteFunc(slices.Clone(sh.recent), func(r Recent) bool { return r.Table == id && r.Server == sh.serverName() })
	if len(out) != len(sh.recent) {
		sh.keepRecent(out)
	}
}

// keepRecent makes out the recent list, and saves it.
func (sh *shared) keepRecent(out []Recent) {
	sh.recent = out
	if sh.cfg.DataDir == "" {
		return
	}
	raw, _ := json.MarshalIndent(out, "", "  ")
	if err := os.MkdirAll(sh.cfg.DataDir, 0o700); err == nil {
		err = os.WriteFile(filepath.Join(sh.cfg.DataDir, recentFile), raw, 0o600)
		if err != nil {
			sh.err = "could not keep the list of recent games: " + err.Error()
		}
	}
}

// recentHere lists the recent games of this server: for a signed-in
// player the server's list, once it answered (the account's games, from
// any terminal or browser); for a guest the list this client keeps, after
// the server's list of the guest's games where the client keeps none
// between sessions (NoDisk).
func (sh *shared) recentHere() []Recent {
	served := slices.Clone(sh.soc.served)
	for i, r := range served {
		switch {
		case r.Title != "":
		case r.Rated && r.Pool != "": // a finished game's, which the server lists by name
			served[i].Title = sh.poolTitle(r.Pool)
		default:
			served[i].Title = dailyTitle(sh.gameTitle(r.Game), r.Daily)
		}
	}
	if sh.cfg.Session != "" && sh.soc.served != nil {
		return served
	}
	var rs []Recent
	if sh.cfg.NoDisk {
		// A guest's games, as the server lists them for the identity
		// (the SSH door's known guests), then those of this session.
		rs = served
	}
	for _, r := range sh.recent {
		if r.Server != sh.serverName() || slices.ContainsFunc(rs, func(o Recent) bool { return o.Table == r.Table }) {
			continue
		}
		// A game left before its end is kept as it was then: the
		// server's word on it, once heard, says how it stands now.
		if i := slices.IndexFunc(served, func(o Recent) bool { return o.Table == r.Table }); i >= 0 && underWay(r.Status) {
			r.Status, r.Forfeits, r.ended = served[i].Status, served[i].Forfeits, served[i].ended
		}
		rs = append(rs, r)
	}
	return rs
}

// underWay says whether a recent game's status is one of a game not over:
// open, setup or playing.
func underWay(status string) bool {
	return status == "open" || status == "setup" || status == "playing"
}

// guestUnderWay says whether this client, a guest's, keeps a game of this
// server as under way, which may have ended since it was left.
func (sh *shared) guestUnderWay() bool {
	return sh.cfg.Session == "" && slices.ContainsFunc(sh.recent, func(r Recent) bool {
		return r.Server == sh.serverName() && underWay(r.Status)
	})
}

// adopt makes tok, a guest identity made for a seat, the one the next
// seats are taken under, when the client had none, and tells
// Config.OnIdentity.
func (sh *shared) adopt(tok string) {
	if sh.idToken != "" || tok == "" {
		return
	}
	sh.idToken = tok
	if sh.cfg.Session == "" && sh.cfg.OnIdentity != nil {
		sh.cfg.OnIdentity(tok)
	}
}

// public is the server's address as players reach it: Config.PublicURL
// (the SSH door's client plays through an address of the server's own),
// else the API's base. Every link and address a player is shown starts
// with it.
func (sh *shared) public() string {
	if sh.cfg.PublicURL != "" {
		return strings.TrimRight(sh.cfg.PublicURL, "/")
	}
	return sh.c.Base()
}

// serverName is the server's name in the list of recent games.
func (sh *shared) serverName() string {
	if sh.cfg.Server != "" {
		return sh.cfg.Server
	}
	return sh.c.Base()
}

// homeScreen is the first screen: the games to open a table of, the
// ways to join one, the player's name or account, and their recent games.
type homeScreen struct {
	*shared
	at int // the item chosen
	// news is who is about, once read (nil before); reading says its
	// reads have begun.
	news    *homeNews
	reading bool
}

// quitHint is what esc on the home screen says, where it goes nowhere.
const quitHint = "q quits Parlour"

// items are the games, join, lobby, name, then recent games.
func (hm *homeScreen) items() int { return len(hm.games) + 3 + len(hm.recentHere()) }

func (hm *homeScreen) update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	n := hm.items()
	if hm.note == quitHint && k.String() != "esc" {
		hm.note = "" // a hint for this screen, not news to carry to the next
	}
	switch s := k.String(); s {
	case "up", "k":
		hm.at = (hm.at + n - 1) % n
	case "down", "j", "tab":
		hm.at = (hm.at + 1) % n
	case "q":
		return hm.nav.quit()
	case "esc":
		// Esc goes back everywhere else, and a player pressing it a
		// few times to come home would be put out of Parlour (over
		// SSH, cut off): here it only says how to leave.
		hm.note = quitHint
	case "l":
		return openLobby(hm.shared)
	case "g":
		openSeek(hm.shared)
	case "d":
		return openDaily(hm.shared, "")
	case "t":
		// The leaderboard of the game chosen, when one is.
		game := ""
		if hm.at < len(hm.games) {
			game = hm.games[hm.at].Name
		}
		return openBoards(hm.shared, game)
	case "p":
		return openPlayers(hm.shared)
	case "e":
		return openEvents(hm.shared)
	case "i":
		openJoin(hm.shared, "")
	case "s", "u":
		if hm.cfg.Session != "" {
			hm.err = "you are signed in as " + hm.cfg.Account + ": o signs out"
			return nil
		}
		return openAccount(hm.shared, s == "u")
	case "o":
		if hm.cfg.Session == "" {
			hm.err = "you are not signed in"
			return nil
		}
		return hm.signOut()
	case "r":
		// The rules of the game chosen, before a first game.
		if hm.at >= len(hm.games) {
			hm.err = "choose a game (↑↓), then r shows how to play it"
			return nil
		}
		return openHowTo(hm.shared, hm.games[hm.at].Name, hm)
	case "a":
		if hm.cfg.Session == "" {
			hm.err = "you are not signed in: s signs in, u signs up"
			return nil
		}
		return openYourAccount(hm.shared)
	case "K":
		if hm.cfg.Session == "" {
			hm.err = "sign in first: keys belong to accounts"
			return nil
		}
		return openKeys(hm.shared)
	case "n":
		hm.openName()
	case "1", "2", "3", "4":
		i := int(s[0] - '1')
		if i < len(hm.games) {
			openNewTable(hm.shared, hm.games[i].Name)
		}
	case "enter", "space":
		at := hm.at
		switch {
		case at < len(hm.games):
			openNewTable(hm.shared, hm.games[at].Name)
		case at == len(hm.games):
			openJoin(hm.shared, "")
		case at == len(hm.games)+1:
			return openLobby(hm.shared)
		case at == len(hm.games)+2:
			hm.openName()
		default:
			r := hm.recentHere()[at-len(hm.games)-3]
			if r.Identity != "" && hm.cfg.Session == "" {
				hm.idToken = r.Identity
			}
			return hm.nav.sit(client.Seated{Table: r.Table, Seat: r.Seat, Token: r.Token, Invite: hm.public() + "/t/" + r.Table}, r.Game)
		}
	}
	return nil
}

// openName opens the line to type a guest's name on; an account's name
// is the account's.
func (hm *homeScreen) openName() {
	if hm.cfg.Session != "" {
		hm.err = "you are signed in as " + hm.cfg.Account + ": your name is your account's"
		return
	}
	sh := hm.shared
	// The server counts a name's characters its own way (a letter with
	// its accents once), and says so of a name too long: the line takes
	// more than it does.
	openChecked(sh, "Your name", "The name other players see (up to 24 characters), then enter (esc: back).", sh.c.Name, 40, sh.newName)
}

// newName makes a guest identity called name, which the next seats are
// taken under: the server checks a guest's name (its length, the names
// kept for the house and the computer players, those of accounts), and
// a name it refuses stays on the form to be mended, rather than being
// refused at the next table.
func (sh *shared) newName(name string) tea.Cmd {
	c := *sh.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(sh.ctx, 15*time.Second)
		defer cancel()
		id, err := c.NewIdentity(ctx, name)
		if err != nil {
			return checkedMsg{err: err}
		}
		return checkedMsg{take: func() {
			sh.c.Name = id.Name
			sh.idToken = ""
			sh.adopt(id.Token)
			sh.note = "you are now " + id.Name
		}}
	}
}

func (hm *homeScreen) view() string {
	var b strings.Builder
	name := hm.c.Name
	if name == "" {
		name = "(no name yet)"
	}
	who := "guest " + name
	if hm.cfg.Account != "" {
		who = "signed in as " + hm.cfg.Account
	}
	head := fmt.Sprintf("%s  ·  %s  ·  %s", title("Parlour"), who, hm.public())
	if hm.news != nil {
		// Who is about, so that a player sees others to play; the
		// server's address gives way first when the line is too long.
		head += "  ·  " + hm.news.String()
		if ansi.StringWidth(head) > hm.w {
			head = fmt.Sprintf("%s  ·  %s  ·  %s", title("Parlour"), who, hm.news.String())
		}
	}
	b.WriteString(fitLine(head, hm.w) + "\n\n")
	cur := func(i int) string {
		if i == hm.at {
			return hi("> ")
		}
		return "  "
	}
	b.WriteString(title("New table") + "\n")
	for i, g := range hm.games {
		fmt.Fprintf(&b, "%s%d %-22s %s\n", cur(i), i+1, g.Title, faint(players(g)))
	}
	i := len(hm.games)
	b.WriteString("\n")
	if hm.cfg.Offline {
		b.WriteString("  g Quick game: the computer at your level (offline, nobody else is here)\n")
	} else {
		b.WriteString("  g Quick game: find an opponent who wants the same game\n")
	}
	b.WriteString("  d Daily puzzles: one a day for each, the same for everyone\n")
	fmt.Fprintf(&b, "%si Join a table by invite code, link or id\n", cur(i))
	fmt.Fprintf(&b, "%sl Lobby · p players online and challenges · e events · t leaderboards\n", cur(i+1))
	if hm.news != nil && len(hm.news.events) > 0 {
		b.WriteString(faint(fitLine("    "+hm.eventsNews(*hm.news, time.Now()), hm.w)) + "\n")
	}
	switch {
	case hm.cfg.Session != "":
		// An account plays under its own name, which n does not change.
		fmt.Fprintf(&b, "%sName: %s, the account's\n", cur(i+2), hm.cfg.Account)
	case hm.c.Name == "":
		// The server names a guest who gave no name ("Guest 4821").
		fmt.Fprintf(&b, "%sn Name: none yet, the server gives you one\n", cur(i+2))
	default:
		fmt.Fprintf(&b, "%sn Name: play as %q\n", cur(i+2), hm.c.Name)
	}
	if hm.cfg.Account != "" {
		line := "  a your account · o sign out"
		if hm.cfg.SSHKey != "" {
			line += " · K SSH keys"
			// Offered only when there is one to add, as the keys
			// screen says; the file may come while the client runs.
			if _, err := os.Stat(hm.cfg.SSHKey); err == nil {
				line += ": add this computer's"
				if l := line + " (" + hm.cfg.SSHKey + ")"; ansi.StringWidth(l) <= hm.w {
					line = l
				} else {
					line += "\n    (" + hm.cfg.SSHKey + ")"
				}
			}
		}
		b.WriteString(line + "\n\n")
	} else {
		b.WriteString("  s sign in · u sign up (you play as a guest until then)\n")
		if hm.cfg.Resume != "" && hm.idToken != "" {
			b.WriteString(wrap("  Back to your tables after a dropped connection: "+hm.cfg.Resume, hm.w) + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(title("Your recent games") + hm.zoneNote() + "\n")
	rs := hm.recentHere()
	if len(rs) == 0 {
		b.WriteString(faint("  none yet") + "\n")
	}
	keys := wrapKeys("↑↓ choose · enter open · 1-4 new table · r rules · g quick game · d daily · i join · l lobby · p players · e events · t leaderboards · ? help", hm.w)
	// Under the games: a blank line, the message's line and the keys'.
	room := hm.h - strings.Count(b.String(), "\n") - 3 - strings.Count(keys, "\n")
	start, end := 0, len(rs)
	if len(rs) > room {
		// More games than lines: a line says how many more there are,
		// and the list moves on with the cursor, so that the game it
		// opens is in sight, a line above saying how many are newer.
		end = max(0, room-1)
		if sel := hm.at - (i + 3); sel >= end && sel < len(rs) {
			end = sel + 1
			k := room - 1
			if end < len(rs) {
				k--
			}
			start = max(0, end-max(1, k))
		}
	}
	// A game's notes (its event, whom the server played for) go on its
	// line where they fit; else under it while the list has lines to
	// spare; else on its line in place of its date, where that makes
	// room; else under it all the same, whole: the list shows fewer
	// games rather than cut them, keeping the one the cursor is on in
	// sight.
	line := func(j int) (dated, undated, note string) {
		r := rs[j]
		rated := "     "
		if r.Rated {
			rated = "rated"
		}
		undated = fmt.Sprintf("%s%-22s %-16s %-9s %s", cur(i+3+j), r.Title, r.Table, r.Status, rated)
		dated = undated
		if !r.When.IsZero() {
			dated += " " + r.When.In(hm.zone()).Format("Jan 2 15:04")
		}
		return dated, strings.TrimRight(undated, " "), strings.Join(r.notes(), " · ")
	}
	fits := func(l, note string) bool { return ansi.StringWidth(l+" · "+note) <= hm.w }
	under := func(note string) string {
		return "    " + strings.ReplaceAll(wrap(note, max(20, hm.w-4)), "\n", "\n    ")
	}
	// layout draws the games start to end, and says how many lines they
	// and the lines about the others take.
	layout := func() ([]string, int) {
		var out []string
		n := 0
		if start > 0 {
			n++
		}
		if end < len(rs) {
			n++
		}
		spare := room - n - (end - start)
		for j := start; j < end; j++ {
			dated, undated, note := line(j)
			l := dated
			switch {
			case note == "":
			case fits(dated, note):
				l += " · " + note
			case strings.Count(under(note), "\n")+1 <= spare:
				spare -= strings.Count(under(note), "\n") + 1
				l += "\n" + faint(under(note))
			case fits(undated, note):
				l = undated + " · " + note
			default:
				l += "\n" + faint(under(note))
			}
			out = append(out, l)
			n += strings.Count(l, "\n") + 1
		}
		return out, n
	}
	games, n := layout()
	for n > room && end-start > 1 {
		if sel := hm.at - (i + 3); sel == end-1 {
			start++
		} else {
			end--
		}
		games, n = layout()
	}
	if start > 0 {
		fmt.Fprintf(&b, "  … %d newer above\n", start)
	}
	for _, l := range games {
		b.WriteString(fit(l, hm.w, strings.Count(l, "\n")+1) + "\n")
	}
	if end < len(rs) {
		fmt.Fprintf(&b, "  … and %d more\n", len(rs)-end)
	}
	b.WriteString("\n" + hm.message() + "\n")
	b.WriteString(faint(keys))
	return b.String()
}

// notes are what a recent game's line says after its result: the event
// it was played in and whom the server played for.
func (r Recent) notes() []string {
	if r.Event == "" {
		return r.Forfeits
	}
	return append([]string{r.Event}, r.Forfeits...)
}

// dailyTitle is a game's title as a list of games shows it: "Daily
// Quizl" for an attempt at a daily puzzle.
func dailyTitle(title string, daily bool) string {
	if daily {
		return "Daily " + title
	}
	return title
}

func players(g client.Game) string {
	if g.MinPlayers == g.MaxPlayers {
		return fmt.Sprintf("%d players", g.MinPlayers)
	}
	return fmt.Sprintf("%d-%d players", g.MinPlayers, g.MaxPlayers)
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

// join takes a seat at table id.
func (sh *shared) join(id string) tea.Cmd {
	tok := sh.idToken
	c := *sh.c // a copy: the name may change while the request is out
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(sh.ctx, 15*time.Second)
		defer cancel()
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

// seated opens the table of a seat taken, or says why none was.
func (m *Model) seated(msg seatedMsg) tea.Cmd {
	// The guest made for this seat takes the next ones too.
	m.adopt(msg.identity)
	if msg.err != nil {
		m.err = msg.err.Error()
		return nil
	}
	return m.sit(msg.s, msg.game)
}
