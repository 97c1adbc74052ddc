package nymphabet

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"parlour/game"
	"parlour/lexicon"
)

// testWords are the words the rulings' tests play; some are not English,
// which suits a house lexicon.
var testWords = []string{
	"abdicated", "abdicate", "all", "able", "aback", "defying", "hijack",
	"lamination", "pique", "restaurant", "vow", "xylophone", "zip", "mention",
	"xylem", "zeal", "backed", "effigy", "hip", "jackal", "queerest", "uvula",
	"waxy", "zabaglione", "cede", "fighting", "minorship", "resign", "lumen",
	"abcdefghijklm", "nopqrstuvwxyz", "zyx", "xyz", "yz", "z", "mnopqrstuvwxyzab",
	"cdefghijkl", "cdefghijk", "lmnop",
}

func testLex() *lexicon.Lexicon { return lexicon.FromWords("test", testWords) }

// start begins a play with the given rule options (as JSON values).
func start(t testing.TB, lex *lexicon.Lexicon, rules map[string]string) game.State {
	t.Helper()
	raw := map[string]json.RawMessage{}
	for k, v := range rules {
		raw[k] = json.RawMessage(v)
	}
	r, err := game.Resolve(Game{}.Options(), raw)
	if err != nil {
		t.Fatalf("resolving %v: %v", rules, err)
	}
	st, err := Game{}.New(game.Config{Players: []string{"Ann", "Ben"}, Rules: r, Lexicon: lex}, nil)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return st
}

// play applies words alternately from seat 0 and fails on any refusal.
func play(t testing.TB, st game.State, words ...string) []game.Event {
	t.Helper()
	var evs []game.Event
	for _, w := range words {
		to := st.ToMove()
		if len(to) != 1 {
			t.Fatalf("before %s: %d seats to move, want 1", w, len(to))
		}
		e, err := st.Apply(to[0], w)
		if err != nil {
			t.Fatalf("%s: %v", w, err)
		}
		evs = append(evs, e...)
	}
	return evs
}

func viewOf(st game.State, s game.Seat) *View { return st.View(s).(*View) }

func TestGameDescription(t *testing.T) {
	g := Game{}
	if g.Name() != "nymphabet" || g.Title() != "Nymphabet" {
		t.Errorf("name %q title %q", g.Name(), g.Title())
	}
	if lo, hi := g.Players(); lo != 2 || hi != 2 {
		t.Errorf("players %d-%d, want 2-2", lo, hi)
	}
	if g.HasSetup() {
		t.Error("HasSetup: want false")
	}
	if _, err := g.CheckSetup(game.Config{}, 0, json.RawMessage(`{}`)); err == nil {
		t.Error("CheckSetup accepted a setup")
	}
	d := game.Defaults(g.Options())
	if d.String(OptMode) != "standard" || d.Bool(OptNoRepeats) {
		t.Errorf("defaults %v", d)
	}
	for _, bad := range []string{`{"mode": "spiral"}`, `{"no_repeats": 3}`, `{"colour": true}`} {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(bad), &raw); err != nil {
			t.Fatal(err)
		}
		if _, err := game.Resolve(g.Options(), raw); err == nil {
			t.Errorf("Resolve(%s) accepted", bad)
		}
	}
	cfg := game.Config{Players: []string{"Ann"}, Rules: d, Lexicon: testLex()}
	if _, err := g.New(cfg, nil); err == nil {
		t.Error("New accepted one player")
	}
	cfg.Players = []string{"Ann", "Ben"}
	cfg.Lexicon = nil
	if _, err := g.New(cfg, nil); err == nil {
		t.Error("New accepted no lexicon")
	}
}

