package wordfight

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"parlour/game"
)

// State is one play of Sightless Word Fight. It implements game.State.
//
// Result reports every player's points at any time, for the record tools;
// a front end must show a player only their View, where other players'
// scores stay hidden until the end.
type State struct {
	cfg   game.Config
	rules Rules
	board *Board

	grids    []*Grid
	scores   []int
	resigned []bool
	strikes  int
	list     []entry

	declarer  game.Seat // who declares next, or declared the current word
	answering bool      // the last word of list awaits answers
	answered  []bool    // who has answered the current word

	over    bool
	winners []game.Seat
	// The audit is made on first demand once the game is over: replaying
	// a record need not pay for it.
	auditOnce sync.Once
	audit     []SeatAudit
}

// entry is one word of the public list and everybody's answer to it.
type entry struct {
	word    string // lower case
	upper   string // upper case, as shown
	by      game.Seat
	answers []answer // one per seat
	done    bool     // every player still in has answered
	cannot  []game.Seat
	strikes int // strikes this word gave
}

// answer is one seat's answer to one word.
type answer struct {
	given  bool // false: not (yet) answered, e.g. after resigning
	cannot bool
	at     Placement
	text   string // "place B2 across", made once
	reused int
	points int
}

func (a answer) move() string {
	switch {
	case !a.given:
		return ""
	case a.cannot:
		return "cannot"
	}
	return a.text
}

// Rules returns the play's rules.
func (s *State) Rules() Rules { return s.rules }

// Board returns the play's board.
func (s *State) Board() *Board { return s.board }

// ToMove implements game.State: the declarer while a word is awaited, every
// player who has not yet answered while the current word is being placed,
// and nobody once the game is over.
func (s *State) ToMove() []game.Seat {
	if s.over {
		return nil
	}
	if !s.answering {
		return []game.Seat{s.declarer}
	}
	out := make([]game.Seat, 0, len(s.answered))
	for i, a := range s.answered {
		if !a && !s.resigned[i] {
			out = append(out, game.Seat(i))
		}
	}
	return out
}

// Result implements game.State. Scores are every player's points; see the
// note on State about their secrecy.
func (s *State) Result() game.Result {
	r := game.Result{Status: game.InProgress, Scores: slices.Clone(s.scores), Winners: []game.Seat{}}
	if s.over {
		r.Status = game.Finished
		r.Winners = append(r.Winners, s.winners...) // never nil: no winner is []
	}
	return r
}

// Out implements game.Leaver: a player who resigned answers no more
// words, while the others play on.
func (s *State) Out(seat game.Seat) bool {
	return seat >= 0 && int(seat) < len(s.resigned) && s.resigned[seat]
}

// Strikes reports the strikes so far.
func (s *State) Strikes() int { return s.strikes }

// MaxInput is the longest move Apply reads.
const MaxInput = 200

// Apply implements game.State. Moves are "declare WORD", "place B2 across",
// "place B2 down", "cannot" and "resign", in any letter case.
func (s *State) Apply(seat game.Seat, move string) ([]game.Event, error) {
	if len(move) > MaxInput {
		return nil, fmt.Errorf("that move is %d characters long: no move is longer than %d", len(move), MaxInput)
	}
	f := strings.Fields(move)
	verb := ""
	if len(f) > 0 {
		verb = strings.ToLower(f[0])
	}
	if verb == "resign" {
		if len(f) != 1 {
			return nil, fmt.Errorf("%q: resign takes nothing after it", clipText(move))
		}
		return s.resign(seat)
	}
	if err := game.CheckTurn(s.cfg, s.ToMove(), seat); err != nil {
		return nil, err
	}
	switch verb {
	case "declare":
		return s.declare(seat, f[1:])
	case "place":
		return s.place(seat, f[1:])
	case "cannot":
		if len(f) != 1 {
			return nil, fmt.Errorf("%q: cannot takes nothing after it", clipText(move))
		}
		return s.cannot(seat)
	case "":
		return nil, fmt.Errorf("empty move: %s", s.expecting(seat))
	}
	return nil, fmt.Errorf("%q is not a move: %s", clipText(move), s.meant(seat, move))
}

