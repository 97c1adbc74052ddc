// Package tui is Parlour's terminal client: a full-screen program
// (Bubble Tea) that plays the four games at any Parlour server through the
// documented HTTP API and event stream (package tui/client). It holds no
// game rules: it draws each seat's view as the server sends it, sends moves
// in the games' notation, and shows the referee's refusals where they
// happen.
//
// A Model reads keys and writes frames only through Bubble Tea, so one
// program can run on a local terminal (parlour play) or on any
// reader/writer pair of a known size (an SSH session, a test).
package tui

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// MinWidth and MinHeight are the smallest terminal every screen fits.
const (
	MinWidth  = 80
	MinHeight = 24
)

// Config says where the client plays and as whom.
type Config struct {
	Client *client.Client
	// DataDir holds the list of recent games and saved records; empty
	// keeps no list, and `s` saves a record in the working directory
	// (NoDisk keeps nothing at all).
	DataDir string
	// Game, when set, opens the new-table screen of that game at start.
	Game string
	// Table, when set, shows that table (an id, an invite link or an
	// invite code) at start, to sit down at with enter.
	Table string
	// Server names the server in the list of recent games; empty, its
	// address. An embedded server, on a new port at each start, is named
	// for its data directory instead, so its games stay listed.
	Server string
	// Offline says that the server is the client's own, embedded in it
	// (parlour play without --server): nobody else can reach it, so a
	// quick game is the computer's at once.
	Offline bool
	// Session, when set, is an account's session token (a bearer token of
	// POST /api/v1/sessions, or the SSH door's for a known key): every
	// table this client opens is the account's. Account is its name.
	Session string
	Account string
	// OnSession, when set, is told the session after a sign-in, sign-up
	// or sign-out ("" and ""), for parlour play to keep it.
	OnSession func(token, name string) error
	// ProveKey, when set, adds the public key the player came with to
	// the account of the session token token, confirmed, and returns its
	// fingerprint: the SSH door's, whose client proved it holds the key,
	// which no account holds confirmed. A sign-in or sign-up here adds it,
	// so that the next session with it signs in by the key alone, as the
	// door's own password prompt does.
	ProveKey func(ctx context.Context, token string) (fingerprint string, err error)
	// Identity, when set (and Session is not), is the token of the guest
	// identity the client plays under from the start: the SSH door's for
	// a key that played as a guest before, so that the guest finds their
	// tables again. OnIdentity, when set, is told each guest identity the
	// client makes for itself.
	Identity   string
	OnIdentity func(token string)
	// Resume, when set, is the command that brings this guest back to
	// their tables: the SSH door's for a session without a key, which
	// nothing else of the next connection would tell from a stranger's.
	// It is shown once the guest has a table (and on the home screen).
	Resume string
	// SSHKey, when set, is the public key file the home screen's `k`
	// adds to the account (~/.ssh/id_ed25519.pub).
	SSHKey string
	// NoDisk says the player is not at this machine: the client runs on
	// the server for a player elsewhere (the SSH door), so a file it
	// wrote would land on the server, where the player cannot get it and
	// any guest could fill the disk. A NoDisk client reads and writes no
	// file, whatever DataDir and SSHKey say; `s` on the end screen shows
	// the record's address and how to fetch it instead of saving it.
	NoDisk bool
	// PublicURL is the server's address as players reach it, for the
	// links a NoDisk client shows; empty: the client's API base.
	PublicURL string
	// Note is news for the first screen: the SSH door's word on why the
	// session plays as a guest, said before the screen was drawn over it.
	Note string
	// Zone is the time zone the player reads times of day in; nil, this
	// machine's own (parlour play). The SSH door's player is elsewhere:
	// the door sets the zone their client sent (TZ), or else UTC with
	// ZoneNamed, so that each time of day names its zone rather than
	// pass the server's for the player's own.
	Zone      *time.Location
	ZoneNamed bool
	// Guide opens each game's first-game guide by itself at the
	// player's first table of it (parlour play and the SSH door do); a
	// player opens it at any table in play with ? then g.
	Guide bool
}

// A screenMsg is an answer for the screen that asked, which takes it
// whichever screen is on show: a screen under a table opened from it
// keeps what came meanwhile, and one left takes it harmlessly rather
// than the screen on show.
type screenMsg interface{ screen() screen }

