package tui

import "strings"

// keyHelp lists every key, by screen: the help overlay (?) shows it, and
// docs/terminal.md says the same.
func keyHelp() []struct{ screen, keys string } {
	return []struct{ screen, keys string }{
		{"Everywhere", "? help · ctrl+c quit · esc back home (or clear the line) · ctrl+u clear the line · a paste types into the line · r ask the server again (start)"},
		{"Home", "↑↓ or j/k choose · enter open · 1-4 new table · i join (code, link or id) · l lobby · n name · s/u/o sign in/up/out · K add your SSH key · q quit"},
		{"New table", "↑↓ field · ←→ or space change it · digits type a number · enter open the table · esc back"},
		{"Lobby", "↑↓ choose · enter join · r refresh · esc back"},
		{"Quizl grid", "letters type · arrows move · tab across/down · backspace erase · ctrl+p password here · ctrl+f fill at random · ctrl+d fill deceptively · ctrl+r random grid · enter hand in"},
		{"Salvo fleet", "tab/shift+tab choose a ship · arrows move it · space rotate · r random fleet · enter hand in"},
		{"Quizl", "arrows pick a square · enter/space call it · type 72 enter: call 72 · type a word enter: announce · tab next grid"},
		{"Salvo", "arrows aim · space choose/unchoose · enter fire · m pencil mark · o outline (the fleet editor's keys; enter sends)"},
		{"Word Fight", "type a word, enter declares it · arrows move · space/tab across/down · enter place · c cannot"},
		{"Nymphabet", "type a word · enter play it"},
		{"Waiting", "ctrl+x twice leaves the table (the last one out closes it)"},
		{"Any game", ":resign enter resigns · ctrl+a twice aborts · :MOVE enter sends a move in the game's notation · ctrl+t chat, enter sends · ctrl+o mute · ctrl+g claim"},
		{"Game over", "s save the record (SSH: its address) · r rematch · b next grid"},
	}
}

func (m *Model) helpView() string {
	var b strings.Builder
	b.WriteString(title("Keys") + " (? or esc closes this)\n")
	for _, k := range keyHelp() {
		w := wrap(k.screen+": "+k.keys, m.w)
		head, rest, _ := strings.Cut(w, ":")
		b.WriteString(title(head) + ":" + rest + "\n")
	}
	return b.String()
}
