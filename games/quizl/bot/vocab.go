package bot

import (
	"math"

	"parlour/games/quizl"
	"parlour/lexicon"
)

// entry is one word a password might be.
type entry struct {
	word     string   // upper-case
	b        [5]uint8 // letters 0-25
	mask     uint32   // the set of its letters
	logPrior float64  // how likely a person picks it, by commonness
}

// vocab is a list of candidate passwords with their prior weights.
type vocab struct {
	words []entry
	// hideLog, when not nil, holds per word the log of the share of a
	// deceptive setter's grids that hide it on each line index (see
	// decoys.hideShares), times 5: 0 where the setter is indifferent.
	hideLog [][quizl.Size]float64
}

// withHiding returns a copy of v whose words carry the hiding shares of d.
func (v *vocab) withHiding(d *decoys) *vocab {
	out := &vocab{words: v.words, hideLog: make([][quizl.Size]float64, len(v.words))}
	for i := range v.words {
		for k, p := range d.hideShares(&v.words[i].b) {
			out.hideLog[i][k] = math.Log(p * quizl.Size)
		}
	}
	return out
}

// newVocab collects the words of lex fit to be passwords whose commonness
// is at most maxCommon.
func newVocab(lex *lexicon.Lexicon, maxCommon int) *vocab {
	ws := quizl.Passwords(lex, maxCommon)
	v := &vocab{words: make([]entry, 0, len(ws))}
	for _, w := range ws {
		c, _ := lex.Commonness(w)
		e := entry{logPrior: logPrior(c)}
		up := make([]byte, 5)
		for i := range 5 {
			e.b[i] = w[i] - 'a'
			e.mask |= 1 << e.b[i]
			up[i] = w[i] - 'a' + 'A'
		}
		e.word = string(up)
		v.words = append(v.words, e)
	}
	return v
}

// logPrior is the log of the weight a word of SCOWL size c gets as a
// password: people choose common words.
func logPrior(c int) float64 {
	switch {
	case c <= 10:
		return 0
	case c <= 20:
		return -0.2
	case c <= 35:
		return -0.5
	case c <= 40:
		return -1.5
	case c <= 50:
		return -2.5
	case c <= 60:
		return -3.5
	case c <= 70:
		return -5
	}
	return -6
}

// logFact[n] is log(n!).
func logFact(n int) float64 {
	v, _ := math.Lgamma(float64(n + 1))
	return v
}
