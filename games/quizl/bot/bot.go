// Package bot holds Quizl's computer players: a solver that deduces
// passwords from the letters its calls reveal, and a grid maker that hides
// a password among deceptive letters. A bot sees only its seat's view
// (quizl.View) and answers in the move notation, like a person.
//
// The solver keeps every (line, word) hypothesis consistent with what it
// has seen, weighs each by the word's commonness and by how likely the
// letters seen are under it, calls the square that tells it most, and
// announces once the likeliest word is worth the risk of a wrong
// announcement under the rules in force. Levels: easy and medium know only
// commoner words, guess earlier and choose more noisily; strong uses the
// whole lexicon.
package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"parlour/game"
	"parlour/games/quizl"
	"parlour/lexicon"
)

// level is what sets the levels apart.
type level struct {
	name string
	// vocab is the commonness (SCOWL size) of the rarest word the solver
	// thinks of at first; it falls back to the whole lexicon when nothing
	// fits.
	vocab int
	// eager lowers the probability at which the solver announces.
	eager float64
	// temp is the temperature of the softmax over call scores (0: best).
	temp float64
	// gain weighs the information a call yields against its chance of
	// lying on the password's line.
	gain float64
	// password is the commonness of the rarest password the grid maker
	// picks, and anneal how hard it works at deceiving.
	password int
	anneal   int
	// restarts is how many fillings the grid maker anneals, keeping the
	// one whose lines read most like words, or, with a panel, the one
	// that cost the panel most.
	restarts int
	// predictable is how much the grid maker prefers to hide the password
	// where its squares tell a solver least (see decoys.hide).
	predictable float64
	// race makes the solver play to win rather than for points once every
	// opponent is done and the score to beat is known (see raceTheta).
	race bool
	// rival, when above 0, lets the race foresee, in a two-player game,
	// the opponent's right announcement on its next turn: when the
	// opponent's likeliest word, by what its calls showed of the viewer's
	// own grid, is the viewer's password with at least this probability,
	// its score then is the one to beat (see rivalTarget).
	rival float64
	// parallel is how much a decoy found (a word announced wrongly that
	// fits a line) makes the lines parallel to it likelier, in log terms
	// (see decoyLines).
	parallel float64
	// shape weighs, in the solver's belief, how well the lines parallel to
	// a hypothesis's line read as decoys (see shapeLines); 0 ignores it.
	shape float64
	// hidden weighs, in the solver's belief, where a deceptive setter
	// hides each word (see decoys.hideShares); 0 ignores it.
	hidden float64
	// openTie, when above nearTie, widens the squares the first call
	// chooses among at random to those within this fraction of the best
	// score: the hiding shares (hidden) make one square the best opening
	// on every grid, and a setter could learn to keep clear of a solver
	// that always opens there.
	openTie float64
	// panel names the solvers (levels, or the baselines panelLine,
	// panelInfo and panelBayes) the grid maker plays each filling against,
	// keeping the one that costs them most. Strong's seats the careful
	// solvers the bench measures it against: a filling that costs one of
	// them much may cost another little, and a panel without it chooses
	// blind to that one.
	panel []string
	// trials is how many tables each solver of the panel plays every
	// filling at, and mix how much the solver a filling costs least
	// counts against the panel's mean (see hardest). On strong's tuning
	// seeds, twice the fillings did better than two tables a filling at
	// the same cost, and the least (mix 1) no better than the mean.
	trials int
	mix    float64
}

func levelOf(name string) (level, error) {
	switch name {
	case game.Easy:
		return level{name: name, vocab: 20, eager: 0.35, temp: 0.6, gain: 0, password: 20, anneal: 0}, nil
	case game.Medium:
		return level{name: name, vocab: 50, eager: 0.25, temp: 0.3, gain: 0.5, password: 35, anneal: 4000, restarts: 1}, nil
	case game.Strong:
		return level{name: name, vocab: 100, eager: 0.15, temp: 0, gain: 1, password: 50, anneal: 5000, restarts: 12, predictable: 20, race: true,
			rival: 0.5, parallel: 1, shape: 0.75, hidden: 1.5, openTie: 0.02, panel: []string{game.Strong, panelLine, panelInfo, panelBayes}, trials: 1}, nil
	}
	return level{}, fmt.Errorf("no Quizl level %q (easy, medium or strong)", name)
}

