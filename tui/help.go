package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// helpScreen is the list of keys (?), drawn over the screen on show.
// Over a table, r turns it to the game's rules (how to play): an overlay
// rather than a screen of its own, so that the table under it goes on
// taking its updates.
type helpScreen struct {
	*shared
	at   int  // the first line shown
	done bool // closed: the screen under it shows again
	// rules are the rules of the table it was opened over, in words
	// (tableScreen.rulesText); "" over another screen.
	rules string
	// game is the game of the table it was opened over, "" over another
	// screen; howTo says its rules show rather than the keys, and
	// howText holds them once read (howErr why not).
	game            string
	howTo           bool
	howText, howErr string
	// guides says g opens the table's first-game guide (a seat at a game
	// in play); guide says g was pressed.
	guides, guide bool
}

// helpRulesMsg is the rules of game, or why they could not be read, for
// the help over a table.
type helpRulesMsg struct {
	game string
	text string
	err  error
}

// update scrolls the list, turns to the game's rules and back, or
// closes the help.
func (hp *helpScreen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case helpRulesMsg:
		if msg.game != hp.game {
			return nil
		}
		if msg.err != nil {
			hp.howErr = "the rules of " + hp.gameTitle(hp.game) + ": " + msg.err.Error()
		} else {
			hp.howText, hp.howErr = msg.text, ""
		}
	case tea.KeyPressMsg:
		switch msg.String() {
		case "?", "esc", "q", "enter":
			hp.done = true
		case "g":
			if hp.guides && !hp.howTo {
				hp.done, hp.guide = true, true
			}
		case "r":
			if hp.game == "" {
				return nil
			}
			hp.howTo, hp.at = !hp.howTo, 0
			if hp.howTo && hp.howText == "" {
				hp.howErr = ""
				return hp.readRules
			}
		case "up", "k":
			hp.at--
		case "down", "j", "space":
			hp.at++
		case "pgup":
			hp.at -= hp.h / 2
		case "pgdown":
			hp.at += hp.h / 2
		}
	}
	return nil
}

// readRules asks the server for the rules of the help's game.
func (hp *helpScreen) readRules() tea.Msg {
	ctx, cancel := context.WithTimeout(hp.ctx, 15*time.Second)
	defer cancel()
	text, err := hp.c.Rules(ctx, hp.game)
	return helpRulesMsg{hp.game, text, err}
}

// keyHelp lists every key, by screen: the help overlay (?) shows it, and
// docs/terminal.md says the same.
func keyHelp() []struct{ screen, keys string } {
	return []struct{ screen, keys string }{
		{"Everywhere", "? help · ctrl+c quit · esc back home (or clear the line) · ctrl+u clear the line · a paste types into the line · r ask the server again (start)"},
		{"Home", "↑↓ or j/k choose · enter open · 1-4 new table · g quick game · d daily puzzles · i join (code, link or id) · l lobby · p players online and challenges · e events (arenas and Swiss) · t leaderboards · n name · r how to play the game chosen · s/u/o sign in/up/out (ctrl+f on sign in: forgot the password, a link by mail) · a your account · K your SSH keys · q quit"},
		{"Join a table", "type the invite code, link or id, enter · then enter takes the seat (at a table where you hold one, takes you back to it; with none open, watches the game) · esc back"},
		{"New table", "↑↓ field · ←→ or space change it · digits type a new number · on the clock, type your own: 45 (seconds a turn), 10+5 (minutes for the game, seconds a move), 3d (days a move) · a text (a board's shape) is typed, backspace erasing, ctrl+e draws it · enter open the table · esc back"},
		{"Quick game", "↑↓ field · ←→ or space change it · enter look for an opponent (offline: play the computer) · while looking: esc cancel, c play the computer (after 20 s)"},
		{"Daily puzzles", "↑↓ choose a game · enter play today's puzzle (or open your game) · s your result to share · c copy it · y yesterday's leaderboard (↑↓ a player, enter watch their game) · t today's · h your past days (↑↓ a day, enter its replay, tab next game, h back) · r refresh · esc back"},
		{"Leaderboards", "←→ pool · ↑↓ choose · enter the player's profile · / find a player by the start of their name (→ takes the first name offered, enter opens the profile) · m your profile · r refresh · esc back"},
		{"A profile", "ratings, podiums and latest games · ↑↓ choose a game · enter open it (its end, secrets and analysis) · c challenge the player · f follow or unfollow · b block or unblock · R report to the moderators · d save every game's record · r refresh · esc back"},
		{"Lobby", "↑↓ choose · enter join an open table, play a player looking for a game or watch a game · r refresh · esc back"},
		{"Events", "↑↓ choose · enter open an event · n make one (signed in) · r refresh · esc back"},
		{"New event", "↑↓ field · ←→ change (digits type a number or a clock: 10+5) · type the name, the words about it and the password · ctrl+e on a board's shape draws it · enter make the event · esc back"},
		{"Board shape", "arrows move · space mask or open the square · ctrl+u open every square · enter keep the drawing · esc back without it"},
		{"An event", "j join (asks its password when it has one) · x leave (a Swiss under way: withdraw) · ↑↓ choose a game · enter watch it (yours: play it; one played: see its end) · / one player's games (esc: every game again) · ctrl+t write in its chat (/report NAME REASON reports a writer; its maker: /mute NAME, /unmute NAME) · s start it now, c twice cancel it (its maker) · d save every game's record (once over) · r refresh · esc back (from its games, esc comes back to it)"},
		{"Your account", "↑↓ choose · enter open or change (the password, showing among the players online, e-mail, SSH keys, deleting the account, a moderator's Moderation) · esc back"},
		{"Moderation", "↑↓ choose a report (a chat line's shows the line) · w watch its table or event · c close it · m mute a player's chat (a reported line's writer, by the line) · n rename · x close an account (enter twice) · r read again · esc back"},
		{"SSH keys", "paste a public key, enter adds it · ↑↓ choose a key · ctrl+d twice removes it · esc back"},
		{"Watching", "ctrl+t chat with the spectators · ctrl+o mute · tab the next oceans (Salvo of three or more) · esc home (a spectator plays nothing)"},
		{"Players", "↑↓ choose · a or enter accept a challenge · d decline it · x withdraw one of yours · enter on a player or c challenge · v a player's profile · f follow or unfollow · b block or unblock · R report (←→ reason · enter send) · w watch the game of a player you follow · r refresh · esc back"},
		{"Challenge", "type the player's name · → on the name takes the first name offered · ↑↓ field · ←→ change the game, an option, the clock, the word list or rated · digits type a number, or a clock of your own (10+5) · a text (a board's shape) is typed, ctrl+e draws it · enter send · esc back"},
		{"Quizl grid", "letters type · arrows move · tab across/down · backspace erase · ctrl+p password here · ctrl+f fill at random · ctrl+d fill deceptively · ctrl+r random grid · enter hand in"},
		{"Salvo fleet", "tab/shift+tab choose a ship · arrows move it · space rotate (diagonals too where the table allows) · r random fleet · enter hand in"},
		{"Quizl", "arrows pick a square · enter/space call it · type 72 enter: call 72 · type a word enter: announce (more than a word: a move as written, say NAME WORD) · tab next grid"},
		{"Salvo", "arrows aim · space choose/unchoose · enter fire · m pencil mark · o outline (the fleet editor's keys; enter sends) · l every report (↑↓ pgup/pgdn scroll, esc back)"},
		{"Word Fight", "type a word, enter declares it (more than a word: a move as written) · arrows move · space/tab across/down · enter place · c twice cannot"},
		{"Nymphabet", "type a word · enter play it"},
		{"Waiting", "ctrl+x twice leaves the table (the last one out closes it)"},
		{"Any game", ":resign enter twice resigns (the first says what it does) · ctrl+a twice aborts · :MOVE enter sends a move in the game's notation · ctrl+t chat, enter sends (signed in, /report NAME REASON reports a player, a guest by their latest line) · ctrl+o mute · ctrl+g claim · ctrl+b bell on your turn while away, on or off · ctrl+s save the record so far · ? then r how to play the game, g its first-game guide"},
		{"Game over", "a the engines' analysis (esc or a back) · p replay move by move (←→ · tab another seat · esc back) · s save the record (SSH: its address) · r rematch (alone: a new game) · b next grid (↑↓ scroll a tall one) · l every report (Salvo)"},
	}
}

