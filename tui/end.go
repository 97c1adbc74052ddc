package tui

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"parlour/game"
	"parlour/tui/client"
)

// endScreen is the table once the game is over: why it ended, who won,
// every secret against its commitment, and the record to keep.
type endScreen struct {
	t         *tableScreen
	board     int  // the Word Fight grid, or the page of Quizl grids, shown (b: the next)
	top       int  // the first row of the Word Fight grid on show, on a screen too short for all
	asking    bool // the analysis is on its way
	replaying bool // the replay is on its way
	// rating says the player's rating change in a rated game, once the
	// server has settled it.
	rating                string
	saved                 string // where the record was saved
	recordURL, recordFile string // where a NoDisk client's player fetches the record, and a file name for it
	polling               bool   // a read of the finished table is on its way
}

// endPollEvery is how often the end screen reads its table again. The
// table's event stream ends with the game, so what comes after it (the
// others' last words in the chat, a rematch one of them opened, which
// the browser offers as "Go to the rematch") reaches the screen only so.
const endPollEvery = 5 * time.Second

// endPollMsg is the finished table read again while its end is on show.
type endPollMsg struct {
	gen int
	u   client.Update
	err error
}

// poll reads the finished table again after endPollEvery, while its
// screen is on show and somebody else there may still write or ask for
// a rematch; a table left (its stream cancelled) is read no more.
func (e *endScreen) poll() tea.Cmd {
	t := e.t
	if e.polling || t.upd == nil || !t.othersSeated() {
		return nil
	}
	e.polling = true
	ctx, c, token, id, gen := t.stream, t.c, t.token, t.id, t.gen
	return func() tea.Msg {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(endPollEvery):
		}
		rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		u, err := c.Get(rctx, token, id)
		return endPollMsg{gen, u, err}
	}
}

// othersSeated says whether a person other than this player sits at the
// table: a spectator's players, or a seated player's opponents who are
// not the computer.
func (t *tableScreen) othersSeated() bool {
	for i, s := range t.upd.Table.Seats {
		if i != t.seat && s.Kind == "person" {
			return true
		}
	}
	return false
}

// rematchOpen says what r does at a finished table where another player
// has already opened the next game: the browser's "Go to the rematch".
func (e *endScreen) rematchOpen() string {
	u := e.t.upd
	if u == nil || u.Table.Rematch == "" || e.t.watching() || e.t.event != nil {
		return ""
	}
	what := "rematch"
	var set struct {
		Over bool `json:"over"`
	}
	if len(u.Table.Set) > 0 && u.Table.Daily == "" && json.Unmarshal(u.Table.Set, &set) == nil {
		what = "next game of the set"
		if set.Over {
			what = "new set"
		}
	}
	return "The " + what + " is open: r takes your seat at it"
}

// savedMsg says where a table's record was saved, or why it was not;
// soFar marks the record of a game still under way.
type savedMsg struct {
	path  string
	soFar bool
	err   error
}

// analysisMsg is the engines' analysis of the game at table id, in words,
// or why there is none.
type analysisMsg struct {
	id   string
	text string
	err  error
}

// ratingMsg is the player's rating change in the game at table id, in
// words ("" while not settled), after tries reads.
type ratingMsg struct {
	id    string
	line  string
	tries int
}

// ratingTries is how many times the end screen reads the player's games
// for a rated game's rating change, a second more apart each time.
const ratingTries = 5

