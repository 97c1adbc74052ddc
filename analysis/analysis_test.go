package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"parlour/game"
	"parlour/games"
	"parlour/games/nymphabet"
	"parlour/games/nymphabet/solve"
	"parlour/games/quizl"
	"parlour/games/salvo"
)

func analyse(t testing.TB, rec *game.Record) *Analysis {
	t.Helper()
	a, err := Of(context.Background(), games.Registry(), rec, en(t))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func readRecord(t testing.TB, name string) *game.Record {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := game.DecodeBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestNymphabetAgreesWithSolver checks every position of bot games in the
// three modes against the solver's own values (what `parlour nymphabet
// solve` prints), and the mistake marks against those values.
func TestNymphabetAgreesWithSolver(t *testing.T) {
	for _, mode := range []nymphabet.Mode{nymphabet.Standard, nymphabet.Cyclic, nymphabet.Scoring} {
		s := solve.New(en(t), mode)
		rep := s.Report()
		mistakes := 0
		for seed := uint64(1); seed <= 4; seed++ {
			rec := play(t, "nymphabet", map[string]any{"mode": string(mode)}, []string{"easy", "strong"}, seed, 100)
			a := analyse(t, rec).Nymphabet
			if a == nil || len(a.Moves) != len(rec.Moves) || a.Mode != mode || !a.Exact {
				t.Fatalf("%s seed %d: %+v", mode, seed, a)
			}
			if a.FirstPlayer != rep.FirstPlayer {
				t.Errorf("%s: first player %v, solver %v", mode, a.FirstPlayer, rep.FirstPlayer)
			}
			products := [2]int{1, 1}
			for i, m := range a.Moves {
				var want solve.Value
				switch {
				case mode == nymphabet.Standard:
					want = rep.Positions[m.Letter[0]-'A'].Value
				case i == 0:
					want = rep.FirstPlayer
				default:
					want = s.Value(solve.Position{Letter: int(m.Letter[0] - 'A'), Left: m.Left, Mover: products[m.Seat], Other: products[1-m.Seat]})
				}
				if m.Before != want {
					t.Errorf("%s seed %d move %d (%s from %s): before %v, solver %v", mode, seed, m.Index, m.Move, m.Letter, m.Before, want)
				}
				if (mode == nymphabet.Scoring) != (len(m.Forced) == 2) || len(m.Forced) == 2 && (m.Forced[0] < 1 || m.Forced[1] < 1) {
					t.Errorf("%s move %d: forced products %v", mode, m.Index, m.Forced)
				}
				if m.Mistake != (m.After < m.Before) {
					t.Errorf("move %d: mistake %v with %v -> %v", m.Index, m.Mistake, m.Before, m.After)
				}
				if m.Mistake {
					mistakes++
					if m.Before == solve.Win && m.Best == "" {
						t.Errorf("move %d threw a win away but names no winning word", m.Index)
					}
				}
				if m.Best != "" && m.Before == solve.Win {
					// The winning word named must win: it deletes BestDeletes letters to a lost position for the other player.
					if !winning(s, m.Letter, m.Left, products, m.Seat, strings.ToLower(m.Best), mode) {
						t.Errorf("move %d: %s is not a winning word", m.Index, m.Best)
					}
				}
				if m.Move != "RESIGN" {
					products[m.Seat] *= m.Deletes
				}
				// The next mover's value is the opposite of this mover's after.
				if i+1 < len(a.Moves) && a.Moves[i+1].Before != -m.After {
					t.Errorf("move %d: after %v, but the next mover's before is %v", m.Index, m.After, a.Moves[i+1].Before)
				}
			}
		}
		if mistakes == 0 {
			t.Errorf("%s: the easy player made no mistake in 4 games: the marks are not tested", mode)
		}
	}
}

// winning reports whether word, written by the mover in the position, is
// among the solver's winning moves.
func winning(s *solve.Solver, letter string, left int, products [2]int, seat int, word string, mode nymphabet.Mode) bool {
	p := solve.Position{Letter: 0, Left: left, Mover: products[seat], Other: products[1-seat]}
	if letter == "" {
		p.Anywhere = true
	} else {
		p.Letter = int(letter[0] - 'A')
	}
	d := mode.Deletes(word, left)
	for _, m := range s.Moves(p) {
		if m.Letter == int(word[0]-'a') && m.Deletes == d {
			return m.Value == solve.Win
		}
	}
	return false
}

// TestQuizl checks the numbers of bot games: hypotheses never grow with a
// call, probabilities lie in [0, 1], and a strong player's announcements
// had the probability its solver announces at.
func TestQuizl(t *testing.T) {
	calls, says := 0, 0
	for seed := uint64(1); seed <= 3; seed++ {
		rec := play(t, "quizl", nil, []string{"medium", "strong"}, seed, 200)
		a := analyse(t, rec).Quizl
		if a == nil || len(a.Moves) != len(rec.Moves) {
			t.Fatalf("seed %d: %d notes for %d moves", seed, len(a.Moves), len(rec.Moves))
		}
		last := map[[2]int]int{}
		for _, m := range a.Moves {
			switch m.Kind {
			case "call":
				calls++
				if len(m.Boards) != 1 || m.Strong == "" {
					t.Fatalf("move %d: %+v", m.Index, m)
				}
				for _, b := range m.Boards {
					k := [2]int{m.Seat, b.Against}
					if prev, ok := last[k]; ok && b.Before > prev {
						t.Errorf("move %d: %d hypotheses before, %d after the mover's last call", m.Index, b.Before, prev)
					}
					last[k] = b.After
					if b.After > b.Before || b.After == 0 || b.Before == 0 {
						t.Errorf("move %d: hypotheses %d -> %d", m.Index, b.Before, b.After)
					}
					if b.OnLine < 0 || b.OnLine > 1+1e-9 || b.LikeliestP < 0 || b.LikeliestP > 1+1e-9 {
						t.Errorf("move %d: probabilities %+v", m.Index, b)
					}
				}
			case "say":
				says++
				if m.IfDeceptive <= 0 || m.IfDeceptive > 1+1e-9 {
					t.Errorf("move %d: %s at %v if the grid was made to deceive", m.Index, m.Word, m.IfDeceptive)
				}
				if m.Probability <= 0 || m.Probability > 1+1e-9 || m.Word == "" || m.Against != 1-m.Seat {
					t.Errorf("move %d: %+v", m.Index, m)
				}
				// Strong announces only likely words, unless it races an
				// opponent already done: then, with no spare point, its
				// likeliest word at once is its best (quizl/bot's
				// raceTheta). Its own belief also weighs where grid makers
				// like ours hide a password and lay their decoys (the
				// solver's hidden and shape weights), which the analysis's
				// even-handed count does not: a word it announces at its
				// threshold may count a little under a fifth here, never
				// a long shot.
				if strings.HasSuffix(rec.Players[m.Seat], "strong") && m.Probability < 0.1 {
					if !opponentDone(t, rec, m.Index, m.Seat) {
						t.Errorf("move %d: the strong player announced %s at %.2f with its opponent still playing", m.Index, m.Word, m.Probability)
					} else {
						t.Logf("seed %d, move %d: the strong player, racing, announced %s at %.2f", seed, m.Index, m.Word, m.Probability)
					}
				}
			}
		}
	}
	if calls < 20 || says < 3 {
		t.Errorf("%d calls and %d announcements: too few to test", calls, says)
	}
}

// TestQuizlTrip plays a game where Ben calls down the column that holds
// Ann's password and trips over it.
// opponentDone reports whether, before move i of the two-player Quizl
// game rec, seat's opponent had finished with seat's grid.
func opponentDone(t *testing.T, rec *game.Record, i, seat int) bool {
	t.Helper()
	part := *rec
	part.Moves = rec.Moves[:i]
	_, st, _, err := game.Replay(games.Registry(), &part, en(t))
	if err != nil {
		t.Fatal(err)
	}
	v, ok := st.View(game.Seat(seat)).(quizl.View)
	if !ok || len(v.Done) != 2 {
		t.Fatalf("move %d: the view is %T", i, st.View(game.Seat(seat)))
	}
	return v.Done[1-seat]
}

func TestQuizlTrip(t *testing.T) {
	grid := `{"grid":["TQUFP","WZVES","OGBRA","CHINL","KYXDM"],"password":"PSALM"}`
	rec := &game.Record{Parlour: 1, Game: "quizl", Players: []string{"Ann", "Ben"},
		Setup: map[string]json.RawMessage{"Ann": json.RawMessage(grid), "Ben": json.RawMessage(grid)}}
	for i, sq := range []string{"50", "54", "51", "64", "52", "74", "53", "84", "60", "94", "say psalm"} {
		by := "Ann"
		if i%2 == 1 {
			by = "Ben"
		}
		rec.Moves = append(rec.Moves, game.Move{By: by, Move: sq})
	}
	a := analyse(t, rec).Quizl
	trip := a.Moves[9]
	if len(trip.Trips) != 1 {
		t.Fatalf("no trip on Ben's call of 94: %+v", trip)
	}
	tr := trip.Trips[0]
	if tr.Against != 0 || tr.Password != "PSALM" {
		t.Errorf("trip: %+v", tr)
	}
	if tr.AnnounceableAt != 10 || a.Moves[tr.AnnounceableAt-1].Seat != 1 || tr.Probability <= 0 {
		t.Errorf("trip: could have announced at %d (%.2f)", tr.AnnounceableAt, tr.Probability)
	}
	// The call that trips leaves one hypothesis, the password it shows
	// whole, not none: the charts of hypotheses by call end at 1.
	for _, bd := range trip.Boards {
		if bd.Against == 0 && (bd.After != 1 || bd.Likeliest != "PSALM" || bd.LikeliestP != 1) {
			t.Errorf("the tripping call leaves %d hypotheses on Ann's grid, likeliest %q (%.2f), want 1, PSALM (1.00)", bd.After, bd.Likeliest, bd.LikeliestP)
		}
	}
	if say := a.Moves[10]; say.Kind != "say" || !say.Right || say.Word != "PSALM" || say.Probability <= 0 {
		t.Errorf("announcement: %+v", say)
	}
	t.Logf("tripped at move 10; the strong solver would have announced PSALM at move %d (%.2f)", tr.AnnounceableAt, tr.Probability)
}

// TestSalvo checks a two-player bot game: fleets never grow with a report,
// maps are probabilities with a ship's worth of squares, and the strong
// salvo is worth no less than the salvo played, up to sampling.
func TestSalvo(t *testing.T) {
	rec := readRecord(t, "salvo.json")
	a := analyse(t, rec).Salvo
	if a == nil || len(a.Moves) != len(rec.Moves) {
		t.Fatal("no note per move")
	}
	// Before the first salvo every fleet the default rules allow is
	// possible: counted exactly, not estimated.
	if first := a.Moves[0].Before; !first.Exact || first.Fleets != 2_636_553_896 {
		t.Errorf("first salvo: %+v fleets before it, want exactly 2,636,553,896", first)
	}
	exact, outlines, zeros := 0, 0, 0
	for _, m := range a.Moves {
		if m.Kind == "outline" {
			outlines++
			if !m.Before.Exact || m.Before.Fleets < 1 {
				t.Errorf("outline %d: %+v", m.Index, m.Before)
			}
			continue
		}
		if m.Kind != "fire" {
			continue
		}
		if m.After == nil || m.After.Fleets > m.Before.Fleets+m.Before.High-m.Before.Low || m.After.Fleets < 1 {
			t.Errorf("move %d: fleets %+v -> %+v", m.Index, m.Before, m.After)
		}
		if m.After.Exact {
			exact++
			if m.After.Low != m.After.Fleets || m.After.High != m.After.Fleets {
				t.Errorf("move %d: exact count with an interval %+v", m.Index, m.After)
			}
		} else if m.After.Low > m.After.Fleets || m.After.High < m.After.Fleets {
			t.Errorf("move %d: estimate outside its interval %+v", m.Index, m.After)
		}
		sum := 0.0
		for _, row := range m.Map {
			for _, p := range row {
				if p < 0 || p > 1 {
					t.Fatalf("move %d: probability %v", m.Index, p)
				}
				sum += p
			}
		}
		if len(m.Map) != 10 || sum < 15.9 || sum > 16.1 {
			t.Errorf("move %d: the map holds %.2f ship squares, want 16 (5+4+3+2+2)", m.Index, sum)
		}
		if m.Hits == 0 {
			// A salvo that hit nothing leaves no ship on its squares.
			zeros++
			for _, f := range strings.Fields(m.Move)[1:] {
				q, err := salvo.ParseSquare(f)
				if err != nil {
					t.Fatal(err)
				}
				if p := m.Map[q.Row()][q.Col()]; p != 0 {
					t.Errorf("move %d: %s missed, but the map gives it %v", m.Index, f, p)
				}
			}
		}
		if m.Expected > m.Strong*1.25+0.3 || m.Share < 0 {
			t.Errorf("move %d: played %.2f expected hits, strong %.2f", m.Index, m.Expected, m.Strong)
		}
	}
	if exact == 0 || outlines == 0 || zeros == 0 {
		t.Errorf("%d exact counts, %d outlines, %d salvos without a hit: the game does not test them", exact, outlines, zeros)
	}
}

// TestWordfight checks bot games (best never below played) and a seeded
// "cannot" that had a legal placement.
func TestWordfight(t *testing.T) {
	for seed := uint64(1); seed <= 2; seed++ {
		rec := play(t, "wordfight", nil, []string{"greedy", "strong"}, seed, 400)
		a := analyse(t, rec).Wordfight
		if len(a.Moves) == 0 {
			t.Fatal("no answers judged")
		}
		for _, m := range a.Moves {
			if m.BestPoints < m.Points || m.Placements == 0 && m.Best != "" {
				t.Errorf("move %d: %+v", m.Index, m)
			}
			if strings.HasPrefix(m.Move, "place") && m.Placements == 0 {
				t.Errorf("move %d placed a word with no legal placement", m.Index)
			}
		}
	}
	rec := &game.Record{Parlour: 1, Game: "wordfight", Players: []string{"Ann", "Ben"}, Moves: []game.Move{
		{By: "Ann", Move: "declare cat"}, {By: "Ann", Move: "place A1 across"}, {By: "Ben", Move: "cannot"},
		{By: "Ben", Move: "resign"},
	}}
	a := analyse(t, rec).Wordfight
	if len(a.Moves) != 2 || !a.Moves[1].Missed || a.Moves[1].Best == "" || a.Missed[1] != 1 || a.Missed[0] != 0 {
		t.Fatalf("seeded cannot: %+v", a)
	}
	if a.Moves[0].Missed || a.Moves[0].Placements == 0 {
		t.Errorf("Ann's placement: %+v", a.Moves[0])
	}
}

// TestBadRecords: a game in progress, a record that does not replay, a
// game no engine knows.
func TestBadRecords(t *testing.T) {
	rec := readRecord(t, "nymphabet.json")
	rec.Moves = rec.Moves[:3]
	_, err := Of(context.Background(), games.Registry(), rec, en(t))
	if !errors.Is(err, ErrInProgress) || !strings.Contains(err.Error(), "in progress") {
		t.Errorf("in progress: %v", err)
	}
	rec = readRecord(t, "nymphabet.json")
	rec.Moves[2].Move = "xylophone"
	_, err = Of(context.Background(), games.Registry(), rec, en(t))
	var ref *game.Refusal
	if !errors.As(err, &ref) || ref.Move != 3 || !strings.Contains(err.Error(), "does not replay") {
		t.Errorf("refused move: %v", err)
	}
	rec = readRecord(t, "nymphabet.json")
	rec.Game = "chess"
	if _, err = Of(context.Background(), games.Registry(), rec, en(t)); err == nil || !strings.Contains(err.Error(), "chess") {
		t.Errorf("unknown game: %v", err)
	}
}

// TestText checks the text form of each game's analysis for the lines a
// player reads.
func TestText(t *testing.T) {
	for game, want := range map[string][]string{
		"nymphabet": {"Analysis of a Nymphabet game between P1-medium and P2-strong (", "MISTAKE: A (deletes 1) kept the win", "  1. P1-medium: ABLER (from A, 26 left): win -> loss"},
		"quizl":     {"Analysis of a Quizl game between ", "  1. P1-medium: calls 50. P2-strong's grid: 44110 -> 30170 hypotheses, 20% on its line", "announces POUCH for P2-strong: wrong"},
		"salvo":     {"Analysis of a Salvo game between ", "  1. P1-medium: C3 D5 C2 F7 I2 at P2-strong", "too many to count", "outlines"},
		"wordfight": {"Analysis of a Sightless Word Fight game between ", "  2. P1-medium: GETAWAY, place G20 across, 0 points", "Totals"},
	} {
		var b strings.Builder
		if err := analyse(t, readRecord(t, game+".json")).WriteText(&b); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no %q in\n%s", game, w, b.String())
			}
		}
		if game == "nymphabet" && !regexp.MustCompile(`\nMistakes: P1-medium \d+, P2-strong \d+\n`).MatchString(b.String()) {
			t.Errorf("nymphabet: the mistakes are not counted player by player in\n%s", b.String())
		}
		// Plurals as a player writes them: no "(s)", no "1 hits".
		if m := regexp.MustCompile(`\(s\)|\b1 (moves|hits|points|fleets|hypotheses|words)\b`).FindString(b.String()); m != "" {
			t.Errorf("%s: %q in\n%s", game, m, b.String())
		}
	}
}

