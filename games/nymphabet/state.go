package nymphabet

import (
	"fmt"
	"strings"

	"parlour/game"
	"parlour/lexicon"
)

// Resign is the move that gives up the game. Because the notation reserves
// it, the word RESIGN itself cannot be played.
const Resign = "resign"

// written is one word played in a game.
type written struct {
	seat    game.Seat
	word    string // lower case
	upper   string // upper case, as shown
	from    int    // the letter it began with, 0 for A
	count   int    // how many letters it deleted
	deleted string // the letters it deleted, "A, B, C"
}

// state is one play of Nymphabet. Everything in it is public.
type state struct {
	cfg       game.Config
	mode      Mode
	noRepeats bool

	by      [Letters]int8 // the seat that deleted each letter, -1 while undeleted
	cur     int           // the current letter; meaningless before a cyclic game's first word
	left    int           // letters still undeleted
	turn    game.Seat
	plays   []written
	letters [2]int // letters deleted by each seat
	product [2]int // product of each seat's per-turn deletions (1 before any turn)
	turns   [2]int

	over     bool
	resigned game.Seat // the seat that resigned, or game.Spectator
}

func newState(cfg game.Config, mode Mode, noRepeats bool) *state {
	s := &state{
		cfg:       cfg,
		mode:      mode,
		noRepeats: noRepeats,
		left:      Letters,
		product:   [2]int{1, 1},
		resigned:  game.Spectator,
	}
	for i := range s.by {
		s.by[i] = -1
	}
	return s
}

// anywhere reports whether the next word may begin with any letter: the
// first word of a cyclic or scoring game.
func (s *state) anywhere() bool { return s.mode.Wraps() && len(s.plays) == 0 }

// ToMove lists the seat to write the next word, or none once it is over.
func (s *state) ToMove() []game.Seat {
	if s.over {
		return nil
	}
	return []game.Seat{s.turn}
}

// Apply plays move for seat: a word or "resign". A refused move changes
// nothing.
func (s *state) Apply(seat game.Seat, move string) ([]game.Event, error) {
	m := strings.TrimSpace(move)
	// A player may resign whenever the game is in play, not only on
	// their turn.
	if strings.EqualFold(m, Resign) && !s.over && seat >= 0 && int(seat) < len(s.cfg.Players) {
		return s.resign(seat), nil
	}
	if s.over || seat != s.turn {
		return nil, game.CheckTurn(s.cfg, s.ToMove(), seat)
	}
	word, err := s.check(m)
	if err != nil {
		return nil, err
	}
	return s.write(seat, word), nil
}

// need says, for error messages, what the next word must begin with.
func (s *state) need() string {
	if s.anywhere() {
		return "a word beginning with any letter"
	}
	return "a word beginning with " + letter(s.cur)
}

// verb reports whether w is a word a player may write before their word,
// taking the move for a command as other games' moves are.
func verb(w string) bool {
	switch strings.ToLower(w) {
	case "play", "say", "write", "word":
		return true
	}
	return false
}

// lettersOnly reports whether w is made of the letters A to Z alone.
func lettersOnly(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return w != ""
}

// check validates a word move and returns the word in lower case.
func (s *state) check(m string) (string, error) {
	if m == "" {
		return "", fmt.Errorf("no move: write %s, or resign", s.need())
	}
	if len(m) > lexicon.MaxWordLen {
		return "", fmt.Errorf("a move of %d characters is too long for a word (at most %d letters)", len(m), lexicon.MaxWordLen)
	}
	for i := 0; i < len(m); i++ {
		if c := m[i] | 0x20; c < 'a' || c > 'z' {
			if f := strings.Fields(m); len(f) == 2 && verb(f[0]) && lettersOnly(f[1]) {
				// "play able": the word alone is the move.
				return "", fmt.Errorf("%q is not a word: write the word alone, as in %s", m, strings.ToUpper(f[1]))
			}
			return "", fmt.Errorf("%q is not a word: write letters A to Z only", m)
		}
	}
	word := strings.ToLower(m)
	up := strings.ToUpper(m)
	if !s.anywhere() && int(word[0]-'a') != s.cur {
		return "", fmt.Errorf("%s does not start with %s, the next undeleted letter", up, letter(s.cur))
	}
	if !s.cfg.Lexicon.Has(word) {
		return "", fmt.Errorf("%s is not a word in the %s lexicon", up, lexName(s.cfg.Lexicon))
	}
	if s.noRepeats {
		for _, p := range s.plays {
			if p.word == word {
				return "", fmt.Errorf("%s has already been played, and this table allows no repeats", up)
			}
		}
	}
	return word, nil
}

func lexName(l *lexicon.Lexicon) string {
	if n := l.Name(); n != "" {
		return n
	}
	return "table's"
}

