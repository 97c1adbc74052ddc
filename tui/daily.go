package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// dailyScreen lists the day's puzzles, one for each game the server has
// one of (a Quizl grid and a Salvo fleet, the same for everyone), with
// the player's attempt at each and its leaderboard, today's or
// yesterday's. enter starts the player's one attempt, or goes back to it.
type dailyScreen struct {
	*shared
	puzzles []client.Daily // nil until the server answered
	at      int            // the puzzle chosen
	// choose is the game whose puzzle is chosen once the list comes:
	// the one just played, when the player comes back from its table.
	choose string
	// yesterday shows the chosen puzzle's board of the day before,
	// whose games are over and may be watched: boardAt is the one
	// chosen.
	yesterday bool
	boardAt   int
	// share shows the player's result as they would share it, in place
	// of the board.
	share   bool
	boards  map[string]*dailyBoardMsg // by game and day
	busy    bool                      // an attempt is being started
	loadErr string                    // why the puzzles did not come
	// past shows an account's own days at the chosen puzzle's game (its
	// streak and attempts, each day over opened as a replay) in place of
	// the board; pastAt is the day chosen, record the answer.
	past   bool
	pastAt int
	record *dailyRecordMsg
}

// dailyRecordMsg is the account's record at the daily puzzles, by game.
type dailyRecordMsg struct {
	to    *dailyScreen
	games map[string]client.DailyStats
	err   error
	asked bool // the request is out
}

// dailyMsg is the day's puzzles as the server said them. Each of the
// screen's answers names the screen that asked (to), which takes it
// whichever screen is on show (a screenMsg): one that comes while a
// game opened from the list is on show is kept for the way back, and
// one that comes after its screen was left is not taken by a daily
// screen opened since (yesterday's "today" would stand for today's).
type dailyMsg struct {
	to      *dailyScreen
	puzzles []client.Daily
	err     error
}

// dailyBoardMsg is a day's leaderboard of one game, or why there is none.
type dailyBoardMsg struct {
	to    *dailyScreen
	key   string
	board client.DailyBoard
	err   error
	asked bool // the request is out
}

// openDaily shows the daily puzzles and asks for them, with game's
// chosen ("" for the first).
func openDaily(sh *shared, game string) tea.Cmd {
	d := &dailyScreen{shared: sh, boards: map[string]*dailyBoardMsg{}, choose: game}
	sh.err = ""
	sh.nav.show(d)
	return d.fetch
}

// fetch asks for today's puzzle of every game, keeping those that have
// one: which games do is the server's to say.
func (d *dailyScreen) fetch() tea.Msg {
	ctx, cancel := context.WithTimeout(d.ctx, 15*time.Second)
	defer cancel()
	var ps []client.Daily
	for _, g := range d.games {
		p, err := d.c.Daily(ctx, d.idToken, g.Name)
		switch {
		case errors.Is(err, client.ErrNoDaily):
			continue
		case err != nil:
			return dailyMsg{to: d, err: err}
		}
		if p.Title == "" {
			p.Title = g.Title
		}
		ps = append(ps, p)
	}
	return dailyMsg{to: d, puzzles: ps}
}

// day is the day whose leaderboard shows.
func (d *dailyScreen) day() (game, day string) {
	if d.at >= len(d.puzzles) {
		return "", ""
	}
	p := d.puzzles[d.at]
	if d.yesterday {
		return p.Game, p.Yesterday
	}
	return p.Game, p.Day
}

// board asks for the leaderboard on show, unless it has it.
func (d *dailyScreen) board() tea.Cmd {
	game, day := d.day()
	key := game + "/" + day
	if game == "" || d.boards[key] != nil {
		return nil
	}
	d.boards[key] = &dailyBoardMsg{key: key, asked: true} // not again meanwhile
	c := d.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(d.ctx, 10*time.Second)
		defer cancel()
		b, err := c.DailyLeaderboard(ctx, game, day)
		return dailyBoardMsg{to: d, key: key, board: b, err: err}
	}
}