// Bot is a Quizl computer player of one level.
type Bot struct {
	lv   level
	seed uint64
	lex  *lexicon.Lexicon

	mu     sync.Mutex
	vocabs map[*lexicon.Lexicon][2]*vocab // per lexicon: the level's, the whole
}

var _ game.Bot = (*Bot)(nil)

// New returns a Quizl bot of level (easy, medium or strong) that chooses
// words from lex. It is deterministic for seed: the same views get the
// same moves.
func New(level string, seed uint64, lex *lexicon.Lexicon) (game.Bot, error) {
	return newBot(level, seed, lex)
}

func newBot(name string, seed uint64, lex *lexicon.Lexicon) (*Bot, error) {
	lv, err := levelOf(name)
	if err != nil {
		return nil, err
	}
	if lex == nil {
		return nil, errors.New("quizl bot: no lexicon")
	}
	b := &Bot{lv: lv, seed: seed, lex: lex, vocabs: map[*lexicon.Lexicon][2]*vocab{}}
	if v := b.vocab(lex); len(v[1].words) == 0 {
		return nil, errors.New("quizl bot: the lexicon has no word fit to be a password")
	}
	return b, nil
}

// vocab returns the level's vocabulary and the whole one for lex.
func (b *Bot) vocab(lex *lexicon.Lexicon) [2]*vocab {
	b.mu.Lock()
	defer b.mu.Unlock()
	if v, ok := b.vocabs[lex]; ok {
		return v
	}
	full := newVocab(lex, 100)
	lvl := full
	if b.lv.vocab < 100 {
		lvl = newVocab(lex, b.lv.vocab)
	}
	if b.lv.hidden != 0 {
		d := decoysOf(lex, full)
		if lvl == full {
			full = full.withHiding(d)
			lvl = full
		} else {
			full, lvl = full.withHiding(d), lvl.withHiding(d)
		}
	}
	v := [2]*vocab{lvl, full}
	b.vocabs[lex] = v
	return v
}

// Setup makes the bot's grid: a password chosen for the level, hidden
// deceptively (see Grid).
func (b *Bot) Setup(ctx context.Context, cfg game.Config, seat game.Seat) (json.RawMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	lex := cfg.Lexicon
	if lex == nil {
		lex = b.lex
	}
	g, random, err := makeGrid(ctx, "", -1, b.lv, b.seed^uint64(seat+1)*0x9e3779b97f4a7c15^cfg.Seed, lex)
	if err != nil {
		return nil, err
	}
	if random {
		// Say so rather than pass a random grid off as the level's: the
		// table falls back to its own random setup and can tell the player.
		return nil, fmt.Errorf("quizl bot: the %s grid maker found no legal deceptive filling", b.lv.name)
	}
	return g.Setup(), nil
}

// label names the bot's level, as the bench shows it.
func (b *Bot) label() string { return b.lv.name }

// viewOf accepts the view as State.View returns it, a pointer to it, or
// its JSON.
func viewOf(view any) (*quizl.View, error) {
	switch v := view.(type) {
	case quizl.View:
		return &v, nil
	case *quizl.View:
		if v != nil {
			return v, nil
		}
	case json.RawMessage:
		var out quizl.View
		if err := json.Unmarshal(v, &out); err != nil {
			return nil, fmt.Errorf("quizl bot: reading the view: %w", err)
		}
		return &out, nil
	case []byte:
		return viewOf(json.RawMessage(v))
	}
	return nil, fmt.Errorf("quizl bot: a view of type %T is not a Quizl view", view)
}

// Move chooses seat's move from its view.
func (b *Bot) Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	v, err := viewOf(view)
	if err != nil {
		return "", err
	}
	if v.Finished || v.ToMove != int(seat) || v.Seat != int(seat) {
		return "", fmt.Errorf("quizl bot: seat %d is not to move", seat)
	}
	lex := cfg.Lexicon
	if lex == nil {
		lex = b.lex
	}
	// The table's seed varies the choices from game to game, so that one
	// bot does not open on the same square in every game it plays.
	rng := rand.New(rand.NewPCG(b.seed^cfg.Seed, uint64(len(v.Moves))<<8|uint64(seat)))
	return b.choose(v, lex, rng, cfg.Rules), nil
}

// opp is the solver's view of one opponent still in play.
type opp struct {
	board *quizl.Board
	k     *knowledge
	a     *analysis
	trips map[quizl.Square]int32 // squares that could trip, in the whole vocabulary
}