// askRating reads the signed-in player's latest games for this rated
// game's rating change, after tries earlier reads: the game's end settles
// both ratings, and the player's games then carry the change.
func (e *endScreen) askRating(tries int) tea.Cmd {
	t := e.t
	if t.upd == nil || !t.upd.Table.Rated || t.cfg.Session == "" || t.seat < 0 || tries >= ratingTries || e.rating != "" {
		return nil
	}
	id, tok, name, c := t.id, t.cfg.Session, t.cfg.Account, *t.c
	wait := time.Duration(tries) * time.Second
	return func() tea.Msg {
		select {
		case <-time.After(wait):
		case <-t.ctx.Done():
			return nil
		}
		ctx, cancel := context.WithTimeout(t.ctx, 10*time.Second)
		defer cancel()
		gs, err := c.PlayedGames(ctx, tok, name, 10)
		if err != nil {
			return ratingMsg{id: id, tries: tries + 1} // asked again, as when not settled
		}
		for _, g := range gs {
			if g.Table == id && g.Rated && g.RatingAfter > 0 {
				d := int(math.Round(g.RatingAfter - g.RatingBefore))
				return ratingMsg{id: id, tries: tries + 1, line: fmt.Sprintf("your rating in %s: %d → %d (%+d)",
					t.poolTitle(g.Pool), int(math.Round(g.RatingBefore)), int(math.Round(g.RatingAfter)), d)}
			}
		}
		return ratingMsg{id: id, tries: tries + 1}
	}
}

func (e *endScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ratingMsg:
		if msg.id != e.t.id {
			return nil
		}
		if msg.line == "" {
			return e.askRating(msg.tries)
		}
		e.rating = msg.line
	case savedMsg:
		switch {
		case msg.err != nil:
			e.t.err = msg.err.Error()
		case msg.soFar:
			e.t.err, e.t.note = "", "the record so far saved to "+msg.path
		default:
			e.saved = msg.path
			e.t.note = "record saved to " + msg.path
		}
	case analysisMsg:
		if msg.id != e.t.id {
			return nil // asked at a table left since
		}
		e.asking = false
		if msg.err != nil {
			e.t.err = "the analysis: " + msg.err.Error()
			return nil
		}
		e.t.err, e.t.note = "", ""
		e.t.openAnalysis(msg.text)
	case replayMsg:
		if msg.id != e.t.id {
			return nil
		}
		e.replaying = false
		if msg.err != nil {
			e.t.err = "the replay: " + msg.err.Error()
			return nil
		}
		e.t.openReplay(msg.ans)
	case endPollMsg:
		e.polling = false
		if msg.gen != e.t.gen || e.t.upd == nil {
			return nil
		}
		if msg.err == nil && msg.u.Table.Status == "finished" {
			e.t.upd.Table.Rematch = msg.u.Table.Rematch
			e.t.chat.take(msg.u.Chat, msg.u.Muted)
		}
		return e.poll()
	case tea.KeyPressMsg:
		return e.key(msg.String())
	}
	return nil
}

// analyse asks the server for the engines' analysis of the game, in
// words; it opens over the end screen when it comes.
func (e *endScreen) analyse() tea.Cmd {
	t := e.t
	if e.asking {
		return nil
	}
	if u := t.upd; u != nil && u.Table.Result != nil && u.Table.Result.Status == "aborted" {
		t.err = "an aborted game has no analysis"
		return nil
	}
	e.asking = true
	t.err, t.note = "", "the engines are going through the game…"
	id := t.id
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(t.ctx, 60*time.Second)
		defer cancel()
		text, err := t.c.AnalysisText(ctx, t.token, id)
		return analysisMsg{id: id, text: text, err: err}
	}
}

func (e *endScreen) key(s string) tea.Cmd {
	t := e.t
	switch s {
	case "b":
		e.board++
		return nil
	case "up", "down", "pgup", "pgdown":
		// The rows of a Word Fight grid taller than the room; view keeps
		// the first row within the grid.
		step := map[string]int{"up": -1, "down": 1, "pgup": -10, "pgdown": 10}[s]
		e.top = max(0, e.top+step)
		return nil
	case "l":
		if t.game == "salvo" {
			t.openReports()
		}
		return nil
	case "a", "p", "s":
		if t.concealed() {
			// The server refuses them until the day ends: say so here.
			t.err, t.note = "", shutUntil
			return nil
		}
	}
	switch s {
	case "a":
		return e.analyse()
	case "p":
		return e.replay()
	case "s":
		if t.cfg.NoDisk {
			// The player is elsewhere: a file written here would land on
			// the server. The record of a finished table is public: show
			// where to fetch it.
			e.recordURL = e.recordAt(t.id)
			e.recordFile = fmt.Sprintf("parlour-%s-%s.json", t.upd.Table.Game, t.id)
			t.err, t.note = "", "the record stays on the server: fetch it from your own computer"
			return nil
		}
		return t.saveRecord(false)
	case "r":
		if ev := t.upd.Table.Event; ev != nil {
			t.err, t.note = "", ev.Name+" pairs its own games: they have no rematch"
			return nil
		}
		game := t.upd.Table.Game
		return func() tea.Msg {
			// A new game alone waits for the computer to hide its setup.
			ctx, cancel := context.WithTimeout(t.ctx, computerWait)
			defer cancel()
			s, err := t.c.Rematch(ctx, t.token, t.id)
			if err != nil {
				return errMsg{fmt.Errorf("rematch: %w", err)}
			}
			if s.Invite == "" {
				s.Invite = t.public() + "/t/" + s.Table
			}
			return seatedMsg{s: s, game: game}
		}
	}
	return nil
}