// TestTextHead: the first line names the game by its title (by its name
// for an analysis kept before titles were) and its players as a sentence
// does: one player's game is played by them.
func TestTextHead(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		title   string
		players []string
		want    string
	}{
		{"Sightless Word Fight", []string{"Ann", "Ben", "Cy"}, "Analysis of a Sightless Word Fight game between Ann, Ben and Cy (3 moves, lexicon en)\n"},
		{"Nymphabet", []string{"Ann", "Ben"}, "Analysis of a Nymphabet game between Ann and Ben (3 moves, lexicon en)\n"},
		{"Salvo", []string{"Ann"}, "Analysis of a Salvo game played by Ann (3 moves, lexicon en)\n"},
		{"", []string{"Ann", "Ben"}, "Analysis of a wordfight game between Ann and Ben (3 moves, lexicon en)\n"},
	} {
		a := &Analysis{Game: "wordfight", Title: c.title, Players: c.players, Lexicon: "en", Moves: 3}
		var b strings.Builder
		if err := a.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if first, _, _ := strings.Cut(b.String(), "\n"); first+"\n" != c.want {
			t.Errorf("%q of %q: %q, want %q", c.title, c.players, first, c.want)
		}
	}
}

// TestTextResignation: a Nymphabet resignation is told as one, not as
// the word RESIGN.
func TestTextResignation(t *testing.T) {
	rec := readRecord(t, "nymphabet.json")
	rec.Moves = append(rec.Moves[:2:2], game.Move{By: rec.Players[0], Move: "resign"})
	var b strings.Builder
	if err := analyse(t, rec).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`\n  3\. P1-medium resigned \(at [A-Z], \d+ left\): \w+ -> loss`).MatchString(b.String()) || strings.Contains(b.String(), "RESIGN") {
		t.Errorf("the resignation is not told as one in\n%s", b.String())
	}
}

