package tui

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"parlour/game"
	"parlour/glicko"
	"parlour/tui/client"
)

// boardsScreen is the leaderboards, one rating pool at a time (←→): the
// best players with settled ratings; enter opens the chosen player's
// profile.
type boardsScreen struct {
	*shared
	game    string   // the game whose pool shows first ("": the first pool)
	pools   []string // nil until the server answered
	pool    int      // the pool on show
	at      int      // the player chosen
	boards  map[string]*boardMsg
	loadErr string
	// finding is set while / has the find line open: find is the name
	// typed there, names those that begin so.
	finding bool
	find    string
	names   nameOffer
}

// poolsMsg is the server's rating pools, for the leaderboards screen to.
type poolsMsg struct {
	to    *boardsScreen
	pools []string
	err   error
}

// boardMsg is one pool's leaderboard, or why there is none, for the
// leaderboards screen to.
type boardMsg struct {
	to      *boardsScreen
	pool    string
	leaders []client.Leader
	err     error
	asked   bool // the request is out
}

// openBoards shows the leaderboards and asks for the pools; the first
// on show is game's (its standard variant's when it has variants rated
// apart), or the server's first for game "".
func openBoards(sh *shared, game string) tea.Cmd {
	bs := &boardsScreen{shared: sh, game: game, boards: map[string]*boardMsg{}}
	sh.err = ""
	sh.nav.show(bs)
	return bs.fetchPools
}

func (bs *boardsScreen) fetchPools() tea.Msg {
	ctx, cancel := context.WithTimeout(bs.ctx, 10*time.Second)
	defer cancel()
	ps, err := bs.c.Pools(ctx)
	return poolsMsg{to: bs, pools: ps, err: err}
}

// gamePool is the index in pools of game's pool: the one named for it,
// else its standard variant's, else its first variant's; 0 when it has
// none.
func gamePool(pools []string, game string) int {
	if game == "" {
		return 0
	}
	for _, want := range []string{game, game + "-standard"} {
		if i := slices.Index(pools, want); i >= 0 {
			return i
		}
	}
	for i, p := range pools {
		if strings.HasPrefix(p, game+"-") {
			return i
		}
	}
	return 0
}

// fetchBoard asks for the leaderboard on show, unless it has it.
func (bs *boardsScreen) fetchBoard() tea.Cmd {
	if bs.pool >= len(bs.pools) {
		return nil
	}
	pool := bs.pools[bs.pool]
	if bs.boards[pool] != nil {
		return nil
	}
	bs.boards[pool] = &boardMsg{pool: pool, asked: true}
	c := bs.c
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(bs.ctx, 10*time.Second)
		defer cancel()
		ls, err := c.Leaderboard(ctx, pool)
		return boardMsg{to: bs, pool: pool, leaders: ls, err: err}
	}
}

// leaders is the leaderboard on show, nil while it is asked for.
func (bs *boardsScreen) leaders() *boardMsg {
	if bs.pool >= len(bs.pools) {
		return nil
	}
	if b := bs.boards[bs.pools[bs.pool]]; b != nil && !b.asked {
		return b
	}
	return nil
}

func (bs *boardsScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case poolsMsg:
		bs.loadErr = ""
		if msg.err != nil {
			bs.loadErr = msg.err.Error() + " (r: try again)"
			return nil
		}
		if bs.game != "" { // the first answer: a refresh keeps the pool on show
			bs.pool, bs.game = gamePool(msg.pools, bs.game), ""
		}
		bs.pools = msg.pools
		bs.pool = min(bs.pool, max(0, len(bs.pools)-1))
		return bs.fetchBoard()
	case boardMsg:
		bs.boards[msg.pool] = &msg
	case tea.KeyPressMsg:
		if bs.finding {
			return bs.findKey(msg.String(), msg)
		}
		return bs.key(msg.String())
	}
	if cmd, ok := bs.names.update(bs.shared, msg, bs.find); ok {
		return cmd
	}
	return nil
}