// choose picks the move: an announcement when some opponent's likeliest
// password is worth the risk, else the best call.
func (b *Bot) choose(v *quizl.View, lex *lexicon.Lexicon, rng *rand.Rand, rules game.Rules) string {
	return b.decide(v, lex, rng, rules).move
}

// decision is a move choose picks, with the grid and word of an
// announcement, so that the analysis can tell which password the strong
// solver would have announced without reading the move back.
type decision struct {
	move string
	// against is the announced grid's owner, -1 for a call or a
	// resignation, and word the word announced.
	against int
	word    string
}

// decide is choose, answering the decision whole.
func (b *Bot) decide(v *quizl.View, lex *lexicon.Lexicon, rng *rand.Rand, rules game.Rules) decision {
	vs := b.vocab(lex)
	var opps []opp
	opening := true // no letter of any grid known yet
	for i := range v.Boards {
		bd := &v.Boards[i]
		if bd.Outcome != quizl.Playing {
			continue
		}
		k := read(bd)
		opening = opening && k.count == 0
		k.parallel = b.lv.parallel
		if b.lv.shape != 0 {
			k.shapes, k.shapeW = decoysOf(lex, vs[1]), b.lv.shape
		}
		k.hidden = b.lv.hidden
		a := analyse(vs[0], k)
		if a.best < 0 && vs[1] != vs[0] {
			a = analyse(vs[1], k)
		}
		opps = append(opps, opp{board: bd, k: k, a: a, trips: trips(vs[1], k)})
	}
	if len(opps) == 0 {
		return decision{move: "resign", against: -1} // cannot happen: a seat done with every grid does not move
	}
	sayWord := func(o opp, w string) decision {
		d := decision{move: "say " + w, against: o.board.Seat, word: w}
		if len(v.Players) > 2 {
			d.move = "say " + o.board.Name + " " + w
		}
		return d
	}
	say := func(o opp, w int32) decision { return sayWord(o, o.a.word(w)) }
	// Announce when the likeliest word is likely enough. A wrong
	// announcement costs about what a call costs at the default penalty,
	// and a right one saves every call still to come, so the threshold
	// sits a little below even odds there, and rises with the penalty.
	cost := wrongCost(rules, len(v.Players))
	theta := max(0.05, cost/(cost+1)-b.lv.eager)
	bestO := -1
	for i, o := range opps {
		if o.a.best >= 0 && (bestO < 0 || o.a.bestP > opps[bestO].a.bestP) {
			bestO = i
		}
	}
	if b.lv.race && len(opps) == 1 {
		theta = raceTheta(v, opps[0].board, theta, b.rivalTarget(v, vs[1]))
	}
	called := make(map[string]bool, len(v.Called))
	for _, c := range v.Called {
		called[c] = true
	}
	// After maxWrongRun wrong announcements in a row, call a square that
	// cannot trip, if one is left, whatever the belief says: a belief that
	// keeps naming wrong words is itself astray, and a call mends it.
	mustCall := wrongRun(v) >= maxWrongRun && b.safeCallLeft(opps, called)
	if bestO >= 0 && opps[bestO].a.bestP >= theta && !mustCall {
		return say(opps[bestO], opps[bestO].a.best)
	}
	// Otherwise call the square that advances the game most.
	type option struct {
		sq    quizl.Square
		score float64
		trip  int // the opponent it might trip over, or -1
	}
	var options []option
	for sq := range quizl.Square(quizl.Squares) {
		if called[sq.String()] {
			continue
		}
		op := option{sq: sq, trip: -1}
		for i, o := range opps {
			op.score += o.a.pOn[sq] + b.lv.gain*o.a.gain[sq]
			if _, risk := o.trips[sq]; risk || o.a.pTrip[sq] > 0 {
				op.score -= 100 * max(o.a.pTrip[sq], 0.5)
				op.trip = i
			}
		}
		options = append(options, op)
	}
	if len(options) == 0 {
		if bestO >= 0 {
			return say(opps[bestO], opps[bestO].a.best)
		}
		return decision{move: "resign", against: -1}
	}
	slices.SortStableFunc(options, func(x, y option) int {
		switch {
		case x.score > y.score:
			return -1
		case x.score < y.score:
			return 1
		}
		return 0
	})
	pick := options[0]
	// Among squares within a hair of the best, choose at random: a solver
	// that always opens on the same square is one a grid maker can learn
	// to hide from.
	tie := nearTie
	if opening {
		tie = max(tie, b.lv.openTie)
	}
	if near := nearBest(options, tie, func(o option) float64 { return o.score }); near > 1 {
		pick = options[rng.IntN(near)]
	}
	if b.lv.temp > 0 {
		pick = options[softmax(rng, len(options), func(i int) float64 { return options[i].score }, b.lv.temp)]
		if pick.trip >= 0 && options[0].trip < 0 {
			pick = options[0]
		}
	}
	if mustCall && pick.trip >= 0 {
		for _, o := range options {
			if o.trip < 0 {
				pick = o
				break
			}
		}
	}
	// Never trip over a password it could announce instead.
	if pick.trip >= 0 {
		o := opps[pick.trip]
		if w, ok := o.trips[pick.sq]; ok && (o.a.best < 0 || o.a.pTrip[pick.sq] == 0) {
			return sayWord(o, vs[1].words[w].word)
		}
		if o.a.best >= 0 {
			return say(o, o.a.best)
		}
	}
	return decision{move: pick.sq.String(), against: -1}
}