// A screen is one screen of the client, composed by the app model as
// Bubble Tea composes models: the app handles what concerns the whole
// client (the window, quitting, the help, the player stream) and passes
// every other message to the screen on show, which answers with a
// command and draws itself.
type screen interface {
	update(msg tea.Msg) tea.Cmd
	view() string
}

// The screens. The table's own (the setup editor, the play, end and
// reports screens) are drawn inside the table's, under its first line.
var (
	_ screen = (*homeScreen)(nil)
	_ screen = (*seekScreen)(nil)
	_ screen = (*lobbyScreen)(nil)
	_ screen = (*eventsScreen)(nil)
	_ screen = (*eventScreen)(nil)
	_ screen = (*promptScreen)(nil)
	_ screen = (*newTableScreen)(nil)
	_ screen = (*shapeScreen)(nil)
	_ screen = (*accountScreen)(nil)
	_ screen = (*keysScreen)(nil)
	_ screen = (*playersScreen)(nil)
	_ screen = (*helpScreen)(nil)
	_ screen = (*tableScreen)(nil)
	_ screen = (*setupScreen)(nil)
	_ screen = (*playScreen)(nil)
	_ screen = (*endScreen)(nil)
	_ screen = (*reportsScreen)(nil)
)

// navigator is what a screen may ask of the app: to show another
// screen, to go back home, to take a seat at a table, to quit.
type navigator interface {
	show(s screen)
	goHome()
	sit(s client.Seated, game string) tea.Cmd
	// sitFor takes a seat at a game of event e: esc there comes back to
	// the event.
	sitFor(s client.Seated, game string, e *eventScreen) tea.Cmd
	// sitFrom takes a seat, or watches with Seat -1, from screen from:
	// esc at the table comes back to it.
	sitFrom(s client.Seated, game string, from screen) tea.Cmd
	quit() tea.Cmd
}

// shared is what every screen holds: the server and who plays at it, the
// terminal's size, the line of news or trouble under each screen, and the
// list of recent games. The app model makes one; each screen gets it.
type shared struct {
	cfg   Config
	c     *client.Client
	ctx   context.Context // ends when the client closes
	nav   navigator
	w, h  int
	games []client.Game // nil until the server answered
	// lexicons are the server's word lists, lexicon the default one.
	lexicons []client.Lexicon
	lexicon  string
	err      string // the last problem, in a player's words
	note     string // the last piece of news
	// asked numbers the lists asked for whose answers may overtake one
	// another (who is online, whom the account follows and blocks), so
	// that a screen keeps the newest: an answer asked before the one it
	// shows is older than it.
	asked  int
	recent []Recent
	soc    social // the player stream, challenges and recent games
	// idToken binds every seat this client takes to one guest identity.
	idToken string
	// toldResume says the table screen has shown Config.Resume.
	toldResume bool
	// event is the event followed (the last opened, or the one that
	// paired the player), whatever screen is on show; eventsGen tells
	// the events' screens' messages from earlier ones'.
	event     *eventScreen
	eventsGen int
	// set are the player's kept choices; blurred says the terminal lost
	// the focus, lastKey when the last key came (the bell's measure of a
	// player away).
	set     settings
	blurred bool
	lastKey time.Time
}

// Model is the app model; tea.Program runs it. It holds the screen on
// show, the home screen to come back to and the help drawn over them.
type Model struct {
	*shared
	cancel context.CancelFunc

	cur  screen
	home *homeScreen
	help *helpScreen // the list of keys over the screen, while open
	// tables counts the tables opened, to tell their messages apart.
	tables int
}

// New makes a model; run it with NewProgram.
func New(cfg Config) *Model {
	if cfg.NoDisk {
		cfg.DataDir, cfg.SSHKey = "", ""
	}
	ctx, cancel := context.WithCancel(context.Background())
	tok := cfg.Session
	if tok == "" {
		tok = cfg.Identity
	}
	sh := &shared{cfg: cfg, c: cfg.Client, ctx: ctx, w: MinWidth, h: MinHeight, idToken: tok, note: cfg.Note}
	sh.recent = loadRecent(cfg.DataDir)
	sh.set = loadSettings(cfg.DataDir)
	if sh.idToken == "" {
		sh.idToken = sh.lastGuest(cfg.Client.Name)
	}
	m := &Model{shared: sh, cancel: cancel, home: &homeScreen{shared: sh}}
	sh.nav, m.cur = m, m.home
	return m
}

