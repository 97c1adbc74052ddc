package tui

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"parlour/tui/client"
)

// TestRatedTable: signed in, the new-table form has a rated field, and a
// table opened with it on is rated; a guest's form has none.
func TestRatedTable(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.key("1")
	if s := tm.screen(); strings.Contains(s, "Rated") {
		t.Fatalf("a guest's form offers rated:\n%s", s)
	}
	tm.key("esc")
	tm.key("u")
	tm.typeText("Ann")
	tm.key("tab")
	tm.typeText("correct horse battery")
	tm.key("enter")
	tm.waitFor("signed up", has("signed in as Ann"))
	tm.key("1")
	tm.key("right")
	tm.key("right")
	tm.key("right") // a friend
	tm.key("up")    // the last field: rated
	tm.key("space")
	tm.waitFor("rated on", has("a friend", "Rated", "‹ yes ›"))
	checkFits(t, tm)
	tm.key("enter")
	tm.waitFor("the table", has("you: Ann"))
	var up struct {
		Table struct {
			Rated bool   `json:"rated"`
			Pool  string `json:"pool"`
		} `json:"table"`
	}
	err := getJSON(ts.URL+"/api/v1/tables/"+tm.table().id, tm.m.cfg.Session, &up)
	if info := up.Table; err != nil || !info.Rated || info.Pool == "" {
		t.Fatalf("the table: %+v, %v", info, err)
	}
}

// TestRatedFormKeepsDefaults: with Rated chosen, the forms hold the
// options a rated game may not change (the server's rated_options say
// which) at their defaults, and say so, rather than send a table the
// server refuses; what was chosen before comes back with Rated no. A
// table against the computer cannot be rated: the form says why.
func TestRatedFormKeepsDefaults(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	_, annS := signedUp(t, ts, "Ann")
	tm := newTermWith(t, ts.URL, "Ann", 80, 24, Config{DataDir: t.TempDir(), Session: annS.Token, Account: "Ann"})
	tm.waitFor("home", has("signed in as Ann"))
	tm.open("salvo", 0) // the computer
	tm.key("up")        // the last field: rated
	s := tm.waitFor("rated, against the computer", has("Rated", "‹ no ›  for two people: play against a friend"))
	tm.key("space")
	s = tm.waitFor("the refusal", has("! a rated game is between two people"))
	if !strings.Contains(lineWith(s, "Rated"), "‹ no ›") {
		t.Fatalf("rated against the computer:\n%s", s)
	}
	tm.key("down") // the opponent
	for range 3 {
		tm.key("right") // a friend
	}
	// Salvo seats more: the third seat, then the placement.
	toPlacement := func() {
		tm.key("down")
		tm.key("down")
	}
	toRated := func() { // from the placement
		for range 3 {
			tm.key("up")
		}
	}
	toPlacement()
	tm.key("right")
	tm.waitFor("free placement", func(s string) bool { return strings.Contains(lineWith(s, "Ship placement"), "‹ free ›") })
	toRated()
	tm.key("space")
	s = tm.waitFor("rated", func(s string) bool { return strings.Contains(lineWith(s, "Rated"), "‹ yes ›") })
	checkFits(t, tm)
	if l := lineWith(s, "Ship placement"); !strings.Contains(l, "‹ strict ›") || !strings.Contains(l, "rated: the default") {
		t.Fatalf("a rated game's placement is not held at its default: %q\n%s", l, s)
	}
	if l := lineWith(s, "Clock"); strings.Contains(l, "rated") {
		t.Errorf("the clock, free in a rated game, is held: %q", l)
	}
	tm.key("down") // the opponent
	toPlacement()
	tm.key("right")
	s = tm.waitFor("the refusal", has("! a rated game keeps ship placement at its default: set Rated to no to change it"))
	if l := lineWith(s, "Ship placement"); !strings.Contains(l, "‹ strict ›") {
		t.Fatalf("the key changed a held option: %q", l)
	}
	// Rated no: the placement chosen comes back; yes again, and the
	// table made is rated, at the default placement.
	toRated()
	tm.key("space")
	tm.waitFor("unrated", func(s string) bool { return strings.Contains(lineWith(s, "Ship placement"), "‹ free ›") })
	tm.key("space")
	tm.waitFor("rated again", func(s string) bool { return strings.Contains(lineWith(s, "Ship placement"), "‹ strict ›") })
	tm.key("enter")
	tm.waitFor("the table", has("you: Ann"))
	var up struct {
		Table struct {
			Rated bool `json:"rated"`
			Rules struct {
				Placement string `json:"placement"`
			} `json:"rules"`
		} `json:"table"`
	}
	if err := getJSON(ts.URL+"/api/v1/tables/"+tm.table().id, annS.Token, &up); err != nil || !up.Table.Rated || up.Table.Rules.Placement != "strict" {
		t.Fatalf("the table: %+v, %v", up.Table, err)
	}
}