// raceTheta returns the probability at which to announce against board,
// the last grid the viewer still attacks, once every other seat is done:
// their scores are final, so what matters is beating the best of them,
// not the points. With spare points left over what wins (each call or
// wrong announcement costs one) the solver announces sooner the fewer it
// has; with none, or only a draw within reach, it announces its likeliest
// word at once, since a call would leave it no better than that. Behind
// beyond reach, or while an opponent still plays, theta stands; but in a
// two-player game a foreseen score (rivalTarget, -1 for none) stands in
// for the final score of the opponent still playing.
func raceTheta(v *quizl.View, board *quizl.Board, theta float64, foreseen int) float64 {
	if v.Seat < 0 || v.Seat >= len(v.Scores) || len(v.Done) != len(v.Scores) {
		return theta
	}
	target := -1
	for s, done := range v.Done {
		if s == v.Seat {
			continue
		}
		if !done {
			if foreseen < 0 || len(v.Done) != 2 {
				return theta
			}
			target = max(target, foreseen)
			continue
		}
		target = max(target, v.Scores[s])
	}
	if target < 0 {
		return theta
	}
	potential := v.Scores[v.Seat] + max(0, quizl.MaxPoints-len(v.Called)-board.Penalty)
	spare := potential - target - 1
	switch {
	case spare < -1:
		return theta // lost whatever it does: play for points
	case spare <= 0:
		return 0
	case spare >= raceSpare:
		return theta
	}
	return theta * float64(spare+1) / float64(raceSpare+1)
}

// rivalTarget foresees, in a two-player game, the score the opponent
// makes on its next turn: what its calls showed of the viewer's own grid
// (every call is public, and the viewer knows its own letters) and the
// words it announced wrongly are what the opponent knows, and when the
// viewer's password is the likeliest word under that knowledge, with a
// probability of at least b.lv.rival, the opponent is about to announce
// it and score 25 less its calls and penalties. It returns -1 when it
// foresees nothing.
//
// An opponent that already knew as much at its last turn and called a
// square instead has shown that it does not announce when this reckoning
// says it will (it counts words otherwise, or never announces at all):
// foreseeing its announcement again would have the race guess on every
// turn for an announcement that never comes, a point lost each time. So
// no score is foreseen after such a pass.
func (b *Bot) rivalTarget(v *quizl.View, full *vocab) int {
	if b.lv.rival <= 0 || len(v.Players) != 2 || v.Seat < 0 || v.Seat > 1 || len(v.Done) != 2 || v.Done[1-v.Seat] || len(v.Grid) != quizl.Size {
		return -1
	}
	var seen, before uint32 // before: what the opponent had seen at its last turn
	var wrong []string
	lastCalled := false
	for _, m := range v.Moves {
		if m.Seat == v.Seat {
			continue
		}
		before, lastCalled = seen, false
		if sq, err := quizl.ParseSquare(m.Move); err == nil {
			seen |= 1 << sq
			lastCalled = true
			continue
		}
		if w, ok := strings.CutPrefix(m.Move, "say "); ok && !strings.EqualFold(w, v.Password) {
			wrong = append(wrong, strings.ToUpper(w))
		}
	}
	if !b.rivalKnows(v, full, seen, wrong) {
		return -1
	}
	if lastCalled && b.rivalKnows(v, full, before, wrong) {
		return -1 // it knew as much and called: it passed
	}
	return max(0, quizl.MaxPoints-bits.OnesCount32(seen)-len(wrong))
}

