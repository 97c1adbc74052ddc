package bot

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"parlour/bench"
	"parlour/game"
	"parlour/games/quizl"
	"parlour/lexicon"
)

// maxMoves caps a game the bench plays; a game that runs past it is a bug.
const maxMoves = 1000

// played is the outcome of one bench game for the seat under test.
type played struct {
	calls  int
	wrong  int // seat 0's wrong announcements against the first grid
	score  int
	right  bool
	winner []int
	scores []int
	// said, wrongs and run are, per seat, its announcements, its wrong
	// ones, and its longest run of wrong announcements with no call or
	// right announcement between them; moves is its moves.
	said, wrongs, run, moves []int
}

// announcements counts, per seat of a finished game's moves, the
// announcements, the wrong ones, the longest run of wrong ones with no
// call or right announcement of that seat between them, and the moves.
func announcements(seats int, moves []quizl.Seen) (said, wrongs, run, all []int) {
	said, wrongs, run, all = make([]int, seats), make([]int, seats), make([]int, seats), make([]int, seats)
	cur := make([]int, seats)
	for _, m := range moves {
		s := m.Seat
		if s < 0 || s >= seats {
			continue
		}
		all[s]++
		if !strings.HasPrefix(m.Move, "say ") {
			cur[s] = 0
			continue
		}
		said[s]++
		if !strings.Contains(m.Text, ": wrong") {
			cur[s] = 0
			continue
		}
		wrongs[s]++
		cur[s]++
		run[s] = max(run[s], cur[s])
	}
	return said, wrongs, run, all
}

// player is a solver the bench and the trial games can seat: a Bot of
// some level or a baseline.
type player interface {
	Move(ctx context.Context, cfg game.Config, seat game.Seat, view any) (string, error)
	label() string
}

// playGame plays one game between bots (one per seat) on grids (the bench
// and the grid maker's trial games both use it), under the
// default rules, at a table whose seed is seed (as a server gives each
// table its own), timing the moves of the seats in timed.
func playGame(ctx context.Context, bots []player, grids []*quizl.Grid, seed uint64, lex *lexicon.Lexicon, timed *bench.Matchup) (played, error) {
	return playWatched(ctx, bots, grids, seed, lex, timed, nil)
}

// playWatched is playGame that shows watch, when not nil, every move with
// the view its seat chose it from, before it is played.
func playWatched(ctx context.Context, bots []player, grids []*quizl.Grid, seed uint64, lex *lexicon.Lexicon, timed *bench.Matchup, watch func(seat game.Seat, v *quizl.View, mv string)) (played, error) {
	names := []string{"solver"}
	if len(bots) > 1 {
		names = make([]string, len(bots))
		for i := range bots {
			names[i] = fmt.Sprintf("%s-%d", bots[i].label(), i+1)
		}
	}
	cfg := game.Config{Players: names, Rules: game.Defaults(quizl.Game{}.Options()), Lexicon: lex, Seed: seed}
	st, err := quizl.NewStateGrids(cfg, grids)
	if err != nil {
		return played{}, err
	}
	for n := 0; len(st.ToMove()) > 0; n++ {
		if n > maxMoves {
			return played{}, fmt.Errorf("quizl bench: a game ran past %d moves", maxMoves)
		}
		if err := ctx.Err(); err != nil {
			return played{}, err
		}
		seat := st.ToMove()[0]
		start := time.Now()
		view := st.ViewOf(seat)
		mv, err := bots[seat].Move(ctx, cfg, seat, view)
		if timed != nil {
			timed.Time(time.Since(start))
		}
		if err != nil {
			return played{}, err
		}
		if watch != nil {
			watch(seat, &view, mv)
		}
		if _, err := st.Apply(seat, mv); err != nil {
			return played{}, fmt.Errorf("quizl bench: %s bot played %q, refused: %w", bots[seat].label(), mv, err)
		}
	}
	v := st.ViewOf(0)
	r := st.Result()
	p := played{calls: len(v.Called), score: r.Scores[0], scores: r.Scores}
	for _, w := range r.Winners {
		p.winner = append(p.winner, int(w))
	}
	p.right = v.Boards[0].Outcome == quizl.Right
	p.wrong = len(v.Boards[0].Wrong)
	p.said, p.wrongs, p.run, p.moves = announcements(len(bots), v.Moves)
	return p, nil
}

