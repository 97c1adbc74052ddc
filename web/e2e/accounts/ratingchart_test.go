package accounts

import (
	"testing"

	"parlour/web/e2e"
)

// TestRatingChartAndNote: a profile's rating chart starts at 1500 only
// when its points are every game the pool rated (a profile holds the
// latest 200), and the note under the ratings gives the reason a rating
// is provisional: too few games, or time away after a settled rating.
func TestRatingChartAndNote(t *testing.T) {
	t.Parallel()
	base := e2e.StartServer(t)
	b := e2e.NewBrowser(t)
	ann := e2e.NewPlayer(t, b, "Ann", base)
	ann.Open("/leaderboards")
	ann.Wait("the page", `!!document.querySelector("#find-name")`)

	for _, c := range []struct {
		name, expr, want string
	}{
		{"every game", `m.chart("quizl", [{rating: 1600, rd: 200}, {rating: 1650, rd: 180}], 2).getAttribute("aria-label")`,
			"Rating in Quizl after each of 2 rated games: from 1500 to 1650"},
		{"the latest of many", `m.chart("quizl", [{rating: 1900, rd: 50}, {rating: 1920, rd: 50}], 250).getAttribute("aria-label")`,
			"Rating in Quizl after each of the last 2 rated games of 250: from 1900 to 1920"},
		{"a newcomer", `m.provisionalNote({ratings: {quizl: {rating: 1600, rd: 200, games: 3, provisional: true}}, history: {quizl: [{rating: 1600, rd: 200}]}})`,
			"? provisional: too few rated games to be sure of the rating yet."},
		{"back after a year", `m.provisionalNote({ratings: {quizl: {rating: 1900, rd: 120, games: 80, provisional: true}}, history: {quizl: [{rating: 1900, rd: 60}]}})`,
			"? provisional: unsure again after time away; the next rated games settle it."},
		{"settled", `m.provisionalNote({ratings: {quizl: {rating: 1900, rd: 60, games: 80, provisional: false}}, history: {quizl: [{rating: 1900, rd: 60}]}})`,
			""},
	} {
		got := e2e.Eval[string](ann, `import("/static/js/catalog.js").then(cat => cat.games()).then(() => import("/static/js/players.js")).then(m => `+c.expr+`)`)
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
