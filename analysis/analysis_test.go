package analysis

import (
	"context"
	"encoding/json"
	"testing"

	"parlour/games"
)

func TestSmoke(t *testing.T) {
	for _, c := range []struct {
		name   string
		levels []string
	}{
		{"nymphabet", []string{"medium", "strong"}},
		{"wordfight", []string{"medium", "strong"}},
		{"quizl", []string{"medium", "strong"}},
		{"salvo", []string{"medium", "strong"}},
	} {
		rec := play(t, c.name, nil, c.levels, 3, 1000)
		a, err := Of(context.Background(), games.Registry(), rec, en(t))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(a)
		t.Logf("%s: %d moves, %d bytes: %.600s", c.name, len(rec.Moves), len(b), b)
	}
}
