package bot

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"parlour/games/quizl"
	"parlour/lexicon"
)

// wild marks the unknown position of a decoy pattern.
const wild = 31

// illegal is the score of a line that reads a word.
const illegal = -1e6

// decoys indexes the words a line could be mistaken for: for each word
// and each position, the pattern of its other four letters.
type decoys struct {
	near  map[uint32]*[26]float32 // pattern -> weight of each letter completing it
	near3 map[uint32]float32      // pattern with two holes -> weight of the words completing it
	// pos[p][x] is the log of the share of the words with letter x at
	// position p, and posH[p] the entropy of the letter at position p.
	pos   [5][26]float64
	posH  [5]float64
	three float64         // how much three-letter matches count
	posW  float64         // how much letters in likely positions count
	miss  float64         // how much more a near word counts when its odd letter is the missing one
	count map[uint32]int  // pattern -> words completing it
	exact map[uint32]bool // the words themselves
	// m1, m2, m3 and m4 are the logs of the weight of the words with
	// given letters on one, two, three and four positions (by position,
	// pair, triple, and the pattern of key with one hole), plus a floor of
	// a thousandth of what a random pattern gets, so that a pattern no
	// word has does not score minus infinity; m4miss is the log of the
	// floor of four positions.
	m1     [5][26]float32
	m2     [10][26 * 26]float32
	m3     [10][26 * 26 * 26]float32
	m4     map[uint32]float32
	m4miss float32
	// subW weighs decoys.subsets against decoys.line.
	subW float64
	// logTot is the log of the weight of every word.
	logTot float64
	// pairs and triples list the pairs and triples of positions in a
	// line, in the order of m2 and m3.
	pairs   [10][2]int
	triples [10][3]int
}

// positionSets returns the pairs and triples of positions in a line.
func positionSets() (p [10][2]int, t [10][3]int) {
	n, m := 0, 0
	for a := range 5 {
		for b := a + 1; b < 5; b++ {
			p[n] = [2]int{a, b}
			n++
			for c := b + 1; c < 5; c++ {
				t[m] = [3]int{a, b, c}
				m++
			}
		}
	}
	return p, t
}

func key(l *[5]uint8, hole int) uint32 { return keys(l, hole, -1) }

// keys is key with up to two holes.
func keys(l *[5]uint8, hole, hole2 int) uint32 {
	var k uint32
	for i := range 5 {
		x := uint32(l[i])
		if i == hole || i == hole2 {
			x = wild
		}
		k = k<<5 | x
	}
	return k
}

// decoysKey names the decoys among what is derived from a lexicon.
type decoysKey struct{}

// decoysOf returns the decoys of full, the whole vocabulary of lex. They
// are made once per lexicon and kept with it: they are read only once
// made, and making them takes longer than annealing a filling.
func decoysOf(lex *lexicon.Lexicon, full *vocab) *decoys {
	return lex.Derived(decoysKey{}, func() any { return newDecoys(full) }).(*decoys)
}