// TestNewTableWordList: the form of a word game offers the server's word
// lists, the default chosen; a table opened on another says so on its
// first line, and the server holds it to that list.
func TestNewTableWordList(t *testing.T) {
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("nymphabet", 0) // the computer
	tm.key("up")            // the last field: the word list
	tm.waitFor("the word-list field", has("Word list", "‹ en ›"))
	checkFits(t, tm)
	for i := 0; i < 4 && !strings.Contains(tm.screen(), "‹ en-common ›"); i++ {
		tm.key("right")
	}
	s := tm.waitFor("en-common chosen", has("‹ en-common ›", "English, common words"))
	checkFits(t, tm)
	if strings.Contains(s, "! ") {
		t.Fatalf("the form complains:\n%s", s)
	}
	tm.key("enter")
	tm.waitFor("the table", has("Nymphabet · word list en-common"))
	checkFits(t, tm)
	if lx := tm.table().upd.Table.Lexicon; lx != "en-common" {
		t.Errorf("the table checks words against %q", lx)
	}
	// A game that checks no words offers no list.
	tm.key("esc")
	tm.open("salvo", 0)
	tm.key("up")
	if s := tm.screen(); strings.Contains(s, "Word list") {
		t.Errorf("Salvo's form offers a word list:\n%s", s)
	}
}

// TestNewTableLabels: each game's form names its options as the server
// labels them for players, never by their keys, and fits an 80-column
// terminal.
func TestNewTableLabels(t *testing.T) {
	ts := newTestServer(t)
	for _, tc := range []struct {
		game      string
		want, not []string
	}{
		{"quizl", []string{"Points lost for a wrong password", "Points to the grid's owner for a wrong password", "Points that end a set", "Clock", "Word list"}, []string{"wrong_announcement", "set_target", "lexicon"}},
		{"salvo", []string{"Ship placement", "Diagonal ships", "Shots lost by", "Clock"}, []string{"diagonal_ships", "shots_lost_by", "Word list"}},
		{"wordfight", []string{"Board width", "Board height", "Board shape", "Be Fruitful and Multiply ‹ yes ›", "Strikes per", "Strike limit"}, []string{"strike_limit", "strikes_per", "true"}},
		{"nymphabet", []string{"Mode", "No repeated words ‹ no ›", "Clock"}, []string{"no_repeats", "false"}},
	} {
		t.Run(tc.game, func(t *testing.T) {
			t.Parallel()
			tm := newTerm(t, ts.URL, "Ann", 80, 24)
			tm.open(tc.game, 0)
			s := tm.waitFor("the labels", has(tc.want...))
			checkFits(t, tm)
			for _, n := range tc.not {
				if strings.Contains(s, n) {
					t.Errorf("the form shows %q:\n%s", n, s)
				}
			}
		})
	}
}

// TestNewTableChoiceOfNone: a choice the server lists with nothing to
// choose from (none it sends) stays as it is under the arrows, rather
// than bring the client down.
func TestNewTableChoiceOfNone(t *testing.T) {
	t.Parallel()
	sh := &shared{w: 80, h: 24, games: []client.Game{{Name: "odd", MinPlayers: 2, MaxPlayers: 2,
		Options: []client.Option{{Name: "pick", Label: "Pick", Kind: "choice", Default: "x"}}}}}
	nt := &newTableScreen{shared: sh, game: "odd", values: map[string]any{"pick": "x"}, at: 1}
	for _, k := range []string{"right", "left", "space"} {
		nt.update(keyMsg(k))
	}
	if v := nt.values["pick"]; v != "x" {
		t.Errorf("the choice of none became %v", v)
	}
	if s := nt.view(); !strings.Contains(s, "Pick") {
		t.Errorf("the form does not show the option:\n%s", s)
	}
}