// draw is one solitaire game of the bench: the password, and the seed of
// its table and of the grids that hide it.
type draw struct {
	password string
	seed     uint64
}

// drawGames draws the bench's solitaire games for seed: common words, as
// people choose.
func drawGames(games int, seed uint64, lex *lexicon.Lexicon) ([]draw, error) {
	words := quizl.Passwords(lex, 35)
	if len(words) == 0 {
		return nil, fmt.Errorf("quizl bench: the lexicon has no common password")
	}
	rng := rand.New(rand.NewPCG(seed, 0xbe4c))
	out := make([]draw, games)
	for i := range out {
		out[i] = draw{words[rng.IntN(len(words))], rng.Uint64()}
	}
	return out, nil
}

// lineIndexLabel names line index k (row 5+k or column k) among the
// bench's counts.
func lineIndexLabel(k int) string { return fmt.Sprintf("index %d", k) }

// Bench measures the Quizl bots over games solitaire games per matchup:
// the strong grid maker's time per grid and the line index where it hid
// each password; how many calls each solver (strong, medium, easy, and
// the line-probability, information-seeking and Bayesian baselines) needs to find a
// password hidden by random fillers and by the strong grid maker's
// deceptive fillers, and its score, with how many more calls the
// deceptive grids cost, paired game by game, with the Bayesian baseline
// beside them; the information bound for the same
// grids (the log of the starting number of (line, word) hypotheses over
// the log of the 26 letters one call can reveal); the strong solver's wrong
// announcements in two-player games against each of collapseRivals, the
// line-shadowing baseline first; and two-player games
// between the levels, with the first level's share of the decided ones. Passwords are common words, as people choose. Each
// game is played at a table of its own seed, as on a server, so that the
// solvers' choices among equally good squares vary from game to game; the
// random and the deceptive grid of one password share a seed.
func Bench(ctx context.Context, games int, seed uint64, lex *lexicon.Lexicon) ([]*bench.Matchup, error) {
	if games < 1 {
		return nil, fmt.Errorf("quizl bench: %d games", games)
	}
	if lex == nil {
		return nil, fmt.Errorf("quizl bench: no lexicon")
	}
	levels := []string{game.Strong, game.Medium, game.Easy}
	solvers := map[string]*Bot{}
	for i, l := range levels {
		b, err := newBot(l, seed+uint64(i), lex)
		if err != nil {
			return nil, err
		}
		solvers[l] = b
	}
	draws, err := drawGames(games, seed, lex)
	if err != nil {
		return nil, err
	}
	type grids struct {
		random, deceptive *quizl.Grid
		seed              uint64
	}
	gs := make([]grids, games)
	// The strong grid maker's time per grid, and where it hid the
	// password: no line index may hold more than 35% of its grids, or a
	// player who guesses the usual line first would gain from it.
	hiding := bench.NewMatchup("strong grid maker, the bench's passwords", "password's line index (rows 5-9, columns 0-4)")
	hiding.Counted = map[string]string{}
	for k := range quizl.Size {
		hiding.Counted[lineIndexLabel(k)] = fmt.Sprintf("password on line index %d", k)
	}
	for i, dr := range draws {
		r, err := quizl.RandomGrid(dr.password, lex, dr.seed)
		if err != nil {
			return nil, err
		}
		start := time.Now()
		d, err := Grid(ctx, dr.password, game.Strong, dr.seed, lex)
		if err != nil {
			return nil, err
		}
		hiding.Time(time.Since(start))
		k := int(d.Line) % quizl.Size
		hiding.Add(float64(k), lineIndexLabel(k))
		gs[i] = grids{r, d, dr.seed}
	}
	out := []*bench.Matchup{hiding}
	hyp := float64(quizl.Lines * len(solvers[game.Strong].vocab(lex)[1].words))
	bound := bench.NewMatchup("information bound, every grid", "calls: log(hypotheses)/log(26)")
	for range games {
		bound.Add(math.Log(hyp)/math.Log(26), "")
	}
	lineBase, err := NewLineSolver(seed+10, lex)
	if err != nil {
		return nil, err
	}
	infoBase, err := NewInfoSolver(seed+11, lex)
	if err != nil {
		return nil, err
	}
	bayesBase, err := NewBayesSolver(seed+12, lex)
	if err != nil {
		return nil, err
	}
	seats := []player{solvers[game.Strong], solvers[game.Medium], solvers[game.Easy], lineBase, infoBase, bayesBase}
	says := map[string]*[]stated{"random": {}, "deceptive": {}}
	for si, solver := range seats {
		var randomCalls *bench.Matchup
		for _, filler := range []string{"random", "deceptive"} {
			calls := bench.NewMatchup(fmt.Sprintf("%s solver, %s fillers", solver.label(), filler), "calls to find the password")
			score := bench.NewMatchup(fmt.Sprintf("%s solver, %s fillers", solver.label(), filler), "score")
			for i, g := range gs {
				grid := g.random
				if filler == "deceptive" {
					grid = g.deceptive
				}
				p, err := playWatched(ctx, []player{solver}, []*quizl.Grid{grid}, g.seed, lex, calls, sayWatcher(solvers[game.Strong], grid, lex, says[filler]))
				if err != nil {
					return nil, fmt.Errorf("game %d: %w", i, err)
				}
				win := "tripped or lost"
				if p.right {
					win = "found"
				}
				calls.Add(float64(p.calls), win)
				score.Add(float64(p.score), win)
			}
			score.MoveTimes = calls.MoveTimes
			if filler == "random" {
				randomCalls = calls
			} else {
				// Game i of both hides one password and shares its table
				// seed: the deceptive grids' cost is paired game by game.
				calls.Over, calls.Paired = randomCalls, true
			}
			out = append(out, calls, score)
		}
		if si == 0 {
			out = append(out, bound)
		}
	}
	// How the analysis's stated probabilities of the solvers'
	// announcements fare on each kind of grid.
	out = append(out, reliability("random", *says["random"])...)
	out = append(out, reliability("deceptive", *says["deceptive"])...)
	// Two-player games of strong against the line-shadowing baseline, the
	// others and the levels: strong's wrong announcements.
	for _, rival := range collapseRivals() {
		w, r, sh, _, err := duels(ctx, rival, game.Strong, games, seed, lex)
		if err != nil {
			return nil, err
		}
		out = append(out, w, r, sh)
	}
	// Two-player games between levels, each hiding its own grid.
	for _, pair := range [][2]string{{game.Strong, game.Medium}, {game.Strong, game.Easy}, {game.Medium, game.Easy}} {
		m, decided, err := headToHead(ctx, pair, games, seed, lex)
		if err != nil {
			return nil, err
		}
		out = append(out, m, decided)
	}
	return out, nil
}