// saveRecord saves the table's record, as the player's seat reads it, to
// DIR/records/GAME-ID.json (the working folder when the client has no
// DIR), indented; soFar says the game is still under way, and its
// record is saved again at the end.
func (t *tableScreen) saveRecord(soFar bool) tea.Cmd {
	dir := t.cfg.DataDir
	if dir == "" {
		dir = "."
	} else {
		dir = filepath.Join(dir, "records")
	}
	name := fmt.Sprintf("%s-%s.json", t.upd.Table.Game, t.id)
	c, token, id := t.c, t.token, t.id
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(t.ctx, 15*time.Second)
		defer cancel()
		raw, err := c.Record(ctx, token, id)
		if err != nil {
			return savedMsg{err: fmt.Errorf("fetching the record: %w", err)}
		}
		var pretty bytes.Buffer
		if json.Indent(&pretty, raw, "", "  ") != nil {
			pretty.Reset()
			pretty.Write(raw)
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return savedMsg{err: fmt.Errorf("saving the record: %w", err)}
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, pretty.Bytes(), 0o600); err != nil {
			return savedMsg{err: fmt.Errorf("saving the record: %w", err)}
		}
		return savedMsg{path: path, soFar: soFar}
	}
}

// recordAt is the address of a table's record as players reach the
// server (Config.PublicURL, else the API's base).
func (e *endScreen) recordAt(id string) string {
	return e.t.public() + "/api/v1/tables/" + url.PathEscape(id) + "/record"
}

// verify checks a revealed setup against its commitment: the SHA-256 of
// the salt's bytes followed by the setup's compact JSON.
func verify(r client.Reveal) bool {
	salt, err := hex.DecodeString(r.Salt)
	if err != nil {
		return false
	}
	var compact bytes.Buffer
	if json.Compact(&compact, r.Setup) != nil {
		return false
	}
	sum := sha256.Sum256(append(salt, compact.Bytes()...))
	return hex.EncodeToString(sum[:]) == strings.ToLower(r.Commitment)
}