// findKey takes a key on the find line: the name typed, → the first
// name offered, enter that player's profile, esc back to the boards.
func (bs *boardsScreen) findKey(s string, k tea.KeyPressMsg) tea.Cmd {
	switch s {
	case "esc":
		bs.finding, bs.find, bs.names = false, "", nameOffer{}
		return nil
	case "right":
		if n := bs.names.first(); n != "" {
			bs.find = n
		}
		return nil
	case "enter":
		name := strings.TrimSpace(bs.find)
		if name == "" {
			bs.err = "type a player's name, or its start"
			return nil
		}
		for _, n := range bs.names.names {
			if strings.EqualFold(n, name) {
				name = n
			}
		}
		bs.finding, bs.find, bs.names = false, "", nameOffer{}
		return openProfile(bs.shared, name, bs)
	}
	bs.err = ""
	if !editLine(&bs.find, s, k, 20) {
		return nil
	}
	return bs.names.typed(bs.find)
}

func (bs *boardsScreen) key(k string) tea.Cmd {
	n := len(bs.pools)
	switch k {
	case "/":
		bs.finding, bs.err = true, ""
		return nil
	case "esc", "q":
		bs.nav.goHome()
	case "r":
		bs.boards, bs.pools, bs.loadErr = map[string]*boardMsg{}, nil, ""
		return bs.fetchPools
	case "left", "h", "right", "l", "tab":
		if n == 0 {
			return nil
		}
		if k == "left" || k == "h" {
			bs.pool = (bs.pool + n - 1) % n
		} else {
			bs.pool = (bs.pool + 1) % n
		}
		bs.at = 0
		return bs.fetchBoard()
	case "up", "k":
		bs.at = max(0, bs.at-1)
	case "down", "j":
		if b := bs.leaders(); b != nil {
			bs.at = min(bs.at+1, max(0, len(b.leaders)-1))
		}
	case "enter", "space":
		if b := bs.leaders(); b != nil && bs.at < len(b.leaders) {
			return openProfile(bs.shared, b.leaders[bs.at].Name, bs)
		}
	case "m":
		if bs.cfg.Account == "" {
			bs.err = "sign in first (s on the home screen): guests have no profile"
			return nil
		}
		return openProfile(bs.shared, bs.cfg.Account, bs)
	}
	return nil
}

func (bs *boardsScreen) view() string {
	var b strings.Builder
	head := title("Leaderboards")
	if bs.pool < len(bs.pools) {
		head += fmt.Sprintf("  ·  ‹ %s ›  (%d of %d)", bs.poolTitle(bs.pools[bs.pool]), bs.pool+1, len(bs.pools))
	}
	b.WriteString(head + "\n\n")
	b.WriteString(wrap("The best of each pool: 5 rated games or more, and a settled rating.", bs.w) + "\n\n")
	keys := "←→ pool · ↑↓ choose · enter profile · / find a player · m your profile · r refresh · esc home"
	if bs.cfg.Account == "" {
		keys = strings.Replace(keys, " · m your profile", "", 1) // a guest has none
	}
	if bs.finding {
		line := "Find a player: " + tailOf(bs.find, max(8, bs.w/2)) + "█"
		if o := bs.names.line(); o != "" {
			line += "  " + faint(ansi.Truncate(o, max(0, bs.w-ansi.StringWidth(line)-2), "…"))
		}
		b.WriteString(line + "\n\n")
		keys = "type a name or its start · → the first name offered · enter its profile · esc back to the boards"
	}
	keys = faint(wrapKeys(keys, bs.w))
	room := bs.h - strings.Count(b.String(), "\n") - 4 - bs.msgExtra() - strings.Count(keys, "\n")
	lb := bs.leaders()
	switch {
	case bs.loadErr != "":
		b.WriteString(bad(wrap(bs.loadErr, bs.w)) + "\n")
	case bs.pools == nil || lb == nil:
		b.WriteString(faint("asking the server…") + "\n")
	case lb.err != nil:
		b.WriteString(bad(wrap(lb.err.Error(), bs.w)) + "\n")
	case len(lb.leaders) == 0:
		b.WriteString(faint("nobody has a settled rating here yet") + "\n")
	default:
		fmt.Fprintf(&b, "  %4s  %-24s %11s %6s\n", "#", "player", "rating", "games")
		from := max(0, min(bs.at-room+1, len(lb.leaders)-room))
		for i := from; i < len(lb.leaders) && i < from+room; i++ {
			l := lb.leaders[i]
			cur := "  "
			if i == bs.at {
				cur = hi("> ")
			}
			fmt.Fprintf(&b, "%s%4d  %-24s %11s %6d\n", cur, l.Rank, l.Name, ratingText(l.Rating, l.RD), l.Games)
		}
	}
	b.WriteString("\n" + bs.message() + "\n" + keys)
	return b.String()
}