// headToHead plays the bench's two-player games of pair[0] against
// pair[1], each hiding its own grid, the first level seated first in even
// games: the first level's scores, and its wins (1 or 0) in the games
// somebody won.
func headToHead(ctx context.Context, pair [2]string, games int, seed uint64, lex *lexicon.Lexicon) (m, decided *bench.Matchup, err error) {
	m = bench.NewMatchup(fmt.Sprintf("%s vs %s, 2 players", pair[0], pair[1]), pair[0]+"'s score")
	decided = bench.NewMatchup(fmt.Sprintf("%s vs %s, 2 players, decided games", pair[0], pair[1]), pair[0]+"'s wins (1 or 0)")
	for i := range games {
		a, err := newBot(pair[0], seed^uint64(2*i+1), lex)
		if err != nil {
			return nil, nil, err
		}
		b, err := newBot(pair[1], seed^uint64(2*i+2), lex)
		if err != nil {
			return nil, nil, err
		}
		bots := []*Bot{a, b}
		if i%2 == 1 {
			bots = []*Bot{b, a}
		}
		seated := []player{bots[0], bots[1]}
		var grids []*quizl.Grid
		for s, bt := range bots {
			g, err := Grid(ctx, "", bt.lv.name, seed+uint64(i*2+s), lex)
			if err != nil {
				return nil, nil, err
			}
			grids = append(grids, g)
		}
		p, err := playGame(ctx, seated, grids, seed^uint64(i)<<32, lex, m)
		if err != nil {
			return nil, nil, fmt.Errorf("%s game %d: %w", m.Name, i, err)
		}
		first := 0
		if i%2 == 1 {
			first = 1
		}
		winner := "draw"
		if len(p.winner) == 1 {
			winner = bots[p.winner[0]].lv.name
		}
		m.Add(float64(p.scores[first]), winner)
		if winner != "draw" {
			won := 0.0
			if winner == pair[0] {
				won = 1
			}
			decided.Add(won, winner)
		}
	}
	decided.MoveTimes = m.MoveTimes
	return m, decided, nil
}