// reasonText says why the game ended, from the end event's data.
func (t *tableScreen) reasonText() string {
	d := t.ends
	if d == nil {
		return ""
	}
	who, on := t.name(d.Seat), t.name(d.Against)
	grid, password := on+"'s grid", on+"'s password"
	if t.game == "quizl" && t.upd != nil {
		// Solitaire's grid is the computer's, not a seat's: the one seat
		// is the player attacking it.
		var v quizlView
		if json.Unmarshal(t.upd.View, &v) == nil && v.Solitaire {
			grid, password = "the grid", "the grid's password"
		}
	}
	switch d.Reason {
	case "announced":
		return fmt.Sprintf("%s announced %s, %s", who, d.Word, password)
	case "tripped":
		return fmt.Sprintf("%s tripped over the password of %s", who, grid)
	case "resign":
		// The server resigns for a player whose time ran out, or who
		// walked away: the move says which, not the referee.
		if f, ok := t.forcedAt[d.move]; ok && f.seat == d.Seat {
			if f.why == "claim" {
				return fmt.Sprintf("%s walked away, and %s claimed the game", who, t.name(f.data.By))
			}
			return who + " ran out of time"
		}
		return who + " resigned"
	case "outlined":
		return fmt.Sprintf("%s outlined %s's fleet", who, on)
	case "wrong_outline":
		return fmt.Sprintf("%s outlined %s's fleet wrongly", who, on)
	case "strikes":
		s := fmt.Sprintf("the strikes reached the limit with %s, declared by %s", d.Word, who)
		// The players whose strike it was, as the browser says them:
		// the list that named them is gone from the end screen.
		if t.upd == nil {
			return s
		}
		v := t.wfView()
		for i := len(v.List) - 1; i >= 0; i-- {
			if e := v.List[i]; strings.EqualFold(e.Word, d.Word) && len(e.Cannot) > 0 {
				var ns []string
				for _, c := range e.Cannot {
					ns = append(ns, t.name(c))
				}
				return s + ": " + strings.Join(ns, " and ") + " could not place it"
			}
		}
		return s
	// Nymphabet's ends say the rule that decides them: in standard mode
	// the last word loses, which a player who wrote it may not expect.
	case "deleted_z":
		return fmt.Sprintf("%s's %s deleted Z, and whoever deletes Z loses", who, d.Word)
	case "deleted_last":
		return fmt.Sprintf("%s's %s deleted the last letter, and whoever deletes it wins", who, d.Word)
	case "all_deleted":
		return fmt.Sprintf("%s's %s deleted the last letters, and the higher product wins", who, d.Word)
	}
	return d.Reason
}

// endNews says in a few words how the game on show ended, for the news
// of a screen that takes its place: "Ben won (Ann ran out of time…)", or
// "" while it is under way.
func (t *tableScreen) endNews() string {
	if t.upd == nil || t.upd.Table.Result == nil || t.upd.Table.Status != "finished" {
		return ""
	}
	res := t.upd.Table.Result
	s := "a draw"
	switch {
	case res.Status == "aborted":
		s = "aborted"
		if a := t.upd.Table.Aborted; a != nil {
			return s + ": " + t.abortNews(a.Seat, a.Name, a.Why)
		}
	case slices.Contains(res.Winners, t.seat):
		s = "you won"
	case len(res.Winners) > 0:
		var ws []string
		for _, w := range res.Winners {
			ws = append(ws, t.name(w))
		}
		s = strings.Join(ws, " and ") + " won"
	}
	// The end's own reason, as the headline says it (a timeout or a
	// claim among them); the server's last forced move only where the
	// end gives none, since another seat's timeout may have come before
	// the move that ended the game.
	why := t.reasonText()
	if n := len(t.forced); why == "" && n > 0 {
		why = t.forced[n-1]
	}
	if why != "" {
		s += " (" + why + ")"
	}
	return s
}

// scoresLabel names what a game's result counts for each player
// (docs/records.md): points in Quizl and Word Fight, ships sunk in Salvo,
// letters deleted in Nymphabet, whose scoring mode multiplies them. A
// bare "scores" would read, in Nymphabet's standard mode, as if the
// player who deleted more letters had won.
func scoresLabel(game string, rules json.RawMessage) string {
	switch game {
	case "salvo":
		return "ships sunk"
	case "nymphabet":
		var r struct {
			Mode string `json:"mode"`
		}
		if json.Unmarshal(rules, &r) == nil && r.Mode == "scoring" {
			return "scores (the letters each turn deleted, multiplied)"
		}
		return "letters deleted"
	}
	return "scores"
}

// eventAbortText says how event name scores a game of its that seat
// aborted before every player had moved (why: abort, resign, timeout or
// claim): the table has no result, but the event counts it as that
// player's loss, and a game they did not show up for when their clock ran
// out or they walked away, and as a win for the others.
func (t *tableScreen) eventAbortText(name string, seat int, why string) string {
	var others []string
	for i := range t.upd.Table.Seats {
		if i != seat {
			others = append(others, t.name(i))
		}
	}
	loss := "a loss for " + t.name(seat)
	if why == "timeout" || why == "claim" {
		loss = "a game " + t.name(seat) + " did not show up for"
	}
	s := "no result at the table, and no rating changes; " + name + " counts it as " + loss
	if len(others) > 0 {
		s += " and a win for " + strings.Join(others, " and ")
	}
	return s
}

