package bot

import (
	"math"
	"slices"

	"parlour/games/quizl"
)

// knowledge is what a seat knows of one opponent's grid.
type knowledge struct {
	known     [quizl.Squares]int8 // letter 0-25, or -1
	count     int                 // squares known
	lineKnown [quizl.Lines]int    // known squares on each line
	offMask   [quizl.Lines]uint32 // letters known off each line
	wrong     []string            // words already announced wrongly
	// wrongSet holds wrong as a set once it is long, for wasWrong: with
	// no penalty a game may hold hundreds of them, and every word that
	// fits a line is checked.
	wrongSet map[string]bool
	// parallel is how much likelier, in log terms, a line gets for each
	// word announced wrongly that fits a line parallel to it (see
	// decoyLines); 0 ignores the wrong words' lines.
	parallel float64
	// shapes, when not nil, weighs each hypothesis by how well the lines
	// parallel to its line read as decoys (see shapeLines), shapeW times.
	shapes *decoys
	shapeW float64
	// hidden weighs the vocabulary's hiding shares (vocab.hideLog): how
	// likely a deceptive setter is to hide each word on each line index.
	// It counts from the first call; with nothing seen it makes the
	// square where the likeliest indexes cross the best opening on every
	// grid, so the bot draws its opening among the squares near the best
	// (level.openTie) rather than always opening there.
	hidden float64
}

// read builds the knowledge of a board as the view shows it.
func read(b *quizl.Board) *knowledge {
	k := &knowledge{wrong: b.Wrong}
	if len(b.Wrong) > 8 {
		k.wrongSet = make(map[string]bool, len(b.Wrong))
		for _, w := range b.Wrong {
			k.wrongSet[w] = true
		}
	}
	var all uint32
	for sq := range quizl.Square(quizl.Squares) {
		c := b.Letter(sq)
		if c < 'A' || c > 'Z' {
			k.known[sq] = -1
			continue
		}
		k.known[sq] = int8(c - 'A')
		k.count++
		all |= 1 << (c - 'A')
	}
	for l := range quizl.Line(quizl.Lines) {
		var on uint32
		for i := range quizl.Size {
			if x := k.known[l.Square(i)]; x >= 0 {
				k.lineKnown[l]++
				on |= 1 << x
			}
		}
		k.offMask[l] = all &^ on
	}
	return k
}

// wasWrong says whether word was announced wrongly.
func (k *knowledge) wasWrong(word string) bool {
	if k.wrongSet != nil {
		return k.wrongSet[word]
	}
	return slices.Contains(k.wrong, word)
}

// cand is one hypothesis: the password is word w on line line.
type cand struct {
	line quizl.Line
	w    int32
	p    float64
}

// analysis is the solver's belief about one grid and what each call of a
// square would tell.
type analysis struct {
	v      *vocab
	cands  []cand
	wordP  []float64 // per word of v, summed over lines
	best   int32     // the likeliest word, -1 when none
	bestP  float64
	pOn    [quizl.Squares]float64 // the square lies on the password's line
	pTrip  [quizl.Squares]float64 // calling it would uncover the whole password
	gain   [quizl.Squares]float64 // expected information (nats) a call yields
	linesP [quizl.Lines]float64
}