// meant says the move a player who wrote move most likely meant: a bare
// word, when a word is to be declared, is that word declared; a placement
// without "place", when one is waiting, is that placement. Otherwise it is
// what the seat may do now.
func (s *State) meant(seat game.Seat, move string) string {
	f := strings.Fields(move)
	if !s.answering && len(f) == 1 && len(f[0]) <= MaxSide && strings.Trim(strings.ToLower(f[0]), "abcdefghijklmnopqrstuvwxyz") == "" {
		return fmt.Sprintf("to declare %s, write \"declare %s\"", strings.ToUpper(f[0]), strings.ToUpper(f[0]))
	}
	if s.answering {
		if p, err := ParsePlacement(move); err == nil {
			return fmt.Sprintf("to place %s at %s, write \"place %s\"", s.current(), p, p)
		}
	}
	return s.expecting(seat)
}

// expecting says what seat, who is to move, may do now.
func (s *State) expecting(seat game.Seat) string {
	if !s.answering {
		return "declare a word, as in \"declare TOPICAL\" (or resign)"
	}
	return fmt.Sprintf("place %s, as in \"place B2 across\" or \"place B2 down\", or say \"cannot\" (or resign)", s.current())
}

func (s *State) current() string { return s.list[len(s.list)-1].upper }

func (s *State) declare(seat game.Seat, args []string) ([]game.Event, error) {
	if s.answering {
		return nil, fmt.Errorf("declare: %s is still being placed: place it or say cannot", s.current())
	}
	if len(args) != 1 {
		return nil, fmt.Errorf("declare: name one word, as in \"declare TOPICAL\"")
	}
	raw := args[0]
	shown := strings.ToUpper(clipText(raw))
	w := strings.ToLower(raw)
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return nil, fmt.Errorf("declare %s: a word is letters A-Z only", shown)
		}
	}
	if len(w) < 2 {
		return nil, fmt.Errorf("declare %s: a word has at least two letters", shown)
	}
	if len(w) > s.board.Longest() {
		return nil, fmt.Errorf("declare %s: %d letters cannot fit the board, where the longest line holds %d", shown, len(w), s.board.Longest())
	}
	if !s.cfg.Lexicon.Has(w) {
		return nil, fmt.Errorf("declare %s: %s is not in the lexicon", shown, shown)
	}
	W := strings.ToUpper(w)
	s.list = append(s.list, entry{word: w, upper: W, by: seat, answers: make([]answer, len(s.grids))})
	s.answering = true
	clear(s.answered)
	return []game.Event{{
		Kind: "declare",
		Text: s.cfg.Name(seat) + " declares " + W + " (" + strconv.Itoa(len(w)) + " letters)",
		Data: DeclareEvent{Seat: seat, Number: len(s.list), Word: W, Length: len(w)},
	}}, nil
}

func (s *State) place(seat game.Seat, args []string) ([]game.Event, error) {
	if !s.answering {
		return nil, fmt.Errorf("no word is waiting to be placed: %s", s.expecting(seat))
	}
	e := &s.list[len(s.list)-1]
	p, err := ParsePlacement(strings.Join(args, " "))
	if err != nil {
		return nil, err // the square's own words: "place" says nothing more
	}
	reused, err := s.grids[seat].Check(s.cfg.Lexicon, e.word, p)
	if err != nil {
		return nil, err
	}
	s.grids[seat].Place(e.word, p)
	pts := s.rules.Score(reused, len(e.word))
	s.scores[seat] += pts
	e.answers[seat] = answer{given: true, at: p, text: "place " + p.String(), reused: reused, points: pts}
	s.answered[seat] = true
	W := strings.ToUpper(e.word)
	text := "you placed " + W + " at " + p.String() + ": "
	if s.rules.Multiply {
		text += strconv.Itoa(reused) + " reused x " + strconv.Itoa(len(e.word)) + " letters = "
	}
	text += game.Count(pts, "point", "points")
	evs := []game.Event{
		{To: []game.Seat{seat}, Kind: "placed", Text: text,
			Data: PlacedEvent{Seat: seat, Word: W, At: p.String(), Reused: reused, Points: pts, Score: s.scores[seat]}},
		s.answeredEvent(seat),
	}
	return s.afterAnswer(evs), nil
}

