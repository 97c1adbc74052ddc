package games

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// asJSON returns v as the API sends it, decoded into a map, as a client
// reads it.
func asJSON(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("the answer does not encode: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("the answer is not a JSON object: %v: %s", err, b)
	}
	return m
}

func TestCheckSetup(t *testing.T) {
	t.Parallel()
	reg := Registry()
	tests := []struct {
		name, body string
		ok         bool
		has        string // in the answer's JSON, or in the refusal
	}{
		{"legal quizl", `{"game":"quizl","setup":{"grid":["tqufp","wzves","ogbra","chinl","kyxdm"],"password":"psalm"}}`, true, `"PSALM"`},
		{"second word", `{"game":"quizl","setup":{"grid":["CRANE","BLIMP","DFGHJ","KOQST","UVWXY"],"password":"CRANE"}}`, false, "row 6 reads BLIMP"},
		{"repeated letter", `{"game":"quizl","setup":{"grid":["CRANE","CRANE","BDFGH","IJKMQ","UVWXY"],"password":"CRANE"}}`, false, "twice"},
		{"legal fleet", `{"game":"salvo","setup":{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}}`, true, `B2-B6`},
		{"overlapping fleet", `{"game":"salvo","setup":{"fleet":["B2-B6","B2-E2","I4-I6","D8-E8","G9-G10"]}}`, false, "the cruiser B2-E2 overlaps the battleship B2-B6 on B2"},
		{"strict edge", `{"game":"salvo","setup":{"fleet":["A1-E1","D3-G3","I4-I6","D8-E8","G8-G9"]}}`, false, "the battleship A1-E1 has 5 squares on the edge of the ocean"},
		{"touching", `{"game":"salvo","setup":{"fleet":["B2-B6","C2-C5","I4-I6","E8-F8","H8-H9"]}}`, false, "the cruiser C2-C5 touches the battleship B2-B6 on more than one square"},
		{"diagonal refused", `{"game":"salvo","setup":{"fleet":["B2-F6","D2-G2","I4-I6","D8-E8","G9-G10"]}}`, false, "lies diagonally"},
		{"free rules", `{"game":"salvo","rules":{"placement":"free"},"setup":{"fleet":["A1-E1","A2-D2","A3-C3","A4-B4","A5-B5"]}}`, true, "A1-E1"},
		{"bad rule", `{"game":"salvo","rules":{"placement":"loose"},"setup":{}}`, false, "loose"},
		{"no setup game", `{"game":"nymphabet","setup":{}}`, false, "no secret setup"},
		{"default lexicon", `{"game":"quizl","setup":{"grid":["ADIEU","BCFGH","JKLMN","OPQRS","TVWXY"],"password":"adieu"}}`, true, `"ADIEU"`},
		{"the table's lexicon", `{"game":"quizl","lexicon":"en-common","setup":{"grid":["ADIEU","BCFGH","JKLMN","OPQRS","TVWXY"],"password":"adieu"}}`, false, "ADIEU"},
		{"named default", `{"game":"quizl","lexicon":"en","setup":{"grid":["ADIEU","BCFGH","JKLMN","OPQRS","TVWXY"],"password":"adieu"}}`, true, `"ADIEU"`},
		{"a lexicon in another case", `{"game":"quizl","lexicon":"EN-Common","setup":{"grid":["ADIEU","BCFGH","JKLMN","OPQRS","TVWXY"],"password":"adieu"}}`, false, "ADIEU"},
		{"no such lexicon", `{"game":"quizl","lexicon":"klingon","setup":{}}`, false, `there is no lexicon "klingon"`},
		{"a path is no lexicon", `{"game":"quizl","lexicon":"/etc/passwd","setup":{}}`, false, "there is no lexicon"},
		{"unknown game", `{"game":"chess","setup":{}}`, false, "chess"},
		{"unknown field", `{"game":"quizl","grid":[]}`, false, "grid"},
		{"not json", `grid`, false, "not a setup check"},
		{"trailing", `{"game":"salvo","setup":{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}} {}`, false, "more after"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ans, err := CheckSetup(reg, []byte(tt.body))
			if (err == nil) != tt.ok {
				t.Fatalf("answer %s, error %v; want ok %v", ans.Setup, err, tt.ok)
			}
			said := ""
			if err != nil {
				said = err.Error()
			} else {
				b, _ := json.Marshal(ans)
				said = string(b)
			}
			if !strings.Contains(said, tt.has) {
				t.Errorf("%s lacks %q", said, tt.has)
			}
		})
	}
}