// analyse weighs every (line, word) hypothesis consistent with k: a word
// must match the known letters on its line and hold no letter seen off it;
// its weight is its prior times the chance of the letters seen off the
// line, when the other 20 squares hold the unused letters at random.
func analyse(v *vocab, k *knowledge) *analysis {
	a := &analysis{v: v, best: -1, cands: make([]cand, 0, 4096)}
	var pat [quizl.Lines][5]int8
	for l := range quizl.Line(quizl.Lines) {
		for i := range quizl.Size {
			pat[l][i] = k.known[l.Square(i)]
		}
	}
	var lineLog [quizl.Lines]float64
	if k.parallel != 0 {
		lineLog = decoyLines(k, &pat)
	}
	if k.shapes != nil && k.shapeW != 0 {
		sl := shapeLines(k.shapes, &pat)
		for l := range lineLog {
			lineLog[l] += k.shapeW * sl[l]
		}
	}
	maxLog := math.Inf(-1)
	for l := range quizl.Line(quizl.Lines) {
		m := k.lineKnown[l]
		if m == quizl.Size {
			continue // it would have been tripped over
		}
		off := k.count - m
		like := logFact(21-off) + lineLog[l]
		idx := int(l) % quizl.Size
		for wi := range v.words {
			e := &v.words[wi]
			if e.mask&k.offMask[l] != 0 {
				continue
			}
			ok := true
			for i := range quizl.Size {
				if x := pat[l][i]; x >= 0 && uint8(x) != e.b[i] {
					ok = false
					break
				}
			}
			if !ok || k.wasWrong(e.word) {
				continue
			}
			lw := e.logPrior + like
			if v.hideLog != nil && k.hidden != 0 {
				lw += k.hidden * v.hideLog[wi][idx]
			}
			maxLog = max(maxLog, lw)
			a.cands = append(a.cands, cand{line: l, w: int32(wi), p: lw})
		}
	}
	if len(a.cands) == 0 {
		return a
	}
	a.wordP = make([]float64, len(v.words))
	var sum float64
	for i := range a.cands {
		a.cands[i].p = math.Exp(a.cands[i].p - maxLog)
		sum += a.cands[i].p
	}
	// r[l] is how many letters may stand in a square off line l, under
	// the hypotheses on l.
	var r, logR [quizl.Lines]float64
	for l := range quizl.Lines {
		r[l] = float64(21 - (k.count - k.lineKnown[l]))
		logR[l] = math.Log(r[l])
	}
	// Per line and position, the weight of each letter; per line, the
	// weight of hypotheses off it spread over the letters they leave free.
	var onLetter [quizl.Lines][5][26]float64
	var lineOff [quizl.Lines]float64
	var lineOffIn [quizl.Lines][26]float64
	var lineOffLog [quizl.Lines]float64
	var allOff, allOffLog float64
	var allOffIn [26]float64
	for i := range a.cands {
		c := &a.cands[i]
		c.p /= sum
		e := &v.words[c.w]
		a.wordP[c.w] += c.p
		a.linesP[c.line] += c.p
		for j := range quizl.Size {
			onLetter[c.line][j][e.b[j]] += c.p
		}
		q := c.p / r[c.line]
		lr := c.p * logR[c.line]
		lineOff[c.line] += q
		lineOffLog[c.line] += lr
		allOff += q
		allOffLog += lr
		for j := range quizl.Size {
			lineOffIn[c.line][e.b[j]] += q
			allOffIn[e.b[j]] += q
		}
	}
	for w, p := range a.wordP {
		if p > a.bestP {
			a.best, a.bestP = int32(w), p
		}
	}
	var seen uint32
	for _, x := range k.known {
		if x >= 0 {
			seen |= 1 << x
		}
	}
	for sq := range quizl.Square(quizl.Squares) {
		if k.known[sq] >= 0 {
			continue
		}
		r, c := quizl.RowOf(sq), quizl.ColOf(sq)
		a.pOn[sq] = a.linesP[r] + a.linesP[c]
		for _, l := range []quizl.Line{r, c} {
			if k.lineKnown[l] == quizl.Size-1 {
				a.pTrip[sq] += a.linesP[l]
			}
		}
		offW := allOff - lineOff[r] - lineOff[c]
		var h float64
		for x := range 26 {
			px := onLetter[r][sq.Col()][x] + onLetter[c][sq.Row()-5][x]
			if seen&(1<<x) == 0 {
				px += offW - (allOffIn[x] - lineOffIn[r][x] - lineOffIn[c][x])
			}
			if px > 1e-12 {
				h -= px * math.Log(px)
			}
		}
		// The information a call gives: the entropy of the letter it shows,
		// less what stays random under hypotheses off the square's lines.
		a.gain[sq] = h - (allOffLog - lineOffLog[r] - lineOffLog[c])
	}
	return a
}