func TestDeleting(t *testing.T) {
	for _, tc := range []struct {
		word    string
		deleted string
	}{
		{"ALL", "A"},
		{"able", "A, B"},
		{"ABACK", "A, B, C"},
		{"  AbDiCaTeD ", "A, B, C, D"},
		{"ABDICATE", "A, B, C"}, // the D comes before the C
		{"abcdefghijklm", "A, B, C, D, E, F, G, H, I, J, K, L, M"},
	} {
		st := start(t, testLex(), nil)
		evs := play(t, st, tc.word)
		v := viewOf(st, 0)
		if got := v.Words[0].Deleted; got != tc.deleted {
			t.Errorf("%s deleted %s, want %s", tc.word, got, tc.deleted)
		}
		n := strings.Count(tc.deleted, ",") + 1
		if v.Left != 26-n || v.Current != letter(n) || v.Players[0].Letters != n {
			t.Errorf("%s: left %d current %s letters %d", tc.word, v.Left, v.Current, v.Players[0].Letters)
		}
		for i, l := range v.Alphabet {
			if want := i < n; l.Deleted != want || (want && l.By != 0) || (!want && l.By != -1) {
				t.Errorf("%s: letter %s %+v", tc.word, l.Letter, l)
			}
		}
		if len(evs) != 1 || evs[0].To != nil || !strings.Contains(evs[0].Text, "Ann wrote "+strings.ToUpper(strings.TrimSpace(tc.word))) {
			t.Errorf("%s: events %+v", tc.word, evs)
		}
	}
}

func TestDeletesStopsAtDeletedLetters(t *testing.T) {
	for _, tc := range []struct {
		mode Mode
		word string
		left int
		want int
	}{
		{Standard, "xylophone", 3, 2},
		{Standard, "zeal", 1, 1},
		{Standard, "zabaglione", 1, 1}, // no wrap
		{Cyclic, "zabaglione", 26, 3},
		{Cyclic, "zabaglione", 2, 2},
		{Scoring, "lumen", 1, 1},
		{Scoring, "lumen", 5, 3},
	} {
		if got := tc.mode.Deletes(tc.word, tc.left); got != tc.want {
			t.Errorf("%s.Deletes(%s, %d) = %d, want %d", tc.mode, tc.word, tc.left, got, tc.want)
		}
	}
}

// refusal is one refused move and what its error must say.
type refusal struct {
	seat game.Seat
	move string
	want string
}

func TestRefusals(t *testing.T) {
	long := strings.Repeat("a", lexicon.MaxWordLen+1)
	for _, tc := range []struct {
		name   string
		rules  map[string]string
		before []string
		refuse refusal
	}{
		{"wrong letter", nil, []string{"aback", "defying", "hijack", "lamination", "pique"},
			refusal{1, "pique", "PIQUE does not start with R, the next undeleted letter"}},
		{"first word not A", nil, nil, refusal{0, "zip", "ZIP does not start with A, the next undeleted letter"}},
		{"not a word", nil, nil, refusal{0, "abcde", "ABCDE is not a word in the test lexicon"}},
		{"not letters", nil, nil, refusal{0, "ab-le", `"ab-le" is not a word: write letters A to Z only`}},
		{"a verb before the word", nil, nil, refusal{0, "play able", `"play able" is not a word: write the word alone, as in ABLE`}},
		{"a word and a number", nil, nil, refusal{0, "able 2", `"able 2" is not a word: write letters A to Z only`}},
		{"accented", nil, nil, refusal{0, "ablé", "write letters A to Z only"}},
		{"two words", nil, nil, refusal{0, "able aback", "write letters A to Z only"}},
		{"empty", nil, nil, refusal{0, "   ", "no move: write a word beginning with A, or resign"}},
		{"empty cyclic", map[string]string{"mode": `"cyclic"`}, nil, refusal{0, "", "write a word beginning with any letter"}},
		{"too long", nil, nil, refusal{0, long, "too long"}},
		{"out of turn", nil, nil, refusal{1, "aback", "not your turn: waiting for Ann"}},
		{"spectator", nil, nil, refusal{game.Spectator, "aback", "not your turn"}},
		{"cyclic second word", map[string]string{"mode": `"cyclic"`}, []string{"mention"},
			refusal{1, "restaurant", "RESTAURANT does not start with P"}},
		{"after the end", nil, []string{"abcdefghijklm", "nopqrstuvwxyz"},
			refusal{0, "aback", "the game is over"}},
		{"after resigning", nil, []string{"resign"}, refusal{1, "aback", "the game is over"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := start(t, testLex(), tc.rules)
			play(t, st, tc.before...)
			checkRefused(t, st, tc.refuse)
		})
	}
}

