package bot

import (
	"cmp"
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"

	"parlour/game"
	"parlour/games/wordfight"
)

// maxExtensions caps the words that hold a word of the player's grid that
// the strong player adds to its candidates.
const maxExtensions = 120

// declare chooses the next word for the list.
func (b *Bot) declare(ctx context.Context, rng *rand.Rand, v *wordfight.View, g *wordfight.Grid) (string, error) {
	longest := g.Board().Longest()
	pick := func() (string, bool) {
		// A handful of tries finds a word that fits any sane board.
		for range 64 {
			w := b.vocab.words[rng.IntN(len(b.vocab.words))]
			if len(w) <= longest {
				return w, true
			}
		}
		return "", false
	}
	if len(b.vocab.words) == 0 {
		return "", errors.New("word fight bot: the lexicon holds no words to declare")
	}
	if b.p.first {
		if w, ok := pick(); ok {
			return w, nil
		}
		return b.shortest(longest)
	}
	cands := make([]string, 0, b.p.candidates+maxExtensions)
	for range b.p.candidates {
		if w, ok := pick(); ok {
			cands = append(cands, w)
		}
	}
	if b.p.extend && g.Len() > 0 {
		cands = append(cands, b.extensions(g, longest)...)
	}
	cands = append(cands, b.crossers(rng, g, b.p.crossers)...)
	if len(cands) == 0 {
		return b.shortest(longest)
	}
	m := newModel(v)
	m.early, m.safe, m.win, m.lose, m.safeEarly = b.p.early, b.p.safe, b.p.win, b.p.lose, b.p.safeEarly
	type scored struct {
		w    string
		mine int
		val  float64
	}
	var ranked []scored
	for _, w := range cands {
		if ctx.Err() != nil && len(ranked) > 0 {
			break
		}
		mine, ok := b.bestScore(v.Rules, g, w)
		if !ok {
			continue
		}
		if !b.p.best {
			return w, nil // easy: the first common word it can place
		}
		val := float64(mine)
		switch {
		case b.p.model && g.Len() == 0:
			val = firstWord(w, longest)
		case b.p.model:
			val = m.value(w, mine, nil)
		}
		ranked = append(ranked, scored{w, mine, val})
	}
	if len(ranked) == 0 {
		return cands[0], nil
	}
	slices.SortStableFunc(ranked, func(x, y scored) int { return cmp.Compare(y.val, x.val) })
	if b.p.imagine > 0 && g.Len() > 0 && len(m.others) > 0 {
		// Weigh the leading candidates again against grids the rivals
		// may hold, imagined from the public list.
		ims := make([]imagined, len(m.others))
		best := 0.0
		for i, r := range m.others {
			ims[i] = b.imagine(ctx, v, g.Board(), r.seat, b.p.imagine)
			best = max(best, ims[i].score)
		}
		m.lead = float64(v.Score) - best
		top := ranked[:min(len(ranked), b.p.shortlist)]
		for i := range top {
			w := top[i].w
			top[i].val = m.value(w, top[i].mine, func(r int) (float64, float64) { return ims[r].guess(b, v.Rules, w, m.others[r]) })
			if b.p.room > 0 {
				// The room the word's placement leaves in the player's
				// own grid for the rivals' later long words.
				top[i].val += b.roomValue(v.Rules, g, w, b.roomWeight(v)) - float64(top[i].mine)
			}
		}
		slices.SortStableFunc(top, func(x, y scored) int { return cmp.Compare(y.val, x.val) })
	}
	best := ranked[0].w
	return best, nil
}

// firstWord values w as the first word of an empty grid, which scores
// nothing under multiply but shapes the game: long enough to offer many
// letters to cross, short enough not to wall the board in two, and with
// many different letters.
func firstWord(w string, longest int) float64 {
	target := min(max(longest/2, 4), 8)
	d := len(w) - target
	return -float64(max(d, -d)) + distinct(w)/10
}

// distinct counts the different letters of w.
func distinct(w string) float64 {
	var seen [26]bool
	n := 0
	for i := 0; i < len(w); i++ {
		if !seen[w[i]-'a'] {
			seen[w[i]-'a'] = true
			n++
		}
	}
	return float64(n)
}

// shortest returns a word that fits a board whose longest line holds
// longest squares, for boards too cramped for the usual picks.
func (b *Bot) shortest(longest int) (string, error) {
	for _, w := range b.vocab.words {
		if len(w) <= longest {
			return w, nil
		}
	}
	for n := 2; n <= longest; n++ {
		if ws := b.lex.OfLength(n); len(ws) > 0 {
			return ws[0], nil
		}
	}
	return "", errors.New("word fight bot: no word of the lexicon fits the board")
}

// bestScore returns the most word can score in g, and whether it fits.
func (b *Bot) bestScore(rules wordfight.Rules, g *wordfight.Grid, w string) (int, bool) {
	top, ok := 0, false
	for _, reused := range g.Placements(b.lex, w) {
		ok = true
		top = max(top, rules.Score(reused, len(w)))
	}
	return top, ok
}

