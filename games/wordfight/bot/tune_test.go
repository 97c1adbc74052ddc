package bot

import (
	"context"
	"os"

	"flag"
	"fmt"
	"math"
	"parlour/bench"
	"parlour/game"
	"parlour/games/wordfight"
	"strconv"
	"strings"
	"testing"
	"time"
)

var tuneFlag = flag.String("wordfight.careful", "", "TestSeeds: the careful player's weights, as in rival=1,grids=8 (the rest as tuned)")

// parseCareful returns carefulTuned with the weights s names changed.
func parseCareful(s string) (carefulWeights, error) {
	w := carefulTuned
	if s == "" {
		return w, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return w, fmt.Errorf("careful weight %q: want name=value", kv)
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return w, fmt.Errorf("careful weight %q: %w", kv, err)
		}
		ints := map[string]*int{"random": &w.random, "extenders": &w.extenders, "holders": &w.holders,
			"endsmax": &w.endsMax, "grids": &w.grids, "shortlist": &w.shortlist}
		floats := map[string]*float64{"ends": &w.ends, "rival": &w.rival, "strike": &w.strike}
		switch {
		case ints[k] != nil:
			*ints[k] = int(f)
		case floats[k] != nil:
			*floats[k] = f
		default:
			return w, fmt.Errorf("no careful weight %q", k)
		}
	}
	return w, nil
}

func TestParseCareful(t *testing.T) {
	t.Parallel()
	w, err := parseCareful("rival=0.5,grids=3")
	if err != nil || w.rival != 0.5 || w.grids != 3 || w.random != carefulTuned.random {
		t.Errorf("parseCareful: %+v, %v", w, err)
	}
	for _, bad := range []string{"rival", "rival=x", "nerve=1"} {
		if _, err := parseCareful(bad); err == nil {
			t.Errorf("parseCareful(%q): no error", bad)
		}
	}
}

var (
	trialsFlag = flag.Int("wordfight.trials", 0, "TestTrials: games to play")
	trialFlag  = flag.String("wordfight.trial", "careful,greedy-best", "TestTrials: the player under test and its rival")
	strongFlag = flag.String("wordfight.strong", "", "TestTrials: strong's candidates, shortlist, imagined grids and crossing words, as in 400,40,24,3000 (those left out as tuned)")
	weighFlag  = flag.String("wordfight.weigh", "", "TestTrials: strong's other weights, as in room=30,future=0.3 (the rest as tuned)")
	lossFlag   = flag.Bool("wordfight.losses", false, "TestTrials: print each game the player under test does not win")
	eachFlag   = flag.Bool("wordfight.each", false, "TestTrials: print each game's margin, for comparing trials game by game")
)

// parseStrong returns p with the weights s names changed.
func parseStrong(p params, s string) (params, error) {
	if s == "" {
		return p, nil
	}
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return p, fmt.Errorf("strong weight %q: want name=value", kv)
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return p, fmt.Errorf("strong weight %q: %w", kv, err)
		}
		ints := map[string]*int{"ends": &p.ends}
		floats := map[string]*float64{"future": &p.future, "room": &p.room, "suit": &p.suit, "early": &p.early,
			"safe": &p.safe, "win": &p.win, "lose": &p.lose, "safeearly": &p.safeEarly, "lastroom": &p.lastRoom, "lost": &p.lost}
		switch {
		case ints[k] != nil:
			*ints[k] = int(f)
		case floats[k] != nil:
			*floats[k] = f
		default:
			return p, fmt.Errorf("no strong weight %q", k)
		}
	}
	return p, nil
}

func TestParseStrong(t *testing.T) {
	t.Parallel()
	base, err := levelParams(game.Strong)
	if err != nil {
		t.Fatal(err)
	}
	p, err := parseStrong(base, "room=12,future=0.5")
	if err != nil || p.room != 12 || p.future != 0.5 || p.suit != base.suit {
		t.Errorf("parseStrong: %+v, %v", p, err)
	}
	for _, bad := range []string{"room", "room=x", "nerve=1"} {
		if _, err := parseStrong(base, bad); err == nil {
			t.Errorf("parseStrong(%q): no error", bad)
		}
	}
}