// checkRefused applies a move that must be refused and checks the error's
// words and that nothing changed.
func checkRefused(t *testing.T, st game.State, r refusal) {
	t.Helper()
	before, _ := json.Marshal(st.View(r.seat))
	res := st.Result()
	evs, err := st.Apply(r.seat, r.move)
	if err == nil {
		t.Fatalf("%q accepted", r.move)
	}
	if !strings.Contains(err.Error(), r.want) {
		t.Errorf("%q: error %q, want it to say %q", r.move, err, r.want)
	}
	if evs != nil {
		t.Errorf("%q: refused move returned events %v", r.move, evs)
	}
	after, _ := json.Marshal(st.View(r.seat))
	if string(before) != string(after) || !reflect.DeepEqual(res, st.Result()) {
		t.Errorf("%q: refused move changed the game\nbefore %s\nafter  %s", r.move, before, after)
	}
}

func TestOutOfTurnWrapsErrNotYourTurn(t *testing.T) {
	st := start(t, testLex(), nil)
	_, err := st.Apply(1, "aback")
	if !errors.Is(err, game.ErrNotYourTurn) {
		t.Errorf("error %v does not wrap ErrNotYourTurn", err)
	}
}

func TestStandardLastWordLoses(t *testing.T) {
	for _, tc := range []struct {
		words  []string
		winner game.Seat
		scores []int
	}{
		{[]string{"abcdefghijklm", "nopqrstuvwxyz"}, 0, []int{13, 13}},
		{[]string{"aback", "defying", "hijack", "lamination", "pique", "restaurant", "vow", "xylophone", "zip"}, 1, []int{12, 14}},
	} {
		st := start(t, testLex(), nil)
		evs := play(t, st, tc.words...)
		r := st.Result()
		if r.Status != game.Finished || !slices.Equal(r.Winners, []game.Seat{tc.winner}) || !slices.Equal(r.Scores, tc.scores) {
			t.Errorf("%v: result %+v", tc.words, r)
		}
		if last := evs[len(evs)-1]; last.Kind != "end" || !strings.Contains(last.Text, "deleted Z and loses") {
			t.Errorf("%v: last event %+v", tc.words, last)
		}
		lastWord := strings.ToUpper(tc.words[len(tc.words)-1])
		want := game.End{Reason: EndDeletedZ, Seat: 1 - tc.winner, Against: game.Spectator, Word: lastWord, Winners: []game.Seat{tc.winner}, Scores: tc.scores}
		if e, ok := evs[len(evs)-1].Data.(game.End); !ok || !reflect.DeepEqual(e, want) {
			t.Errorf("%v: end data %+v, want %+v", tc.words, evs[len(evs)-1].Data, want)
		}
		if st.ToMove() != nil {
			t.Errorf("%v: ToMove %v after the end", tc.words, st.ToMove())
		}
		v := viewOf(st, game.Spectator)
		if v.Status != "finished" || v.ToMove != -1 || v.Current != "" || v.Left != 0 || !slices.Equal(v.Winners, []int{int(tc.winner)}) {
			t.Errorf("%v: view %+v", tc.words, v)
		}
	}
}

func TestStandardDoesNotWrap(t *testing.T) {
	st := start(t, testLex(), nil)
	play(t, st, "abdicated", "effigy", "hip", "jackal", "mention", "pique", "restaurant", "vow", "xylem")
	v := viewOf(st, 0)
	if v.Current != "Z" || v.Left != 1 {
		t.Fatalf("current %s left %d", v.Current, v.Left)
	}
	play(t, st, "zabaglione")
	if v := viewOf(st, 0); v.Words[len(v.Words)-1].Deleted != "Z" {
		t.Errorf("ZABAGLIONE deleted %s in standard mode, want Z", v.Words[len(v.Words)-1].Deleted)
	}
	if r := st.Result(); !slices.Equal(r.Winners, []game.Seat{0}) {
		t.Errorf("winners %v, want Ann (Ben wrote the last word)", r.Winners)
	}
}