// extensions returns vocabulary words that contain a word of g's rows or
// columns: laid over it, they reuse all its letters. The most common come
// first.
func (b *Bot) extensions(g *wordfight.Grid, longest int) []string {
	seen := map[int32]bool{}
	var idx []int32
	for _, r := range runsOf(g) {
		if len(r) < 3 {
			continue
		}
		for _, k := range b.vocab.withTrigram(r) {
			w := b.vocab.words[k]
			if !seen[k] && len(w) > len(r) && len(w) <= longest && strings.Contains(w, r) {
				seen[k] = true
				idx = append(idx, k)
			}
		}
	}
	slices.Sort(idx)
	out := make([]string, 0, min(len(idx), maxExtensions))
	for _, k := range idx[:min(len(idx), maxExtensions)] {
		out = append(out, b.vocab.words[k])
	}
	return out
}

// runsOf lists the words (runs of two or more letters) across and down in g.
func runsOf(g *wordfight.Grid) []string {
	var out []string
	b := g.Board()
	var cur []byte
	flush := func() {
		if len(cur) >= 2 {
			out = append(out, string(cur))
		}
		cur = cur[:0]
	}
	for r := 0; r < b.Height(); r++ {
		for c := 0; c < b.Width(); c++ {
			if ch := g.At(r, c); ch != 0 {
				cur = append(cur, ch)
			} else {
				flush()
			}
		}
		flush()
	}
	for c := 0; c < b.Width(); c++ {
		for r := 0; r < b.Height(); r++ {
			if ch := g.At(r, c); ch != 0 {
				cur = append(cur, ch)
			} else {
				flush()
			}
		}
		flush()
	}
	return out
}

// model is what the public list says about the other players: which
// letters their grids hold (every word they placed, somewhere) and roughly
// what they have scored.
type model struct {
	others  []rival
	lead    float64 // the player's score less the best rival's estimate
	strikes int
	limit   int
	perWord bool
	mult    bool
	// early, safe, win and lose are the player's params of the same
	// names.
	early, safe, win, lose, safeEarly float64
}

type rival struct {
	seat    game.Seat
	letters [26]bool
	words   int
}

// rivalReuse is the letters a rival is assumed to reuse per word.
const rivalReuse = 1.3

func newModel(v *wordfight.View) *model {
	m := &model{strikes: v.Strikes, limit: v.StrikeLimit, perWord: v.Rules.StrikesPer == wordfight.PerWord, mult: v.Rules.Multiply}
	best := 0.0
	for s := range v.Players {
		if s == int(v.Seat) || (s < len(v.Resigned) && v.Resigned[s]) {
			continue
		}
		r := rival{seat: game.Seat(s)}
		est := 0.0
		for _, e := range v.List {
			if !e.Done || slices.Contains(e.Cannot, game.Seat(s)) {
				continue
			}
			for i := 0; i < len(e.Word); i++ {
				if c := e.Word[i] | 0x20; c >= 'a' && c <= 'z' {
					r.letters[c-'a'] = true
				}
			}
			switch {
			case !m.mult:
				est += float64(e.Length)
			case r.words > 0:
				est += rivalReuse * float64(e.Length)
			}
			r.words++
		}
		best = max(best, est)
		m.others = append(m.others, r)
	}
	m.lead = float64(v.Score) - best
	return m
}

// value weighs declaring w, which the player can place for mine points:
// its margin over the likeliest best rival answer, and what the strikes it
// may bring are worth to a player leading or trailing by m.lead. guess,
// when not nil, gives rival i's chance of placing w and the points it
// would then expect; otherwise the rivals' letters give a rough guess.
func (m *model) value(w string, mine int, guess func(i int) (p, pts float64)) float64 {
	gain := 0.0     // the best rival's expected points
	allPlace := 1.0 // chance that every rival places w
	missing := 0.0  // expected rivals who cannot
	for i, r := range m.others {
		var p, pts float64
		if guess != nil {
			p, pts = guess(i)
		} else {
			p = r.placeChance(w)
			pts = float64(len(w))
			if m.mult {
				pts *= rivalReuse
				if r.words == 0 {
					pts = 0
				}
			}
		}
		gain = max(gain, p*pts)
		allPlace *= p
		missing += 1 - p
	}
	strikes := 1 - allPlace
	if !m.perWord {
		strikes = missing
	}
	val := float64(mine) - gain
	// Strikes end the game: welcome while ahead, feared while behind.
	left := float64(m.limit - m.strikes)
	after := m.lead + float64(mine) - gain
	margin, earlyMargin := 3.0, 3.0
	if m.mult {
		margin, earlyMargin = m.safe, max(m.safe, m.safeEarly)
	}
	switch {
	case strikes == 0:
	case strikes >= left && after > margin:
		// The rivals surely cannot all place it: the game ends with the
		// player ahead. (Gambling on likely strikes does worse: the
		// rivals' scores are only estimates.)
		val += 100
	case strikes >= left:
		val -= 100
	case left <= 1 && after > margin:
		val += m.win * strikes
	case left <= 1:
		val -= m.lose * strikes
	case after > earlyMargin:
		val += m.early * strikes / left
	default:
		val -= m.early * strikes / left
	}
	// Between equals, more distinct letters give later words more to cross.
	return val + distinct(w)/20
}

// placeChance estimates the chance that a rival can place w: none when w
// shares no letter with any word in their grid, better the more of w's
// letters they could cross.
func (r rival) placeChance(w string) float64 {
	if r.words == 0 {
		return 1
	}
	k := 0
	for i := 0; i < len(w); i++ {
		if r.letters[w[i]-'a'] {
			k++
		}
	}
	p := 1.0
	for range k {
		p *= 0.5
	}
	return 1 - p
}