// TestTextForfeits: a move the server played for a seat whose time ran
// out, or whose game was claimed, is told as the server's, not as the
// player's choice; the same move without the mark stays the player's.
func TestTextForfeits(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, file string
		move       game.Move   // made the third move
		then       []game.Move // made after it, to end the game
		forfeits   []Forfeit
		want, not  string // regular expressions
	}{
		{"nymphabet timeout", "nymphabet.json", game.Move{By: "P1-medium", Move: "resign"}, nil, []Forfeit{{Index: 3, Why: ForfeitTimeout}},
			`\n  3\. P1-medium ran out of time, so the server resigned for them \(at [A-Z], \d+ left\): \w+ -> loss\n`, `resigned \(at`},
		{"nymphabet claim", "nymphabet.json", game.Move{By: "P1-medium", Move: "resign"}, nil, []Forfeit{{Index: 3, Why: ForfeitClaim}},
			`\n  3\. P1-medium was away on their turn and the game was claimed, so the server resigned for them \(at [A-Z]`, `ran out of time`},
		{"nymphabet own resignation", "nymphabet.json", game.Move{By: "P1-medium", Move: "resign"}, nil, []Forfeit{{Index: 2, Why: ForfeitTimeout}},
			`\n  3\. P1-medium resigned \(at [A-Z]`, `server`},
		{"quizl timeout", "quizl.json", game.Move{By: "P1-medium", Move: "resign"}, []game.Move{{By: "P2-strong", Move: "resign"}}, []Forfeit{{Index: 3, Why: ForfeitTimeout}},
			`\n  3\. P1-medium: resign\.[^\n]* The server played it: P1-medium ran out of time\.\n`, `  [12]\. .*server`},
		{"salvo claim", "salvo.json", game.Move{By: "P1-medium", Move: "resign"}, nil, []Forfeit{{Index: 3, Why: ForfeitClaim}},
			`\n  3\. P1-medium: resign\. The server played it: P1-medium was away on their turn and the game was claimed\.\n`, `time`},
		{"wordfight timeout", "wordfight.json", game.Move{By: "P2-strong", Move: "cannot"}, []game.Move{{By: "P1-medium", Move: "resign"}}, []Forfeit{{Index: 3, Why: ForfeitTimeout}},
			`\n  3\. P2-strong: GETAWAY, cannot, 0 points\. MISSED: [^\n]*\. The server played it: P2-strong ran out of time\.\n(.|\n)*\n  P2-strong: [^\n]*; 1 word refused despite a legal placement \(1 of them by the server, for a player out of time or away\)\.\n`, `  2\. .*server`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rec := readRecord(t, c.file)
			rec.Moves = append(append(rec.Moves[:2:2], c.move), c.then...)
			a := analyse(t, rec)
			if len(a.Forfeits) != 0 {
				t.Fatalf("Of marked forfeits %v from a record alone", a.Forfeits)
			}
			a.Forfeits = c.forfeits
			var b strings.Builder
			if err := a.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			if !regexp.MustCompile(c.want).MatchString(b.String()) {
				t.Errorf("no %s in\n%s", c.want, b.String())
			}
			if regexp.MustCompile(c.not).MatchString(b.String()) {
				t.Errorf("%s in\n%s", c.not, b.String())
			}
		})
	}
}