// abortNews says who aborted the game on show and how, and, when an
// event's, how the event counts it for the player: the next game of an
// arena takes the end screen's place within a second, and "aborted"
// alone would say there was no result where the event scored one.
func (t *tableScreen) abortNews(seat int, name, why string) string {
	if seat == t.seat {
		name = "you"
	}
	s := abortText(name, why)
	ev := t.upd.Table.Event
	switch {
	case ev == nil || t.seat < 0:
	case seat == t.seat:
		s += ", which " + ev.Name + " counts as your loss"
	default:
		s += ", which " + ev.Name + " counts as your win"
	}
	return s
}

// abortText says why a game was aborted, for the end screen.
func abortText(who, why string) string {
	switch why {
	case "resign":
		return who + " resigned before every player had moved"
	case "timeout":
		return who + " ran out of time before every player had moved"
	case "claim":
		return who + " walked away before every player had moved"
	}
	return who + " aborted it before every player had moved"
}

func (e *endScreen) view() string {
	t := e.t
	u := t.upd
	var b strings.Builder
	res := u.Table.Result
	// The reason may run past the screen's width (names, a word, who
	// could not place it): it wraps rather than losing its end.
	line := ""
	if r := t.reasonText(); r != "" {
		line = ": " + r
	}
	if a := u.Table.Aborted; a != nil {
		line = ": aborted, " + abortText(a.Name, a.Why)
	}
	line = strings.TrimPrefix(wrap("Game over"+line, t.w), "Game over")
	b.WriteString(title("Game over") + line + "\n")
	for _, f := range t.forced {
		b.WriteString(bad(wrap("⏱ "+f, t.w)) + "\n")
	}
	if res != nil && res.Status == "aborted" {
		if ev, a := u.Table.Event, u.Table.Aborted; ev != nil && a != nil {
			b.WriteString(wrap(t.eventAbortText(ev.Name, a.Seat, a.Why), t.w) + "\n")
		} else {
			b.WriteString("no result: nobody wins or loses, and no rating changes\n")
		}
	} else if res != nil {
		var ws []string
		for _, w := range res.Winners {
			ws = append(ws, t.name(w))
		}
		won := "a draw"
		if len(u.Table.Seats) == 1 {
			won = "no win this time" // alone at the table, there is nobody to draw with
		}
		if len(ws) > 0 {
			won = strings.Join(ws, " and ") + " won"
			for _, w := range res.Winners {
				if w == t.seat {
					won = warm("★ you won") + " (" + strings.Join(ws, " and ") + ")"
				}
			}
		}
		var sc []string
		for i, s := range res.Scores {
			sc = append(sc, fmt.Sprintf("%s %d", t.name(i), s))
		}
		line := won + " · " + scoresLabel(u.Table.Game, u.Table.Rules) + ": " + strings.Join(sc, " · ")
		if u.Table.Rated {
			line += " · " + warm("rated") + ": both ratings change"
			if e.rating != "" {
				line += " · " + e.rating
			}
		}
		b.WriteString(wrapKeys(line, t.w) + "\n")
	}
	var set struct {
		Target  int   `json:"target"`
		Games   int   `json:"games"`
		Totals  []int `json:"totals"`
		Over    bool  `json:"over"`
		Winners []int `json:"winners"`
	}
	if len(u.Table.Set) > 0 && u.Table.Daily == "" && json.Unmarshal(u.Table.Set, &set) == nil && set.Target > 0 {
		var tot []string
		for i, n := range set.Totals {
			tot = append(tot, fmt.Sprintf("%s %d", t.name(i), n))
		}
		games := fmt.Sprintf("%d games", set.Games)
		if set.Games == 1 {
			games = "1 game"
		}
		line := fmt.Sprintf("Set to %d, %s: %s · r plays the next game of the set", set.Target, games, strings.Join(tot, " · "))
		if set.Over && len(set.Winners) > 0 {
			// Who won the set and by how much, the totals from the
			// highest down.
			desc := slices.Clone(set.Totals)
			slices.Sort(desc)
			slices.Reverse(desc)
			score := make([]string, len(desc))
			for i, n := range desc {
				score[i] = strconv.Itoa(n)
			}
			line = fmt.Sprintf("%s wins the set %s · r starts a new set", t.name(set.Winners[0]), strings.Join(score, "-"))
			if set.Winners[0] == t.seat {
				line = fmt.Sprintf("You win the set %s · r starts a new set", strings.Join(score, "-"))
			}
		}
		b.WriteString(wrap(line, t.w) + "\n")
	}
	b.WriteString("\n")
	if len(u.Table.Reveal) > 0 {
		var blocks []string
		for i, r := range u.Table.Reveal {
			ok := bad("✗ commitment does NOT match")
			if verify(r) {
				ok = good("✓ commitment matches")
			}
			whose := t.name(i)
			if t.practice() {
				whose = t.name(1) + "'s hidden fleet" // the one setup is the fleet fired at
			}
			blocks = append(blocks, whose+": "+ok+"\n"+revealText(t.game, r.Setup))
		}
		head := title("Every secret, and its commitment")
		if t.game == "quizl" {
			shown, which := e.page(blocks)
			if which != "" {
				head += " · " + which
			}
			b.WriteString(head + "\n" + lipgloss.JoinHorizontal(lipgloss.Top, shown...) + "\n")
		} else {
			b.WriteString(head + "\n" + strings.Join(blocks, ""))
		}
	} else if t.concealed() {
		// The day's answer is everyone's puzzle until the day ends.
		hidden := map[string]string{"quizl": "The hidden grid", "salvo": "The hidden fleet"}[t.game]
		if hidden == "" {
			hidden = "The answer"
		}
		b.WriteString(faint(wrap(hidden+", the analysis (a), the replay (p) and the record (s) open to you and everyone when the day ends, at midnight UTC.", t.w)) + "\n")
	}
	// The lines under the log (the record, the message, the keys) are
	// drawn first, so that the log leaves them room.
	var tail strings.Builder
	if e.saved != "" {
		tail.WriteString("record: " + e.saved + "\n")
	}
	if e.recordURL != "" {
		// The command on lines of its own, whole: a line cut at the
		// screen's edge could not be copied.
		tail.WriteString("Fetch the record on your own computer with:\n")
		tail.WriteString("  curl -o " + e.recordFile + " \\\n")
		tail.WriteString("    " + e.recordURL + "\n")
	}
	if r := e.rematchOpen(); r != "" {
		tail.WriteString(warm(wrap(r, t.w)) + "\n")
	}
	tail.WriteString(t.message() + "\n")
	tail.WriteString(faint(wrapKeys(e.keys(), t.w)))
	reserve := max(6, strings.Count(tail.String(), "\n")+4)
	if t.game == "wordfight" {
		v := t.wfView()
		b.WriteString(title("The audit: every answer replayed against the list") + "\n")
		for _, a := range v.Audit {
			ok := good("✓ confirmed")
			if !a.Confirmed {
				ok = bad("✗ not confirmed")
			}
			fmt.Fprintf(&b, "  %-20s %s: %s (recorded %d), %s missed\n", t.name(a.Seat), ok, game.Count(a.Points, "point", "points"), a.Recorded, game.Count(a.Missed, "placement", "placements"))
		}
		if len(v.Grids) > 0 {
			i := e.board % len(v.Grids)
			rows := v.Grids[i]
			// A board taller than the room left scrolls, and says which
			// rows are on show: a grid cut without a word would hide
			// the words that run past its last row.
			room := max(3, t.h-strings.Count(b.String(), "\n")-reserve)
			e.top = max(0, min(e.top, len(rows)-room))
			head := t.name(i) + "'s grid (b: next)"
			if len(rows) > room {
				head = fmt.Sprintf("%s's grid, rows %d-%d of %d (b: next · ↑↓ scroll)", t.name(i), e.top+1, e.top+room, len(rows))
				rows = rows[e.top : e.top+room]
			}
			b.WriteString("\n" + wrap(head, t.w) + ":\n" + fit(wfGrid(rows, e.top), t.w, room) + "\n")
		}
	}
	if t.game == "nymphabet" || t.game == "quizl" {
		b.WriteString(t.logBlock(max(1, t.h-strings.Count(b.String(), "\n")-reserve), t.w) + "\n")
	}
	b.WriteString(tail.String())
	return b.String()
}