// FuzzCheckSetup feeds the setup check arbitrary bytes: it must answer,
// never panic, and a setup it passes must pass again as it answered it.
func FuzzCheckSetup(f *testing.F) {
	f.Add([]byte(`{"game":"quizl","setup":{"grid":["tqufp","wzves","ogbra","chinl","kyxdm"],"password":"psalm"}}`))
	f.Add([]byte(`{"game":"salvo","setup":{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}}`))
	f.Add([]byte(`{"game":"salvo","rules":{"diagonal_ships":true},"setup":{"fleet":["A1-E5"]}}`))
	f.Add([]byte(`{}`))
	reg := Registry()
	f.Fuzz(func(t *testing.T, b []byte) {
		ans, err := CheckSetup(reg, b)
		if err != nil {
			return
		}
		var req checkRequest
		if err := json.Unmarshal(b, &req); err != nil {
			t.Fatalf("%s passed the strict check but not encoding/json: %v", b, err)
		}
		req.Setup = ans.Setup
		again, _ := json.Marshal(req)
		if _, err := CheckSetup(reg, again); err != nil {
			t.Fatalf("%s passed as %s, which is then refused: %v", b, ans.Setup, err)
		}
	})
}

func TestRandomSetup(t *testing.T) {
	t.Parallel()
	reg := Registry()
	random := func(body string) SetupAnswer {
		t.Helper()
		ans, err := RandomSetup(reg, []byte(body))
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		return ans
	}
	tests := []struct {
		name, rules string
	}{
		{"strict", `{}`},
		{"free", `{"placement":"free"}`},
		{"strict diagonal", `{"placement":"strict","diagonal_ships":true}`},
	}
	for _, tt := range tests {
		seen := map[string]bool{}
		for seed := range 5 {
			setup := random(`{"game":"salvo","rules":` + tt.rules + `,"seed":` + strconv.Itoa(seed) + `}`).Setup
			seen[string(setup)] = true
			// The referee passes what it made, under the same rules.
			if _, err := CheckSetup(reg, []byte(`{"game":"salvo","rules":`+tt.rules+`,"setup":`+string(setup)+`}`)); err != nil {
				t.Errorf("%s, seed %d: the random fleet %s is refused: %v", tt.name, seed, setup, err)
			}
			// The same seed gives the same fleet.
			again := random(`{"game":"salvo","rules":` + tt.rules + `,"seed":` + strconv.Itoa(seed) + `}`).Setup
			if string(again) != string(setup) {
				t.Errorf("%s, seed %d: %s, then %s", tt.name, seed, setup, again)
			}
		}
		if len(seen) < 4 {
			t.Errorf("%s: five seeds made only %d fleets", tt.name, len(seen))
		}
	}
	// Without a seed, two asks (almost surely) differ.
	a, b := random(`{"game":"salvo"}`), random(`{"game":"salvo"}`)
	if ja, jb := fmt.Sprint(asJSON(t, a)["setup"]), fmt.Sprint(asJSON(t, b)["setup"]); ja == jb {
		t.Errorf("two unseeded random fleets are the same: %s", ja)
	}
	m := asJSON(t, random(`{"game":"quizl","seed":7}`))
	if g, _ := m["setup"].(map[string]any); g == nil || g["password"] == nil {
		t.Errorf("random Quizl setup: %v", m)
	}
}

func TestRandomSetupBadInput(t *testing.T) {
	t.Parallel()
	reg := Registry()
	tests := []struct {
		name, body string
		has        string
	}{
		{"empty", "", "not a request for a random setup"},
		{"not json", "fleet", "not a request for a random setup"},
		{"unknown field", `{"game":"salvo","fleet":[]}`, "fleet"},
		{"negative seed", `{"game":"salvo","seed":-1}`, "seed"},
		{"trailing", `{"game":"salvo"}{}`, "more after"},
		{"unknown game", `{"game":"chess"}`, "chess"},
		{"no setup game", `{"game":"wordfight"}`, "no secret setup"},
		{"bad rule", `{"game":"salvo","rules":{"placement":"loose"}}`, "loose"},
	}
	for _, tt := range tests {
		ans, err := RandomSetup(reg, []byte(tt.body))
		if err == nil {
			t.Errorf("%s: answered %s", tt.name, ans.Setup)
			continue
		}
		if !strings.Contains(err.Error(), tt.has) {
			t.Errorf("%s: error %q lacks %q", tt.name, err, tt.has)
		}
	}
}

