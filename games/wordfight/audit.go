package wordfight

import (
	"fmt"
	"strings"

	"parlour/lexicon"
)

// SeatAudit is the end-of-game check of one player: their answers replayed
// against the public list on an empty grid, the score recomputed, and every
// "cannot" tested for a legal placement the player missed.
type SeatAudit struct {
	Seat  int         `json:"seat"`
	Lines []AuditLine `json:"lines"`
	// Points is the recomputed score; Recorded the score the game kept.
	Points    int  `json:"points"`
	Recorded  int  `json:"recorded"`
	Confirmed bool `json:"confirmed"`
	// Missed counts the "cannot" answers that had a legal placement.
	Missed int `json:"missed"`
}

// AuditLine is one word of the list as one player answered it.
type AuditLine struct {
	Word   string `json:"word"`
	Move   string `json:"move"`
	Reused int    `json:"reused"`
	Points int    `json:"points"`
	// Problem says why a placement was not legal ("" when it was).
	Problem string `json:"problem,omitempty"`
	// Possible, for a "cannot", names a legal placement the player had.
	Possible string `json:"possible,omitempty"`
}

// Audit replays the public list, with every player's answers (Entry.Answers,
// as the final view shows them), on empty grids of board b: each placement
// is checked and scored afresh under the multiply rule, each "cannot" is
// searched for a legal placement, and each recomputed total is compared with
// recorded (the scores the game kept; may be nil).
func Audit(b *Board, multiply bool, lex *lexicon.Lexicon, list []Entry, recorded []int) []SeatAudit {
	seats := len(recorded)
	for _, e := range list {
		seats = max(seats, len(e.Answers))
	}
	rules := Rules{Multiply: multiply}
	out := make([]SeatAudit, seats)
	for s := range out {
		a := &out[s]
		a.Seat = s
		g := NewGrid(b)
		for _, e := range list {
			word := strings.ToLower(e.Word)
			line := AuditLine{Word: e.Word}
			var ans Answer
			if s < len(e.Answers) {
				ans = e.Answers[s]
			}
			line.Move = ans.Move
			f := strings.Fields(strings.ToLower(ans.Move))
			switch {
			case len(f) == 0:
			case f[0] == "cannot":
				if p, ok := g.CanPlace(lex, word); ok {
					line.Possible = "place " + p.String()
					a.Missed++
				}
			case f[0] == "place":
				p, err := ParsePlacement(strings.Join(f[1:], " "))
				if err == nil {
					line.Reused, err = g.Check(lex, word, p)
				}
				if err != nil {
					line.Problem = err.Error()
					break
				}
				g.Place(word, p)
				line.Points = rules.Score(line.Reused, len(word))
				a.Points += line.Points
			default:
				line.Problem = fmt.Sprintf("%q is not an answer", ans.Move)
			}
			a.Lines = append(a.Lines, line)
		}
		if s < len(recorded) {
			a.Recorded = recorded[s]
		}
		a.Confirmed = a.Recorded == a.Points
	}
	return out
}