// poolTitle names a rating pool: its game's title, with the variant
// rated apart in brackets ("Nymphabet (cyclic)").
func (sh *shared) poolTitle(pool string) string {
	game, variant, ok := strings.Cut(pool, "-")
	t := sh.gameTitle(game)
	if ok {
		t += " (" + strings.ReplaceAll(variant, "_", " ") + ")"
	}
	return t
}

// ratingText is a rating and its deviation, rounded: "1712 ±98".
func ratingText(r, rd float64) string {
	return fmt.Sprintf("%d ±%d", int(math.Round(r)), int(math.Round(rd)))
}

// trend is a pool's history as a profile shows it, in about w columns:
// a sparkline of the rating after each rated game, from the first
// rating, 1500, when the history holds every game rated, then where it
// went. A history longer than the room shows its latest games. "" when
// there is no history.
func trend(pts []client.RatingPoint, games, w int) string {
	if len(pts) == 0 {
		return ""
	}
	whole := len(pts) >= games
	var ys []float64
	if whole {
		ys = append(ys, glicko.DefaultRating)
	}
	for _, p := range pts {
		ys = append(ys, p.Rating)
	}
	say := func(ys []float64, whole bool) string {
		from, to := int(math.Round(ys[0])), int(math.Round(ys[len(ys)-1]))
		s := fmt.Sprintf("%d → %d over %s", from, to, game.Count(len(ys)-1, "rated game", "rated games"))
		if !whole {
			s = fmt.Sprintf("the last %d rated games: %d → %d", len(ys), from, to)
		}
		if l, h := int(math.Round(slices.Min(ys))), int(math.Round(slices.Max(ys))); l < min(from, to) || h > max(from, to) {
			s += fmt.Sprintf(" (low %d, high %d)", l, h)
		}
		return s
	}
	for len(ys) > 2 && len(ys)+2+ansi.StringWidth(say(ys, whole)) > w {
		ys, whole = ys[1:], false
	}
	return sparkline(ys) + "  " + say(ys, whole)
}

// sparkline draws vs as a line of block characters, the lowest ▁ and
// the highest █; values less than 50 apart are drawn on a scale of 50,
// so that a few points' change does not look like a climb.
func sparkline(vs []float64) string {
	const bars = "▁▂▃▄▅▆▇█"
	steps := []rune(bars)
	lo, hi := slices.Min(vs), slices.Max(vs)
	if hi-lo < 50 {
		mid := (hi + lo) / 2
		lo, hi = mid-25, mid+25
	}
	var b strings.Builder
	for _, v := range vs {
		b.WriteRune(steps[int(math.Round((v-lo)/(hi-lo)*float64(len(steps)-1)))])
	}
	return b.String()
}