func (s *State) cannot(seat game.Seat) ([]game.Event, error) {
	if !s.answering {
		return nil, fmt.Errorf("cannot: no word is waiting to be placed: %s", s.expecting(seat))
	}
	e := &s.list[len(s.list)-1]
	e.answers[seat] = answer{given: true, cannot: true}
	s.answered[seat] = true
	W := strings.ToUpper(e.word)
	evs := []game.Event{
		{To: []game.Seat{seat}, Kind: "cannot", Text: "you did not place " + W,
			Data: PlacedEvent{Seat: seat, Word: W, Score: s.scores[seat]}},
		s.answeredEvent(seat),
	}
	return s.afterAnswer(evs), nil
}

func (s *State) answeredEvent(seat game.Seat) game.Event {
	W := s.current()
	return game.Event{Kind: "answered", Text: s.cfg.Name(seat) + " has answered " + W,
		Data: AnsweredEvent{Seat: seat, Word: W}}
}

// afterAnswer closes the current word once everybody still playing has
// answered it: strikes, then the end or the next declarer.
func (s *State) afterAnswer(evs []game.Event) []game.Event {
	for i, a := range s.answered {
		if !a && !s.resigned[i] {
			return evs
		}
	}
	e := &s.list[len(s.list)-1]
	e.done = true
	s.answering = false
	for i, a := range e.answers {
		if a.given && a.cannot {
			e.cannot = append(e.cannot, game.Seat(i))
		}
	}
	switch {
	case len(e.cannot) == 0:
	case s.rules.StrikesPer == PerPlayer:
		e.strikes = len(e.cannot)
	default:
		e.strikes = 1
	}
	s.strikes += e.strikes
	W := strings.ToUpper(e.word)
	text := "everyone placed " + W
	if len(e.cannot) > 0 {
		names := make([]string, len(e.cannot))
		for i, c := range e.cannot {
			names[i] = s.cfg.Name(c)
		}
		text = fmt.Sprintf("%s could not place %s: %s, %d of %d", strings.Join(names, ", "), W, game.Count(e.strikes, "strike", "strikes"), s.strikes, s.rules.StrikeLimit)
	}
	evs = append(evs, game.Event{Kind: "word_done", Text: text,
		Data: WordDoneEvent{Number: len(s.list), Word: W, Cannot: slices.Clone(e.cannot), Added: e.strikes, Strikes: s.strikes, Limit: s.rules.StrikeLimit}})
	if s.strikes >= s.rules.StrikeLimit {
		why := game.End{Reason: EndStrikes, Seat: e.by, Against: game.Spectator, Word: W}
		return append(evs, s.end(game.Count(s.strikes, "strike", "strikes"), why, slices.Clone(e.cannot)))
	}
	s.declarer = s.nextActive(e.by)
	return evs
}

// nextActive returns the first seat after from, in seat order, that has not
// resigned.
func (s *State) nextActive(from game.Seat) game.Seat {
	n := len(s.grids)
	for i := 1; i <= n; i++ {
		c := game.Seat((int(from) + i) % n)
		if !s.resigned[c] {
			return c
		}
	}
	return from
}

func (s *State) resign(seat game.Seat) ([]game.Event, error) {
	if s.over {
		return nil, fmt.Errorf("%w: the game is over", game.ErrNotYourTurn)
	}
	if seat < 0 || int(seat) >= len(s.grids) {
		return nil, fmt.Errorf("resign: only a player can resign")
	}
	if s.resigned[seat] {
		return nil, fmt.Errorf("resign: you have already resigned")
	}
	s.resigned[seat] = true
	evs := []game.Event{{Kind: "resign", Text: fmt.Sprintf("%s resigns", s.cfg.Name(seat)), Data: ResignEvent{Seat: seat}}}
	active := 0
	for _, r := range s.resigned {
		if !r {
			active++
		}
	}
	if active < 2 {
		return append(evs, s.end("resignation", game.End{Reason: EndResign, Seat: seat, Against: game.Spectator}, nil)), nil
	}
	if s.answering {
		return s.afterAnswer(evs), nil
	}
	if s.declarer == seat {
		s.declarer = s.nextActive(seat)
	}
	return evs, nil
}