// FuzzRandomSetup feeds the random setup request decoder arbitrary bytes:
// it must answer (a setup or an error), never panic, and whatever setup it
// makes must pass the game's own check.
func FuzzRandomSetup(f *testing.F) {
	f.Add([]byte(`{"game":"salvo","seed":1}`))
	f.Add([]byte(`{"game":"salvo","rules":{"placement":"free","diagonal_ships":true},"seed":18446744073709551615}`))
	f.Add([]byte(`{"game":"quizl","seed":0}`))
	f.Add([]byte(`{"game":"nymphabet"}`))
	f.Add([]byte(`{}`))
	reg := Registry()
	f.Fuzz(func(t *testing.T, b []byte) {
		ans, err := RandomSetup(reg, b)
		if err != nil {
			return
		}
		var req randomRequest
		json.Unmarshal(b, &req)
		check, _ := json.Marshal(checkRequest{Game: req.Game, Rules: req.Rules, Lexicon: req.Lexicon, Setup: ans.Setup})
		if _, err := CheckSetup(reg, check); err != nil {
			t.Fatalf("%s made %s, which its check refuses: %v", b, ans.Setup, err)
		}
	})
}

func TestFillSetup(t *testing.T) {
	t.Parallel()
	reg := Registry()
	for _, tt := range []struct {
		maker string
		line  int
	}{
		{"random", 2}, {"", 9}, {"easy", 0}, {"medium", 7}, {"strong", 4},
	} {
		t.Run(fmt.Sprintf("%q on line %d", tt.maker, tt.line), func(t *testing.T) {
			t.Parallel()
			body, _ := json.Marshal(map[string]any{"game": "quizl", "password": "crane", "line": tt.line, "maker": tt.maker, "seed": 3})
			ans, err := FillSetup(t.Context(), reg, body)
			if err != nil {
				t.Fatal(err)
			}
			var s struct {
				Grid     []string `json:"grid"`
				Password string   `json:"password"`
			}
			if err := json.Unmarshal(ans.Setup, &s); err != nil || len(s.Grid) != 5 {
				t.Fatalf("the answer is not a grid: %s", ans.Setup)
			}
			read := ""
			for i := range 5 {
				if tt.line < 5 {
					read += s.Grid[tt.line][i : i+1]
				} else {
					read += s.Grid[i][tt.line-5 : tt.line-4]
				}
			}
			if s.Password != "CRANE" || read != "CRANE" {
				t.Errorf("want CRANE on line %d; password %s, the line reads %s", tt.line, s.Password, read)
			}
			check, _ := json.Marshal(map[string]any{"game": "quizl", "setup": ans.Setup})
			if _, err := CheckSetup(reg, check); err != nil {
				t.Errorf("the referee refuses the filled grid: %v", err)
			}
			if ans.Random {
				t.Errorf("the grid maker fell back to a random filling")
			}
			if _, ok := asJSON(t, ans)["random"]; ok {
				t.Errorf("a deceptive filling says random: %v", asJSON(t, ans))
			}
		})
	}
}