// profileScreen is an account's profile: its ratings, podiums and latest
// games. esc goes back to the screen it was opened from.
type profileScreen struct {
	*shared
	name  string
	back  screen
	p     *client.Profile
	games []client.PlayedGame
	daily map[string]client.DailyStats // by game
	at    int                          // the game chosen
	fail  string
	// missing says no account is called name: there is nobody to
	// challenge, follow, block, report or save the games of.
	missing bool
	// next names the page of older games ("" when there are none), and
	// older is set while it is asked for.
	next  string
	older bool
	// follows and blocks say whether the account follows and blocks
	// this player, as the server last said (nil until it did); busy is
	// set while a follow or block is on its way.
	follows, blocks *bool
	relationsAt     int // the shared.asked of the answer they come from
	busy            bool
	// saving is set while every game's record is on its way (d).
	saving bool
	// report is the report form, open on this player (R).
	report reportForm
}

// profileMsg is a profile and its latest games, or why there are none.
type profileMsg struct {
	to    *profileScreen
	name  string
	p     client.Profile
	games []client.PlayedGame
	next  string
	daily map[string]client.DailyStats
	err   error
	// missing says no account is called name.
	missing bool
}

// archivedMsg answers the saving of every game of a profile's player:
// where the records went, and how many.
type archivedMsg struct {
	to         *profileScreen
	name, path string
	n          int
	err        error
}

// olderMsg is a page of a profile's older games: those after the page
// whose next was before.
type olderMsg struct {
	to           *profileScreen
	name, before string
	games        []client.PlayedGame
	next         string
	err          error
}

// A profile's answers go to the profile that asked, whichever screen is
// on show: a game opened from its list does not lose a page of older
// games, or the saving of the records, that came meanwhile. So do the
// leaderboards': a board asked for just before a profile opened from the
// screen is there on the way back, not "asking" for good.
func (m poolsMsg) screen() screen    { return m.to }
func (m boardMsg) screen() screen    { return m.to }
func (m profileMsg) screen() screen  { return m.to }
func (m archivedMsg) screen() screen { return m.to }
func (m olderMsg) screen() screen    { return m.to }

// profilePage is how many games a profile asks for at a time.
const profilePage = 20

// openProfile shows the profile of the account called name; esc goes
// back to back.
func openProfile(sh *shared, name string, back screen) tea.Cmd {
	ps := &profileScreen{shared: sh, name: name, back: back}
	sh.err = ""
	sh.nav.show(ps)
	if ps.own() {
		return ps.fetch
	}
	return tea.Batch(ps.fetch, ps.loadRelations(ps))
}

// own reports whether the profile is the signed-in player's own (or
// the player is a guest, who has none to relate it to).
func (ps *profileScreen) own() bool {
	return ps.cfg.Session == "" || strings.EqualFold(ps.name, ps.cfg.Account)
}

func (ps *profileScreen) fetch() tea.Msg {
	ctx, cancel := context.WithTimeout(ps.ctx, 10*time.Second)
	defer cancel()
	p, err := ps.c.Profile(ctx, ps.cfg.Session, ps.name)
	if err != nil {
		e := (*client.Error)(nil)
		missing := errors.As(err, &e) && e.Status == http.StatusNotFound
		if missing {
			err = fmt.Errorf("%s has no profile: only players with accounts have one", ps.name)
			// The names that begin as this one does: a letter mistyped
			// at the end is the usual slip.
			start := ps.name[:min(3, len(ps.name))]
			if like, _ := ps.c.FindPlayers(ctx, start, 5); len(like) > 0 {
				err = fmt.Errorf("%w; players whose names begin with %q: %s", err, start, strings.Join(like, ", "))
			}
		}
		return profileMsg{to: ps, name: ps.name, err: err, missing: missing}
	}
	gs, next, err := ps.c.GamesBefore(ctx, ps.cfg.Session, p.Name, "", profilePage)
	if err != nil {
		return profileMsg{to: ps, name: ps.name, p: p, err: err}
	}
	// The daily puzzles' record is a line of the profile: a server
	// without them leaves it out.
	daily, _ := ps.c.PlayerDaily(ctx, p.Name)
	return profileMsg{to: ps, name: ps.name, p: p, games: gs, next: next, daily: daily}
}

