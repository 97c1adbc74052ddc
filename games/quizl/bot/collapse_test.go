package bot

import (
	"flag"
	"testing"

	"parlour/game"
	"parlour/lexicon"
)

var collapseGames = flag.Int("quizl.collapse", 0, "play this many two-player games of strong against each rival in TestWrongAnnouncements (default 2)")

// Strong's wrong announcements in two-player games may come at most
// maxWrongRun in a row, make up at most wrongShareGame of its moves in any
// one game of more than a few moves, and at most wrongShareAll of its
// moves over all the games (docs/bots.md says why these shares).
const (
	wrongShareAll  = 0.25
	wrongShareGame = 0.5
	// wrongShareMoves is how many moves a game must hold for its share to
	// count: in a game of five moves two wrong announcements already make
	// 40%.
	wrongShareMoves = 8
)

// TestWrongAnnouncements plays strong against each of collapseRivals,
// above all the line-shadowing baseline, which calls along strong's
// password line and never announces, and checks that strong never makes
// more than maxWrongRun wrong announcements in a row, nor more than the
// shares above. Before strong distrusted a foreseen announcement that did
// not come, the shadowing baseline drew from it a run of 268 in the second game of these seeds
// (docs/bots.md). -quizl.collapse N plays N games a rival.
func TestWrongAnnouncements(t *testing.T) {
	t.Parallel()
	n := 2
	if *collapseGames > 0 {
		n = *collapseGames
	}
	rivals := collapseRivals()
	if testing.Short() {
		rivals = rivals[:1] // the line-shadowing baseline
	}
	lex := lexicon.Default()
	var wrong, moves float64
	for _, rival := range rivals {
		w, r, s, mv, err := duels(t.Context(), rival, game.Medium, n, 9, lex)
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for i := range w.Values {
			if r.Values[i] > maxWrongRun {
				t.Errorf("against %s, game %d: %v wrong announcements in a row, want at most %d", rival, i, r.Values[i], maxWrongRun)
			}
			m := float64(mv[i])
			wrong += w.Values[i]
			moves += m
			if m >= wrongShareMoves && s.Values[i] > wrongShareGame {
				t.Errorf("against %s, game %d: %.0f%% of strong's %.0f moves were wrong announcements, want at most %.0f%%", rival, i, 100*s.Values[i], m, 100*wrongShareGame)
			}
			if m >= wrongShareMoves {
				worst = max(worst, s.Values[i])
			}
		}
		ws, rs := w.Summary(), r.Summary()
		t.Logf("against %s: %.2f wrong a game (95%% %.2f-%.2f), longest run %.2f on average, worst share in a game of %d moves or more %.0f%%", rival, ws.Mean, ws.CI95[0], ws.CI95[1], rs.Mean, wrongShareMoves, 100*worst)
	}
	if share := wrong / moves; share > wrongShareAll {
		t.Errorf("wrong announcements made %.1f%% of strong's moves, want at most %.0f%%", 100*share, 100*wrongShareAll)
	} else {
		t.Logf("wrong announcements: %.0f of strong's %.0f moves (%.1f%%)", wrong, moves, 100*share)
	}
}