// gridWidth is the columns a revealed Quizl grid takes beside the next.
const gridWidth = 39

// page returns the revealed Quizl grids on show, as many side by side as
// the screen's width holds (b turns to the next ones), and, when they are
// not all of them, which they are: "grids 1-2 of 3 · b next".
func (e *endScreen) page(blocks []string) (shown []string, which string) {
	per := max(1, e.t.w/gridWidth)
	pages := (len(blocks) + per - 1) / per
	from := e.board % max(1, pages) * per
	to := min(from+per, len(blocks))
	for _, bl := range blocks[from:to] {
		shown = append(shown, lipgloss.NewStyle().Width(min(gridWidth, e.t.w)).Render(bl))
	}
	if pages < 2 {
		return shown, ""
	}
	if to-from == 1 {
		return shown, fmt.Sprintf("grid %d of %d · b next", to, len(blocks))
	}
	return shown, fmt.Sprintf("grids %d-%d of %d · b next", from+1, to, len(blocks))
}

// shutUntil is the answer to the keys of what a daily attempt keeps shut
// while its day lasts.
const shutUntil = "the analysis, the replay and the record open when the day ends, at midnight UTC"

// concealed says the table is an attempt at a daily puzzle whose day
// lasts: the server keeps its answer, record and analysis from everyone,
// its player included, and its table reveals no setup until midnight UTC.
func (t *tableScreen) concealed() bool {
	return t.upd != nil && t.upd.Table.Daily != "" && len(t.upd.Table.Reveal) == 0
}