// loadOlder asks for the page of older games after those listed.
func (ps *profileScreen) loadOlder() tea.Cmd {
	if ps.next == "" || ps.older || ps.p == nil {
		return nil
	}
	ps.older = true
	c, tok, name, before := ps.c, ps.cfg.Session, ps.p.Name, ps.next
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ps.ctx, 10*time.Second)
		defer cancel()
		gs, next, err := c.GamesBefore(ctx, tok, name, before, profilePage)
		return olderMsg{to: ps, name: ps.name, before: before, games: gs, next: next, err: err}
	}
}

func (ps *profileScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case profileMsg:
		if msg.name != ps.name {
			return nil
		}
		ps.fail, ps.missing = "", msg.missing
		if msg.err != nil {
			ps.fail = msg.err.Error()
		}
		if msg.p.Name != "" {
			ps.p, ps.games, ps.next, ps.daily = &msg.p, msg.games, msg.next, msg.daily
		}
	case relationsMsg:
		if msg.asked < ps.relationsAt {
			return nil // older than what the profile shows
		}
		ps.relationsAt = msg.asked
		if msg.err != nil {
			ps.err = "cannot tell whom you follow and block: " + msg.err.Error()
			return nil
		}
		f, b := slices.ContainsFunc(msg.follows, func(f client.Followed) bool { return strings.EqualFold(f.Name, ps.name) }),
			slices.ContainsFunc(msg.blocks, func(r client.Relation) bool { return strings.EqualFold(r.Name, ps.name) })
		ps.follows, ps.blocks = &f, &b
	case relatedMsg:
		ps.busy = false
		if msg.err != nil {
			ps.err = msg.err.Error()
			return nil
		}
		ps.err, ps.note = "", msg.note
		ps.report.went(msg.note)
		if msg.again {
			return ps.loadRelations(ps)
		}
	case archivedMsg:
		if msg.name != ps.name {
			return nil
		}
		ps.saving = false
		switch {
		case msg.err != nil:
			ps.err, ps.note = "saving the games: "+msg.err.Error(), ""
		case msg.n == 0:
			ps.err, ps.note = "", "no finished game to save"
		default:
			ps.err, ps.note = "", fmt.Sprintf("saved %s, one a line, to %s", game.Count(msg.n, "game's record", "games' records"), msg.path)
		}
	case olderMsg:
		if msg.name != ps.name || msg.before != ps.next {
			return nil // a page asked for before a refresh
		}
		ps.older = false
		if msg.err != nil {
			ps.err = "cannot list the older games: " + msg.err.Error()
			return nil
		}
		if ps.at == len(ps.games)-1 && len(msg.games) > 0 {
			ps.at++ // the ↓ that asked for them, taken now
		}
		ps.games, ps.next = append(ps.games, msg.games...), msg.next
	case tea.KeyPressMsg:
		if ps.report.name != "" {
			if msg.String() == "esc" {
				ps.err = ""
			}
			if !ps.report.key(msg.String(), msg) || ps.busy {
				return nil
			}
			ps.busy = true
			return ps.report.send(ps.shared, ps)
		}
		switch k := msg.String(); {
		case ps.missing && slices.Contains([]string{"c", "f", "b", "R", "d"}, k):
			ps.err = "no player with an account is called " + ps.name
			return nil
		case k == "c" && ps.p == nil && ps.fail != "":
			ps.err = "the profile did not come: r asks for it again"
			return nil
		}
		switch msg.String() {
		case "esc", "q":
			if ps.back != nil {
				ps.nav.show(ps.back)
			} else {
				ps.nav.goHome()
			}
		case "r":
			ps.p, ps.games, ps.fail, ps.next, ps.older = nil, nil, "", "", false
			if ps.own() {
				return ps.fetch
			}
			return tea.Batch(ps.fetch, ps.loadRelations(ps))
		case "f", "b":
			on := map[string]*bool{"f": ps.follows, "b": ps.blocks}[msg.String()]
			switch {
			case ps.cfg.Session == "":
				ps.err = "sign in first (s on the home screen): following and blocking are for accounts"
			case ps.own():
				ps.err = "this is your own profile"
			case on == nil || ps.busy:
				ps.err = "one moment"
			default:
				ps.busy = true
				return ps.relate(map[string]string{"f": "follow", "b": "block"}[msg.String()], ps.name, !*on, ps)
			}
		case "R":
			switch {
			case ps.cfg.Session == "":
				ps.err = "sign in first (s on the home screen): reports are for accounts"
			case ps.own():
				ps.err = "this is your own profile"
			default:
				ps.report.open(ps.name)
				ps.err, ps.note = "", ""
			}
		case "c":
			switch {
			case ps.cfg.Session == "":
				ps.err = "sign in first (s on the home screen): challenges are between accounts"
			case ps.p == nil:
				ps.err = "one moment: the profile is on its way"
			case strings.EqualFold(ps.p.Name, ps.cfg.Account):
				ps.err = "this is your own profile: challenge somebody else"
			case ps.p.Closed:
				ps.err = ps.p.Name + "'s account was closed by a moderator: they play no more games"
			default:
				openChallenge(ps.shared, ps.p.Name, ps)
			}
		case "d":
			return ps.saveGames()
		case "up", "k":
			ps.at = max(0, ps.at-1)
		case "down", "j":
			if ps.at >= len(ps.games)-1 {
				return ps.loadOlder() // down past the last game: the older ones
			}
			ps.at++
		case "enter", "space":
			if ps.at < len(ps.games) {
				// A finished game is public: watched, it shows its end,
				// every secret and its analysis. One's own opens at one's
				// seat, as the home screen's recent games do: the
				// session acts for the account's seats, and the end
				// offers the rematch.
				g := ps.games[ps.at]
				s := client.Seated{Table: g.Table, Seat: -1, Invite: ps.public() + "/t/" + g.Table}
				if ps.cfg.Session != "" && strings.EqualFold(ps.name, ps.cfg.Account) {
					s.Seat, s.Token = g.Seat, ps.cfg.Session
				}
				return ps.nav.sitFrom(s, g.Game, ps)
			}
		}
	}
	return nil
}

