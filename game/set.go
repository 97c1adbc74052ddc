package game

import "slices"

// SetTargetOption is the rule option that makes a game's tables play sets:
// a game that lists it carries scores from game to game until somebody's
// total reaches the target (Quizl does).
const SetTargetOption = "set_target"

// Set is a set of games played for a target total. The set ends after the
// game in which somebody's total reaches Target; the highest total wins,
// and a tie at the top plays another game.
type Set struct {
	// Target is the total that ends the set.
	Target int `json:"target"`
	// Games counts the games added.
	Games int `json:"games"`
	// Totals holds each seat's total so far.
	Totals []int `json:"totals"`
	// Over and Winners are set once the set has ended.
	Over    bool  `json:"over,omitempty"`
	Winners []int `json:"winners,omitempty"`
}

// NewSet starts a set for players seats with the given target. For up
// to four players the totals share the set's allocation: a table keeps
// its set as long as it lives.
func NewSet(players, target int) *Set {
	if players <= 4 {
		b := &struct {
			s      Set
			totals [4]int
		}{s: Set{Target: target}}
		b.s.Totals = b.totals[:players:players]
		return &b.s
	}
	return &Set{Target: target, Totals: make([]int, players)}
}

// Clone returns a copy of s that shares nothing with it, or nil for nil:
// sets are changed by copying, as views already handed out hold the old.
func (s *Set) Clone() *Set {
	if s == nil {
		return nil
	}
	c := *s
	c.Totals = slices.Clone(s.Totals)
	c.Winners = slices.Clone(s.Winners)
	return &c
}

// Add adds one finished game's scores, seat by seat, to the totals and
// reports whether the set is now over and, if so, the seats with the
// highest total. Adding to a set that is over changes nothing.
func (s *Set) Add(scores []int) (over bool, winners []int) {
	if s.Over {
		return true, s.Winners
	}
	s.Games++
	for i := range s.Totals {
		if i < len(scores) {
			s.Totals[i] += scores[i]
		}
	}
	s.Over, s.Winners = s.over()
	return s.Over, s.Winners
}

func (s *Set) over() (bool, []int) {
	best, reached := 0, false
	for i, t := range s.Totals {
		if i == 0 || t > best {
			best = t
		}
		reached = reached || t >= s.Target
	}
	if !reached || len(s.Totals) == 0 {
		return false, nil
	}
	var w []int
	for i, t := range s.Totals {
		if t == best {
			w = append(w, i)
		}
	}
	if len(w) > 1 {
		return false, nil // a tie at the top plays another game
	}
	return true, w
}

// AppendJSON appends s as json.Marshal encodes it: every update of a
// table played in a set carries it.
func (s *Set) AppendJSON(b []byte) []byte {
	b = append(b, `{"target":`...)
	b = AppendJSONInt(b, s.Target)
	b = append(b, `,"games":`...)
	b = AppendJSONInt(b, s.Games)
	b = append(b, `,"totals":`...)
	b = AppendJSONInts(b, s.Totals)
	if s.Over {
		b = append(b, `,"over":true`...)
	}
	if len(s.Winners) > 0 {
		b = append(b, `,"winners":`...)
		b = AppendJSONInts(b, s.Winners)
	}
	return append(b, '}')
}