// TestTrials plays the tuning games: -wordfight.trials two-player games,
// seeded 9000 on (none of the bench's seeds), of the first player of
// -wordfight.trial against the second, each seat in turn, and prints the
// first's win rate and the points each side scored on the words each
// declared, and how often each could not place the other's. The careful
// player plays with -wordfight.careful's weights; strong with
// -wordfight.strong's candidates, shortlist, grids and crossing words.
func TestTrials(t *testing.T) {
	if *trialsFlag == 0 {
		t.Skip("no -wordfight.trials")
	}
	cw, err := parseCareful(*tuneFlag)
	if err != nil {
		t.Fatal(err)
	}
	names := strings.Split(*trialFlag, ",")
	if len(names) != 2 {
		t.Fatalf("-wordfight.trial %q: want two players", *trialFlag)
	}
	lex := enLex()
	player := func(name string, seed uint64) game.Bot {
		switch name {
		case Careful:
			c := newCareful(seed, lex)
			c.w = cw
			return c
		case BestGreedy:
			return newBestGreedy(seed, lex, bestGreedyWords(lex))
		}
		b := newBot(t, name, seed)
		if *strongFlag != "" && name == game.Strong {
			ps := []*int{&b.p.candidates, &b.p.shortlist, &b.p.imagine, &b.p.crossers}
			for i, f := range strings.Split(*strongFlag, ",") {
				n, err := strconv.Atoi(f)
				if err != nil || i >= len(ps) {
					t.Fatalf("-wordfight.strong %q: want up to %d numbers", *strongFlag, len(ps))
				}
				*ps[i] = n
			}
		}
		if name == game.Strong {
			if b.p, err = parseStrong(b.p, *weighFlag); err != nil {
				t.Fatal(err)
			}
		}
		return b
	}
	rules := game.Defaults(wordfight.Game{}.Options())
	m := bench.NewMatchup(names[0]+" vs "+names[1], names[0]+"'s wins")
	// pts and cannots by [declarer is the player under test][answerer is].
	var pts, cannots [2][2]float64
	var margin, margin2, words float64
	for i := range *trialsFlag {
		s := uint64(9000 + i)
		me := i % 2
		bots := make([]game.Bot, 2)
		bots[me] = player(names[0], s)
		bots[1-me] = player(names[1], s^5)
		cfg := game.Config{Players: []string{"A", "B"}, Rules: rules, Lexicon: lex, Seed: s}
		st, err := Play(context.Background(), cfg, bots, func(s game.Seat, d time.Duration) {
			if int(s) == me {
				m.Time(d)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		list := st.SeatView(0).List
		words += float64(len(list))
		res := st.Result()
		diff := float64(res.Scores[me] - res.Scores[1-me])
		margin += diff
		margin2 += diff * diff
		var gpts, gcan [2][2]float64
		for _, e := range list {
			d := 0
			if int(e.By) == me {
				d = 1
			}
			for a, ans := range e.Answers {
				k := 0
				if a == me {
					k = 1
				}
				pts[d][k] += float64(ans.Points)
				gpts[d][k] += float64(ans.Points)
				if ans.Move == "cannot" {
					cannots[d][k]++
					gcan[d][k]++
				}
			}
		}
		if *eachFlag {
			fmt.Printf("margin %d %v\n", i, diff)
		}
		if *lossFlag && diff <= 0 {
			last := list[len(list)-1]
			end := "the rival's"
			if int(last.By) == me {
				end = "its"
			}
			if len(last.Cannot) > 0 {
				end += " strike"
			}
			fmt.Printf("game %d (seat %d): %d to %d, %d words, the last %s; on its words %v to %v, cannot %v/%v; on the rival's %v to %v, cannot %v/%v\n",
				i, me, res.Scores[me], res.Scores[1-me], len(list), end, gpts[1][1], gpts[1][0], gcan[1][1], gcan[1][0],
				gpts[0][1], gpts[0][0], gcan[0][1], gcan[0][0])
		}
		m.Add(outcome(pairing{level: names[0], rivals: names[1:], wins: true}, st.Result(), game.Seat(me)))
	}
	bench.Print(os.Stdout, fmt.Sprintf("%d trial games, seeded 9000 on", *trialsFlag), []*bench.Matchup{m})
	n := float64(*trialsFlag)
	sd := math.Sqrt(max(margin2/n-margin*margin/n/n, 0))
	fmt.Printf("margin %.1f points a game (sd %.1f, 95%% ±%.1f), %.1f words a game\n", margin/n, sd, 1.96*sd/math.Sqrt(n), words/n)
	for d, who := range names {
		x := 1 - d // index of the declarer in pts
		fmt.Printf("%s declares: %s %.1f points a game, %.2f cannots; %s %.1f points, %.2f cannots\n", who,
			names[0], pts[x][1]/n, cannots[x][1]/n, names[1], pts[x][0]/n, cannots[x][0]/n)
	}
}