// TestNewTableText: a text option (a Word Fight board's shape) shows what
// is typed, with a cursor while chosen and the keys that type it, not the
// arrows of a choice; empty and not chosen, it says none.
func TestNewTableText(t *testing.T) {
	t.Parallel()
	sh := &shared{w: 80, h: 24, games: []client.Game{{Name: "fight", Title: "Fight", MinPlayers: 2, MaxPlayers: 2,
		Options: []client.Option{{Name: "shape", Label: "Board shape", Kind: "text", Default: ""}, {Name: "multiply", Label: "Multiply", Kind: "bool", Default: true}}}}}
	nt := &newTableScreen{shared: sh, game: "fight", values: map[string]any{"shape": "", "multiply": true}, at: 1}
	for _, k := range []string{".", "#", "/", "x", "backspace"} {
		nt.update(keyMsg(k))
	}
	s := ansi.Strip(nt.view())
	for _, want := range []string{"> Board shape  .#/█\n", "Multiply     ‹ yes ›", "type · backspace erase · ctrl+e draw it · ↑↓ field"} {
		if !strings.Contains(s, want) {
			t.Errorf("typing the shape, the form does not say %q:\n%s", want, s)
		}
	}
	nt.update(keyMsg("down"))
	if s := ansi.Strip(nt.view()); !strings.Contains(s, "  Board shape  .#/\n") || strings.Contains(s, "type · backspace") {
		t.Errorf("on the next field, the shape reads:\n%s", s)
	}
	nt.values["shape"] = ""
	if s := ansi.Strip(nt.view()); !strings.Contains(s, "  Board shape  (none)\n") {
		t.Errorf("an empty shape reads:\n%s", s)
	}
}

// TestNewTableMoreSeats: the form of a game for more than two offers a
// seat after another, each the computer at a level or a friend, until
// nobody ends the list or the game is full; the table opens with those
// seats. A game of two, or a solitaire game, offers none.
func TestNewTableMoreSeats(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("nymphabet", 0)
	if s := tm.screen(); strings.Contains(s, "Seat 3") {
		t.Fatalf("a game of two offers a third seat:\n%s", s)
	}
	tm.key("esc")
	tm.open("quizl", 5) // solitaire
	if s := tm.screen(); strings.Contains(s, "Seat 3") {
		t.Fatalf("a solitaire game offers a third seat:\n%s", s)
	}
	tm.key("esc")

	tm.open("quizl", 0) // the computer, easy
	tm.waitFor("the third seat", seatsAre("3", "nobody"))
	tm.key("down")
	tm.key("right")
	tm.key("right") // the computer, medium
	tm.waitFor("a fourth seat", seatsAre("3", "the computer, medium", "4", "nobody"))
	tm.key("down")
	tm.key("left") // a friend, the last choice
	tm.waitFor("a fifth seat", seatsAre("4", "a friend (invite link)", "5", "nobody"))
	checkFits(t, tm)
	// Nobody takes the third seat out: the friend moves up.
	tm.key("up")
	tm.key("left")
	tm.key("left")
	tm.waitFor("the seats after the third taken out", seatsAre("3", "a friend (invite link)", "4", "nobody"))
	tm.key("down")
	tm.key("right")
	tm.key("right")
	tm.key("right") // the fourth seat: the computer, strong
	tm.waitFor("four seats", seatsAre("3", "a friend (invite link)", "4", "the computer, strong", "5", "nobody"))
	tm.key("enter")
	tm.waitFor("the table", has("you: Ann"))
	var up struct {
		Table client.Table `json:"table"`
	}
	if err := getJSON(ts.URL+"/api/v1/tables/"+tm.table().id, tm.table().token, &up); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, s := range up.Table.Seats {
		kinds = append(kinds, s.Kind+":"+s.Level)
	}
	if got, want := strings.Join(kinds, " "), "person: computer:easy open: computer:strong"; got != want {
		t.Errorf("the table's seats are %s, want %s", got, want)
	}
}