func newDecoys(v *vocab) *decoys {
	d := &decoys{near: map[uint32]*[26]float32{}, near3: map[uint32]float32{}, count: map[uint32]int{}, exact: map[uint32]bool{},
		three: 0.3, posW: 0.3, miss: 4, m4: map[uint32]float32{}, subW: 0.5}
	d.pairs, d.triples = positionSets()
	var tot float64
	for i := range v.words {
		e := &v.words[i]
		d.exact[key(&e.b, -1)] = true
		pw := math.Exp(e.logPrior)
		tot += pw
		for i, pq := range d.pairs {
			d.m2[i][int(e.b[pq[0]])*26+int(e.b[pq[1]])] += float32(pw)
		}
		for i, t := range d.triples {
			d.m3[i][(int(e.b[t[0]])*26+int(e.b[t[1]]))*26+int(e.b[t[2]])] += float32(pw)
		}
		for p := range 5 {
			d.m4[key(&e.b, p)] += float32(pw)
		}
		for p := range 5 {
			d.pos[p][e.b[p]] += pw
			for q := p + 1; q < 5; q++ {
				d.near3[keys(&e.b, p, q)] += float32(pw)
			}
		}
		for p := range 5 {
			k := key(&e.b, p)
			w := d.near[k]
			if w == nil {
				w = new([26]float32)
				d.near[k] = w
			}
			w[e.b[p]] += float32(math.Exp(e.logPrior))
			d.count[k]++
		}
	}
	for p := range 5 {
		for x := range 26 {
			d.pos[p][x] = math.Log((d.pos[p][x] + 0.5) / tot)
			d.posH[p] -= math.Exp(d.pos[p][x]) * d.pos[p][x]
		}
	}
	floor := 1e-3 * tot
	d.logTot = math.Log(tot)
	for p := range 5 {
		for x := range 26 {
			d.m1[p][x] = float32(math.Log(floor/21 + math.Exp(d.pos[p][x])*tot))
		}
	}
	for i := range d.m2 {
		for j, w := range d.m2[i] {
			d.m2[i][j] = float32(math.Log(floor/441 + float64(w)))
		}
		for j, w := range d.m3[i] {
			d.m3[i][j] = float32(math.Log(floor/9261 + float64(w)))
		}
	}
	for k, w := range d.m4 {
		d.m4[k] = float32(math.Log(floor/194481 + float64(w)))
	}
	d.m4miss = float32(math.Log(floor / 194481))
	return d
}

// subsets scores how plausible a line stays however few of its letters a
// solver has seen: for every set of one to four of its squares, the log
// of the weight of the words that have the line's letters there (see
// decoys.m1), averaged over the sets of each size and summed over the
// sizes. A solver's belief in a line after it has seen some of its
// letters grows with that weight, so a line that scores high on every
// set keeps drawing calls whichever of its squares were called first.
func (d *decoys) subsets(l *[5]uint8) float64 {
	var s1, s2, s3, s4 float32
	for p := range 5 {
		s1 += d.m1[p][l[p]]
		w, ok := d.m4[key(l, p)]
		if !ok {
			w = d.m4miss
		}
		s4 += w
	}
	for i, pq := range d.pairs {
		s2 += d.m2[i][int(l[pq[0]])*26+int(l[pq[1]])]
	}
	for i, t := range d.triples {
		s3 += d.m3[i][(int(l[t[0]])*26+int(l[t[1]]))*26+int(l[t[2]])]
	}
	return float64(s1/5 + s2/10 + s3/10 + s4/5)
}

// wordlike returns the log of how much likelier the known letters of a
// line (pat, -1 where unknown) are on a line that reads like a common
// word in four letters of five than on a line of random letters: the
// share, by commonness, of the words with those letters in those places
// (see decoys.m1 to m4) against 1/21 a letter. With all five known, the
// word may miss any one of them.
func (d *decoys) wordlike(pat *[5]int8) float64 {
	var b [5]uint8
	var at [5]int
	k := 0
	for i, x := range pat {
		if x >= 0 {
			b[i] = uint8(x)
			at[k] = i
			k++
		}
	}
	var w float64
	switch k {
	case 0:
		return 0
	case 1:
		w = float64(d.m1[at[0]][b[at[0]]])
	case 2:
		for i, pq := range d.pairs {
			if pq == [2]int{at[0], at[1]} {
				w = float64(d.m2[i][int(b[at[0]])*26+int(b[at[1]])])
			}
		}
	case 3:
		for i, t := range d.triples {
			if t == [3]int{at[0], at[1], at[2]} {
				w = float64(d.m3[i][(int(b[at[0]])*26+int(b[at[1]]))*26+int(b[at[2]])])
			}
		}
	case 4:
		hole := 0
		for i, x := range pat {
			if x < 0 {
				hole = i
			}
		}
		w = d.m4gets(&b, hole)
	case 5:
		var sum float64
		for hole := range 5 {
			sum += math.Exp(d.m4gets(&b, hole))
		}
		w = math.Log(sum / 5)
	}
	return w - d.logTot + float64(k)*math.Log(21)
}

