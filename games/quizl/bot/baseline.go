package bot

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync"

	"parlour/game"
	"parlour/games/quizl"
	"parlour/lexicon"
)

// The baselines below are solvers written apart from the strong solver
// (analyse, choose), on other principles, so that the bench measures the
// grid maker against opponents it was not tuned on. They share only the
// referee's view and the lexicon's word list with it.

// LineSolver is a baseline Quizl solver that ignores commonness: every
// (line, word) hypothesis that fits what it has seen counts alike, times
// the chance of the letters seen off that line under a random filling.
// It calls the square likeliest to lie on the password's line and
// announces a word once it holds half the belief.
type LineSolver struct{ base }

// InfoSolver is a baseline Quizl solver that calls the square whose letter
// tells it most about the password (the greatest expected fall in the
// entropy of its belief), weighing words by a plain prior of its own:
// common words (SCOWL size 35 or less) count four times rarer ones. It
// announces a word once it holds half the belief.
type InfoSolver struct{ base }

// BayesSolver is a baseline Quizl solver that reasons as a Bayesian would
// about a grid filled at random: each (line, word) hypothesis weighs the
// word's prior, which falls off with its commonness as exp(-size/20)
// (SCOWL size 10 counts about 24 times size 70), times the exact
// likelihood of the letters seen off the line when the other squares hold
// the unused letters at random. It calls the square of greatest expected
// information and announces its likeliest word once the posterior makes
// the announcement worth its price: at least penalty/(penalty+1), the odds
// at which a wrong announcement's penalty and the call it saves balance.
type BayesSolver struct{ base }

// NewBayesSolver returns the Bayesian baseline for lex, deterministic for
// seed.
func NewBayesSolver(seed uint64, lex *lexicon.Lexicon) (*BayesSolver, error) {
	b, err := newBase("bayesian", seed, lex, func(c int) float64 { return math.Exp(-float64(c) / 20) })
	if err != nil {
		return nil, err
	}
	return &BayesSolver{b}, nil
}

// Move chooses seat's move from its view.
func (s *BayesSolver) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	pen := 1.0
	if cfg.Rules != nil {
		if _, ok := cfg.Rules[quizl.OptPenalty]; ok {
			pen = float64(cfg.Rules.Int(quizl.OptPenalty))
		}
	}
	return s.moveAt(ctx, cfg, seat, view, pen/(pen+1), func(h *belief, sq quizl.Square) float64 { return h.information(sq) })
}

// NewLineSolver returns the line-probability baseline for lex,
// deterministic for seed.
func NewLineSolver(seed uint64, lex *lexicon.Lexicon) (*LineSolver, error) {
	b, err := newBase("line-probability", seed, lex, func(int) float64 { return 1 })
	if err != nil {
		return nil, err
	}
	return &LineSolver{b}, nil
}

// NewInfoSolver returns the information-seeking baseline for lex,
// deterministic for seed.
func NewInfoSolver(seed uint64, lex *lexicon.Lexicon) (*InfoSolver, error) {
	b, err := newBase("information-seeking", seed, lex, func(c int) float64 {
		if c <= 35 {
			return 4
		}
		return 1
	})
	if err != nil {
		return nil, err
	}
	return &InfoSolver{b}, nil
}

// Move chooses seat's move from its view.
func (s *LineSolver) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	return s.move(ctx, cfg, seat, view, func(h *belief, sq quizl.Square) float64 { return h.onLine(sq) })
}

// Move chooses seat's move from its view.
func (s *InfoSolver) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	return s.move(ctx, cfg, seat, view, func(h *belief, sq quizl.Square) float64 { return h.information(sq) })
}

// base is what the two baselines share: the word list, the seed, the
// announcement rule and the move loop; they differ in how they score a
// call.
type base struct {
	name  string
	seed  uint64
	words []baseWord
	// hyps keeps the hypothesis lists of finished moves for the next
	// (a grid maker's trial games play one solver on many grids at
	// once): the first calls of a game weigh ten lines of every word.
	hyps *sync.Pool
	// opening is the belief's verdict on a grid with nothing seen, the
	// same for every game: worked out once, at the first move that needs
	// it.
	opening *opening
}