// TestFormWindow: the rows a form shows keep to the room there is, the
// chosen row among them, and say how many are left out above and below.
func TestFormWindow(t *testing.T) {
	t.Parallel()
	var rows []string
	for i := range 12 {
		rows = append(rows, fmt.Sprintf("row %d", i))
	}
	for _, c := range []struct {
		at, room    int
		above, more int // the counts the marks say, 0 for no mark
	}{
		{0, 12, 0, 0},
		{11, 20, 0, 0},
		{0, 5, 0, 8},
		{6, 5, 5, 4},
		{11, 5, 8, 0},
		{3, 6, 1, 7},
	} {
		out := formWindow(rows, c.at, c.room)
		got := ansi.Strip(strings.Join(out, "\n"))
		if len(out) > c.room || !slices.Contains(out, rows[c.at]) {
			t.Errorf("row %d in %d lines: %d lines, the row shown %v:\n%s", c.at, c.room, len(out), slices.Contains(out, rows[c.at]), got)
		}
		for _, m := range []struct {
			n    int
			mark string
		}{{c.above, "↑"}, {c.more, "↓"}} {
			want := fmt.Sprintf("%s %d more", m.mark, m.n)
			if (m.n > 0) != strings.Contains(got, want) || m.n == 0 && strings.Contains(got, m.mark) {
				t.Errorf("row %d in %d lines: want %q (%d):\n%s", c.at, c.room, want, m.n, got)
			}
		}
	}
}

// TestLongFormsFit: a form with more fields than the screen has lines (a
// Word Fight table of eight, a Word Fight Swiss at 80x24) shows those
// around the field chosen, says how many more are above and below, and
// keeps its keys in sight, whichever field is chosen.
func TestLongFormsFit(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	_, as := signedUp(t, ts, "ann_f")
	tm := newTermWith(t, ts.URL, "ann_f", 80, 24, Config{DataDir: t.TempDir(), Session: as.Token, Account: "ann_f"})
	tm.open("wordfight", 0)
	for n := 3; n <= 8; n++ {
		tm.keyUntil("down", fmt.Sprintf("> Seat %d", n))
		tm.key("right") // the computer, easy
	}
	walk := func(form, last string) {
		t.Helper()
		tm.waitFor(form, has(" more"))
		for range 30 {
			s := tm.screen()
			checkFits(t, tm)
			if !strings.Contains(s, "> ") || !strings.Contains(s, "esc back") {
				t.Fatalf("%s: the field chosen or the keys are out of sight:\n%s", form, s)
			}
			if strings.Contains(s, "> "+last) {
				if regexp.MustCompile(`↓ \d+ more`).MatchString(s) {
					t.Errorf("%s: at the last field, the form says there are more below:\n%s", form, s)
				}
				return
			}
			tm.key("down")
		}
		t.Fatalf("%s: never reached %s:\n%s", form, last, tm.screen())
	}
	walk("the table of eight", "Rated")

	tm.key("esc")
	tm.waitFor("home", has("New table"))
	tm.key("e")
	tm.waitFor("the list", has("n make one"))
	tm.key("n")
	tm.waitFor("the form", has("New event"))
	tm.key("right") // a Swiss
	tm.keyUntil("down", "> Game")
	tm.keyUntil("right", "‹ Sightless Word Fight ›")
	walk("the Swiss of Word Fight", "Password")
}

// seatsAre is a wait's test that the new-table form shows each seat
// numbered in pairs (number, choice) with that choice, and no seat after
// the last of them.
func seatsAre(pairs ...string) func(string) bool {
	return func(s string) bool {
		for i := 0; i < len(pairs); i += 2 {
			if !strings.Contains(lineWith(s, "Seat "+pairs[i]+" "), "‹ "+pairs[i+1]+" ›") {
				return false
			}
		}
		n, _ := strconv.Atoi(pairs[len(pairs)-2])
		return lineWith(s, fmt.Sprintf("Seat %d ", n+1)) == ""
	}
}