func TestCyclic(t *testing.T) {
	st := start(t, testLex(), map[string]string{"mode": `"cyclic"`})
	if v := viewOf(st, 0); v.Current != "" || v.Left != 26 {
		t.Fatalf("start: current %q left %d", v.Current, v.Left)
	}
	play(t, st, "xylem") // anywhere
	play(t, st, "zabaglione")
	v := viewOf(st, 0)
	if v.Current != "C" || v.Words[1].Deleted != "Z, A, B" {
		t.Fatalf("after wrap: current %s, ZABAGLIONE deleted %s", v.Current, v.Words[1].Deleted)
	}
	play(t, st, "cdefghijkl", "mention", "pique", "restaurant", "vow")
	v = viewOf(st, 0)
	if v.Current != "" || v.Left != 0 {
		t.Errorf("current %q left %d", v.Current, v.Left)
	}
	if r := st.Result(); r.Status != game.Finished || !slices.Equal(r.Winners, []game.Seat{0}) {
		t.Errorf("result %+v: the last word wins in cyclic mode", r)
	}
}

func TestCyclicRunStopsAtDeletedLetter(t *testing.T) {
	st := start(t, testLex(), map[string]string{"mode": `"cyclic"`})
	play(t, st, "mention", "pique", "restaurant", "vow", "xylem", "zeal", "backed", "effigy", "hip")
	// J to L are left; JACKAL deletes them and wins.
	play(t, st, "jackal")
	if r := st.Result(); !slices.Equal(r.Winners, []game.Seat{1}) {
		t.Errorf("winners %v", r.Winners)
	}
	st = start(t, testLex(), map[string]string{"mode": `"cyclic"`})
	play(t, st, "mnopqrstuvwxyzab", "cdefghijk")
	// Only L is left: LUMEN would run on to M and N, but they are gone.
	play(t, st, "lumen")
	v := viewOf(st, 0)
	if v.Words[2].Deleted != "L" || v.Players[0].Letters != 17 {
		t.Errorf("LUMEN deleted %s; Ann has %d letters", v.Words[2].Deleted, v.Players[0].Letters)
	}
}

func TestScoring(t *testing.T) {
	for _, tc := range []struct {
		words   []string
		winners []game.Seat
		scores  []int
	}{
		{[]string{"abcdefghijklm", "nopqrstuvwxyz"}, []game.Seat{}, []int{13, 13}},
		{[]string{"mnopqrstuvwxyzab", "cdefghijkl"}, []game.Seat{0}, []int{16, 10}},
		{[]string{"mnopqrstuvwxyzab", "cede", "fighting", "jackal"}, []game.Seat{0}, []int{64, 9}},
	} {
		st := start(t, testLex(), map[string]string{"mode": `"scoring"`})
		evs := play(t, st, tc.words...)
		r := st.Result()
		if r.Status != game.Finished || !slices.Equal(r.Winners, tc.winners) || !slices.Equal(r.Scores, tc.scores) {
			t.Errorf("%v: result %+v", tc.words, r)
		}
		if len(tc.winners) == 0 && !strings.Contains(evs[len(evs)-1].Text, "draw") {
			t.Errorf("%v: end event %q", tc.words, evs[len(evs)-1].Text)
		}
	}
}

func TestScoringScoreBeforeFirstTurn(t *testing.T) {
	st := start(t, testLex(), map[string]string{"mode": `"scoring"`})
	play(t, st, "queerest")
	v := viewOf(st, 1)
	if v.Players[0].Score != 4 || v.Players[1].Score != 0 || v.Players[1].Product != 1 {
		t.Errorf("players %+v", v.Players)
	}
	if r := st.Result(); r.Status != game.InProgress || len(r.Winners) != 0 || !slices.Equal(r.Scores, []int{4, 0}) {
		t.Errorf("result %+v", r)
	}
}