// saveGames saves the record of every finished game of the player, one a
// line, as the profile's download in the browser does.
func (ps *profileScreen) saveGames() tea.Cmd {
	switch {
	case ps.saving:
		return nil
	case ps.p == nil:
		ps.err = "one moment: the profile is on its way"
		return nil
	}
	name, who, c, tok := ps.p.Name, ps.name, ps.c, ps.cfg.Session
	cmd := ps.archive("/api/v1/players/"+url.PathEscape(name)+"/games/export", name+"-games.ndjson",
		func(ctx context.Context) (string, int, error) { return c.PlayerExport(ctx, tok, name) },
		func(path string, n int, err error) tea.Msg {
			return archivedMsg{to: ps, name: who, path: path, n: n, err: err}
		})
	ps.saving = cmd != nil
	return cmd
}

func (ps *profileScreen) view() string {
	var b strings.Builder
	keys := "↑↓ choose a game · enter open it · d save every game · r refresh · esc back"
	if !ps.own() {
		keys = "↑↓ choose a game · enter open it · c challenge · f follow · b block · R report · d save every game · r refresh · esc back"
		if ps.p != nil && ps.p.Closed {
			keys = strings.Replace(keys, " · c challenge", "", 1)
		}
	}
	if ps.missing {
		keys = "r refresh · esc back"
	}
	if ps.report.name != "" {
		keys = reportKeys
	}
	keys = faint(wrapKeys(keys, ps.w))
	if ps.p == nil {
		b.WriteString(title(ps.name) + "\n\n")
		if ps.fail != "" {
			b.WriteString(bad(wrap(ps.fail, ps.w)) + "\n")
		} else {
			b.WriteString(faint("asking the server…") + "\n")
		}
		b.WriteString("\n" + ps.message() + "\n" + keys)
		return b.String()
	}
	p := ps.p
	var marks string
	if ps.follows != nil && *ps.follows {
		marks += "  ·  " + faint("following")
	}
	if ps.blocks != nil && *ps.blocks {
		marks += "  ·  " + faint("blocked")
	}
	b.WriteString(fitLine(fmt.Sprintf("%s  ·  playing since %s  ·  %s%s", title(p.Name), p.Created.In(ps.zone()).Format("2 Jan 2006"), game.Count(p.Games, "finished game", "finished games"), marks), ps.w) + "\n\n")
	if p.Closed {
		b.WriteString(bad(wrap("This account was closed by a moderator. Its games stay on the record; it plays no more, and the leaderboards leave it out.", ps.w)) + "\n\n")
	}
	b.WriteString(title("Ratings") + "\n")
	if len(p.Ratings) == 0 {
		b.WriteString(faint("  no rated games yet") + "\n")
	}
	for _, pool := range slices.Sorted(maps.Keys(p.Ratings)) {
		r := p.Ratings[pool]
		note := game.Count(r.Games, "rated game", "rated games")
		if r.Provisional {
			note += " · provisional"
		}
		b.WriteString(fitLine(fmt.Sprintf("  %-24s %11s  %s", ps.poolTitle(pool), ratingText(r.Rating, r.RD), note), ps.w) + "\n")
		if t := trend(p.History[pool], r.Games, ps.w-4); t != "" {
			b.WriteString(faint(fitLine("    "+t, ps.w)) + "\n")
		}
	}
	// A rating is provisional for one of two reasons, and the note
	// gives the one that holds: too few games yet, or, for a rating its
	// last game had settled, the time away since (docs/ratings.md).
	var newcomer, away bool
	for pool, r := range p.Ratings {
		if r.Provisional {
			if awayProvisional(p.History[pool]) {
				away = true
			} else {
				newcomer = true
			}
		}
	}
	if newcomer {
		b.WriteString(faint("  provisional: too few rated games to be sure of the rating yet") + "\n")
	}
	if away {
		b.WriteString(faint(fitLine("  provisional: unsure again after time away; the next rated games settle it", ps.w)) + "\n")
	}
	var daily []string
	for _, g := range slices.Sorted(maps.Keys(ps.daily)) {
		if d := ps.daily[g]; d.Played > 0 {
			daily = append(daily, fmt.Sprintf("%s %d solved of %d, streak %d (best %d)", ps.gameTitle(g), d.Solved, d.Played, d.Streak, d.Best))
		}
	}
	if len(daily) > 0 {
		b.WriteString("\n" + wrap(title("Daily puzzles")+": "+strings.Join(daily, " · "), ps.w) + "\n")
	}
	if len(p.Podiums) > 0 {
		var ws []string
		for _, w := range p.Podiums {
			ws = append(ws, fmt.Sprintf("%s of %d in %s", ordinal(w.Place), w.Of, w.Name))
		}
		b.WriteString("\n" + wrap(title("Podiums")+": "+strings.Join(ws, " · "), ps.w) + "\n")
	}
	b.WriteString("\n" + title("Latest games") + ps.zoneNote() + "\n")
	if ps.fail != "" {
		b.WriteString(bad(wrap(ps.fail, ps.w)) + "\n")
	} else if len(ps.games) == 0 {
		b.WriteString(faint("  no finished games yet") + "\n")
	}
	room := max(1, ps.h-strings.Count(b.String(), "\n")-3-ps.msgExtra()-strings.Count(keys, "\n"))
	if ps.report.name != "" {
		room = max(1, room-1) // the report's line
	}
	if ps.next != "" {
		room = max(1, room-1) // the line that says there are older games
	}
	from := max(0, min(ps.at-room+1, len(ps.games)-room))
	for i := from; i < len(ps.games) && i < from+room; i++ {
		cur := "  "
		if i == ps.at {
			cur = hi("> ")
		}
		b.WriteString(fitLine(cur+ps.playedLine(ps.games[i]), ps.w) + "\n")
	}
	switch {
	case ps.older:
		b.WriteString(faint("  asking for older games…") + "\n")
	case ps.next != "":
		b.WriteString(faint(fitLine("  older games: ↓ past the last", ps.w)) + "\n")
	}
	b.WriteString("\n")
	if ps.report.name != "" {
		b.WriteString(ps.report.view(ps.w) + "\n")
	}
	b.WriteString(ps.message() + "\n" + keys)
	return b.String()
}

