package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

func post(t *testing.T, h http.Handler, path, body string) (int, map[string]any) {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, path, strings.NewReader(body)))
	var m map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatalf("POST %s: answer is not JSON: %v: %s", path, err, w.Body)
	}
	return w.Code, m
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
	h := Handler()
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
		code, m := post(t, h, "/preview", tt.body)
		if code != 200 {
			t.Errorf("%s: status %d (%v)", tt.name, code, m)
			continue
		}
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
	h := Handler()
	for _, tt := range []struct {
		lexicon string
		legal   bool
	}{{"", true}, {"en", true}, {"en-large", true}, {"en-common", false}} {
		body := `{"lexicon":"` + tt.lexicon + `","grid":["A....","D....","I....","E....",".S..."],"word":"USE","placement":"A5 across"}`
		code, m := post(t, h, "/preview", body)
		if code != 200 || m["legal"] != tt.legal {
			t.Errorf("lexicon %q: status %d, %v; want legal %v", tt.lexicon, code, m, tt.legal)
		}
		if p, _ := m["problem"].(string); !tt.legal && !strings.Contains(p, "ADIEU") {
			t.Errorf("lexicon %q: problem %q does not name the word", tt.lexicon, p)
		}
	}
}

func TestPreviewBadInput(t *testing.T) {
	h := Handler()
	tests := []struct {
		name, body string
		status     int
		has        string
	}{
		{"empty", "", 400, "not a placement preview"},
		{"not json", "grid", 400, "not a placement preview"},
		{"unknown field", `{"grid":["...."],"board":1}`, 400, "board"},
		{"trailing", previewBody(true, []string{"....", "....", "....", "...."}, "CAT", "A1 across") + "{}", 400, "more after"},
		{"no grid", `{"word":"CAT","placement":"A1 across"}`, 400, "rows"},
		{"ragged grid", `{"grid":[".....","....",".....",".....","....."],"word":"CAT","placement":"A1 across"}`, 400, "grid"},
		{"no word", `{"grid":[".....",".....",".....",".....","....."],"placement":"A1 across"}`, 400, "no word"},
		{"bad placement", `{"grid":[".....",".....",".....",".....","....."],"word":"CAT","placement":"A1 sideways"}`, 400, "not a direction"},
		{"bad square", `{"grid":[".....",".....",".....",".....","....."],"word":"CAT","placement":"11 across"}`, 400, "not a square"},
		{"unknown rule", `{"rules":{"colour":"red"},"grid":[".....",".....",".....",".....","....."],"word":"CAT","placement":"A1 across"}`, 422, "colour"},
		{"bad rule value", `{"rules":{"multiply":"yes"},"grid":[".....",".....",".....",".....","....."],"word":"CAT","placement":"A1 across"}`, 422, "multiply"},
		{"too big", `{"word":"` + strings.Repeat("A", MaxPreviewSize) + `"}`, 413, "at most"},
		{"no such lexicon", `{"lexicon":"klingon","grid":[".....",".....",".....",".....","....."],"word":"CAT","placement":"A1 across"}`, 400, `there is no lexicon "klingon"`},
		{"a path is no lexicon", `{"lexicon":"../../etc/passwd","grid":[".....",".....",".....",".....","....."],"word":"CAT","placement":"A1 across"}`, 400, "there is no lexicon"},
	}
	for _, tt := range tests {
		code, m := post(t, h, "/preview", tt.body)
		if code != tt.status {
			t.Errorf("%s: status %d, want %d (%v)", tt.name, code, tt.status, m)
			continue
		}
		if msg, _ := m["error"].(string); !strings.Contains(msg, tt.has) {
			t.Errorf("%s: error %q lacks %q", tt.name, msg, tt.has)
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
		ans, err := preview(b)
		if (ans == nil) == (err == nil) {
			t.Fatalf("answer %v and error %v", ans, err)
		}
		if ans != nil && ans.Legal == (ans.Problem != "") {
			t.Fatalf("legal %v with problem %q", ans.Legal, ans.Problem)
		}
	})
}