func (d *dailyScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case dailyMsg:
		d.loadErr = ""
		if msg.err != nil {
			d.loadErr = msg.err.Error() + " (r: try again)"
			return nil
		}
		d.puzzles = msg.puzzles
		if i := slices.IndexFunc(d.puzzles, func(p client.Daily) bool { return p.Game == d.choose }); i >= 0 && d.choose != "" {
			d.at = i
		}
		d.choose = ""
		d.at = min(d.at, max(0, len(d.puzzles)-1))
		return d.board()
	case dailyBoardMsg:
		d.boards[msg.key] = &msg
		return nil
	case dailyRecordMsg:
		d.record = &msg
		return nil
	case seatedMsg:
		d.busy = false // the model opens the table, or says why not
		if msg.err != nil {
			// Refused (an attempt begun elsewhere meanwhile, say): the
			// list is read again, to say where the player stands.
			return d.fetch
		}
		return nil
	case tea.KeyPressMsg:
		return d.key(msg.String())
	}
	return nil
}

func (d *dailyScreen) key(k string) tea.Cmd {
	n := len(d.puzzles)
	if d.past {
		if cmd, done := d.pastKey(k); done {
			return cmd
		}
	}
	if d.replays() != nil && !d.share {
		if cmd, done := d.replayKey(k); done {
			return cmd
		}
	}
	switch k {
	case "esc", "q":
		d.nav.goHome()
	case "r":
		d.boards = map[string]*dailyBoardMsg{}
		d.puzzles, d.loadErr, d.record = nil, "", nil
		return tea.Batch(d.fetch, d.fetchRecord())
	case "h":
		if d.cfg.Account == "" {
			d.err = "your past days are kept for accounts: s on the home screen signs in"
			return nil
		}
		d.past, d.share, d.pastAt = !d.past, false, 0
		return d.fetchRecord()
	case "up", "k":
		if n > 0 {
			d.at = (d.at + n - 1) % n
		}
		return d.board()
	case "down", "j", "tab":
		if n > 0 {
			d.at = (d.at + 1) % n
		}
		return d.board()
	case "y", "t":
		d.yesterday, d.share, d.past, d.boardAt = k == "y", false, false, 0
		return d.board()
	case "s":
		if d.finished() != nil {
			d.share, d.past = !d.share, false
		}
	case "c":
		if a := d.finished(); a != nil {
			d.err, d.note = "", "your result is copied, where your terminal lets programs set its clipboard (s shows it, to copy by hand)"
			return tea.SetClipboard(a.Share)
		}
	case "enter", "space":
		if d.at >= n || d.busy {
			return nil
		}
		return d.play(d.puzzles[d.at])
	}
	return nil
}

// pastKey handles the keys of the player's own days: ↑↓ choose a day
// and enter opens its replay; tab chooses the next game. done is false
// for the keys the screen handles as ever.
func (d *dailyScreen) pastKey(k string) (cmd tea.Cmd, done bool) {
	days := d.pastDays()
	switch k {
	case "up", "k":
		if len(days) > 0 {
			d.pastAt = (d.pastAt + len(days) - 1) % len(days)
		}
	case "down", "j":
		if len(days) > 0 {
			d.pastAt = (d.pastAt + 1) % len(days)
		}
	case "tab":
		if n := len(d.puzzles); n > 0 {
			d.at, d.pastAt = (d.at+1)%n, 0
		}
		// The game's board, for when h goes back to it.
		return d.board(), true
	case "enter", "space":
		if d.pastAt >= len(days) {
			return nil, true
		}
		a := days[d.pastAt]
		switch {
		case !a.Finished && a.Table != "":
			// A past day's attempt left open (the list names its table
			// once the day is over): it takes a resignation, to end it.
			return d.nav.sit(client.Seated{Table: a.Table, Token: d.idToken, Invite: d.public() + "/t/" + a.Table}, d.puzzles[d.at].Game), true
		case !a.Finished:
			d.err = "that attempt is under way: h, then enter on the puzzle, goes back to it"
		case a.Table == "":
			d.err = "a day's replay opens when the day ends (midnight UTC), so that nobody's game gives the puzzle away"
		default:
			return d.watch(a.Table), true
		}
	default:
		return nil, false
	}
	return nil, true
}