// opening is what a baseline makes of a lone grid with nothing seen: the
// likeliest word and its share, and every square's score.
type opening struct {
	once  sync.Once
	word  string
	p     float64
	score [quizl.Squares]float64
}

// baseWord is a word a baseline thinks a password may be.
type baseWord struct {
	word   string // upper case
	index  int    // in base.words
	letter [quizl.Size]byte
	set    uint32
	weight float64
}

func newBase(name string, seed uint64, lex *lexicon.Lexicon, weight func(commonness int) float64) (base, error) {
	if lex == nil {
		return base{}, fmt.Errorf("quizl %s baseline: no lexicon", name)
	}
	b := base{name: name, seed: seed, hyps: &sync.Pool{}, opening: &opening{}}
	for _, w := range quizl.Passwords(lex, 100) {
		c, _ := lex.Commonness(w)
		bw := baseWord{weight: weight(c), index: len(b.words)}
		up := []byte(w)
		for i := range quizl.Size {
			up[i] -= 'a' - 'A'
			bw.letter[i] = up[i] - 'A'
			bw.set |= 1 << bw.letter[i]
		}
		bw.word = string(up)
		b.words = append(b.words, bw)
	}
	if len(b.words) == 0 {
		return base{}, fmt.Errorf("quizl %s baseline: the lexicon has no word fit to be a password", name)
	}
	return b, nil
}

func (b *base) label() string { return b.name }

// move plays one move: an announcement when some grid's likeliest word
// holds half the belief, else the call score rates highest (ties broken at
// random by the table's seed), never a call that would uncover a password
// unannounced when the word can be announced instead.
func (b *base) move(ctx context.Context, cfg game.Config, seat game.Seat, view any, score func(*belief, quizl.Square) float64) (string, error) {
	return b.moveAt(ctx, cfg, seat, view, 0.5, score)
}

// moveAt is move announcing once the likeliest word holds at least
// threshold of the belief.
func (b *base) moveAt(ctx context.Context, cfg game.Config, seat game.Seat, view any, threshold float64, score func(*belief, quizl.Square) float64) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	v, err := viewOf(view)
	if err != nil {
		return "", err
	}
	if v.Finished || v.ToMove != int(seat) || v.Seat != int(seat) {
		return "", fmt.Errorf("quizl %s baseline: seat %d is not to move", b.name, seat)
	}
	rng := rand.New(rand.NewPCG(b.seed^cfg.Seed, uint64(len(v.Moves))<<8|uint64(seat)))
	say := func(bd *quizl.Board, w string) string {
		if len(v.Players) > 2 {
			return "say " + bd.Name + " " + w
		}
		return "say " + w
	}
	if bd := lone(v); bd != nil && b.opening != nil {
		o := b.opening
		o.once.Do(func() {
			h := b.believe(bd)
			defer b.release(h)
			o.word, o.p = h.likeliest()
			for sq := range quizl.Square(quizl.Squares) {
				o.score[sq] = score(h, sq)
			}
		})
		if o.p >= threshold {
			return say(bd, o.word), nil
		}
		return pick(rng, o.score[:]).String(), nil
	}
	var beliefs, held []*belief
	defer func() {
		for _, h := range held {
			b.release(h)
		}
	}()
	var boards []*quizl.Board
	for i := range v.Boards {
		bd := &v.Boards[i]
		if bd.Outcome != quizl.Playing {
			continue
		}
		h := b.believe(bd)
		held = append(held, h)
		if h.total == 0 {
			continue // nothing fits: call on, the other grids may
		}
		if w, p := h.likeliest(); p >= threshold {
			return say(bd, w), nil
		}
		beliefs = append(beliefs, h)
		boards = append(boards, bd)
	}
	called := map[string]bool{}
	for _, c := range v.Called {
		called[c] = true
	}
	best, bestScore, ties := quizl.Square(-1), math.Inf(-1), 0
	for sq := range quizl.Square(quizl.Squares) {
		if called[sq.String()] {
			continue
		}
		var sc float64
		for _, h := range beliefs {
			if h.trips(sq) {
				sc = math.Inf(-1)
				break
			}
			sc += score(h, sq)
		}
		switch {
		case sc > bestScore+1e-9:
			best, bestScore, ties = sq, sc, 1
		case sc >= bestScore-1e-9 && !math.IsInf(sc, -1):
			ties++
			if rng.IntN(ties) == 0 {
				best = sq
			}
		}
	}
	if best < 0 || math.IsInf(bestScore, -1) {
		// Every call left risks uncovering a password: announce the
		// likeliest word of the likeliest grid instead.
		for i, h := range beliefs {
			w, _ := h.likeliest()
			return say(boards[i], w), nil
		}
		if best < 0 {
			return "resign", nil
		}
	}
	return best.String(), nil
}