// TestClockTyped: keys on the clock field type a clock of the player's
// own, sent as the API takes it; the arrows choose a preset again and
// backspace takes keys back, to no clock at all.
func TestClockTyped(t *testing.T) {
	t.Parallel()
	opt := client.Option{Name: "clock", Label: "Clock", Kind: "choice", Default: "none", Choices: clockPresets}
	for _, tc := range []struct {
		keys []string
		show string
		want string // the rule sent, JSON; "" for none
	}{
		{[]string{"1", "0", "+", "5"}, "10+5", `{"increment":5,"initial":600,"kind":"fischer"}`},
		{[]string{"4", "5"}, "45", `45`},
		{[]string{"3", "d"}, "3d", `{"days":3,"kind":"correspondence"}`},
		// Clock.String's form of a part of a minute goes as typed.
		{[]string{"1", ":", "3", "0", "+", "1"}, "1:30+1", `"1:30+1"`},
		// What is no clock goes as typed too: the server says why not.
		{[]string{"3", "+"}, "3+", `"3+"`},
		{[]string{"3", "+", "backspace"}, "3", `3`},
		{[]string{"3", "backspace"}, "none", ""},
		{[]string{"right", "right"}, "30", `30`},
		{[]string{"3", "+", "2", "right"}, "10", `10`},
		{[]string{"right", "1", "2", "0"}, "120", `120`},
		// Keys no clock has change nothing.
		{[]string{"x", "space", "backspace"}, "10", `10`},
		{[]string{"9", "9", "9", "9", "9", "9", "9", "9", "9", "9", "9", "9", "9", "9"}, "999999999999", `999999999999`},
		// Before a digit, "+" steps to the next preset as in any choice.
		{[]string{"+", "+"}, "30", `30`},
	} {
		v := ruleValues{"clock": "none"}
		typing := false
		for _, k := range tc.keys {
			typing, _ = v.change(opt, k, keyMsg(k), typing)
		}
		if got := v.text(opt); got != tc.show {
			t.Errorf("%q: the field shows %q, want %q", tc.keys, got, tc.show)
		}
		rules, _ := v.request("en")
		got := ""
		if r, ok := rules["clock"]; ok {
			b, _ := json.Marshal(r)
			got = string(b)
		}
		if got != tc.want {
			t.Errorf("%q: the clock sent is %s, want %s", tc.keys, got, tc.want)
		}
	}
}

// TestNewTableTypedClock: a clock typed in the form opens a table with
// that clock; one the server refuses leaves the form up, saying why.
func TestNewTableTypedClock(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("nymphabet", 0) // the computer
	tm.key("up")
	tm.key("up") // the clock, above the word list
	tm.typeText("3+")
	tm.waitFor("the clock typed", has("Clock", "‹ 3+ ›"))
	tm.key("enter")
	tm.waitFor("the refusal", has(`! rule option clock`, `got "3+"`, "‹ 3+ ›"))
	checkFits(t, tm)
	tm.typeText("2")
	tm.waitFor("the clock typed on", has("‹ 3+2 ›"))
	tm.key("enter")
	tm.waitFor("the table", has("you: Ann"))
	tm.waitFor("the table's clock", func(string) bool { return tm.table().upd != nil && tm.table().upd.Table.Clock != nil })
	if c := *tm.table().upd.Table.Clock; c.Kind != "fischer" || c.Initial != 180 || c.Increment != 2 {
		t.Errorf("the table's clock is %+v, want 3+2", c)
	}
}

// TestNewTableOpponentsWhole: at 80 columns, beside each game's longest
// option label, every choice of whom to play stands whole, the level of
// a solitaire grid's maker included.
func TestNewTableOpponentsWhole(t *testing.T) {
	ts := newTestServer(t)
	for _, game := range []string{"quizl", "salvo", "wordfight", "nymphabet"} {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			tm := newTerm(t, ts.URL, "Ann", 80, 24)
			tm.open(game, 0)
			g := tm.m.gameByName(game)
			for i, o := range opponents(g) {
				s := tm.screen()
				if !strings.Contains(s, "‹ "+o.label+" ›") {
					t.Errorf("choice %d, %q, does not stand whole:\n%s", i, o.label, s)
				}
				tm.key("right")
			}
		})
	}
}