// watch opens table, a game of the chosen puzzle's on a day that is
// over, as a spectator: a day over is public, and its game shows its
// end, every secret and its analysis; esc comes back here.
func (d *dailyScreen) watch(table string) tea.Cmd {
	return d.nav.sitFrom(client.Seated{Table: table, Seat: -1, Invite: d.public() + "/t/" + table}, d.puzzles[d.at].Game, d)
}

// replays is the board on show when its day is over and its games may
// be watched (yesterday's), nil otherwise.
func (d *dailyScreen) replays() []client.DailyResult {
	if !d.yesterday || d.past {
		return nil
	}
	game, day := d.day()
	if bm := d.boards[game+"/"+day]; bm != nil && !bm.asked && bm.err == nil && bm.board.Over && len(bm.board.Entries) > 0 {
		return bm.board.Entries
	}
	return nil
}

// replayKey handles the keys of a day-over board: ↑↓ choose a player
// and enter watches their game; tab chooses the next game. done is false
// for the keys the screen handles as ever.
func (d *dailyScreen) replayKey(k string) (cmd tea.Cmd, done bool) {
	es := d.replays()
	switch k {
	case "up", "k":
		d.boardAt = (d.boardAt + len(es) - 1) % len(es)
	case "down", "j":
		d.boardAt = (d.boardAt + 1) % len(es)
	case "tab":
		if n := len(d.puzzles); n > 0 {
			d.at, d.boardAt = (d.at+1)%n, 0
		}
		return d.board(), true
	case "enter", "space":
		if d.boardAt >= len(es) || es[d.boardAt].Table == "" {
			return nil, true
		}
		return d.watch(es[d.boardAt].Table), true
	default:
		return nil, false
	}
	return nil, true
}

// pastDays is the player's attempts at the chosen puzzle's game, the
// latest first, as far as the server has said them.
func (d *dailyScreen) pastDays() []client.DailyResult {
	if d.record == nil || d.at >= len(d.puzzles) {
		return nil
	}
	return d.record.games[d.puzzles[d.at].Game].History
}

// fetchRecord asks for the account's record at the daily puzzles, when
// its days are on show and the record is not in hand.
func (d *dailyScreen) fetchRecord() tea.Cmd {
	if !d.past || d.record != nil || d.cfg.Account == "" {
		return nil
	}
	d.record = &dailyRecordMsg{asked: true} // not again meanwhile
	c, name := d.c, d.cfg.Account
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(d.ctx, 10*time.Second)
		defer cancel()
		games, err := c.PlayerDaily(ctx, name)
		return dailyRecordMsg{to: d, games: games, err: err}
	}
}

// finished is the player's finished attempt at the chosen puzzle, if
// any.
func (d *dailyScreen) finished() *client.DailyResult {
	if d.at < len(d.puzzles) {
		if a := d.puzzles[d.at].Attempt; a != nil && a.Finished && a.Share != "" {
			return a
		}
	}
	return nil
}

// play starts the player's attempt at p, or opens the one they began:
// the identity's own token acts for its seat there.
// dailyWait is how long the start of an attempt is awaited: the day's
// first attempt waits for the strong computer to make the puzzle, which
// the server bounds at 30 s and then makes a random one, within a minute
// in all, and then for the attempt's table. A start given up sooner
// would leave an attempt made after its player heard it was not.
const dailyWait = 90 * time.Second