func TestFillSetupBadInput(t *testing.T) {
	t.Parallel()
	reg := Registry()
	tests := []struct {
		name, body string
		has        string
	}{
		{"empty", "", "not a request to fill a grid"},
		{"unknown field", `{"game":"quizl","password":"crane","line":0,"grid":[]}`, "grid"},
		{"trailing", `{"game":"quizl","password":"crane","line":0}{}`, "more after"},
		{"key in capitals", `{"game":"quizl","PASSWORD":"crane","line":0}`, `unknown field "PASSWORD"`},
		{"key with a capital", `{"Game":"quizl","password":"crane","line":0}`, `unknown field "Game"`},
		{"key twice", `{"game":"quizl","password":"qxzvj","password":"crane","line":0}`, `the key "password" appears twice`},
		{"key twice in the rules", `{"game":"quizl","rules":{"wrong_announcement_penalty":1,"wrong_announcement_penalty":2},"password":"crane","line":0}`, `"wrong_announcement_penalty" appears twice`},
		{"not UTF-8", "{\"game\":\"quizl\",\"password\":\"cr\xffne\",\"line\":0}", "not valid UTF-8"},
		{"not quizl", `{"game":"salvo","password":"crane","line":0}`, "only a Quizl grid"},
		{"no password", `{"game":"quizl","line":0}`, "write your password first"},
		{"not a word", `{"game":"quizl","password":"qxzvj","line":0}`, "QXZVJ is not a word"},
		{"short", `{"game":"quizl","password":"cran","line":0}`, "not a five-letter word"},
		{"repeats", `{"game":"quizl","password":"sheep","line":0}`, "repeats the letter E"},
		{"no line", `{"game":"quizl","password":"crane"}`, `say which line holds the password: "line" is 0-4 for the rows 5-9, 5-9 for the columns 0-4`},
		{"line out of range", `{"game":"quizl","password":"crane","line":10}`, `there is no line 10: "line" is 0-4 for the rows 5-9`},
		{"line below the first", `{"game":"quizl","password":"crane","line":-1}`, "there is no line -1"},
		{"bad maker", `{"game":"quizl","password":"crane","line":1,"maker":"wily"}`, "not \"wily\""},
		{"bad lexicon", `{"game":"quizl","password":"crane","line":1,"lexicon":"/etc/passwd"}`, "no lexicon"},
	}
	for _, tt := range tests {
		ans, err := FillSetup(t.Context(), reg, []byte(tt.body))
		if err == nil {
			t.Errorf("%s: answered %s", tt.name, ans.Setup)
			continue
		}
		if !strings.Contains(err.Error(), tt.has) {
			t.Errorf("%s: error %q lacks %q", tt.name, err, tt.has)
		}
	}
}

// FuzzFillSetup feeds the fill request decoder arbitrary bytes: it must
// answer (a grid or an error), never panic, and a grid it makes must hold
// the password on the line asked and pass the referee. Only random
// fillings are made, to keep each run fast.
func FuzzFillSetup(f *testing.F) {
	f.Add([]byte(`{"game":"quizl","password":"crane","line":3,"seed":1}`))
	f.Add([]byte(`{"game":"quizl","password":"PSALM","line":9,"maker":"random"}`))
	f.Add([]byte(`{"game":"quizl","password":"","line":-1}`))
	f.Add([]byte(`{}`))
	reg := Registry()
	f.Fuzz(func(t *testing.T, b []byte) {
		var req fillRequest
		if json.Unmarshal(b, &req) == nil && req.Maker != "" && req.Maker != "random" {
			return
		}
		ans, err := FillSetup(t.Context(), reg, b)
		if err != nil {
			return
		}
		check, _ := json.Marshal(checkRequest{Game: "quizl", Rules: req.Rules, Lexicon: req.Lexicon, Setup: ans.Setup})
		if _, err := CheckSetup(reg, check); err != nil {
			t.Fatalf("%s made %s, which the referee refuses: %v", b, ans.Setup, err)
		}
	})
}

// previewBody writes a preview request on a 5 by 5 board, the grid's rows
// padded with empty squares.
func previewBody(multiply bool, grid []string, word, placement string) string {
	grid = append([]string(nil), grid...)
	for len(grid) < 5 {
		grid = append(grid, "")
	}
	for i, row := range grid {
		grid[i] = row + strings.Repeat(".", max(0, 5-len(row)))
	}
	b, _ := json.Marshal(map[string]any{"rules": map[string]any{"width": 5, "height": 5, "multiply": multiply}, "grid": grid, "word": word, "placement": placement})
	return string(b)
}

