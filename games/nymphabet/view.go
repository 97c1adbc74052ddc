package nymphabet

import (
	"parlour/game"
)

// View is what a seat sees of a play of Nymphabet. The game has no secrets,
// so every seat and spectators see the same, apart from Seat.
type View struct {
	// Seat is the viewer's seat, -1 for a spectator.
	Seat      int    `json:"seat"`
	Mode      Mode   `json:"mode"`
	NoRepeats bool   `json:"no_repeats"`
	Status    string `json:"status"`
	// Alphabet holds the 26 letters A to Z and who deleted each.
	Alphabet []LetterView `json:"alphabet"`
	// Current is the letter the next word must begin with; empty when it
	// may begin anywhere (a cyclic game's first word) or the game is over.
	Current string `json:"current"`
	// Left counts the letters not yet deleted.
	Left int `json:"left"`
	// Words lists the words written, in order.
	Words []WordView `json:"words"`
	// Players holds each seat's name, tally and score, in seat order.
	Players []PlayerView `json:"players"`
	// ToMove is the seat to write the next word, -1 once the game is over.
	ToMove int `json:"to_move"`
	// Winners lists the winning seats once the game is over (none on a
	// draw).
	Winners []int `json:"winners"`
}

// LetterView is one letter of the alphabet.
type LetterView struct {
	Letter  string `json:"letter"`
	Deleted bool   `json:"deleted"`
	// By is the seat whose word deleted it, -1 while it stands.
	By int `json:"by"`
}

// WordView is one word written and the letters it deleted.
type WordView struct {
	By      int    `json:"by"`
	Word    string `json:"word"`
	Deleted string `json:"deleted"` // "A, B, C"
}

// PlayerView is one seat's standing.
type PlayerView struct {
	Name string `json:"name"`
	// Letters counts the letters the seat's words deleted.
	Letters int `json:"letters"`
	// Turns counts the words the seat wrote.
	Turns int `json:"turns"`
	// Product multiplies the letters deleted on each of the seat's turns
	// (1 before its first word); it is the score in scoring mode.
	Product int `json:"product"`
	// Score is what Result counts: Letters, or the product in scoring
	// mode (0 before the seat's first word).
	Score int `json:"score"`
}

// View returns what seat sees now: in Nymphabet, everything.
func (s *state) View(seat game.Seat) any {
	v := &View{
		Seat:      int(seat),
		Mode:      s.mode,
		NoRepeats: s.noRepeats,
		Status:    string(game.InProgress),
		Alphabet:  make([]LetterView, Letters),
		Left:      s.left,
		Words:     make([]WordView, len(s.plays)),
		Players:   make([]PlayerView, 2),
		ToMove:    -1,
		Winners:   []int{},
	}
	if seat < 0 || seat > 1 {
		v.Seat = -1
	}
	for i := range v.Alphabet {
		v.Alphabet[i] = LetterView{Letter: letter(i), Deleted: s.by[i] >= 0, By: int(s.by[i])}
	}
	for i, p := range s.plays {
		v.Words[i] = WordView{By: int(p.seat), Word: p.upper, Deleted: p.deleted}
	}
	sc := s.scores()
	for i := range v.Players {
		v.Players[i] = PlayerView{
			Name:    s.cfg.Name(game.Seat(i)),
			Letters: s.letters[i],
			Turns:   s.turns[i],
			Product: s.product[i],
			Score:   sc[i],
		}
	}
	if s.over {
		v.Status = string(game.Finished)
		for _, w := range s.Result().Winners {
			v.Winners = append(v.Winners, int(w))
		}
		return v
	}
	v.ToMove = int(s.turn)
	if !s.anywhere() {
		v.Current = letter(s.cur)
	}
	return v
}