// playedLine is one finished game as a profile lists it: when, the
// result, the game, against whom, and a rated game's change.
func (ps *profileScreen) playedLine(g client.PlayedGame) string {
	result := map[string]string{"win": "won", "loss": "lost", "draw": "drew", "aborted": "aborted"}[g.Result]
	if result == "" {
		result = g.Result
	}
	var opp, forfeits []string
	if g.Forfeited != "" {
		forfeits = append(forfeits, forfeitWords(ps.name, g.Forfeited))
	}
	for _, o := range g.Opponents {
		name := opponentName(o.Name, o.Kind)
		if o.Kind == "guest" {
			opp = append(opp, name+" (guest)")
		} else {
			opp = append(opp, name)
		}
		if o.Forfeited != "" {
			forfeits = append(forfeits, forfeitWords(name, o.Forfeited))
		}
	}
	against := ", alone"
	if len(opp) > 0 {
		against = " against " + strings.Join(opp, ", ")
	}
	// A rated game of a mode rated apart names its pool: Nymphabet
	// (cyclic).
	what := ps.gameTitle(g.Game)
	if g.Rated && g.Pool != "" {
		what = ps.poolTitle(g.Pool)
	}
	what = dailyTitle(what, g.Daily != "")
	line := fmt.Sprintf("%s  %-7s %s%s", g.Ended.In(ps.zone()).Format("Jan 2 15:04"), result, what, against)
	if g.Rated {
		d := int(math.Round(g.RatingAfter - g.RatingBefore))
		line += fmt.Sprintf(" · rated %+d (%d)", d, int(math.Round(g.RatingAfter)))
	}
	if w := eventWords(g.Event); w != "" {
		line += " · " + w
	}
	for _, f := range forfeits {
		line += " · " + f
	}
	return line
}