// m4gets is m4 for the letters of b but the one at hole.
func (d *decoys) m4gets(b *[5]uint8, hole int) float64 {
	if w, ok := d.m4[key(b, hole)]; ok {
		return float64(w)
	}
	return float64(d.m4miss)
}

// neighbours counts the words that differ from e in one letter.
func (d *decoys) neighbours(e *entry) int {
	n := 0
	for p := range 5 {
		n += d.count[key(&e.b, p)] - 1
	}
	return n
}

// line scores how plausible a non-password line is as a password to a
// solver that has seen some of its letters: the weight of the words it
// matches in four letters out of five. A word whose fifth letter is the
// grid's missing letter can never be ruled out by a letter seen elsewhere,
// so it counts more. A line that is a word is illegal and scores illegal.
func (d *decoys) line(l *[5]uint8, missing uint8) float64 {
	if d.exact[key(l, -1)] {
		return illegal
	}
	var s float64
	for p := range 5 {
		w := d.near[key(l, p)]
		if w == nil {
			continue
		}
		for x, v := range w {
			if v == 0 {
				continue
			}
			if uint8(x) == missing {
				s += d.miss * float64(v)
			} else {
				s += float64(v)
			}
		}
	}
	var s3 float64
	for p := range 5 {
		for q := p + 1; q < 5; q++ {
			s3 += float64(d.near3[keys(l, p, q)])
		}
	}
	var ps float64
	for p := range 5 {
		ps += d.pos[p][l[p]]
	}
	return math.Log1p(3*s+d.three*s3) + d.posW*ps/5
}

// Grid returns a legal grid around password, its other 20 squares filled to
// deceive: the lines parallel to the password's match common words in
// four letters of five, leaning on the one letter the grid leaves out, so
// that a solver who has seen a few letters sees plausible passwords off
// the password's line, while the lines crossing it read like nothing. With
// password "" it picks one for the level (common words for easy; for
// strong, words with many near neighbours). Level easy fills at random;
// medium and strong put the password on a line drawn by decoys.hide and
// anneal the filling; strong anneals several, on lines drawn for each,
// and keeps the one that costs a panel of solvers, playing it as
// solitaire games, the most points. Deterministic for seed; it stops with
// ctx's error when ctx ends first.
func Grid(ctx context.Context, password, levelName string, seed uint64, lex *lexicon.Lexicon) (*quizl.Grid, error) {
	lv, err := levelOf(levelName)
	if err != nil {
		return nil, err
	}
	g, _, err := makeGrid(ctx, password, -1, lv, seed, lex)
	return g, err
}

// GridOn is Grid around a password the player chose, kept on the line
// they wrote it on: only the other 20 squares are the grid maker's, so
// the setup editor can offer the computer's deceptive filling without
// taking the player's password away. random reports that the level's
// deceptive filling found nothing legal and the grid was filled at random
// instead (the easy level fills at random by design, and says false).
func GridOn(ctx context.Context, password string, line quizl.Line, levelName string, seed uint64, lex *lexicon.Lexicon) (g *quizl.Grid, random bool, err error) {
	lv, err := levelOf(levelName)
	if err != nil {
		return nil, false, err
	}
	if password == "" {
		return nil, false, fmt.Errorf("quizl grid: no password to fill around")
	}
	if line < 0 || line >= quizl.Lines {
		return nil, false, fmt.Errorf("quizl grid: there is no line %d (rows 5-9 are lines 0-4, columns 0-4 lines 5-9)", line)
	}
	return makeGrid(ctx, password, line, lv, seed, lex)
}