func TestResign(t *testing.T) {
	for _, mode := range []string{`"standard"`, `"cyclic"`, `"scoring"`} {
		for _, move := range []string{"resign", " RESIGN ", "Resign"} {
			st := start(t, testLex(), map[string]string{"mode": mode})
			play(t, st, "abdicated")
			evs, err := st.Apply(1, move)
			if err != nil {
				t.Fatalf("%s %q: %v", mode, move, err)
			}
			if len(evs) != 2 || evs[0].Kind != "resign" || evs[0].Text != "Ben resigned" || evs[1].Text != "Ann wins" || evs[0].Data != (Resigned{Seat: 1}) {
				t.Errorf("%s: events %+v", mode, evs)
			}
			if e, ok := evs[len(evs)-1].Data.(game.End); !ok || evs[len(evs)-1].Kind != "end" || e.Reason != EndResign || e.Seat != 1 || !slices.Equal(e.Winners, []game.Seat{0}) {
				t.Errorf("%s: end event %+v", mode, evs[len(evs)-1])
			}
			if r := st.Result(); r.Status != game.Finished || !slices.Equal(r.Winners, []game.Seat{0}) {
				t.Errorf("%s: result %+v", mode, r)
			}
		}
	}
	// A resigning first player loses even in scoring mode with more points.
	st := start(t, testLex(), map[string]string{"mode": `"scoring"`})
	play(t, st, "mnopqrstuvwxyzab", "cede", "resign")
	if r := st.Result(); !slices.Equal(r.Winners, []game.Seat{1}) || !slices.Equal(r.Scores, []int{16, 3}) {
		t.Errorf("result %+v", r)
	}
}

func TestNoRepeats(t *testing.T) {
	// Every word begins with a letter no earlier word began with, so a
	// repeat cannot arise in play; the option is still enforced.
	s := newState(game.Config{Players: []string{"Ann", "Ben"}, Lexicon: testLex()}, Cyclic, true)
	s.plays = []written{{seat: 0, word: "pique"}}
	s.cur = 15
	if _, err := s.check("PIQUE"); err == nil || err.Error() != "PIQUE has already been played, and this table allows no repeats" {
		t.Errorf("repeat with no_repeats: %v", err)
	}
	s.noRepeats = false
	if _, err := s.check("PIQUE"); err != nil {
		t.Errorf("repeat without no_repeats: %v", err)
	}
	st := start(t, testLex(), map[string]string{"no_repeats": "true"})
	play(t, st, "aback", "defying")
	if v := viewOf(st, 0); !v.NoRepeats {
		t.Error("view does not show no_repeats")
	}
}

func TestViewIsPublic(t *testing.T) {
	st := start(t, testLex(), map[string]string{"mode": `"cyclic"`})
	play(t, st, "mention", "pique")
	a, _ := json.Marshal(st.View(0))
	b, _ := json.Marshal(st.View(1))
	c, _ := json.Marshal(st.View(game.Spectator))
	sa := strings.Replace(string(a), `"seat":0`, `"seat":-1`, 1)
	sb := strings.Replace(string(b), `"seat":1`, `"seat":-1`, 1)
	if sa != string(c) || sb != string(c) {
		t.Errorf("views differ beyond the seat:\n%s\n%s\n%s", a, b, c)
	}
	v := viewOf(st, 0)
	want := []WordView{{0, "MENTION", "M, N, O"}, {1, "PIQUE", "P, Q"}}
	if !reflect.DeepEqual(v.Words, want) || v.Current != "R" || v.ToMove != 0 {
		t.Errorf("view %+v", v)
	}
}

// A player may resign when it is not their turn, and loses.
func TestResignOutOfTurn(t *testing.T) {
	t.Parallel()
	st := start(t, testLex(), map[string]string{"mode": `"standard"`})
	play(t, st, "abdicated")
	if _, err := st.Apply(0, "resign"); err != nil {
		t.Fatalf("Ann resigning while Ben is to move: %v", err)
	}
	if r := st.Result(); r.Status != game.Finished || !slices.Equal(r.Winners, []game.Seat{1}) {
		t.Fatalf("result %+v", r)
	}
	if _, err := st.Apply(1, "resign"); !errors.Is(err, game.ErrNotYourTurn) {
		t.Fatalf("a resignation after the end: %v", err)
	}
}

// The worked examples of the game's original rules, played with the real English
// lexicons.