// The reasons a game of Sightless Word Fight ends, as its end event gives
// them.
const (
	// EndStrikes: the strikes reached the limit with Word, declared by
	// Seat, which the players in Cannot could not place.
	EndStrikes = "strikes"
	// EndResign: Seat resigned, leaving fewer than two players.
	EndResign = "resign"
)

// end finishes the game: the players still in with the most points win.
// why says it in words, data in fields (its result is filled in here),
// cannot lists who could not place the last word.
func (s *State) end(why string, data game.End, cannot []game.Seat) game.Event {
	s.over = true
	s.answering = false
	best := -1
	for i, sc := range s.scores {
		if s.resigned[i] {
			continue
		}
		switch {
		case sc > best:
			best = sc
			s.winners = []game.Seat{game.Seat(i)}
		case sc == best:
			s.winners = append(s.winners, game.Seat(i))
		}
	}
	names := make([]string, len(s.winners))
	for i, w := range s.winners {
		names[i] = s.cfg.Name(w)
	}
	verb := "wins"
	if len(names) > 1 {
		verb = "share the win"
	}
	data.Winners, data.Scores = slices.Clone(s.winners), slices.Clone(s.scores)
	if data.Winners == nil {
		data.Winners = []game.Seat{}
	}
	return game.Event{Kind: "end",
		Text: fmt.Sprintf("the game ends after %s: %s %s with %s", why, strings.Join(names, " and "), verb, game.Count(best, "point", "points")),
		Data: EndEvent{End: data, Cannot: cannot}}
}

// Audit returns the end-of-game audit of every player (see Audit), or nil
// while the game goes on.
func (s *State) Audit() []SeatAudit {
	if !s.over {
		return nil
	}
	s.auditOnce.Do(func() {
		s.audit = Audit(s.board, s.rules.Multiply, s.cfg.Lexicon, s.entries(true), s.scores)
	})
	return slices.Clone(s.audit)
}

// The events' data, for front ends.
type (
	// DeclareEvent is a new word on the public list.
	DeclareEvent struct {
		Seat   game.Seat `json:"seat"`
		Number int       `json:"number"`
		Word   string    `json:"word"`
		Length int       `json:"length"`
	}
	// PlacedEvent tells one player where their word went (At empty: they
	// said cannot) and what it scored. Only that player sees it.
	PlacedEvent struct {
		Seat   game.Seat `json:"seat"`
		Word   string    `json:"word"`
		At     string    `json:"at,omitempty"`
		Reused int       `json:"reused"`
		Points int       `json:"points"`
		Score  int       `json:"score"`
	}
	// AnsweredEvent says that a player has answered the current word, not how.
	AnsweredEvent struct {
		Seat game.Seat `json:"seat"`
		Word string    `json:"word"`
	}
	// WordDoneEvent closes a word once everybody has answered: who could
	// not place it, and the strikes so far.
	WordDoneEvent struct {
		Number int         `json:"number"`
		Word   string      `json:"word"`
		Cannot []game.Seat `json:"cannot,omitempty"`
		// Added is the strikes this word gave, Strikes the strikes so
		// far, Limit the strikes that end the game.
		Added   int `json:"added"`
		Strikes int `json:"strikes"`
		Limit   int `json:"limit"`
	}
	// ResignEvent says a player has left the game.
	ResignEvent struct {
		Seat game.Seat `json:"seat"`
	}
	// EndEvent is why the game ended and the result; the final views
	// show the grids and the audit. Cannot lists who could not place the
	// word that gave the last strike.
	EndEvent struct {
		game.End
		Cannot []game.Seat `json:"cannot,omitempty"`
	}
)

// Forfeit implements game.Forfeiter: a seat whose time ran out while a
// word waits for its answer says "cannot" (it scores nothing for the
// word, and the word counts as not placed); a declarer whose time ran
// out resigns, since nobody may choose a word for it.
func (s *State) Forfeit(seat game.Seat) string {
	if !s.over && s.answering && int(seat) < len(s.answered) && !s.answered[seat] && !s.resigned[seat] {
		return "cannot"
	}
	return "resign"
}