// collapseRivals returns the opponents the strong solver meets in the
// bench's wrong-announcement games: the line-shadowing baseline, which
// calls along strong's password line and never announces, the other two
// baselines, and the levels.
func collapseRivals() []string {
	return []string{panelShadow, panelLine, panelInfo, panelBayes, game.Strong, game.Medium, game.Easy}
}

// duels plays games two-player games of the strong solver against rival
// (a level or a baseline, as panelist names them), strong seated first in
// even games, and returns what strong announced: per game, its wrong
// announcements, its longest run of them, their share of its moves, and
// its moves.
// Strong hides its password with gridLevel's grid maker (strong's is the
// costliest), a level rival with its own level's, a baseline behind a
// random filling of a common word.
func duels(ctx context.Context, rival string, gridLevel string, games int, seed uint64, lex *lexicon.Lexicon) (wrongs, runs, share *bench.Matchup, moves []int, err error) {
	name := fmt.Sprintf("strong vs %s, 2 players", rival)
	wrongs = bench.NewMatchup(name, "strong's wrong announcements")
	runs = bench.NewMatchup(name, "strong's longest run of them")
	share = bench.NewMatchup(name, "their share of strong's moves")
	over := fmt.Sprintf("over %d in a row", maxWrongRun)
	runs.Counted = map[string]string{over: fmt.Sprintf("games with over %d wrong announcements in a row", maxWrongRun)}
	words := quizl.Passwords(lex, 35)
	for i := range games {
		gseed := seed ^ uint64(i+1)*0x9e3779b97f4a7c15
		s, err := newBot(game.Strong, gseed^1, lex)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		r, err := panelist(rival, gseed^2, lex)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		mine, err := Grid(ctx, "", gridLevel, gseed^3, lex)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		var theirs *quizl.Grid
		if rb, ok := r.(*Bot); ok {
			theirs, err = Grid(ctx, "", rb.lv.name, gseed^4, lex)
		} else {
			theirs, err = quizl.RandomGrid(words[int(gseed>>33)%len(words)], lex, gseed^4)
		}
		if err != nil {
			return nil, nil, nil, nil, err
		}
		bots, grids, me := []player{s, r}, []*quizl.Grid{mine, theirs}, 0
		if i%2 == 1 {
			bots, grids, me = []player{r, s}, []*quizl.Grid{theirs, mine}, 1
		}
		p, err := playGame(ctx, bots, grids, gseed, lex, wrongs)
		if err != nil {
			return nil, nil, nil, nil, fmt.Errorf("%s, game %d: %w", name, i, err)
		}
		winner := "draw"
		if len(p.winner) == 1 {
			winner = bots[p.winner[0]].label()
		}
		wrongs.Add(float64(p.wrongs[me]), winner)
		long := ""
		if p.run[me] > maxWrongRun {
			long = over
		}
		runs.Add(float64(p.run[me]), long)
		share.Add(float64(p.wrongs[me])/float64(max(1, p.moves[me])), winner)
		moves = append(moves, p.moves[me])
	}
	runs.MoveTimes, share.MoveTimes = wrongs.MoveTimes, wrongs.MoveTimes
	return wrongs, runs, share, moves, nil
}