// write plays a checked word for seat.
func (s *state) write(seat game.Seat, word string) []game.Event {
	if s.anywhere() {
		s.cur = int(word[0] - 'a')
	}
	n := s.mode.Deletes(word, s.left)
	p := written{seat: seat, word: word, upper: strings.ToUpper(word), from: s.cur, count: n, deleted: span(s.cur, n)}
	for i := range n {
		s.by[(s.cur+i)%Letters] = int8(seat)
	}
	s.plays = append(s.plays, p)
	s.cur = (s.cur + n) % Letters
	s.left -= n
	s.letters[seat] += n
	s.product[seat] *= n
	s.turns[seat]++
	s.turn = 1 - seat

	evs := []game.Event{{
		Kind: "word",
		Text: s.cfg.Name(seat) + " wrote " + p.upper + ", deleting " + p.deleted,
		Data: WordView{By: int(seat), Word: p.upper, Deleted: p.deleted},
	}}
	if s.left == 0 {
		s.over = true
		evs = append(evs, game.Event{Kind: "end", Text: s.endText(), Data: s.endData(p.upper)})
	}
	return evs
}

// The reasons a game of Nymphabet ends, as its end event gives them.
const (
	// EndDeletedZ: standard mode; the seat's word deleted Z and it loses.
	EndDeletedZ = "deleted_z"
	// EndDeletedLast: cyclic mode; the seat's word deleted the last
	// letter standing and it wins.
	EndDeletedLast = "deleted_last"
	// EndAllDeleted: scoring mode; the seat's word deleted the last
	// letters and the scores decide.
	EndAllDeleted = "all_deleted"
	// EndResign: the seat resigned.
	EndResign = "resign"
)

// endData is the end event's data once the game is over; word is the
// last word written ("" after a resignation).
func (s *state) endData(word string) game.End {
	r := s.Result()
	e := game.End{Seat: s.resigned, Against: game.Spectator, Word: word, Winners: r.Winners, Scores: r.Scores}
	if s.resigned != game.Spectator {
		e.Reason = EndResign
		return e
	}
	e.Seat = s.plays[len(s.plays)-1].seat
	switch s.mode {
	case Standard:
		e.Reason = EndDeletedZ
	case Cyclic:
		e.Reason = EndDeletedLast
	default:
		e.Reason = EndAllDeleted
	}
	return e
}

// Resigned is the data of a resign event.
type Resigned struct {
	Seat game.Seat `json:"seat"`
}

// resign ends the game with seat's loss.
func (s *state) resign(seat game.Seat) []game.Event {
	s.over = true
	s.resigned = seat
	return []game.Event{
		{Kind: "resign", Text: s.cfg.Name(seat) + " resigned", Data: Resigned{Seat: seat}},
		{Kind: "end", Text: s.cfg.Name(1-seat) + " wins", Data: s.endData("")},
	}
}

func (s *state) endText() string {
	last := s.plays[len(s.plays)-1].seat
	switch s.mode {
	case Standard:
		return fmt.Sprintf("%s deleted Z and loses; %s wins", s.cfg.Name(last), s.cfg.Name(1-last))
	case Cyclic:
		return fmt.Sprintf("%s deleted the last letter and wins", s.cfg.Name(last))
	}
	sc := s.scores()
	switch {
	case sc[0] > sc[1]:
		return fmt.Sprintf("%s wins %d to %d", s.cfg.Name(0), sc[0], sc[1])
	case sc[1] > sc[0]:
		return fmt.Sprintf("%s wins %d to %d", s.cfg.Name(1), sc[1], sc[0])
	}
	return fmt.Sprintf("a draw at %d each", sc[0])
}

// scores returns each seat's score: letters deleted, or in scoring mode the
// product of its deletions per turn (0 for a seat that has not written a
// word).
func (s *state) scores() []int {
	if s.mode != Scoring {
		return []int{s.letters[0], s.letters[1]}
	}
	sc := make([]int, 2)
	for i := range sc {
		if s.turns[i] > 0 {
			sc[i] = s.product[i]
		}
	}
	return sc
}

// Result reports the status, the winner (none on a scoring draw) and the
// scores.
func (s *state) Result() game.Result {
	r := game.Result{Status: game.InProgress, Winners: []game.Seat{}, Scores: s.scores()}
	if !s.over {
		return r
	}
	r.Status = game.Finished
	if s.resigned != game.Spectator {
		r.Winners = []game.Seat{1 - s.resigned}
		return r
	}
	last := s.plays[len(s.plays)-1].seat
	switch s.mode {
	case Standard:
		r.Winners = []game.Seat{1 - last}
	case Cyclic:
		r.Winners = []game.Seat{last}
	case Scoring:
		switch sc := r.Scores; {
		case sc[0] > sc[1]:
			r.Winners = []game.Seat{0}
		case sc[1] > sc[0]:
			r.Winners = []game.Seat{1}
		}
	}
	return r
}

// alphabet is the letters in order, to slice single letters from.
const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

// letter returns the upper-case letter i (0 for A).
func letter(i int) string { i %= Letters; return alphabet[i : i+1] }

// span names the n letters from letter i onwards, wrapping after Z:
// "A, B, C".
func span(i, n int) string {
	var b [3 * Letters]byte
	out := b[:0]
	for k := range n {
		if k > 0 {
			out = append(out, ',', ' ')
		}
		out = append(out, byte('A'+(i+k)%Letters))
	}
	return string(out)
}