// word returns the upper-case word of index w.
func (a *analysis) word(w int32) string { return a.v.words[w].word }

// trips finds, for each line of k with four letters known, the likeliest
// word of v that fits it, and returns it by the line's last unknown
// square: calling that square would trip over the word if it is the
// password. The map is nil when no square is a risk.
func trips(v *vocab, k *knowledge) map[quizl.Square]int32 {
	var out map[quizl.Square]int32
	for l := range quizl.Line(quizl.Lines) {
		if k.lineKnown[l] != quizl.Size-1 {
			continue
		}
		hole := quizl.Square(-1)
		best, bestP := int32(-1), math.Inf(-1)
	words:
		for wi := range v.words {
			e := &v.words[wi]
			if e.mask&k.offMask[l] != 0 || e.logPrior <= bestP {
				continue
			}
			for i := range quizl.Size {
				sq := l.Square(i)
				if x := k.known[sq]; x < 0 {
					hole = sq
				} else if uint8(x) != e.b[i] {
					continue words
				}
			}
			if k.wasWrong(e.word) {
				continue
			}
			best, bestP = int32(wi), e.logPrior
		}
		if best >= 0 {
			if out == nil {
				out = map[quizl.Square]int32{}
			}
			if old, ok := out[hole]; !ok || v.words[old].logPrior < bestP {
				out[hole] = best
			}
		}
	}
	return out
}

// decoyLines returns, per line, k.parallel times the number of words
// announced wrongly that fit another line parallel to it, one with at
// least three letters known. A deceptive grid maker lays its decoys, the
// near-misses of words that draw wrong announcements, parallel to the
// password (see decoys.lure), so a decoy found makes the lines parallel
// to it likelier to hold the password than the lines crossing it.
func decoyLines(k *knowledge, pat *[quizl.Lines][5]int8) [quizl.Lines]float64 {
	var out [quizl.Lines]float64
	for _, w := range k.wrong {
		if len(w) != quizl.Size {
			continue
		}
		for l := range quizl.Line(quizl.Lines) {
			if k.lineKnown[l] < 3 {
				continue
			}
			fits := true
			for i := range quizl.Size {
				if x := pat[l][i]; x >= 0 && byte(x)+'A' != w[i] {
					fits = false
					break
				}
			}
			if !fits {
				continue
			}
			for p := range quizl.Line(quizl.Lines) {
				if p != l && p.IsRow() == l.IsRow() {
					out[p] += k.parallel
				}
			}
		}
	}
	return out
}

// shapeLines returns, per line, the log of how much likelier the letters
// known on the four lines parallel to it are if those lines are decoys
// than if they were filled at random. A deceptive grid maker fills the
// lines parallel to the password with near-misses of common words and
// leaves the crossing lines random (see decoys.lure), so under the
// hypothesis that the password lies on line l, the letters seen on the
// lines parallel to l were drawn like a word's and the others at random.
// Two rows that both read like the start of a word then say the password
// is a row (one of them is a decoy), and lines that read like nothing say
// it crosses them.
// shapeMiss is the share of the lines parallel to a password that the
// solver takes for random rather than decoys.
const shapeMiss = 0.25

func shapeLines(d *decoys, pat *[quizl.Lines][5]int8) [quizl.Lines]float64 {
	var llr [quizl.Lines]float64
	for l := range quizl.Line(quizl.Lines) {
		// Not every parallel line comes out a good decoy: a share of
		// them read as random, which keeps a line of odd letters from
		// ruling its orientation out.
		llr[l] = math.Log(shapeMiss + (1-shapeMiss)*math.Exp(d.wordlike(&pat[l])))
	}
	var rows, cols float64
	for l := range quizl.Line(quizl.Lines) {
		if l.IsRow() {
			rows += llr[l]
		} else {
			cols += llr[l]
		}
	}
	var out [quizl.Lines]float64
	for l := range quizl.Line(quizl.Lines) {
		if l.IsRow() {
			out[l] = rows - llr[l]
		} else {
			out[l] = cols - llr[l]
		}
	}
	return out
}