// lone returns the one board of v still in play when nothing of it has
// been seen and no word announced against it, else nil.
func lone(v *quizl.View) *quizl.Board {
	var out *quizl.Board
	for i := range v.Boards {
		bd := &v.Boards[i]
		if bd.Outcome != quizl.Playing {
			continue
		}
		if out != nil || len(bd.Wrong) > 0 {
			return nil
		}
		for sq := range quizl.Square(quizl.Squares) {
			if c := bd.Letter(sq); c >= 'A' && c <= 'Z' {
				return nil
			}
		}
		out = bd
	}
	return out
}

// pick returns the square of the highest score, ties (within 1e-9)
// broken at random by rng as moveAt breaks them.
func pick(rng *rand.Rand, score []float64) quizl.Square {
	best, bestScore, ties := quizl.Square(-1), math.Inf(-1), 0
	for sq, sc := range score {
		switch {
		case sc > bestScore+1e-9:
			best, bestScore, ties = quizl.Square(sq), sc, 1
		case sc >= bestScore-1e-9 && !math.IsInf(sc, -1):
			ties++
			if rng.IntN(ties) == 0 {
				best = quizl.Square(sq)
			}
		}
	}
	return best
}

// belief is a baseline's weighing of the hypotheses about one grid.
type belief struct {
	known [quizl.Squares]int // letter 0-25, or -1
	seen  uint32             // letters seen anywhere
	hyps  []hyp
	total float64
	word  []float64 // per word of base.words, summed over lines
	words []baseWord
	sums  []lineSum // per line, then all lines: see sumLines
}

// hyp is one hypothesis: the password is words[w] on line l.
type hyp struct {
	l quizl.Line
	w *baseWord
	p float64
}

// believe collects the hypotheses that fit board bd: a word fits a line
// when it matches the letters seen on it, holds no letter seen off it, was
// not announced wrongly, and the line is not wholly seen (it would have
// been uncovered). Each weighs its word's weight times the chance of the
// letters seen off the line when the other squares hold the unused
// letters at random.
func (b *base) believe(bd *quizl.Board) *belief {
	h := &belief{words: b.words}
	if b.hyps != nil {
		if buf, ok := b.hyps.Get().(*[]hyp); ok {
			h.hyps = (*buf)[:0]
		}
	}
	if h.hyps == nil {
		h.hyps = make([]hyp, 0, len(b.words))
	}
	count := 0
	for sq := range quizl.Square(quizl.Squares) {
		c := bd.Letter(sq)
		if c < 'A' || c > 'Z' {
			h.known[sq] = -1
			continue
		}
		h.known[sq] = int(c - 'A')
		h.seen |= 1 << (c - 'A')
		count++
	}
	wrong := map[string]bool{}
	for _, w := range bd.Wrong {
		wrong[w] = true
	}
	for l := range quizl.Line(quizl.Lines) {
		var on uint32
		n := 0
		for i := range quizl.Size {
			if x := h.known[l.Square(i)]; x >= 0 {
				on |= 1 << x
				n++
			}
		}
		if n == quizl.Size {
			continue
		}
		off := h.seen &^ on
		// Letters seen off the line: the first of them was one of 21
		// letters, the next one of 20, and so on.
		like := 1.0
		for j := range count - n {
			like /= float64(21 - j)
		}
	words:
		for i := range b.words {
			w := &b.words[i]
			if w.set&off != 0 || len(wrong) > 0 && wrong[w.word] {
				continue
			}
			for j := range quizl.Size {
				if x := h.known[l.Square(j)]; x >= 0 && x != int(w.letter[j]) {
					continue words
				}
			}
			p := w.weight * like
			h.hyps = append(h.hyps, hyp{l: l, w: w, p: p})
			h.total += p
		}
	}
	h.word = make([]float64, len(b.words))
	for i := range h.hyps {
		h.hyps[i].p /= h.total
		h.word[h.hyps[i].w.index] += h.hyps[i].p
	}
	return h
}