func TestPreview(t *testing.T) {
	t.Parallel()
	empty := []string{"....", "....", "....", "...."}
	cat := []string{".CAT", "....", "....", "...."}
	tests := []struct {
		name      string
		body      string
		legal     bool
		points    float64
		reused    float64
		problem   string // part of the referee's words
		crossings []string
	}{
		{"first word anywhere", previewBody(true, empty, "CAT", "A2 across"), true, 0, 0, "", nil},
		{"reuse scores", previewBody(true, cat, "TAR", "D1 down"), true, 3, 1, "", nil},
		{"base scoring", previewBody(false, cat, "TAR", "D1 down"), true, 3, 1, "", nil},
		{"lower case", previewBody(true, cat, "tar", "d1 down"), true, 3, 1, "", nil},
		{"must reuse", previewBody(true, cat, "DOG", "A3 across"), false, 0, 0, "every word after the first must reuse a letter already there", nil},
		{"clash", previewBody(true, cat, "COT", "B1 across"), false, 0, 0, "the square C1 holds A, not O", nil},
		{"off the board", previewBody(true, empty, "CATS", "C1 across"), false, 0, 0, "CATS runs off the board", nil},
		{"not on the board", previewBody(true, empty, "CAT", "E9 across"), false, 0, 0, "E9 is not on the board", nil},
		{"unusable square", previewBody(true, []string{"..#.", "....", "....", "...."}, "CAT", "A1 across"), false, 0, 0, "the square C1 is not part of the board", nil},
		{"letter after", previewBody(true, []string{"...S", "....", "....", "...."}, "CAT", "A1 across"), false, 0, 0, "just after CAT holds S", nil},
		{"nothing new", previewBody(true, cat, "CAT", "B1 across"), false, 0, 0, "every letter of CAT is already there", nil},
		{"no crossing", previewBody(true, []string{"CAT.", "....", "....", "...."}, "ATE", "B1 down"), true, 3, 1, "", nil},
		{"crossing word", previewBody(true, []string{"CAT.", "O...", "....", "...."}, "AN", "B1 down"), true, 2, 1, "", []string{"ON"}},
		{"crossing non-word", previewBody(true, []string{"CAT.", "Q...", "....", "...."}, "AN", "B1 down"), false, 0, 0, "would make QN across from A2, which is not a word", nil},
		{"not letters", previewBody(true, empty, "C4T", "A1 across"), false, 0, 0, "not a word of letters A-Z", nil},
	}
	for _, tt := range tests {
		ans, err := Preview([]byte(tt.body))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		m := asJSON(t, ans)
		if m["legal"] != tt.legal || m["points"] != tt.points || m["reused"] != tt.reused {
			t.Errorf("%s: legal %v, points %v, reused %v; want %v, %v, %v (%v)", tt.name, m["legal"], m["points"], m["reused"], tt.legal, tt.points, tt.reused, m["problem"])
		}
		if p, _ := m["problem"].(string); !strings.Contains(p, tt.problem) || (tt.problem == "") != (p == "") {
			t.Errorf("%s: problem %q, want %q", tt.name, p, tt.problem)
		}
		var got []string
		for _, c := range m["crossings"].([]any) {
			got = append(got, c.(string))
		}
		if !slices.Equal(got, tt.crossings) {
			t.Errorf("%s: crossings %q, want %q", tt.name, got, tt.crossings)
		}
	}
}

// TestPreviewLexicon checks that the preview judges words by the table's
// lexicon: placing USE on row 5 makes ADIEU down column A, a word of the
// default lexicon and not of the common words.
func TestPreviewLexicon(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		lexicon string
		legal   bool
	}{{"", true}, {"en", true}, {"en-large", true}, {"en-common", false}} {
		body := `{"lexicon":"` + tt.lexicon + `","grid":["A....","D....","I....","E....",".S..."],"word":"USE","placement":"A5 across"}`
		ans, err := Preview([]byte(body))
		if err != nil || ans.Legal != tt.legal {
			t.Errorf("lexicon %q: %+v, %v; want legal %v", tt.lexicon, ans, err, tt.legal)
			continue
		}
		if !tt.legal && !strings.Contains(ans.Problem, "ADIEU") {
			t.Errorf("lexicon %q: problem %q does not name the word", tt.lexicon, ans.Problem)
		}
	}
}

func TestPreviewBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		unreadable bool // wraps ErrNotPreview (the API's 400), or not (422)
		has        string
	}{
		{"empty", "", true, "not a placement preview"},
		{"not json", "grid", true, "not a placement preview"},
		{"unknown field", `{"grid":["...."],"board":1}`, true, "board"},
		{"trailing", previewBody(true, []string{"....", "....", "....", "...."}, "CAT", "A1 across") + "{}", true, "more after"},
		{"no grid", `{"word":"CAT","placement":"A1 across"}`, true, "rows"},
		{"ragged grid", `{"grid":[".....","....",".....",".....","....."],"word":"CAT","placement":"A1 across"}`, true, "grid"},
		{"no word", `{"grid":[".....",".....",".....",".....","....."],"placement":"A1 across"}`, true, "no word"},
		{"bad placement", `{"grid":[".....",".....",".....",".....","....."],"word":"CAT","placement":"A1 sideways"}`, true, "not a direction"},
		{"bad square", `{"grid":[".....",".....",".....",".....","....."],"word":"CAT","placement":"11 across"}`, true, "not a square"},
		{"unknown rule", `{"rules":{"colour":"red"},"grid":[".....",".....",".....",".....","....."],"word":"CAT","placement":"A1 across"}`, false, "colour"},
		{"bad rule value", `{"rules":{"multiply":"yes"},"grid":[".....",".....",".....",".....","....."],"word":"CAT","placement":"A1 across"}`, false, "multiply"},
		{"no such lexicon", `{"lexicon":"klingon","grid":[".....",".....",".....",".....","....."],"word":"CAT","placement":"A1 across"}`, true, `there is no lexicon "klingon"`},
		{"a path is no lexicon", `{"lexicon":"../../etc/passwd","grid":[".....",".....",".....",".....","....."],"word":"CAT","placement":"A1 across"}`, true, "there is no lexicon"},
	}
	for _, tt := range tests {
		ans, err := Preview([]byte(tt.body))
		if err == nil {
			t.Errorf("%s: answered %+v", tt.name, ans)
			continue
		}
		if errors.Is(err, ErrNotPreview) != tt.unreadable {
			t.Errorf("%s: %v wraps ErrNotPreview %v, want %v", tt.name, err, !tt.unreadable, tt.unreadable)
		}
		if !strings.Contains(err.Error(), tt.has) {
			t.Errorf("%s: error %q lacks %q", tt.name, err, tt.has)
		}
	}
}

// FuzzPreview feeds the preview decoder arbitrary bytes: it must answer (a
// verdict or an error), never panic, and a legal verdict names no problem.
func FuzzPreview(f *testing.F) {
	f.Add([]byte(previewBody(true, []string{".CAT", "....", "....", "...."}, "TAR", "D1 down")))
	f.Add([]byte(previewBody(false, []string{"CAT.", "O...", "....", "...."}, "AN", "B1 down")))
	f.Add([]byte(`{"grid":["#####","#...#","#####"],"word":"ZZ","placement":"AD30 across"}`))
	f.Add([]byte(`{"rules":{"shape":"..#"},"grid":[],"word":"","placement":""}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ans, err := Preview(b)
		if (ans == nil) == (err == nil) {
			t.Fatalf("answer %v and error %v", ans, err)
		}
		if ans != nil && ans.Legal == (ans.Problem != "") {
			t.Fatalf("legal %v with problem %q", ans.Legal, ans.Problem)
		}
	})
}

// TestStrictBodies: the editors' helpers read their bodies as strictly as
// the API does: exact-case keys, no key twice.
func TestStrictBodies(t *testing.T) {
	t.Parallel()
	reg := Registry()
	fleet := `{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}`
	good := []func() error{
		func() error { _, err := CheckSetup(reg, []byte(`{"game":"salvo","setup":`+fleet+`}`)); return err },
		func() error { _, err := RandomSetup(reg, []byte(`{"game":"salvo"}`)); return err },
		func() error { _, err := Preview([]byte(previewBody(true, nil, "CAT", "A1 across"))); return err },
	}
	for i, f := range good {
		if err := f(); err != nil {
			t.Fatalf("good body %d refused: %v", i, err)
		}
	}
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"check, key in capitals", func() error {
			_, err := CheckSetup(reg, []byte(`{"GAME":"salvo","setup":`+fleet+`}`))
			return err
		}, `"GAME"`},
		{"check, key twice", func() error {
			_, err := CheckSetup(reg, []byte(`{"game":"salvo","game":"quizl","setup":`+fleet+`}`))
			return err
		}, "appears twice"},
		{"check, key twice inside the setup", func() error {
			_, err := CheckSetup(reg, []byte(`{"game":"salvo","setup":{"fleet":[],"fleet":["B2-B6"]}}`))
			return err
		}, "appears twice"},
		{"random, key in another case", func() error { _, err := RandomSetup(reg, []byte(`{"Game":"salvo"}`)); return err }, `"Game"`},
		{"random, trailing", func() error { _, err := RandomSetup(reg, []byte(`{"game":"salvo"} x`)); return err }, "more after"},
		{"preview, key twice", func() error {
			_, err := Preview([]byte(`{"word":"CAT","word":"DOG","grid":[],"placement":"A1 across"}`))
			return err
		}, "appears twice"},
		{"preview, key in capitals", func() error { _, err := Preview([]byte(`{"WORD":"CAT"}`)); return err }, `"WORD"`},
	} {
		if err := tc.call(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %s", tc.name, err, tc.want)
		}
	}
}