// TestNumberTyped: the first digit typed into a number replaces the
// number shown, the digits after it go on it and backspace takes the
// last back; a digit that would take the number over its maximum is
// refused, saying why, and what was typed stays; the arrows step it.
func TestNumberTyped(t *testing.T) {
	t.Parallel()
	lo, hi := 1, 1000
	opt := client.Option{Name: "set_target", Label: "Points that end a set", Kind: "int", Default: 25.0, Min: &lo, Max: &hi}
	for _, tc := range []struct {
		keys    []string
		show    string
		refused string // the last key's refusal
	}{
		{[]string{"1", "0"}, "10", ""},
		{[]string{"7"}, "7", ""},
		{[]string{"backspace"}, "2", ""},
		{[]string{"backspace", "0"}, "20", ""},
		{[]string{"1", "0", "0", "0"}, "1000", ""},
		{[]string{"1", "0", "0", "0", "0"}, "1000", "Points that end a set: 1000 at most, not 10000"},
		{[]string{"2", "5", "1", "0"}, "251", "Points that end a set: 1000 at most, not 2510"},
		{[]string{"5", "0", "1", "2"}, "501", "Points that end a set: 1000 at most, not 5012"},
		{[]string{"right", "right"}, "27", ""},
		{[]string{"right", "4"}, "4", ""},
		{[]string{"4", "right", "2"}, "2", ""},
		{[]string{"left", "backspace", "5"}, "25", ""},
	} {
		v := ruleValues{"set_target": 25.0}
		typing, refused := false, ""
		for _, k := range tc.keys {
			typing, refused = v.change(opt, k, keyMsg(k), typing)
		}
		if got := v.text(opt); got != tc.show || refused != tc.refused {
			t.Errorf("%q: the field shows %q, refused %q; want %q, %q", tc.keys, got, refused, tc.show, tc.refused)
		}
	}
	// A digit over a maximum of one digit leaves the default shown, and
	// the next digit still replaces it.
	five := 5
	pen := client.Option{Name: "penalty", Label: "Points lost for a wrong password", Kind: "int", Default: 1.0, Min: new(int), Max: &five}
	v := ruleValues{"penalty": 1.0}
	typing, refused := v.change(pen, "7", keyMsg("7"), false)
	if v.text(pen) != "1" || refused != "Points lost for a wrong password: 5 at most, not 7" {
		t.Errorf("7 over 5: the field shows %q, refused %q", v.text(pen), refused)
	}
	v.change(pen, "3", keyMsg("3"), typing)
	if v.text(pen) != "3" {
		t.Errorf("3 after a refused 7: the field shows %q, want 3", v.text(pen))
	}
}

// TestNewTableNumberTyped: on the form, digits typed on arriving at a
// number field replace its default, over its maximum a digit is refused
// with the reason on the message line, and coming back to the field
// the first digit replaces the number again.
func TestNewTableNumberTyped(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	tm := newTerm(t, ts.URL, "Ann", 80, 24)
	tm.open("quizl", 0)
	tm.keyUntil("down", "> Points that end a set")
	field := func() string { return lineWith(tm.screen(), "Points that end a set") }
	if !strings.Contains(field(), "‹ 25 ›") {
		t.Fatalf("the set's target is not at its default: %q", field())
	}
	tm.typeText("10")
	if !strings.Contains(field(), "‹ 10 ›") {
		t.Fatalf("10 typed over 25 shows %q", field())
	}
	tm.typeText("00")
	tm.typeText("0")
	s := tm.screen()
	if !strings.Contains(field(), "‹ 1000 ›") || !strings.Contains(s, "Points that end a set: 1000 at most, not 10000") {
		t.Fatalf("a digit over the maximum: %q\n%s", field(), s)
	}
	checkFits(t, tm)
	tm.key("up")
	tm.key("down")
	tm.typeText("3")
	s = tm.screen()
	if !strings.Contains(field(), "‹ 3 ›") || strings.Contains(s, "at most") {
		t.Fatalf("3 typed on coming back: %q\n%s", field(), s)
	}
	tm.key("enter")
	tm.waitFor("the table", has("you: Ann"))
	var rules struct {
		SetTarget int `json:"set_target"`
	}
	json.Unmarshal(tm.table().upd.Table.Rules, &rules)
	if rules.SetTarget != 3 {
		t.Errorf("the table's set target is %d, want 3", rules.SetTarget)
	}
}