// NewProgram runs m on in and out, a terminal of w by h cells (0: ask the
// terminal) with the environment env (nil: the process's), so that the
// same client serves a local terminal, an SSH session or a test. more
// adds options (an SSH session would add tea.WithoutSignalHandler).
func NewProgram(m *Model, in io.Reader, out io.Writer, env []string, w, h int, more ...tea.ProgramOption) *tea.Program {
	opts := []tea.ProgramOption{tea.WithInput(in), tea.WithOutput(out)}
	if env != nil {
		opts = append(opts, tea.WithEnvironment(env))
	}
	if w > 0 && h > 0 {
		opts = append(opts, tea.WithWindowSize(w, h))
	}
	return tea.NewProgram(m, append(opts, more...)...)
}

// Close stops the model's requests and streams.
func (m *Model) Close() {
	if t := m.table(); t != nil {
		t.stop()
	}
	m.cancel()
}

// Token returns the token the client plays under now: the account's
// session (the one it started with, or one a sign-in or sign-up in it
// made), or the guest identity's ("" for a guest who has none yet). Read
// it once the program has ended.
func (m *Model) Token() string { return m.idToken }

// table is the table on show, if any.
func (m *Model) table() *tableScreen {
	t, _ := m.cur.(*tableScreen)
	return t
}

// show makes s the screen on show.
func (m *Model) show(s screen) { m.cur = s }

// goHome shows the home screen, as it was left. A refusal on the screen
// left is left with it: standing on the home screen, it would answer
// nothing there (news, a note, stays).
func (m *Model) goHome() { m.cur, m.err = m.home, "" }

// sit opens the table screen for a seat, in place of the table on
// show, if any.
func (m *Model) sit(s client.Seated, game string) tea.Cmd {
	if t := m.table(); t != nil {
		t.stop()
	}
	m.tables++
	t := openTable(m.shared, s, game, m.tables)
	m.err, m.note = "", ""
	if m.cfg.Resume != "" && m.cfg.Session == "" && m.idToken != "" && !m.toldResume {
		// The first table is where a dropped connection costs a guest
		// without a key most: say there how to come back, once.
		m.note = "You came without an SSH key: if the connection drops, " + m.cfg.Resume + " brings you back to your tables."
		m.toldResume = true
	}
	m.show(t)
	return t.next()
}

// sitFor opens the table screen for a seat at a game of event e.
func (m *Model) sitFor(s client.Seated, game string, e *eventScreen) tea.Cmd {
	cmd := m.sit(s, game)
	m.table().event = e
	return cmd
}

// sitFrom opens the table screen for a seat, or a watcher's, with esc
// back to from.
func (m *Model) sitFrom(s client.Seated, game string, from screen) tea.Cmd {
	cmd := m.sit(s, game)
	m.table().from = from
	return cmd
}

// quit closes the client and ends the program.
func (m *Model) quit() tea.Cmd {
	m.Close()
	return tea.Quit
}

// gamesMsg carries the server's list of games.
type gamesMsg struct {
	games []client.Game
	// lexicons and lexicon are the server's word lists and the default
	// one (none when the server does not list them).
	lexicons []client.Lexicon
	lexicon  string
	err      error
}

// errMsg is a request that failed.
type errMsg struct{ err error }

// Init asks the server for its games: the first check that it answers and
// speaks this version.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.loadGames, m.followPlayer()}
	if m.cfg.Session == "" {
		cmds = append(cmds, m.loadServed()) // a known guest's tables
	}
	return tea.Batch(cmds...)
}

func (m *Model) loadGames() tea.Msg {
	ctx, cancel := context.WithTimeout(m.ctx, 10*time.Second)
	defer cancel()
	gs, err := m.c.Games(ctx)
	if err != nil {
		return gamesMsg{err: err}
	}
	// The word lists are the new-table form's choice for a word game; a
	// server that does not list them offers its default alone.
	ls, def, lerr := m.c.Lexicons(ctx)
	if lerr != nil {
		ls, def = nil, ""
	}
	return gamesMsg{games: gs, lexicons: ls, lexicon: def}
}

// Update handles what concerns the whole client and passes the rest to
// the screen on show. Coming back to the home screen reads who is about
// at once: its count was read before the player left it, often before
// their first table counted them online.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	was := m.cur
	_, cmd := m.update(msg)
	if m.cur != was && m.cur == screen(m.home) && m.home.reading {
		cmd = tea.Batch(cmd, m.readHomeNews)
	}
	return m, cmd
}