func (d *dailyScreen) play(p client.Daily) tea.Cmd {
	if a := p.Attempt; a != nil && a.Table != "" {
		return d.nav.sit(client.Seated{Table: a.Table, Token: d.idToken, Invite: d.public() + "/t/" + a.Table}, p.Game)
	}
	d.busy = true
	d.err = ""
	tok, c := d.idToken, *d.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(d.ctx, dailyWait)
		defer cancel()
		idTok, err := identityFor(ctx, c, tok)
		if err != nil {
			return seatedMsg{err: err}
		}
		s, err := c.StartDaily(ctx, idTok, p.Game)
		if err != nil {
			return seatedMsg{err: fmt.Errorf("today's %s: %w", p.Title, err), identity: idTok}
		}
		return seatedMsg{s: s, game: p.Game, identity: idTok}
	}
}

func (d *dailyScreen) view() string {
	var b strings.Builder
	head := title("Daily puzzles")
	if len(d.puzzles) > 0 {
		p := d.puzzles[0]
		head += "  ·  " + p.Day + " (UTC)"
		if left := time.Until(p.Next); left > 0 {
			head += "  ·  the next in " + hoursMinutes(left)
		}
	}
	b.WriteString(head + "\n\n")
	b.WriteString(wrap("A puzzle a day for each game below, the same for everyone, one attempt each. Players with accounts are ranked; guests play too.", d.w) + "\n\n")
	switch {
	case d.loadErr != "":
		b.WriteString(bad(wrap(d.loadErr, d.w)) + "\n")
	case d.puzzles == nil:
		b.WriteString("asking the server for today's puzzles…\n")
	case len(d.puzzles) == 0:
		b.WriteString(faint("this server sets no daily puzzles") + "\n")
	}
	wide := 0
	for _, p := range d.puzzles {
		wide = max(wide, ansi.StringWidth(p.Title))
	}
	for i, p := range d.puzzles {
		cur := "  "
		if i == d.at {
			cur = hi("> ")
		}
		// The attempt's words wrap under themselves, past the titles.
		lead := 2 + wide + 2
		for j, l := range strings.Split(wrap(d.attemptLine(p), max(20, d.w-lead)), "\n") {
			if j == 0 {
				b.WriteString(cur + p.Title + strings.Repeat(" ", wide-ansi.StringWidth(p.Title)+2) + l + "\n")
			} else {
				b.WriteString(strings.Repeat(" ", lead) + l + "\n")
			}
		}
	}
	keys := d.keys()
	// Under the board: a blank line, the message and the keys.
	below := 2 + d.msgExtra() + strings.Count(keys, "\n") + 1
	if len(d.puzzles) > 0 {
		b.WriteString("\n")
		if a := d.finished(); d.share && a != nil {
			b.WriteString(title("Your result, to share") + " (c copies it)\n")
			b.WriteString(fit(a.Share, d.w, max(1, d.h-strings.Count(b.String(), "\n")-below)) + "\n")
		} else if d.past {
			b.WriteString(d.pastView(d.h - strings.Count(b.String(), "\n") - below))
		} else {
			b.WriteString(d.boardView(d.h - strings.Count(b.String(), "\n") - below))
		}
	}
	b.WriteString("\n" + d.message() + "\n")
	b.WriteString(keys)
	return b.String()
}

// keys is the screen's line of keys, wrapped.
func (d *dailyScreen) keys() string {
	if d.past {
		return faint(wrapKeys("↑↓ choose a day · enter watch its replay · tab next game · h back to the leaderboard · r refresh · esc home", d.w))
	}
	if d.replays() != nil && !d.share {
		keys := "↑↓ choose a player · enter watch their game · tab next game · t today's leaderboard"
		if d.cfg.Account != "" {
			keys += " · h your past days"
		}
		return faint(wrapKeys(keys+" · r refresh · esc home", d.w))
	}
	keys := []string{"↑↓ choose", "enter play today's puzzle"}
	if d.at < len(d.puzzles) && d.puzzles[d.at].Attempt != nil {
		keys[1] = "enter open your game"
	}
	if d.finished() != nil {
		keys = append(keys, "s your result to share", "c copy it")
	}
	if d.yesterday {
		keys = append(keys, "t today's leaderboard")
	} else {
		keys = append(keys, "y yesterday's leaderboard")
	}
	if d.cfg.Account != "" {
		keys = append(keys, "h your past days")
	}
	keys = append(keys, "r refresh", "esc home")
	return faint(wrapKeys(strings.Join(keys, " · "), d.w))
}

