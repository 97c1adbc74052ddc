package nymphabet

import (
	"math/rand/v2"
	"testing"

	"parlour/game"
	"parlour/lexicon"
)

// BenchmarkReplay replays generated random legal games of English words
// through the referee and reports moves per second.
func BenchmarkReplay(b *testing.B) {
	lex := lexicon.Default()
	words := byFirst(lex)
	reg := game.NewRegistry(Game{})
	r := rand.New(rand.NewPCG(1, 2))
	recs := make([]*game.Record, 200)
	moves := 0
	for i := range recs {
		recs[i], _ = randomRecord(b, r, lex, words)
		moves += len(recs[i].Moves)
	}
	b.ResetTimer()
	for b.Loop() {
		for _, rec := range recs {
			if _, _, _, err := game.Replay(reg, rec, lex); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(moves)*float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkView computes a seat's view in the middle of a game.
func BenchmarkView(b *testing.B) {
	st := start(b, testLex(), map[string]string{"mode": `"scoring"`})
	play(b, st, "mention", "pique", "restaurant", "vow", "xylem", "zeal", "backed")
	for b.Loop() {
		_ = st.View(1)
	}
}
