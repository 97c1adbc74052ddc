package tui

import "strings"

// keyHelp lists every key, by screen: the help overlay (?) shows it, and
// docs/terminal.md says the same.
var keyHelp = []struct{ screen, keys string }{
	{"Everywhere", "? help (any key closes it) · ctrl+c quit · esc back to the home screen (or clear a line being typed)"},
	{"Home", "↑↓ or j/k choose · enter open · 1-4 new table of that game · i join by link or id · l lobby · n your name · q quit"},
	{"New table", "↑↓ field · ←→ or space change it · digits type a number · enter open the table · esc back"},
	{"Lobby", "↑↓ choose · enter join · r refresh · esc back"},
	{"Quizl grid", "letters type and move on · arrows move · tab across/down · backspace erase · ctrl+p the cursor's line holds the password · ctrl+f fill the rest at random · ctrl+d fill deceptively · ctrl+r a random grid · enter hand it in"},
	{"Salvo fleet", "tab/shift+tab choose a ship · arrows move it · space rotate · r a random fleet · enter hand it in"},
	{"Quizl", "arrows pick a square · enter or space call it · type 72 then enter to call by name · type a word then enter to announce · tab next grid (three or more players)"},
	{"Salvo", "arrows aim · space choose or unchoose a square · enter fire the salvo · m pencil mark · o outline (type the five ships) · : type any move"},
	{"Word Fight", "declarer: type a word, enter declares it · placing: arrows move · space/tab across or down · enter place · c cannot place it · : type any move"},
	{"Nymphabet", "type a word · enter play it · backspace erase"},
	{"Any game", ":resign then enter resigns · :MOVE sends a move in the game's notation"},
	{"Game over", "s save the record · r rematch · b next Word Fight grid · esc home"},
}

func (m *Model) helpView() string {
	var b strings.Builder
	b.WriteString(title.Render("Keys") + "\n\n")
	for _, k := range keyHelp {
		w := wrap(k.screen+": "+k.keys, m.w-2)
		head, rest, _ := strings.Cut(w, ":")
		b.WriteString(title.Render(head) + ":" + rest + "\n")
	}
	return b.String()
}