// pastView is the player's own days at the chosen puzzle's game, in at
// most room lines: the streak and the days played and solved, then the
// attempts, the latest first, around the one chosen.
func (d *dailyScreen) pastView(room int) string {
	p := d.puzzles[d.at]
	var b strings.Builder
	b.WriteString(title("Your days at the daily "+p.Title) + "\n")
	switch {
	case d.record == nil || d.record.asked:
		b.WriteString(faint("  asking…") + "\n")
		return b.String()
	case d.record.err != nil:
		b.WriteString(bad(wrap("  "+d.record.err.Error(), d.w)) + "\n")
		return b.String()
	}
	r := d.record.games[p.Game]
	if len(r.History) == 0 {
		b.WriteString(faint("  not played yet") + "\n")
		return b.String()
	}
	fmt.Fprintf(&b, "  streak %d · longest %d · solved %d of %d\n", r.Streak, r.Best, r.Solved, r.Played)
	rows := max(1, room-3) // the title, the tally and a line of how many show
	from, to := window(len(r.History), rows, d.pastAt)
	moves := dailyMoves(p.Game)
	for i := from; i < to; i++ {
		a := r.History[i]
		cur := "  "
		if i == d.pastAt {
			cur = hi("> ")
		}
		line := a.Day + "  "
		switch {
		case !a.Finished:
			line += warm("under way")
		default:
			solved := "not solved"
			if a.Solved {
				solved = "solved"
			}
			line += fmt.Sprintf("%s, %s, %d wrong, %s", solved, plural(a.Moves, strings.TrimSuffix(moves, "s"), moves), a.Wrong, seconds(a.Seconds))
			if a.Table == "" {
				line += faint(" · replay at midnight UTC")
			}
		}
		b.WriteString(fitLine(cur+line, d.w) + "\n")
	}
	if len(r.History) > to-from {
		b.WriteString(faint(fmt.Sprintf("  %d of %d days shown: ↑↓ for the rest", to-from, len(r.History))) + "\n")
	}
	return b.String()
}

// attemptLine says where the player stands with p: not played, under way,
// or the result as the server words it for sharing.
func (d *dailyScreen) attemptLine(p client.Daily) string {
	a := p.Attempt
	var s string
	switch {
	case d.busy && d.puzzles[d.at].Game == p.Game:
		s = "starting your attempt…"
	case a == nil:
		s = "not played yet"
	case !a.Finished:
		s = warm("under way") + ": enter goes back to it"
	default:
		s = shareResult(a) + " in " + seconds(a.Seconds)
		if a.Seconds < 0.5 {
			s = shareResult(a) + " in under a second"
		}
		if a.Rank > 0 {
			s += fmt.Sprintf(" · rank %d", a.Rank)
		}
		if !a.Ranked {
			s += " (a guest: not ranked)"
		}
	}
	if p.Streak > 0 {
		s += fmt.Sprintf(" · streak %d", p.Streak)
	}
	return s
}

// shareResult is an attempt's result in the server's words, the line of
// its share text after the title ("solved: 6 calls, 1 wrong
// announcement"), or its counts when it has none.
func shareResult(a *client.DailyResult) string {
	if lines := strings.Split(a.Share, "\n"); len(lines) > 1 && lines[1] != "" {
		return lines[1]
	}
	s := "not solved"
	if a.Solved {
		s = "solved"
	}
	return fmt.Sprintf("%s: %d moves, %d wrong", s, a.Moves, a.Wrong)
}

// dailyMoves names what a daily puzzle's moves count in game.
func dailyMoves(game string) string {
	switch game {
	case "quizl":
		return "calls"
	case "salvo":
		return "salvos"
	}
	return "moves"
}