// view is the list of keys, or the game's rules, from line at when it
// is longer than the screen (↑↓ scroll it).
func (hp *helpScreen) view() string {
	var lines []string
	head := title("Keys") + " (? or esc closes this)"
	switch {
	case hp.howTo:
		head = title("How to play "+hp.gameTitle(hp.game)) + " (r the keys · esc closes this)"
		switch {
		case hp.howErr != "":
			lines = strings.Split(wrap(hp.howErr, hp.w), "\n")
		case hp.howText == "":
			lines = []string{faint("asking the server for the rules…")}
		default:
			lines = markdownLines(hp.howText, hp.w)
		}
	default:
		if hp.game != "" {
			lines = append(lines, "r: how to play "+hp.gameTitle(hp.game)+", as the server words its rules")
		}
		if hp.guides {
			lines = append(lines, "g: the first-game guide of "+hp.gameTitle(hp.game)+", a few steps about this screen")
		}
		if hp.rules != "" {
			// A player who joined by a code saw no lobby line: the
			// rules are said here too.
			w := wrap("This table's rules: "+hp.rules, hp.w)
			h, rest, _ := strings.Cut(w, ":")
			lines = append(lines, strings.Split(title(h)+":"+rest, "\n")...)
		}
		if z := hp.zoneWords(); z != "" {
			w := wrap(z, hp.w)
			h, rest, _ := strings.Cut(w, ":")
			lines = append(lines, strings.Split(title(h)+":"+rest, "\n")...)
		}
		for _, k := range keyHelp() {
			w := wrap(k.screen+": "+k.keys, hp.w)
			h, rest, _ := strings.Cut(w, ":")
			lines = append(lines, strings.Split(title(h)+":"+rest, "\n")...)
		}
	}
	if len(lines) > hp.h-1 {
		room := hp.h - 2
		hp.at = max(0, min(hp.at, len(lines)-room))
		end := hp.at + room
		head += fmt.Sprintf(" · ↑↓ scroll, lines %d-%d of %d", hp.at+1, end, len(lines))
		lines = lines[hp.at:end]
	}
	return fit(head, hp.w, 1) + "\n" + strings.Join(lines, "\n") + "\n"
}

// zoneWords says which zone the times of day are in, for a player who
// is not at this machine (over SSH), and how to have their own.
func (sh *shared) zoneWords() string {
	switch {
	case sh.cfg.Zone == nil:
		return "" // the machine's own, which is the player's
	case sh.cfg.ZoneNamed:
		return "Times of day: " + sh.zone().String() + ", named so; in your own zone with ssh -o SetEnv=TZ=Area/City (Europe/Paris, say)"
	}
	return "Times of day: " + sh.zone().String() + ", as your client's TZ says"
}
