package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"parlour/game"
	"parlour/games/wordfight"
)

// MaxPreviewSize caps a Word Fight preview request: a 30 by 30 grid and a
// word fit in well under 4 KiB.
const MaxPreviewSize = 8 << 10

// previewRequest asks what placing the word being answered at a square
// would do in the player's own grid, as the seat's view shows it. The grid
// is the player's own, so nothing secret travels.
type previewRequest struct {
	Rules map[string]json.RawMessage `json:"rules,omitempty"`
	// Lexicon is the table's lexicon (see lexiconNamed).
	Lexicon   string   `json:"lexicon,omitempty"`
	Grid      []string `json:"grid"`
	Word      string   `json:"word"`
	Placement string   `json:"placement"`
}

// previewAnswer is the referee's verdict on a placement: whether it is
// legal (and if not, why, in the referee's words), how many letters it
// reuses, what it would score, and the other words it would form.
type previewAnswer struct {
	Legal     bool     `json:"legal"`
	Problem   string   `json:"problem,omitempty"`
	Reused    int      `json:"reused"`
	Points    int      `json:"points"`
	Crossings []string `json:"crossings"`
}

// errBadPreview marks a request that is not a preview at all, as opposed
// to one the rules refuse.
var errBadPreview = errors.New("not a placement preview")

// preview checks a placement with Word Fight's own Grid.Check against the
// table's lexicon and scores it with the table's Rules.Score. An illegal
// placement is an answer, not an error; an error means the request itself
// is wrong (and wraps errBadPreview when it cannot be read at all).
func preview(body []byte) (*previewAnswer, error) {
	var req previewRequest
	more, err := decodeStrict(body, &req)
	if err != nil {
		return nil, fmt.Errorf("%w (%q, %q, %q, %q and %q): %v", errBadPreview, "rules", "lexicon", "grid", "word", "placement", err)
	}
	if more {
		return nil, fmt.Errorf("%w: there is more after the request", errBadPreview)
	}
	rules, err := game.Resolve(wordfight.Game{}.Options(), req.Rules)
	if err != nil {
		return nil, err
	}
	lex, err := lexiconNamed(req.Lexicon)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errBadPreview, err)
	}
	g, err := wordfight.GridFromRows(req.Grid)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errBadPreview, err)
	}
	if req.Word == "" {
		return nil, fmt.Errorf("%w: there is no word to place", errBadPreview)
	}
	p, err := wordfight.ParsePlacement(req.Placement)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errBadPreview, err)
	}
	ans := &previewAnswer{Crossings: []string{}}
	reused, err := g.Check(lex, req.Word, p)
	if err != nil {
		ans.Problem = err.Error()
		return ans, nil
	}
	word := strings.ToLower(req.Word)
	ans.Legal = true
	ans.Reused = reused
	ans.Points = wordfight.RulesOf(rules).Score(reused, len(word))
	ans.Crossings = crossings(g, word, p)
	return ans, nil
}

// crossings lists, in upper case, the words that placing word at p (a
// legal placement) forms across its line: the run through each new letter.
func crossings(g *wordfight.Grid, word string, p wordfight.Placement) []string {
	after := g.Clone()
	after.Place(word, p)
	dr, dc := 0, 1
	if p.Down {
		dr, dc = 1, 0
	}
	out := []string{}
	for i := range len(word) {
		r, c := p.Row+i*dr, p.Col+i*dc
		if g.At(r, c) != 0 {
			continue
		}
		// The run through (r, c) goes the other way: (dc, dr).
		sr, sc := r, c
		for after.At(sr-dc, sc-dr) != 0 {
			sr, sc = sr-dc, sc-dr
		}
		var run []byte
		for ; after.At(sr, sc) != 0; sr, sc = sr+dc, sc+dr {
			run = append(run, after.At(sr, sc))
		}
		if len(run) >= 2 {
			out = append(out, strings.ToUpper(string(run)))
		}
	}
	return out
}

// servePreview answers POST /preview: 200 with the referee's verdict on a
// Word Fight placement, 400 for a request that cannot be read, or 422 for
// rules the game does not have.
func (h *handler) servePreview(w http.ResponseWriter, r *http.Request) {
	body, ok := readSmall(w, r, MaxPreviewSize, "a placement preview")
	if !ok {
		return
	}
	ans, err := preview(body)
	if err != nil {
		status := http.StatusUnprocessableEntity
		if errors.Is(err, errBadPreview) {
			status = http.StatusBadRequest
		}
		writeError(w, status, err.Error())
		return
	}
	json.NewEncoder(w).Encode(ans)
}