// update is Update but for what coming home reads.
func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		return m, nil
	case sessionMsg:
		m.cur.update(msg) // the form, no longer busy
		m.signedIn(msg)
		if msg.err != nil {
			return m, nil
		}
		if !msg.out && m.cfg.ProveKey != nil {
			prove := m.cfg.ProveKey
			m.cfg.ProveKey = nil // the account's now, or refused: once
			return m, tea.Batch(m.followPlayer(), m.proveKey(prove))
		}
		return m, m.followPlayer()
	case sshKeyMsg:
		if msg.err != nil {
			m.err = "the key was not added: " + msg.err.Error()
		} else {
			m.err, m.note = "", "your SSH key "+msg.fp+" is added: ssh to this server signs you in"
			if !msg.confirmed {
				m.note = "your SSH key " + msg.fp + " is added: ssh to this server with it once and type your password to confirm it; from then on it signs you in alone"
			}
		}
		return m, m.cur.update(msg) // the keys screen, to list it
	case gamesMsg:
		return m, m.gotGames(msg)
	case errMsg:
		m.err = msg.err.Error()
		return m, nil
	case tea.KeyPressMsg:
		m.lastKey, m.blurred = time.Now(), false
		if msg.Mod&tea.ModAlt != 0 {
			// Parlour binds no alt key. An esc and the key typed right
			// after it that arrive in one read (over SSH, keys typed
			// quickly come together) are decoded as alt and that key:
			// they are the two keys the player pressed, in turn.
			first := m.key(tea.KeyPressMsg{Code: tea.KeyEscape})
			return m, tea.Batch(first, m.key(withoutAlt(msg)))
		}
		return m, m.key(msg)
	case tea.FocusMsg:
		m.blurred = false
		return m, nil
	case tea.BlurMsg:
		m.blurred = true
		return m, nil
	case tea.PasteMsg:
		// A terminal sends a paste whole (bracketed paste), not as keys:
		// it is typed into the line being edited, line breaks and tabs
		// as spaces, as if typed at once.
		text := strings.Join(strings.Fields(msg.Content), " ")
		if text == "" {
			return m, nil
		}
		if t := m.table(); t != nil && m.help == nil && t.gridEditing() {
			// The grid editor takes letters one by one, each to its
			// square.
			var cmds []tea.Cmd
			for _, r := range strings.ReplaceAll(text, " ", "") {
				cmds = append(cmds, m.key(tea.KeyPressMsg{Code: r, Text: string(r)}))
			}
			return m, tea.Batch(cmds...)
		}
		return m, m.key(tea.KeyPressMsg{Code: tea.KeyExtended, Text: text})
	case seatedMsg:
		// The screen that asked (the new-table form, the daily puzzles)
		// is told first: it is no longer busy, and may ask again.
		cmd := m.cur.update(msg)
		return m, tea.Batch(cmd, m.seated(msg), m.loadServed())
	case challengeMsg:
		m.cur.update(msg) // the players screen, no longer busy
		return m, m.challenged(msg)
	case helpRulesMsg:
		if m.help != nil {
			m.help.update(msg)
		}
		return m, nil
	}
	if sm, ok := msg.(screenMsg); ok && sm.screen() != nil {
		return m, sm.screen().update(msg)
	}
	if cmd, ok := m.playerMsg(msg); ok {
		return m, cmd
	}
	if cmd, ok := m.eventUpdate(msg); ok {
		return m, cmd
	}
	if cmd, ok := m.homeUpdate(msg); ok {
		return m, cmd
	}
	return m, m.cur.update(msg)
}

// gotGames takes the server's list of games in, then opens what Config
// asked to open at start.
func (m *Model) gotGames(msg gamesMsg) tea.Cmd {
	if msg.err != nil {
		m.err = msg.err.Error() + " (r: try again)"
		return nil
	}
	m.err = ""
	m.games = msg.games
	m.lexicons, m.lexicon = msg.lexicons, msg.lexicon
	var news tea.Cmd
	if !m.home.reading {
		// The server answers: the home screen says who is about from
		// now on.
		m.home.reading = true
		news = tea.Batch(m.readHomeNews, homeTick())
	}
	switch {
	case m.cfg.Table != "":
		line := m.cfg.Table
		m.cfg.Table = ""
		return tea.Batch(m.openJoinPreview(line), news)
	case m.cfg.Game != "":
		g := m.cfg.Game
		m.cfg.Game = ""
		if m.gameByName(g) == nil {
			m.err = fmt.Sprintf("this server has no game %q", g)
			return news
		}
		openNewTable(m.shared, g)
	}
	return news
}

