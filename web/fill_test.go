package web

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFillSetup(t *testing.T) {
	h := Handler()
	for _, tt := range []struct {
		maker string
		line  int
	}{
		{"random", 2}, {"", 9}, {"easy", 0}, {"medium", 7}, {"strong", 4},
	} {
		body, _ := json.Marshal(map[string]any{"game": "quizl", "password": "crane", "line": tt.line, "maker": tt.maker, "seed": 3})
		code, m := post(t, h, "/fill-setup", string(body))
		if code != 200 {
			t.Fatalf("%q on line %d: status %d, %v", tt.maker, tt.line, code, m)
		}
		raw, _ := json.Marshal(m["setup"])
		var s struct {
			Grid     []string `json:"grid"`
			Password string   `json:"password"`
		}
		if err := json.Unmarshal(raw, &s); err != nil || len(s.Grid) != 5 {
			t.Fatalf("%q: the answer is not a grid: %s", tt.maker, raw)
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
			t.Errorf("%q: want CRANE on line %d; password %s, the line reads %s", tt.maker, tt.line, s.Password, read)
		}
		check, _ := json.Marshal(map[string]any{"game": "quizl", "setup": m["setup"]})
		if code, m := post(t, h, "/check-setup", string(check)); code != 200 {
			t.Errorf("%q: the referee refuses the filled grid: %v", tt.maker, m)
		}
		if m["random"] == true {
			t.Errorf("%q: the grid maker fell back to a random filling", tt.maker)
		}
	}
}

func TestFillSetupBadInput(t *testing.T) {
	h := Handler()
	tests := []struct {
		name, body string
		status     int
		has        string
	}{
		{"empty", "", 422, "not a request to fill a grid"},
		{"unknown field", `{"game":"quizl","password":"crane","line":0,"grid":[]}`, 422, "grid"},
		{"trailing", `{"game":"quizl","password":"crane","line":0}{}`, 422, "more after"},
		{"key in capitals", `{"game":"quizl","PASSWORD":"crane","line":0}`, 422, `unknown field "PASSWORD"`},
		{"key with a capital", `{"Game":"quizl","password":"crane","line":0}`, 422, `unknown field "Game"`},
		{"key twice", `{"game":"quizl","password":"qxzvj","password":"crane","line":0}`, 422, `the key "password" appears twice`},
		{"key twice in the rules", `{"game":"quizl","rules":{"wrong_announcement_penalty":1,"wrong_announcement_penalty":2},"password":"crane","line":0}`, 422, `"wrong_announcement_penalty" appears twice`},
		{"not UTF-8", "{\"game\":\"quizl\",\"password\":\"cr\xffne\",\"line\":0}", 422, "not valid UTF-8"},
		{"not quizl", `{"game":"salvo","password":"crane","line":0}`, 422, "only a Quizl grid"},
		{"no password", `{"game":"quizl","line":0}`, 422, "write your password first"},
		{"not a word", `{"game":"quizl","password":"qxzvj","line":0}`, 422, "QXZVJ is not a word"},
		{"short", `{"game":"quizl","password":"cran","line":0}`, 422, "not a five-letter word"},
		{"repeats", `{"game":"quizl","password":"sheep","line":0}`, 422, "repeats the letter E"},
		{"no line", `{"game":"quizl","password":"crane"}`, 422, "which line"},
		{"line out of range", `{"game":"quizl","password":"crane","line":10}`, 422, "which line"},
		{"bad maker", `{"game":"quizl","password":"crane","line":1,"maker":"wily"}`, 422, "not \"wily\""},
		{"bad lexicon", `{"game":"quizl","password":"crane","line":1,"lexicon":"/etc/passwd"}`, 422, "no lexicon"},
		{"too big", `{"game":"` + strings.Repeat("x", MaxCheckSize) + `"}`, 413, "at most"},
	}
	for _, tt := range tests {
		code, m := post(t, h, "/fill-setup", tt.body)
		if code != tt.status {
			t.Errorf("%s: status %d, want %d (%v)", tt.name, code, tt.status, m)
			continue
		}
		if msg, _ := m["error"].(string); !strings.Contains(msg, tt.has) {
			t.Errorf("%s: error %q lacks %q", tt.name, msg, tt.has)
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
	reg := Handler().(*handler).reg
	f.Fuzz(func(t *testing.T, b []byte) {
		var req fillRequest
		if json.Unmarshal(b, &req) == nil && req.Maker != "" && req.Maker != "random" {
			return
		}
		ans, err := fillSetup(t.Context(), reg, b)
		if err != nil {
			return
		}
		check, _ := json.Marshal(checkRequest{Game: "quizl", Rules: req.Rules, Lexicon: req.Lexicon, Setup: ans.Setup})
		if _, err := checkSetup(reg, check); err != nil {
			t.Fatalf("%s made %s, which the referee refuses: %v", b, ans.Setup, err)
		}
	})
}