func benchmarkAnalyse(b *testing.B, name string) {
	rec := readRecord(b, name+".json")
	lex, reg := en(b), games.Registry()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Of(context.Background(), reg, rec, lex); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAnalyseNymphabet(b *testing.B) { benchmarkAnalyse(b, "nymphabet") }

// BenchmarkAnalyseNymphabetScoring is a scoring-mode game, whose product
// search costs most.
func BenchmarkAnalyseNymphabetScoring(b *testing.B) {
	rec := play(b, "nymphabet", map[string]any{"mode": "scoring"}, []string{"medium", "strong"}, 3, 100)
	lex, reg := en(b), games.Registry()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Of(context.Background(), reg, rec, lex); err != nil {
			b.Fatal(err)
		}
	}
}
func BenchmarkAnalyseQuizl(b *testing.B) { benchmarkAnalyse(b, "quizl") }
func BenchmarkAnalyseSalvo(b *testing.B) { benchmarkAnalyse(b, "salvo") }

// BenchmarkAnalyseQuizlAnnouncements is a Quizl game of 402 moves, every
// one an announcement (two hundred wrong each, then the two right), which
// a game without a penalty for them allows: its cost a move must not grow
// with the moves before it.
func BenchmarkAnalyseQuizlAnnouncements(b *testing.B) { benchmarkAnalyse(b, "quizl-announcements") }
func BenchmarkAnalyseWordfight(b *testing.B)          { benchmarkAnalyse(b, "wordfight") }