// rivalKnows reports whether the viewer's password is, with probability
// at least b.lv.rival, the likeliest word of an opponent that has seen
// the squares of seen of the viewer's grid and announced wrong wrongly.
func (b *Bot) rivalKnows(v *quizl.View, full *vocab, seen uint32, wrong []string) bool {
	rows := make([]string, quizl.Size)
	for r, row := range v.Grid {
		if len(row) != quizl.Size {
			return false
		}
		shown := []byte(row)
		for c := range shown {
			if seen&(1<<quizl.At(r+5, c)) == 0 {
				shown[c] = quizl.Unknown
			}
		}
		rows[r] = string(shown)
	}
	board := quizl.Board{Grid: rows, Wrong: wrong}
	a := analyse(full, read(&board))
	return a.best >= 0 && a.bestP >= b.lv.rival && strings.EqualFold(a.word(a.best), v.Password)
}

// maxWrongRun is how many wrong announcements in a row the solver makes
// at most while a call that cannot trip is left.
const maxWrongRun = 3

// wrongRun counts the viewer's wrong announcements since its last call or
// right announcement: its announcements of words its boards list as
// announced wrongly.
func wrongRun(v *quizl.View) int {
	wrong := map[string]bool{}
	for _, bd := range v.Boards {
		for _, w := range bd.Wrong {
			wrong[strings.ToUpper(w)] = true
		}
	}
	n := 0
	for i := len(v.Moves) - 1; i >= 0; i-- {
		m := v.Moves[i]
		if m.Seat != v.Seat {
			continue
		}
		f := strings.Fields(m.Move)
		if len(f) < 2 || f[0] != "say" || !wrong[strings.ToUpper(f[len(f)-1])] {
			break
		}
		n++
	}
	return n
}

// safeCallLeft reports whether some square not yet called could trip over
// no opponent's password.
func (b *Bot) safeCallLeft(opps []opp, called map[string]bool) bool {
	for sq := range quizl.Square(quizl.Squares) {
		if called[sq.String()] {
			continue
		}
		safe := true
		for _, o := range opps {
			if _, risk := o.trips[sq]; risk || o.a.pTrip[sq] > 0 {
				safe = false
				break
			}
		}
		if safe {
			return true
		}
	}
	return false
}

// raceSpare is how many spare points make the race no different from
// playing for points.
const raceSpare = 5

// nearTie is how close, as a fraction of the best score, a square's score
// must be to count as as good as the best.
const nearTie = 0.01

// nearBest returns how many of the leading options, sorted best first,
// score within tie (a fraction of its score) of the first.
func nearBest[T any](sorted []T, tie float64, score func(T) float64) int {
	if len(sorted) == 0 {
		return 0
	}
	best := score(sorted[0])
	n := 1
	for n < len(sorted) && best-score(sorted[n]) <= tie*math.Abs(best) {
		n++
	}
	return n
}

// wrongCost is what a wrong announcement costs, in points: the penalty
// and, with opponents, half the award it hands one of them. Even a free
// guess spends a turn, so it costs something.
func wrongCost(rules game.Rules, players int) float64 {
	pen, award := 1.0, 0.0
	if rules != nil {
		if _, ok := rules[quizl.OptPenalty]; ok {
			pen = float64(rules.Int(quizl.OptPenalty))
		}
		award = float64(rules.Int(quizl.OptAward))
	}
	if players > 1 {
		pen += award / 2
	}
	return max(pen, 0.25)
}

// softmax picks an index 0..n-1 with probability proportional to
// exp(score/temp).
func softmax(rng *rand.Rand, n int, score func(int) float64, temp float64) int {
	top := score(0)
	for i := 1; i < n; i++ {
		top = max(top, score(i))
	}
	w := make([]float64, n)
	var sum float64
	for i := range n {
		w[i] = math.Exp((score(i) - top) / temp)
		sum += w[i]
	}
	x := rng.Float64() * sum
	for i := range n {
		if x -= w[i]; x < 0 {
			return i
		}
	}
	return n - 1
}