// release hands h's hypothesis list back to b for a later move; h is
// not to be used after.
func (b *base) release(h *belief) {
	if b.hyps == nil || h.hyps == nil {
		return
	}
	buf := h.hyps[:0]
	h.hyps = nil
	b.hyps.Put(&buf)
}

// likeliest returns the word holding most belief and its share; ties go
// to the word first in alphabetical order.
func (h *belief) likeliest() (string, float64) {
	best, bp := "", -1.0
	for i, p := range h.word {
		if w := h.words[i].word; p > 0 && (p > bp || (p == bp && w < best)) {
			best, bp = w, p
		}
	}
	return best, bp
}

// onLine is the belief that square sq lies on the password's line.
func (h *belief) onLine(sq quizl.Square) float64 {
	r, c := quizl.RowOf(sq), quizl.ColOf(sq)
	var p float64
	for _, x := range h.hyps {
		if x.l == r || x.l == c {
			p += x.p
		}
	}
	return p
}

// trips reports whether calling sq might uncover a password unannounced:
// sq is the last unseen square of a line some hypothesis holds.
func (h *belief) trips(sq quizl.Square) bool {
	for _, l := range []quizl.Line{quizl.RowOf(sq), quizl.ColOf(sq)} {
		unseen := 0
		for i := range quizl.Size {
			if h.known[l.Square(i)] < 0 {
				unseen++
			}
		}
		if unseen != 1 {
			continue
		}
		for _, x := range h.hyps {
			if x.l == l {
				return true
			}
		}
	}
	return false
}

// information is the expected fall in the entropy of the belief when sq
// is called: the mutual information between the hypothesis and the letter
// sq shows. Under a hypothesis whose line crosses sq the letter is the
// word's; otherwise it is any letter neither seen nor in the word, alike.
func (h *belief) information(sq quizl.Square) float64 {
	if h.sums == nil {
		h.sumLines()
	}
	r, c := quizl.RowOf(sq), quizl.ColOf(sq)
	sr, sc, all := &h.sums[r], &h.sums[c], &h.sums[quizl.Lines]
	offAll := all.off - sr.off - sc.off
	condH := all.condH - sr.condH - sc.condH
	var hx float64
	for y := range 26 {
		p := sr.on[sq.Col()][y] + sc.on[sq.Row()-5][y]
		if h.seen&(1<<y) == 0 {
			p += offAll - (all.offIn[y] - sr.offIn[y] - sc.offIn[y])
		}
		if p > 1e-15 {
			hx -= p * math.Log(p)
		}
	}
	return hx - condH
}

// lineSum is what the hypotheses on one line add to the letter a call
// shows: the letters they put at each place of the line, and, for a
// square off the line, the share each spreads over the letters it leaves
// free (off, less offIn for a letter of its word) and the entropy of that
// spread (condH).
type lineSum struct {
	on    [quizl.Size][26]float64
	off   float64
	offIn [26]float64
	condH float64
}

// sumLines fills h.sums: one lineSum per line, and their total last.
func (h *belief) sumLines() {
	h.sums = make([]lineSum, quizl.Lines+1)
	unseen := 26 - bits.OnesCount32(h.seen)
	all := &h.sums[quizl.Lines]
	var logN [27]float64
	for n := 1; n <= 26; n++ {
		logN[n] = math.Log(float64(n))
	}
	for _, x := range h.hyps {
		s := &h.sums[x.l]
		for j, y := range x.w.letter {
			s.on[j][y] += x.p
		}
		n := unseen - bits.OnesCount32(x.w.set&^h.seen)
		if n <= 0 {
			continue
		}
		q := x.p / float64(n)
		lh := x.p * logN[n]
		s.off += q
		all.off += q
		s.condH += lh
		all.condH += lh
		for _, y := range x.w.letter {
			if h.seen&(1<<y) == 0 {
				s.offIn[y] += q
				all.offIn[y] += q
			}
		}
	}
}
