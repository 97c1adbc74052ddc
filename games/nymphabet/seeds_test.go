package nymphabet

import (
	"slices"
	"strings"
	"testing"

	"parlour/game"
	"parlour/lexicon"
)

// The worked examples of the source text, played with the real English
// lexicons.

func TestSeedStandardGame(t *testing.T) {
	st := start(t, lexicon.Default(), nil)
	evs := play(t, st, "ABack", "DEFyinG", "HIJacK", "LaMiNatiOn", "PiQue", "ReSTaUrant", "VoW", "XYlophone", "Zip")
	r := st.Result()
	if r.Status != game.Finished || !slices.Equal(r.Winners, []game.Seat{1}) {
		t.Fatalf("result %+v: the second player wins when the first writes ZIP", r)
	}
	if !slices.Equal(r.Scores, []int{12, 14}) {
		t.Errorf("scores %v, want 12 and 14 letters", r.Scores)
	}
	v := viewOf(st, 0)
	want := []string{"A, B, C", "D, E, F, G", "H, I, J, K", "L, M, N, O", "P, Q", "R, S, T, U", "V, W", "X, Y", "Z"}
	for i, w := range v.Words {
		if w.Deleted != want[i] {
			t.Errorf("%s deleted %s, want %s", w.Word, w.Deleted, want[i])
		}
	}
	if last := evs[len(evs)-1].Text; last != "Ann deleted Z and loses; Ben wins" {
		t.Errorf("end: %q", last)
	}
}

func TestSeedCyclicGame(t *testing.T) {
	// The source lists PIQUE twice; the second is a slip (RULES.md §4), and
	// without it the players alternate and the second writes JACKAL.
	st := start(t, lexicon.Default(), map[string]string{"mode": `"cyclic"`})
	play(t, st, "MeNtiOn", "PiQue", "ReSTaUrant", "VoW", "XYlem", "ZeAl", "Backed", "EFfiGy", "HIp", "JacKaL")
	r := st.Result()
	if r.Status != game.Finished || !slices.Equal(r.Winners, []game.Seat{1}) {
		t.Fatalf("result %+v: JACKAL's writer wins", r)
	}
	v := viewOf(st, 0)
	if last := v.Words[len(v.Words)-1]; last.Word != "JACKAL" || last.Deleted != "J, K, L" || last.By != 1 {
		t.Errorf("last word %+v", last)
	}
	if !slices.Equal(r.Scores, []int{14, 12}) {
		t.Errorf("scores %v, want 14 and 12 letters", r.Scores)
	}

	// Played as printed, the repeated PIQUE is refused: Q is gone and the
	// next letter is V.
	st = start(t, lexicon.Default(), map[string]string{"mode": `"cyclic"`})
	play(t, st, "mention", "pique", "restaurant", "vow")
	checkRefused(t, st, refusal{0, "PiQue", "PIQUE does not start with X, the next undeleted letter"})
}

func TestSeedScoringGame(t *testing.T) {
	// MINORSHIP is a rare word: it is in en-large but not in en.
	large, err := lexicon.Load("en-large")
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"QueeReST", "UVula", "WaXY", "ZABaglione", "CeDE", "FiGHtIng", "JacKaL", "MiNOrshiP"}
	st := start(t, large, map[string]string{"mode": `"scoring"`})
	evs := play(t, st, words...)
	r := st.Result()
	if r.Status != game.Finished || !slices.Equal(r.Scores, []int{108, 96}) || !slices.Equal(r.Winners, []game.Seat{0}) {
		t.Fatalf("result %+v, want the first player to win 108 to 96", r)
	}
	if last := evs[len(evs)-1].Text; last != "Ann wins 108 to 96" {
		t.Errorf("end: %q", last)
	}
	v := viewOf(st, 0)
	if v.Words[4].Deleted != "C, D, E" {
		t.Errorf("CEDE deleted %s, want C, D, E", v.Words[4].Deleted)
	}

	st = start(t, lexicon.Default(), map[string]string{"mode": `"scoring"`})
	play(t, st, words[:7]...)
	checkRefused(t, st, refusal{1, "minorship", "MINORSHIP is not a word in the en lexicon"})
	checkRefused(t, st, refusal{1, "mnop", "MNOP is not a word"})
	if !strings.HasPrefix(viewOf(st, 1).Current, "M") {
		t.Errorf("current %q", viewOf(st, 1).Current)
	}
}