// FuzzAnalyse feeds the analysis any record: it must answer or refuse,
// never panic.
func FuzzAnalyse(f *testing.F) {
	for _, g := range []string{"nymphabet", "quizl", "wordfight"} {
		b, err := os.ReadFile(filepath.Join("testdata", g+".json"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"parlour":1,"game":"wordfight","players":["A","B"],"moves":[{"by":"A","move":"declare cat"},{"by":"A","move":"cannot"},{"by":"B","move":"resign"}]}`))
	lex, reg := en(f), games.Registry()
	f.Fuzz(func(t *testing.T, b []byte) {
		rec, err := game.DecodeBytes(b)
		if err != nil || rec.Game == "salvo" && len(rec.Moves) > 40 {
			return
		}
		a, err := Of(context.Background(), reg, rec, lex)
		if err == nil && a.Moves != len(rec.Moves) {
			t.Errorf("%d moves analysed of %d", a.Moves, len(rec.Moves))
		}
	})
}

// TestMorePlayers analyses games of three players, a solitaire Quizl
// game and a Salvo practice game (one seat firing at a hidden fleet): a note per judged move, and
// each note about a grid or fleet the mover attacked.
func TestMorePlayers(t *testing.T) {
	for _, c := range []struct {
		game   string
		levels []string
	}{
		{"quizl", []string{"easy", "medium", "strong"}},
		{"quizl", []string{"medium"}},
		{"salvo", []string{"strong", "medium", "easy"}},
		{"salvo", []string{"strong"}},
		{"wordfight", []string{"greedy", "medium", "strong"}},
	} {
		rec := play(t, c.game, nil, c.levels, 7, 600)
		a := analyse(t, rec)
		switch {
		case a.Quizl != nil:
			if len(a.Quizl.Moves) != len(rec.Moves) {
				t.Errorf("quizl: %d notes for %d moves", len(a.Quizl.Moves), len(rec.Moves))
			}
			for _, m := range a.Quizl.Moves {
				for _, b := range m.Boards {
					if b.Against == m.Seat && len(c.levels) > 1 || b.After > b.Before {
						t.Errorf("quizl move %d: %+v", m.Index, b)
					}
				}
			}
		case a.Salvo != nil:
			if len(a.Salvo.Moves) != len(rec.Moves) {
				t.Errorf("salvo: %d notes for %d moves", len(a.Salvo.Moves), len(rec.Moves))
			}
			for _, m := range a.Salvo.Moves {
				if m.Kind == "fire" && (m.Target == m.Seat || m.After == nil || m.After.Fleets < 1) {
					t.Errorf("salvo move %d: %+v", m.Index, m)
				}
			}
		case a.Wordfight != nil:
			for _, m := range a.Wordfight.Moves {
				if m.BestPoints < m.Points {
					t.Errorf("wordfight move %d: %+v", m.Index, m)
				}
			}
		}
	}
}

// TestTextOneSeat: the text of a solitaire Quizl game names the grid the
// player attacked as the computer's, not the player's, and that of Salvo
// practice names the target fleet's owner, the computer.
func TestTextOneSeat(t *testing.T) {
	t.Parallel()
	quizlRec := &game.Record{Parlour: 1, Game: "quizl", Players: []string{"Quin"},
		Setup: map[string]json.RawMessage{"Quin": json.RawMessage(`{"grid":["BOXVD","FLUCK","WINGH","JQMPY","TARES"],"password":"TARES"}`)}}
	for _, m := range strings.Fields("54 83 52 63 53 80 say_CRANE 74 84 72 61 51 62 50 82 71 64 81 73 92 60 93 91 94 90") {
		quizlRec.Moves = append(quizlRec.Moves, game.Move{By: "Quin", Move: strings.ReplaceAll(m, "_", " ")})
	}
	salvoRec := &game.Record{Parlour: 1, Game: "salvo", Players: []string{"Tess"},
		Setup: map[string]json.RawMessage{"Tess": json.RawMessage(`{"fleet":["B2-B6","D2-G2","I4-I6","D8-E8","G9-G10"]}`)}}
	for _, m := range []string{"fire B2 B3 B4 B5 B6", "fire D2 E2 F2 G2", "fire I4 I5 I6", "fire D8 E8", "fire G9", "fire G10", "outline B2-B6 D2-G2 I4-I6 G9-G10 D8-E8"} {
		salvoRec.Moves = append(salvoRec.Moves, game.Move{By: "Tess", Move: m})
	}
	for _, c := range []struct {
		rec       *game.Record
		want, not []string
	}{
		{quizlRec,
			[]string{"  1. Quin: calls 54. The grid: 44110 -> ", "announces CRANE for the grid: wrong", "TRIPPED over the grid's password TARES"},
			[]string{"for Quin", "Quin's", "grid's grid"}},
		{salvoRec,
			[]string{"  1. Tess: B2 B3 B4 B5 B6 at the computer: 5 hits.", "  7. Tess: outlines the computer's fleet: right"},
			[]string{"nobody"}},
	} {
		var b strings.Builder
		if err := analyse(t, c.rec).WriteText(&b); err != nil {
			t.Fatal(err)
		}
		for _, w := range c.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: no %q in\n%s", c.rec.Game, w, b.String())
			}
		}
		if q := analyse(t, c.rec).Quizl; q != nil {
			for _, m := range q.Moves {
				for _, tr := range m.Trips {
					if tr.Name != "the grid" {
						t.Errorf("the trip names the grid %q, not as its board's note does", tr.Name)
					}
				}
			}
		}
		for _, w := range c.not {
			if strings.Contains(b.String(), w) {
				t.Errorf("%s: %q in\n%s", c.rec.Game, w, b.String())
			}
		}
	}
}

// TestNymphabetResignOutOfTurn: a player may resign while the other is
// to move (RECORDS.md); the analysis judges that resignation from the
// resigner's side of the position instead of failing the whole game.
func TestNymphabetResignOutOfTurn(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, mode string }{
		{"standard", ""},
		{"scoring", "scoring"},
	} {
		rec := &game.Record{Parlour: 1, Game: "nymphabet", Players: []string{"Ann", "Ben"}, Moves: []game.Move{
			{By: "Ann", Move: "abdicated"}, {By: "Ann", Move: "resign"},
		}}
		if c.mode != "" {
			rec.Rules = map[string]json.RawMessage{"mode": json.RawMessage(`"` + c.mode + `"`)}
		}
		a, err := Of(context.Background(), games.Registry(), rec, en(t))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		n := a.Nymphabet.Moves[1]
		if n.Seat != 0 || n.Move != "RESIGN" || n.Letter != "E" || n.After != solve.Loss || n.Best != "" {
			t.Errorf("%s: the resignation is judged as %+v", c.name, n)
		}
		// Whatever Ann's side was worth, resigning it could not gain.
		if n.Mistake != (n.Before > solve.Loss) {
			t.Errorf("%s: before %v, mistake %v", c.name, n.Before, n.Mistake)
		}
		if (c.mode == "scoring") != (len(n.Forced) == 2) {
			t.Errorf("%s: products forced %v", c.name, n.Forced)
		}
	}
}

// TestWordFightResignAfterAnswering: a player who resigns after
// answering the current word gave no second answer to it; only the
// answer is judged, and the resignation adds no best placement to the
// player's totals.
func TestWordFightResignAfterAnswering(t *testing.T) {
	t.Parallel()
	rec := &game.Record{Parlour: 1, Game: "wordfight", Players: []string{"Ann", "Ben"}, Moves: []game.Move{
		{By: "Ann", Move: "declare cat"}, {By: "Ben", Move: "place A1 across"}, {By: "Ben", Move: "resign"},
	}}
	a := analyse(t, rec).Wordfight
	if len(a.Moves) != 1 || a.Moves[0].Index != 2 {
		t.Fatalf("judged %+v, want Ben's placement alone", a.Moves)
	}
	if a.Best[1] != 0 || a.Played[1] != 0 {
		t.Errorf("Ben's totals: played %d, best %d; want 0 and 0 (his first word scores nothing)", a.Played[1], a.Best[1])
	}
}