// eventWords names the event a finished game was played in, "in Friday
// Swiss, round 2", for a line of a player's games; "" for any other game.
// An aborted game of an event counted there all the same.
func eventWords(e *client.GameEvent) string {
	switch {
	case e == nil:
		return ""
	case e.Round > 0:
		return fmt.Sprintf("in %s, round %d", e.Name, e.Round)
	}
	return "in " + e.Name
}

// opponentName is how a history line names an opponent of kind
// ("account", "guest" or "deleted").
func opponentName(name, kind string) string {
	if kind == "deleted" {
		return "a deleted player"
	}
	return name
}

// forfeitWords says why the server played for who at a finished game,
// as a history line has it: why is "timeout" or "claim".
func forfeitWords(who, why string) string {
	if why == "claim" {
		if who == "you" {
			return "you were away, and the game was claimed"
		}
		return who + " was away, and the game was claimed"
	}
	return who + " ran out of time"
}

// awayProvisional reports whether a provisional rating, whose chart is
// pts, was settled when its last game ended: it is provisional again
// because its player has been away since, not for want of games.
func awayProvisional(pts []client.RatingPoint) bool {
	return len(pts) > 0 && !glicko.Provisional(glicko.Rating{RD: pts[len(pts)-1].RD})
}

// ordinal is a place in words: "1st", "2nd", "3rd", "4th".
func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}
