package wordfight

import (
	"math/rand/v2"
	"testing"

	"parlour/game"
)

// BenchmarkReplay replays records of random legal games and reports moves
// per second.
func BenchmarkReplay(b *testing.B) {
	lex, pool := realLex()
	rng := rand.New(rand.NewPCG(3, 4))
	var recs []*game.Record
	moves := 0
	for range 200 {
		rec, _ := randomGame(b, rng, lex, pool)
		recs = append(recs, rec)
		moves += len(rec.Moves)
	}
	reg := game.NewRegistry(Game{})
	b.ResetTimer()
	n := 0
	for b.Loop() {
		for _, rec := range recs {
			if _, _, _, err := game.Replay(reg, rec, lex); err != nil {
				b.Fatal(err)
			}
		}
		n += moves
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkView builds one seat's view of a 20 x 20 two-player game some
// twenty words in.
func BenchmarkView(b *testing.B) {
	lex, pool := realLex()
	rng := rand.New(rand.NewPCG(5, 6))
	st, err := Start(game.Config{Players: names[:2], Rules: game.Defaults(Game{}.Options()), Lexicon: lex})
	if err != nil {
		b.Fatal(err)
	}
	for len(st.list) < 20 {
		toMove := st.ToMove()
		seat := toMove[0]
		if st.answering {
			word := st.list[len(st.list)-1].word
			move := "cannot"
			if p, ok := st.grids[seat].CanPlace(lex, word); ok {
				move = "place " + p.String()
			}
			if _, err := st.Apply(seat, move); err != nil {
				b.Fatal(err)
			}
			continue
		}
		// Declare only words both grids can take, so the game goes on.
		for {
			w := pool[rng.IntN(len(pool))]
			_, ok0 := st.grids[0].CanPlace(lex, w)
			_, ok1 := st.grids[1].CanPlace(lex, w)
			if ok0 && ok1 {
				st.Apply(seat, "declare "+w)
				break
			}
		}
	}
	b.ResetTimer()
	for b.Loop() {
		_ = st.View(0)
	}
}

// BenchmarkPlacements enumerates the legal placements of a common word in
// a grid of twenty words.
func BenchmarkPlacements(b *testing.B) {
	lex := testLex()
	g := NewGrid(mustBoard(b))
	for _, x := range []struct {
		w string
		p Placement
	}{{"promontory", Placement{Row: 5, Col: 2}}, {"topical", Placement{Row: 4, Col: 6, Down: true}}, {"cart", Placement{Row: 9, Col: 5}}} {
		if _, err := g.Check(lex, x.w, x.p); err != nil {
			b.Fatal(err)
		}
		g.Place(x.w, x.p)
	}
	for b.Loop() {
		for range g.Placements(lex, "tar") {
		}
	}
}

func mustBoard(b *testing.B) *Board {
	bd, err := NewBoard(20, 20, "")
	if err != nil {
		b.Fatal(err)
	}
	return bd
}