// key handles a key press: the keys every screen shares, then the screen's.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	if s == "ctrl+c" {
		return m.quit()
	}
	if m.w < MinWidth || m.h < MinHeight {
		// The screen shows only the size it needs: a key (a move, a
		// resignation's enter) would act on a screen the player cannot
		// see.
		return nil
	}
	if m.help != nil {
		cmd := m.help.update(k)
		if m.help.done {
			if t := m.table(); m.help.guide && t != nil && t.upd != nil {
				t.openGuide()
			}
			m.help = nil
		}
		return cmd
	}
	if t := m.table(); s == "?" && !(t != nil && t.chat.open) && !takesText(m.cur) {
		m.help = &helpScreen{shared: m.shared}
		if t != nil && t.upd != nil {
			m.help.rules = t.rulesText()
			m.help.game = t.upd.Table.Game
			m.help.guides = t.upd.Table.Status == "playing" && !t.watching()
		}
		return nil
	}
	if m.games == nil {
		switch s {
		case "r":
			m.err = "asking the server again…"
			return m.loadGames
		case "q", "esc":
			return m.quit()
		}
		return nil
	}
	return m.cur.update(k)
}

// withoutAlt is key k as pressed without alt: a printable key types its
// character again.
func withoutAlt(k tea.KeyPressMsg) tea.KeyPressMsg {
	k.Mod &^= tea.ModAlt
	k.Text = ""
	if k.Mod&^tea.ModShift == 0 && unicode.IsPrint(k.Code) {
		k.Text = string(k.Code)
		if k.Mod&tea.ModShift != 0 && k.ShiftedCode != 0 {
			k.Text = string(k.ShiftedCode)
		}
	}
	return k
}

// texter is a screen with a line of free text being typed: a password, a
// chat message, a report. There "?" is a character, not the help.
type texter interface {
	takesText() bool
}

// takesText says whether screen s takes "?" as a character just now.
func takesText(s screen) bool {
	t, ok := s.(texter)
	return ok && t.takesText()
}

// editLine applies a key to the line being typed; it answers whether the
// key was a typing key.
func editLine(line *string, s string, k tea.KeyPressMsg, max int) bool {
	switch s {
	case "backspace":
		if r := []rune(*line); len(r) > 0 {
			*line = string(r[:len(r)-1])
		}
		return true
	case "ctrl+u":
		*line = ""
		return true
	}
	t := k.Key().Text
	if t == "" || len([]rune(*line))+len([]rune(t)) > max {
		return false
	}
	for _, r := range t {
		if r < ' ' || r == 127 {
			return false
		}
	}
	*line += t
	return true
}

func (sh *shared) gameByName(name string) *client.Game {
	for i := range sh.games {
		if sh.games[i].Name == name {
			return &sh.games[i]
		}
	}
	return nil
}

// View draws the screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.frame())
	v.AltScreen = true
	v.ReportFocus = true // the bell rings for a player whose terminal lost it
	v.WindowTitle = "Parlour"
	if t := m.table(); t != nil && t.upd != nil {
		// Said in the title too, as the browser's tab does, for a
		// terminal among others.
		v.WindowTitle = t.upd.Table.Title + " · Parlour"
		switch {
		case t.myTurn():
			v.WindowTitle = "● Your turn · " + v.WindowTitle
		case t.upd.Table.Status == "finished":
			v.WindowTitle = "Over · " + v.WindowTitle
		}
	}
	return v
}

// frame is the screen as text, cut to the terminal's size.
func (m *Model) frame() string {
	return fit(m.body(), m.w, m.h)
}

// body is the screen as the screens draw it, before frame cuts it to the
// terminal: every screen is meant to fit, and the tests check that this
// does (a line frame cut off is a line the player never sees).
func (m *Model) body() string {
	if m.w < MinWidth || m.h < MinHeight {
		return wrap(fmt.Sprintf("Parlour needs a terminal of at least %dx%d;", MinWidth, MinHeight), m.w) + "\n" +
			wrap(fmt.Sprintf("this one is %dx%d. Make it larger (ctrl+c quits).", m.w, m.h), m.w)
	}
	var body string
	switch {
	case m.help != nil:
		body = m.help.view()
	case m.games == nil:
		body = m.startView()
	default:
		body = m.cur.view()
	}
	return strings.TrimRight(body, "\n")
}

// fit cuts s to w columns and h lines.
func fit(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "…")
		}
	}
	return strings.Join(lines, "\n")
}