func TestWorkedStandardGame(t *testing.T) {
	st := start(t, lexicon.Default(), nil)
	evs := play(t, st, "ABack", "DEFyinG", "HIJacK", "LaMiNatiOn", "PiQue", "ReSTaUrant", "VoW", "XYlophone", "Zip")
	r := st.Result()
	if r.Status != game.Finished || !slices.Equal(r.Winners, []game.Seat{1}) {
		t.Fatalf("result %+v: the second player wins when the first writes ZIP", r)
	}
	if !slices.Equal(r.Scores, []int{12, 14}) {
		t.Errorf("scores %v, want 12 and 14 letters", r.Scores)
	}
	v := viewOf(st, 0)
	want := []string{"A, B, C", "D, E, F, G", "H, I, J, K", "L, M, N, O", "P, Q", "R, S, T, U", "V, W", "X, Y", "Z"}
	for i, w := range v.Words {
		if w.Deleted != want[i] {
			t.Errorf("%s deleted %s, want %s", w.Word, w.Deleted, want[i])
		}
	}
	if last := evs[len(evs)-1].Text; last != "Ann deleted Z and loses; Ben wins" {
		t.Errorf("end: %q", last)
	}
}

func TestWorkedCyclicGame(t *testing.T) {
	// The source lists PIQUE twice; the second is a slip (RULES.md §4), and
	// without it the players alternate and the second writes JACKAL.
	st := start(t, lexicon.Default(), map[string]string{"mode": `"cyclic"`})
	play(t, st, "MeNtiOn", "PiQue", "ReSTaUrant", "VoW", "XYlem", "ZeAl", "Backed", "EFfiGy", "HIp", "JacKaL")
	r := st.Result()
	if r.Status != game.Finished || !slices.Equal(r.Winners, []game.Seat{1}) {
		t.Fatalf("result %+v: JACKAL's writer wins", r)
	}
	v := viewOf(st, 0)
	if last := v.Words[len(v.Words)-1]; last.Word != "JACKAL" || last.Deleted != "J, K, L" || last.By != 1 {
		t.Errorf("last word %+v", last)
	}
	if !slices.Equal(r.Scores, []int{14, 12}) {
		t.Errorf("scores %v, want 14 and 12 letters", r.Scores)
	}

	// Played as printed, the repeated PIQUE is refused: Q is gone and the
	// next letter is V.
	st = start(t, lexicon.Default(), map[string]string{"mode": `"cyclic"`})
	play(t, st, "mention", "pique", "restaurant", "vow")
	checkRefused(t, st, refusal{0, "PiQue", "PIQUE does not start with X, the next undeleted letter"})
}

func TestWorkedScoringGame(t *testing.T) {
	// MINORSHIP is a rare word: it is in en-large but not in en.
	large, err := lexicon.Load("en-large")
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"QueeReST", "UVula", "WaXY", "ZABaglione", "CeDE", "FiGHtIng", "JacKaL", "MiNOrshiP"}
	st := start(t, large, map[string]string{"mode": `"scoring"`})
	evs := play(t, st, words...)
	r := st.Result()
	if r.Status != game.Finished || !slices.Equal(r.Scores, []int{108, 96}) || !slices.Equal(r.Winners, []game.Seat{0}) {
		t.Fatalf("result %+v, want the first player to win 108 to 96", r)
	}
	if last := evs[len(evs)-1].Text; last != "Ann wins 108 to 96" {
		t.Errorf("end: %q", last)
	}
	v := viewOf(st, 0)
	if v.Words[4].Deleted != "C, D, E" {
		t.Errorf("CEDE deleted %s, want C, D, E", v.Words[4].Deleted)
	}

	st = start(t, lexicon.Default(), map[string]string{"mode": `"scoring"`})
	play(t, st, words[:7]...)
	checkRefused(t, st, refusal{1, "minorship", "MINORSHIP is not a word in the en lexicon"})
	checkRefused(t, st, refusal{1, "mnop", "MNOP is not a word"})
	if !strings.HasPrefix(viewOf(st, 1).Current, "M") {
		t.Errorf("current %q", viewOf(st, 1).Current)
	}
}
