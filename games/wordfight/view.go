package wordfight

import (
	"slices"

	"parlour/game"
)

// View is what one seat may see of a play: the public list, the strikes,
// who has answered the current word (not how), and the seat's own grid,
// answers and score. Other players' grids, placements and scores appear
// only once the game is over, with the audit.
type View struct {
	// Seat is the seat the view is for; game.Spectator for an onlooker.
	Seat    game.Seat   `json:"seat"`
	Players []string    `json:"players"`
	Rules   Rules       `json:"rules"`
	Status  game.Status `json:"status"`
	ToMove  []game.Seat `json:"to_move"`
	// Declarer declares the next word, or declared Current.
	Declarer game.Seat `json:"declarer"`
	// Current is the word being answered (upper case), "" while the next
	// word is awaited.
	Current string `json:"current,omitempty"`
	// Answered says, per seat, who has answered Current.
	Answered []bool `json:"answered,omitempty"`
	// List is the public list of words, oldest first.
	List        []Entry `json:"list"`
	Strikes     int     `json:"strikes"`
	StrikeLimit int     `json:"strike_limit"`
	Resigned    []bool  `json:"resigned"`
	// Grid is the seat's own grid, one string per row: '.' empty, '#'
	// unusable, upper-case letters. Nil for a spectator.
	Grid []string `json:"grid,omitempty"`
	// Score is the seat's own points.
	Score int `json:"score"`

	// Set once the game is over.
	Winners []game.Seat `json:"winners,omitempty"`
	Scores  []int       `json:"scores,omitempty"`
	Grids   [][]string  `json:"grids,omitempty"`
	Audit   []SeatAudit `json:"audit,omitempty"`
}

// Entry is one word of the public list.
type Entry struct {
	Word   string    `json:"word"` // upper case
	Length int       `json:"length"`
	By     game.Seat `json:"by"`
	// Done is set once every player still in has answered.
	Done bool `json:"done"`
	// Cannot lists who could not place the word, once it is done, and
	// Strikes how many strikes it gave.
	Cannot  []game.Seat `json:"cannot,omitempty"`
	Strikes int         `json:"strikes,omitempty"`
	// Mine is the viewing seat's own answer (nil before it answers, and
	// for spectators).
	Mine *Answer `json:"mine,omitempty"`
	// Answers holds every seat's answer, in seat order, once the game is
	// over.
	Answers []Answer `json:"answers,omitempty"`
}

// Answer is a player's answer to one word.
type Answer struct {
	// Move is "place B2 across", "cannot", or "" for no answer (the
	// player had resigned).
	Move   string `json:"move"`
	Reused int    `json:"reused"`
	Points int    `json:"points"`
}

func (a answer) public() Answer {
	return Answer{Move: a.move(), Reused: a.reused, Points: a.points}
}

// View implements game.State: it returns a *View for seat.
func (s *State) View(seat game.Seat) any { return s.SeatView(seat) }

// SeatView is View with the concrete type.
func (s *State) SeatView(seat game.Seat) *View {
	n := len(s.grids)
	own := seat >= 0 && int(seat) < n
	if !own {
		seat = game.Spectator
	}
	v := &View{
		Seat:        seat,
		Players:     slices.Clone(s.cfg.Players),
		Rules:       s.rules,
		Status:      game.InProgress,
		ToMove:      s.ToMove(),
		Declarer:    s.declarer,
		Strikes:     s.strikes,
		StrikeLimit: s.rules.StrikeLimit,
		Resigned:    slices.Clone(s.resigned),
		List:        make([]Entry, len(s.list)),
	}
	if s.answering {
		v.Current = s.current()
		v.Answered = slices.Clone(s.answered)
	}
	var mine []Answer // one allocation for the seat's answers
	if own {
		mine = make([]Answer, len(s.list))
	}
	for i := range s.list {
		v.List[i] = s.list[i].public()
		if own && s.list[i].answers[seat].given {
			mine[i] = s.list[i].answers[seat].public()
			v.List[i].Mine = &mine[i]
		}
	}
	if own {
		v.Grid = s.grids[seat].Rows()
		v.Score = s.scores[seat]
	}
	if s.over {
		v.Status = game.Finished
		v.Winners = slices.Clone(s.winners)
		v.Scores = slices.Clone(s.scores)
		v.Grids = make([][]string, n)
		for i, g := range s.grids {
			v.Grids[i] = g.Rows()
		}
		for i := range s.list {
			v.List[i].Answers = make([]Answer, n)
			for j, a := range s.list[i].answers {
				v.List[i].Answers[j] = a.public()
			}
		}
		v.Audit = s.Audit()
	}
	return v
}

func (e *entry) public() Entry {
	return Entry{
		Word:    e.upper,
		Length:  len(e.word),
		By:      e.by,
		Done:    e.done,
		Cannot:  slices.Clone(e.cannot),
		Strikes: e.strikes,
	}
}

// entries returns the public list; with all, every answer too.
func (s *State) entries(all bool) []Entry {
	out := make([]Entry, len(s.list))
	for i := range s.list {
		out[i] = s.list[i].public()
		if all {
			out[i].Answers = make([]Answer, len(s.grids))
			for j, a := range s.list[i].answers {
				out[i].Answers[j] = a.public()
			}
		}
	}
	return out
}