func (m *Model) startView() string {
	var b strings.Builder
	b.WriteString(title("Parlour") + "\n\n")
	if m.err != "" {
		b.WriteString(bad(wrap(m.err, m.w)) + "\n\n")
		b.WriteString("r: ask the server again · q: quit\n")
	} else {
		b.WriteString("Asking " + m.public() + " for its games…\n")
	}
	return b.String()
}

// Styles. Only the sixteen basic colours, and never colour alone: every
// mark also has a shape, so the screens read the same with NO_COLOR
// (Bubble Tea drops the colours the terminal cannot show).
func title(s string) string { return lipgloss.NewStyle().Bold(true).Render(s) }
func bad(s string) string   { return lipgloss.NewStyle().Foreground(lipgloss.Red).Bold(true).Render(s) }
func good(s string) string  { return lipgloss.NewStyle().Foreground(lipgloss.Green).Render(s) }
func faint(s string) string { return lipgloss.NewStyle().Faint(true).Render(s) }
func hi(s string) string    { return lipgloss.NewStyle().Reverse(true).Render(s) }

// cursorCell is a grid's square under the cursor: shown reversed, and,
// since a terminal without styles (TERM=dumb, NO_COLOR) shows no
// reversing, between > and < where the square has room for them. A
// square's own mark ([x] for a square of the password line) stays.
func cursorCell(cell string) string {
	plain := []rune(ansi.Strip(cell))
	if len(plain) == 3 {
		if plain[0] == ' ' {
			plain[0] = '>'
		}
		if plain[2] == ' ' {
			plain[2] = '<'
		}
	}
	return hi(string(plain))
}
func warm(s string) string {
	return lipgloss.NewStyle().Foreground(lipgloss.Yellow).Bold(true).Render(s)
}
func cool(s string) string { return lipgloss.NewStyle().Foreground(lipgloss.Cyan).Render(s) }

// tell puts news from the server on the message line. News comes once,
// unasked, where an error answers the player's last action and has been
// seen: left standing, a stale error (a key the screen refused a while
// ago) would hide every piece of news after it, a challenge or a rematch
// among them.
func (sh *shared) tell(news string) { sh.err, sh.note = "", news }

// maxMessageLines is the most lines the error or news takes; the
// referee's words are rarely longer, and the rest of the screen must stay.
const maxMessageLines = 3

// message is the error or news, wrapped to the screen's width (a line cut
// at the edge would lose the referee's reason) in at most
// maxMessageLines lines.
func (sh *shared) message() string {
	var lines []string
	switch {
	case sh.err != "":
		lines = strings.Split(wrap("! "+sh.err, sh.w), "\n")
	case sh.note != "":
		lines = strings.Split(wrap(sh.note, sh.w), "\n")
	default:
		return ""
	}
	if len(lines) > maxMessageLines {
		lines = lines[:maxMessageLines]
		lines[maxMessageLines-1] = ansi.Truncate(lines[maxMessageLines-1], sh.w-1, "") + "…"
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > sh.w { // one word wider than the screen
			l = ansi.Truncate(l, sh.w, "…")
		}
		if sh.err != "" {
			lines[i] = bad(l)
		} else {
			lines[i] = cool(l)
		}
	}
	return strings.Join(lines, "\n")
}

// msgExtra is how many lines the message takes beyond the one every
// screen leaves it.
func (sh *shared) msgExtra() int {
	return max(0, strings.Count(sh.message(), "\n"))
}

// dots is a secret being typed as the screen shows it, a dot for each
// character, the last of them that fit in w columns (a password may run
// to a thousand).
func dots(secret string, w int) string {
	return tailOf(strings.Repeat("•", utf8.RuneCountInString(secret)), w)
}

// tailOf is the end of a line being typed that fits in w columns: a line
// longer than the screen shows its end, where the cursor is. It measures
// the line once: drawn at every key, a line of thousands of characters
// (a key pasted whole) measured again for each character it dropped
// kept a processor busy for minutes.
func tailOf(line string, w int) string {
	w = max(w, 0)
	over := ansi.StringWidth(line) - w
	if over <= 0 {
		return line
	}
	tail := ansi.TruncateLeft(line, over, "")
	for tail != "" && ansi.StringWidth(tail) > w {
		// A wide character straddled the edge: it goes whole.
		_, size := utf8.DecodeRuneInString(tail)
		tail = tail[size:]
	}
	return tail
}