// boardView is the chosen puzzle's leaderboard, today's or yesterday's,
// in at most room lines.
func (d *dailyScreen) boardView(room int) string {
	game, day := d.day()
	p := d.puzzles[d.at]
	which := "today's leaderboard"
	if d.yesterday {
		which = "yesterday's leaderboard (" + day + ")"
	}
	var b strings.Builder
	b.WriteString(title(p.Title+": "+which) + "\n")
	bm := d.boards[game+"/"+day]
	switch {
	case bm == nil || bm.asked:
		b.WriteString(faint("  asking…") + "\n")
		return b.String()
	case bm.err != nil:
		b.WriteString(bad(wrap("  "+bm.err.Error(), d.w)) + "\n")
		return b.String()
	case len(bm.board.Entries) == 0:
		b.WriteString(faint("  nobody with an account has finished it yet") + "\n")
		return b.String()
	}
	moves := dailyMoves(game)
	fmt.Fprintf(&b, "  %4s  %-24s %-6s %6s %5s %8s\n", "#", "player", "solved", moves, "wrong", "time")
	room -= 2 // the board's title and head
	mine := func(e client.DailyResult) bool {
		return d.cfg.Account != "" && strings.EqualFold(e.Name, d.cfg.Account)
	}
	line := func(cur string, e client.DailyResult) {
		solved := "no"
		if e.Solved {
			solved = "yes"
		}
		l := fmt.Sprintf("%4d  %-24s %-6s %6d %5d %8s", e.Rank, e.Name, solved, e.Moves, e.Wrong, seconds(e.Seconds))
		if mine(e) {
			l = hi(l)
		}
		b.WriteString(cur + l + "\n")
	}
	es := bm.board.Entries
	if d.replays() != nil {
		// A day over: a player's game is chosen to be watched, and the
		// board shows the part around the one chosen.
		from, to := window(len(es), max(1, room-1), d.boardAt)
		for i := from; i < to; i++ {
			cur := "  "
			if i == d.boardAt {
				cur = hi("> ")
			}
			line(cur, es[i])
		}
		if len(es) > to-from {
			b.WriteString(faint(fmt.Sprintf("  %d of %d shown: ↑↓ for the rest", to-from, len(es))) + "\n")
		}
		return b.String()
	}
	if len(es) <= room {
		for _, e := range es {
			line("  ", e)
		}
		return b.String()
	}
	// A board longer than the room: its leaders, and the player's own
	// line where it falls below them.
	at := slices.IndexFunc(es, mine)
	top := max(1, room-1)
	if at >= top {
		top = max(1, room-3)
	}
	for _, e := range es[:top] {
		line("  ", e)
	}
	if at < top {
		b.WriteString(faint(fmt.Sprintf("  … and %d more", len(es)-top)) + "\n")
		return b.String()
	}
	b.WriteString(faint(fmt.Sprintf("  … %d more", at-top)) + "\n")
	line("  ", es[at])
	if after := len(es) - at - 1; after > 0 {
		b.WriteString(faint(fmt.Sprintf("  … and %d more", after)) + "\n")
	}
	return b.String()
}

// seconds is a time taken, to the second: "1m34s".
func seconds(s float64) string {
	if s < 0.5 {
		return "<1s"
	}
	return (time.Duration(s * float64(time.Second))).Round(time.Second).String()
}

// hoursMinutes is a time left, to the minute: "22h47m", "5m".
func hoursMinutes(d time.Duration) string {
	m := int(d.Round(time.Minute) / time.Minute)
	if m < 60 {
		return fmt.Sprintf("%dm", m)
	}
	return fmt.Sprintf("%dh%02dm", m/60, m%60)
}

func (m dailyMsg) screen() screen       { return m.to }
func (m dailyBoardMsg) screen() screen  { return m.to }
func (m dailyRecordMsg) screen() screen { return m.to }