// makeGrid is Grid for a level's settings, with the password on line, or
// on a line the level chooses when line is negative. random is as GridOn
// says.
func makeGrid(ctx context.Context, password string, line quizl.Line, lv level, seed uint64, lex *lexicon.Lexicon) (g *quizl.Grid, random bool, err error) {
	if lex == nil {
		return nil, false, fmt.Errorf("quizl grid: no lexicon")
	}
	if err := ctx.Err(); err != nil {
		return nil, false, fmt.Errorf("quizl grid: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, 0xdece17))
	full := newVocab(lex, 100)
	var d *decoys
	if password == "" {
		ws := newVocab(lex, lv.password).words
		if len(ws) == 0 {
			ws = full.words
		}
		if len(ws) == 0 {
			return nil, false, fmt.Errorf("quizl grid: the lexicon has no word fit to be a password")
		}
		pick := &ws[rng.IntN(len(ws))]
		if lv.name == "strong" {
			d = decoysOf(lex, full)
			best := d.neighbours(pick)
			for range 40 {
				c := &ws[rng.IntN(len(ws))]
				if n := d.neighbours(c); n > best {
					pick, best = c, n
				}
			}
		}
		password = pick.word
	}
	password = strings.ToUpper(strings.TrimSpace(password))
	if err := quizl.CheckPassword(password, lex); err != nil {
		return nil, false, fmt.Errorf("quizl grid: password: %w", err)
	}
	randomly := func() (*quizl.Grid, error) {
		if line >= 0 {
			return quizl.RandomGridOn(password, line, lex, rng.Uint64())
		}
		return quizl.RandomGrid(password, lex, rng.Uint64())
	}
	if lv.anneal == 0 {
		g, err := randomly()
		return g, false, err
	}
	if d == nil {
		d = decoysOf(lex, full)
	}
	// The index of the password's line is drawn once, and every filling
	// hides it on that index (on a row or a column, a coin deciding): the
	// trial games below then choose among fillings alone, and cannot pile
	// the passwords of many grids onto the index that costs most.
	k := int(d.hide(password, lv.predictable, rng)) % quizl.Size
	choose := func() quizl.Line { return quizl.Line(rng.IntN(2)*quizl.Size + k) }
	if line >= 0 {
		choose = func() quizl.Line { return line }
	}
	gs := d.fillings(password, lv, lex, rng, choose)
	if len(gs) == 0 {
		g, err := randomly()
		return g, err == nil, err
	}
	if len(lv.panel) == 0 || len(gs) == 1 {
		return gs[0], false, nil
	}
	// Then play each filling against the panel, as a setter tries a grid
	// on imagined opponents, and keep the one that held out longest. Each
	// solver of the panel plays every filling from the same table seed,
	// so that the fillings are compared on like games.
	var panel []seat
	norm := make([]float64, len(lv.panel))
	for g, name := range lv.panel {
		norm[g] = randomCalls(name)
		for range max(lv.trials, 1) {
			b, err := panelist(name, rng.Uint64(), lex)
			if err != nil {
				return nil, false, fmt.Errorf("quizl grid: %w", err)
			}
			panel = append(panel, seat{b, rng.Uint64(), g})
		}
	}
	i, err := hardest(ctx, gs, panel, norm, lv.mix, lex)
	if err != nil {
		return nil, false, fmt.Errorf("quizl grid: %w", err)
	}
	return gs[i], false, nil
}

// fillings puts password on a line that line chooses, once per filling,
// and fills the other squares lv.restarts times over (a few more when
// none is legal), each filling towards parallel lines that read like
// words. It returns the legal ones, best first by that measure
// (decoys.grid).
func (d *decoys) fillings(password string, lv level, lex *lexicon.Lexicon, rng *rand.Rand, line func() quizl.Line) []*quizl.Grid {
	type filling struct {
		g     *quizl.Grid
		score float64
	}
	var fs []filling
	for i := 0; i < lv.restarts || len(fs) == 0 && i < lv.restarts+4; i++ {
		g := deceive(password, line(), d, lv.anneal, rng)
		if g.Check(lex) == nil {
			fs = append(fs, filling{g, d.grid(g)})
		}
	}
	slices.SortStableFunc(fs, func(a, b filling) int { return cmp.Compare(b.score, a.score) })
	gs := make([]*quizl.Grid, len(fs))
	for i := range fs {
		gs[i] = fs[i].g
	}
	return gs
}

// hide chooses the line for password, weighing two things for each index
// k of a line (row 5+k or column k):
//
//   - how well the crossing lines explain the password's letters. A letter
//     of a password on row 5+k sits at position k of the column through
//     it (and one on column k at position k of the row through it), so the
//     likelier the letters are at position k of a word than in their own
//     places, the more a solver that has just seen one of them suspects
//     the crossing line rather than the password's own;
//   - how little a letter at position k of a word says (predictable times
//     its entropy, by the lexicon). The line's squares lie at position k of
//     every crossing line, so an information-seeking solver learns least
//     from calling them and calls them last. With the English lexicon the
//     last position is the most predictable (by commonness, a third of
//     words end in S), then the second (mostly vowels), and passwords
//     hidden there cost the strong solver most (TestSeeds with
//     -quizl.hiding measures each index). The strong grid maker weighs
//     this at 20, the medium one not at all.
//
// It draws the index from those scores, at temperature hideTemp, rather
// than always taking the best, so that a player who has seen many of its
// grids cannot count on the last row or column. Row or column is the toss
// of a coin: the letters read the same.
func (d *decoys) hide(password string, predictable float64, rng *rand.Rand) quizl.Line {
	var score [quizl.Size]float64
	for k := range quizl.Size {
		for i := range quizl.Size {
			x := password[i] - 'A'
			score[k] += d.pos[k][x] - d.pos[i][x]
		}
		score[k] -= predictable * d.posH[k]
	}
	k := pickCapped(rng, score[:], hideTemp, hideCap)
	if rng.IntN(2) == 0 {
		return quizl.Line(k)
	}
	return quizl.Line(quizl.Size + k)
}

// hideTemp is how freely hide draws among the lines it scores.
const hideTemp = 4

// hideCap is the most probability hide gives any one index, so that no
// row or column holds the password in more than about that share of
// strong grids, whatever the password.
const hideCap = 0.3

// pickCapped draws an index with probability proportional to
// exp(score/temp), no index taking more than limit: what a capped index
// sheds goes to the others in proportion to their own shares.
func pickCapped(rng *rand.Rand, score []float64, temp, limit float64) int {
	p := cappedShares(score, temp, limit)
	x := rng.Float64()
	for i := range p {
		if x -= p[i]; x < 0 {
			return i
		}
	}
	return len(p) - 1
}

// cappedShares returns the probabilities with which pickCapped draws each
// index.
func cappedShares(score []float64, temp, limit float64) []float64 {
	n := len(score)
	top := slices.Max(score)
	p := make([]float64, n)
	var sum float64
	for i, s := range score {
		p[i] = math.Exp((s - top) / temp)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	capped := make([]bool, n)
	for range n {
		excess, free := 0.0, 0.0
		for i := range p {
			if !capped[i] && p[i] > limit {
				excess += p[i] - limit
				p[i], capped[i] = limit, true
			}
		}
		if excess == 0 {
			break
		}
		for i := range p {
			if !capped[i] {
				free += p[i]
			}
		}
		if free == 0 {
			break
		}
		for i := range p {
			if !capped[i] {
				p[i] += excess * p[i] / free
			}
		}
	}
	return p
}

// hideShares returns, for the word of letters b, the share of the grids
// of a setter that hides passwords by the first measure of hide alone
// (as the medium grid maker does, predictable 0) that put it on each line
// index.
func (d *decoys) hideShares(b *[5]uint8) []float64 {
	var score [quizl.Size]float64
	for k := range quizl.Size {
		for i := range quizl.Size {
			score[k] += d.pos[k][b[i]] - d.pos[i][b[i]]
		}
	}
	return cappedShares(score[:], hideTemp, hideCap)
}

// grid scores a whole grid as deceive scores its fillings: how plausible
// the lines parallel to the password's are as passwords (decoys.line).
func (d *decoys) grid(g *quizl.Grid) float64 {
	miss := g.Missing() - 'A'
	var t float64
	for l := range quizl.Line(quizl.Lines) {
		if l == g.Line {
			continue
		}
		var b [5]uint8
		for i := range quizl.Size {
			b[i] = g.Letters[l.Square(i)] - 'A'
		}
		t += d.lure(&b, miss, l.IsRow() == g.Line.IsRow())
	}
	return t
}

// lure is what line l adds to a grid's score: decoys.line for a line
// parallel to the password's, and nothing for one that crosses it, unless
// it reads a word. A solver drawn along a parallel line never meets the
// password; one drawn along a crossing line reaches it at the crossing,
// so a crossing line that reads like a word leads the solver to the
// password sooner (crossing lines weighed at 0.3, 0.1 and 1 cost the
// strong solver fewer calls than at 0, and weighed below 0 fewer still).
func (d *decoys) lure(l *[5]uint8, missing uint8, parallel bool) float64 {
	if parallel {
		s := d.line(l, missing)
		if s == illegal {
			return s
		}
		return s + d.subW*d.subsets(l)
	}
	if d.exact[key(l, -1)] {
		return illegal
	}
	return 0
}

// deceive puts password on line and searches, by simulated annealing,
// for the filling of the other 20 squares that makes the four lines
// parallel to it most plausible (see decoys.lure) and no line a word.
func deceive(password string, line quizl.Line, d *decoys, iters int, rng *rand.Rand) *quizl.Grid {
	var cell [quizl.Squares]uint8
	onLine := line.Mask()
	for i := range quizl.Size {
		cell[line.Square(i)] = password[i] - 'A'
	}
	// free[i] is the i-th square off the line; letters[20] is left out.
	var free []quizl.Square
	for sq := range quizl.Square(quizl.Squares) {
		if onLine&(1<<sq) == 0 {
			free = append(free, sq)
		}
	}
	var letters []uint8
	for c := uint8(0); c < 26; c++ {
		if !strings.ContainsRune(password, rune('A'+c)) {
			letters = append(letters, c)
		}
	}
	rng.Shuffle(len(letters), func(i, j int) { letters[i], letters[j] = letters[j], letters[i] })
	place := func() {
		for i, sq := range free {
			cell[sq] = letters[i]
		}
	}
	place()
	var vals [quizl.Lines]float64
	eval := func(l quizl.Line) float64 {
		if l == line {
			return 0
		}
		var b [5]uint8
		for i := range quizl.Size {
			b[i] = cell[l.Square(i)]
		}
		return d.lure(&b, letters[20], l.IsRow() == line.IsRow())
	}
	total := func() float64 {
		var t float64
		for l := range quizl.Line(quizl.Lines) {
			vals[l] = eval(l)
			t += vals[l]
		}
		return t
	}
	cur := total()
	best, bestLetters := cur, append([]uint8(nil), letters...)
	temp := 1.0
	cool := math.Pow(0.01, 1/float64(iters))
	for range iters {
		i, j := rng.IntN(21), rng.IntN(20)
		if j >= i {
			j++
		}
		letters[i], letters[j] = letters[j], letters[i]
		place()
		next := cur
		saved := vals
		if i == 20 || j == 20 {
			next = total()
		} else {
			var ls []quizl.Line
			for _, k := range []int{i, j} {
				ls = append(ls, quizl.RowOf(free[k]), quizl.ColOf(free[k]))
			}
			done := uint32(0)
			for _, l := range ls {
				if done&(1<<l) != 0 {
					continue
				}
				done |= 1 << l
				v := eval(l)
				next += v - vals[l]
				vals[l] = v
			}
		}
		if next >= cur || rng.Float64() < math.Exp((next-cur)/temp) {
			cur = next
			if cur > best {
				best = cur
				copy(bestLetters, letters)
			}
		} else {
			letters[i], letters[j] = letters[j], letters[i]
			place()
			vals = saved
		}
		temp *= cool
	}
	copy(letters, bestLetters)
	place()
	g := &quizl.Grid{Password: password, Line: line}
	for sq := range cell {
		g.Letters[sq] = 'A' + cell[sq]
	}
	return g
}
