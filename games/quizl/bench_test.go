package quizl

import (
	"encoding/json"
	"testing"

	"parlour/game"
	"parlour/lexicon"
)

// BenchmarkReplay replays generated random legal games from their records,
// refereed with the real English lexicon, and reports moves replayed per
// second (target: 100,000 per core).
func BenchmarkReplay(b *testing.B) {
	lex := lexicon.Default()
	reg := game.NewRegistry(Game{})
	var recs []*game.Record
	moves := 0
	for seed := range uint64(200) {
		rec, _ := randomRecord(b, lex, seed)
		raw, _ := json.Marshal(rec)
		dec, err := game.DecodeBytes(raw)
		if err != nil {
			b.Fatal(err)
		}
		recs = append(recs, dec)
		moves += len(dec.Moves)
	}
	b.ResetTimer()
	done := 0
	for i := 0; b.Loop(); i++ {
		rec := recs[i%len(recs)]
		if _, _, _, err := game.Replay(reg, rec, lex); err != nil {
			b.Fatal(err)
		}
		done += len(rec.Moves)
	}
	b.ReportMetric(float64(done)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkView computes one seat's view in a mid-game position of a
// three-player game (target: under 20 µs).
func BenchmarkView(b *testing.B) {
	s := three(b, map[string]any{OptAward: 10})
	play(b, s, "0:72", "1:72", "2:60", "0:say Ben waves", "1:81", "2:say Ann ghost",
		"0:73", "1:82", "2:70", "0:61", "1:93", "2:say Ben crane", "0:91", "1:90", "2:92", "0:84", "1:62")
	b.ReportAllocs()
	for b.Loop() {
		_ = s.View(0)
	}
}

// BenchmarkApplyCall measures one call of a square.
func BenchmarkApplyCall(b *testing.B) {
	base := two(b, nil)
	b.ReportAllocs()
	for b.Loop() {
		s := base.clone()
		if _, err := s.Apply(0, "72"); err != nil {
			b.Fatal(err)
		}
	}
}