// keys is the end screen's line of keys.
func (e *endScreen) keys() string {
	keys := "a analysis · p replay · s save the record · r rematch · esc home · ? help"
	if e.t.cfg.NoDisk {
		keys = "a analysis · p replay · s the record's address · r rematch · esc home · ? help"
	}
	if e.t != nil && e.t.concealed() {
		// Refused until the day ends, which the screen says above.
		keys = "r rematch · esc home · ? help"
	}
	if e.t != nil && e.t.upd != nil && e.t.upd.Table.Result != nil && e.t.upd.Table.Result.Status == "aborted" {
		// A game ended before every player moved has no analysis, as
		// the browser's end leaves its link out: a would only say so.
		keys = strings.Replace(keys, "a analysis · ", "", 1)
	}
	if e.t != nil && e.t.game == "salvo" {
		keys = "l every report · " + keys
	}
	if e.t != nil && e.t.upd != nil && len(e.t.upd.Table.Seats) == 1 {
		// Alone against the computer there is nobody to ask for a
		// rematch: r deals a new game (never another daily puzzle).
		keys = strings.Replace(keys, "r rematch", "r new game", 1)
	}
	if e.t != nil && e.t.daily() {
		keys = strings.Replace(keys, "esc home", "esc your daily result", 1)
	}
	if e.t != nil && (e.t.watching() || e.t.upd != nil && e.t.upd.Table.Event != nil) {
		// A spectator has no seat to play again, and an event pairs its
		// players itself.
		keys = strings.Replace(keys, " · r rematch", "", 1)
	}
	return keys
}

// revealText draws a revealed setup: a Quizl grid and password, a Salvo
// fleet.
func revealText(game string, raw json.RawMessage) string {
	var s struct {
		Grid     []string `json:"grid"`
		Password string   `json:"password"`
		Fleet    []string `json:"fleet"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return string(raw) + "\n"
	}
	if len(s.Grid) > 0 {
		return strings.Join(letterGrid(s.Grid, nil, -1, -1, strings.ToUpper(s.Password)), "\n") + "\n  password " + s.Password + "\n"
	}
	if len(s.Fleet) > 0 {
		return "  fleet " + strings.Join(s.Fleet, " ") + "\n"
	}
	return string(raw) + "\n"
}
