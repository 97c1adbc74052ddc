package analysis

import (
	"fmt"
	"io"
	"math"
	"strings"

	"parlour/game"
	"parlour/games/nymphabet"
	nymbot "parlour/games/nymphabet/bot"
	quizlbot "parlour/games/quizl/bot"
	"parlour/games/salvo"
	salvobot "parlour/games/salvo/bot"
	wfbot "parlour/games/wordfight/bot"
)

// WriteText writes the analysis for people: one line per judged move, in
// the words of docs/analysis.md.
func (a *Analysis) WriteText(w io.Writer) error {
	var b strings.Builder
	// A game of one seat is played against the computer: Salvo practice
	// fires at its fleet, seat 1 of no table; solitaire Quizl attacks its
	// grid, kept as the player's own seat's setup.
	solo := len(a.Players) == 1
	name := func(s int) string {
		switch {
		case s >= 0 && s < len(a.Players):
			return a.Players[s]
		case solo && s == 1 && a.Salvo != nil:
			return salvo.FleetOwner
		}
		return "nobody"
	}
	title := a.Title
	if title == "" {
		title = a.Game
	}
	who := "between " + names(a.Players)
	if solo {
		who = "played by " + names(a.Players)
	}
	fmt.Fprintf(&b, "Analysis of a %s game %s (%s, lexicon %s)\n", title, who, game.Count(a.Moves, "move", "moves"), a.Lexicon)
	var won []string
	for _, s := range a.Winners {
		won = append(won, name(s))
	}
	if len(won) == 0 {
		b.WriteString("Result: no winner.\n\n")
	} else {
		fmt.Fprintf(&b, "Result: %s won.\n\n", strings.Join(won, " and "))
	}
	switch {
	case a.Nymphabet != nil:
		nymphabetText(&b, a.Nymphabet, name, a.forfeited)
	case a.Quizl != nil:
		quizlText(&b, a.Quizl, name, solo, a.forfeited)
	case a.Salvo != nil:
		salvoText(&b, a.Salvo, name, a.forfeited)
	case a.Wordfight != nil:
		wordfightText(&b, a.Wordfight, name, a.forfeited)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// names joins players' names as a sentence does: "Ann", "Ann and Ben",
// "Ann, Ben and Cy".
func names(players []string) string {
	if len(players) < 2 {
		return strings.Join(players, "")
	}
	return strings.Join(players[:len(players)-1], ", ") + " and " + players[len(players)-1]
}

// forfeited says why the server played move index (1-based) for its
// seat, in words that follow the player's name, or "" for a move the
// player made.
func (a *Analysis) forfeited(index int) string {
	for _, f := range a.Forfeits {
		if f.Index != index {
			continue
		}
		if f.Why == ForfeitClaim {
			return "was away on their turn and the game was claimed"
		}
		return "ran out of time"
	}
	return ""
}

// serverPlayed writes, after a move's note, that the server played the
// move for its seat, and why; nothing for a move the player made.
func serverPlayed(b *strings.Builder, index int, who string, why func(int) string) {
	if w := why(index); w != "" {
		fmt.Fprintf(b, " The server played it: %s %s.", who, w)
	}
}

func nymphabetText(b *strings.Builder, a *nymbot.Analysis, name func(int) string, why func(int) string) {
	fmt.Fprintf(b, "Nymphabet, %s mode. With perfect play the first player's game is a %s.\n", a.Mode, a.FirstPlayer)
	if !a.Exact {
		b.WriteString("Words may not be repeated at this table; the values assume they may, so late ones can be wrong.\n")
	}
	b.WriteString("Each line: the position's value for the mover before and after the word.\n\n")
	for _, m := range a.Moves {
		from := m.Letter
		if from == "" {
			from = "any letter"
		}
		if strings.EqualFold(m.Move, nymphabet.Resign) {
			// Said as what it was: RESIGN is a word too, and a
			// resignation is not one; nor is one the server made for
			// a player the player's own.
			did := "resigned"
			if w := why(m.Index); w != "" {
				did = w + ", so the server resigned for them"
			}
			fmt.Fprintf(b, "%3d. %s %s (at %s, %d left): %s -> %s", m.Index, name(m.Seat), did, from, m.Left, m.Before, m.After)
		} else {
			fmt.Fprintf(b, "%3d. %s: %s (from %s, %d left): %s -> %s", m.Index, name(m.Seat), m.Move, from, m.Left, m.Before, m.After)
		}
		if len(m.Forced) == 2 {
			fmt.Fprintf(b, " (products each could make sure of: %s %d, %s %d)", name(m.Seat), m.Forced[0], name(1-m.Seat), m.Forced[1])
		}
		if m.Mistake {
			b.WriteString("  MISTAKE")
			if m.Best != "" {
				fmt.Fprintf(b, ": %s (deletes %d) kept the %s", m.Best, m.BestDeletes, m.Before)
			}
		}
		b.WriteByte('\n')
	}
	var ms []string
	for s, n := range a.Mistakes {
		ms = append(ms, fmt.Sprintf("%s %d", name(s), n))
	}
	fmt.Fprintf(b, "\nMistakes: %s\n", strings.Join(ms, ", "))
}

// quizlText writes Quizl's notes; solo is set for solitaire, whose one
// grid is the computer's though its seat is the player's.
func quizlText(b *strings.Builder, a *quizlbot.Analysis, name func(int) string, solo bool, why func(int) string) {
	owner := name
	if solo {
		owner = func(int) string { return "the grid" }
	}
	b.WriteString("Each call: the (line, word) hypotheses left before and after it, and the chance the password lay on a line through the square.\n\n")
	for _, m := range a.Moves {
		fmt.Fprintf(b, "%3d. %s: ", m.Index, name(m.Seat))
		switch m.Kind {
		case "call":
			fmt.Fprintf(b, "calls %s.", m.Move)
			for _, bd := range m.Boards {
				grid := bd.Name + "'s grid"
				if solo {
					grid = "The grid"
				}
				fmt.Fprintf(b, " %s: %d -> %s, %s on its line", grid, bd.Before, game.Count(bd.After, "hypothesis", "hypotheses"), pct(bd.OnLine))
				if bd.Likeliest != "" {
					fmt.Fprintf(b, ", likeliest now %s (%s)", bd.Likeliest, pct(bd.LikeliestP))
				}
				b.WriteByte('.')
			}
		case "say":
			verdict := "wrong"
			if m.Right {
				verdict = "right"
			}
			fmt.Fprintf(b, "announces %s for %s: %s; it had a %s chance from what %s had seen if the grid was filled at random, %s if it was made to deceive.",
				m.Word, owner(m.Against), verdict, pct(m.Probability), name(m.Seat), pct(m.IfDeceptive))
		default:
			fmt.Fprintf(b, "%s.", m.Move)
		}
		if m.Strong != "" && !strings.EqualFold(m.Strong, m.Move) {
			fmt.Fprintf(b, " Strong solver: %s.", m.Strong)
		}
		for _, tr := range m.Trips {
			fmt.Fprintf(b, " TRIPPED over %s's password %s", owner(tr.Against), tr.Password)
			if tr.AnnounceableAt > 0 {
				fmt.Fprintf(b, "; the strong solver would have announced it at move %d (%s)", tr.AnnounceableAt, pct(tr.Probability))
			}
			b.WriteByte('.')
		}
		serverPlayed(b, m.Index, name(m.Seat), why)
		b.WriteByte('\n')
	}
}

func salvoText(b *strings.Builder, a *salvobot.Analysis, name func(int) string, why func(int) string) {
	b.WriteString("Each salvo: the fleets still possible from what the shooter had heard, and its expected hits against the strong shooter's salvo.\n\n")
	for _, m := range a.Moves {
		fmt.Fprintf(b, "%3d. %s: ", m.Index, name(m.Seat))
		switch m.Kind {
		case "fire":
			fmt.Fprintf(b, "%s at %s: %s. Fleets possible %s -> %s. Expected hits %.2f, the strong salvo's %.2f (%s); strong: %s.",
				salvoSquares(m.Move), name(m.Target), game.Count(m.Hits, "hit", "hits"), count(m.Before), count(*m.After), m.Expected, m.Strong, pct(m.Share), strings.TrimPrefix(m.StrongSalvo, "fire "))
		case "outline":
			verdict := "wrong"
			if m.Right {
				verdict = "right"
			}
			still := count(m.Before) + " fleets were"
			if m.Before.Exact && m.Before.Fleets == 1 {
				still = "1 fleet was"
			}
			fmt.Fprintf(b, "outlines %s's fleet: %s; %s still possible.", name(m.Target), verdict, still)
		default:
			fmt.Fprintf(b, "%s.", m.Move)
		}
		serverPlayed(b, m.Index, name(m.Seat), why)
		b.WriteByte('\n')
	}
	b.WriteString("\nThe JSON form (--json) holds each salvo's map: the chance of a ship on every square.\n")
}

// salvoSquares writes a salvo's squares as the game's reports do
// ("H2 H3"), however the move was typed ("fire h2 h-3": the notation is
// case-insensitive and takes A-1 for A1, and a record keeps a move as it
// was sent).
func salvoSquares(move string) string {
	f := strings.Fields(strings.ToUpper(move))
	if len(f) > 0 && f[0] == "FIRE" {
		f = f[1:]
	}
	return strings.ReplaceAll(strings.Join(f, " "), "-", "")
}

// count writes a fleet count, with its interval when it is an estimate
// and its bounds differ as written.
func count(c salvobot.Count) string {
	if c.Exact {
		return fmt.Sprintf("%.0f", c.Fleets)
	}
	if lo, hi := big(c.Low), big(c.High); lo != hi {
		return fmt.Sprintf("about %s (%s-%s, too many to count)", big(c.Fleets), lo, hi)
	}
	return fmt.Sprintf("about %s (too many to count)", big(c.Fleets))
}

func big(x float64) string {
	if x < 1e6 {
		return fmt.Sprintf("%.0f", x)
	}
	e := math.Floor(math.Log10(x))
	return fmt.Sprintf("%.1fe%.0f", x/math.Pow(10, e), e)
}

func wordfightText(b *strings.Builder, a *wfbot.Analysis, name func(int) string, why func(int) string) {
	b.WriteString("Each answer: its points on the player's own grid against the best legal placement then.\n\n")
	for _, m := range a.Moves {
		fmt.Fprintf(b, "%3d. %s: %s, %s, %s", m.Index, name(m.Seat), m.Word, m.Move, game.Count(m.Points, "point", "points"))
		switch {
		case m.Missed:
			fmt.Fprintf(b, ". MISSED: %s was legal (%s)", m.Best, game.Count(m.BestPoints, "point", "points"))
		case m.Best == "":
			b.WriteString("; no legal placement")
		case m.BestPoints > m.Points:
			fmt.Fprintf(b, "; best %s, %s", m.Best, game.Count(m.BestPoints, "point", "points"))
		default:
			b.WriteString("; as good as any")
		}
		b.WriteByte('.')
		serverPlayed(b, m.Index, name(m.Seat), why)
		b.WriteByte('\n')
	}
	// A "cannot" the server answered for a player is no refusal of
	// theirs: the totals say how many of the refused were.
	served := make(map[int]int)
	for _, m := range a.Moves {
		if m.Missed && why(m.Index) != "" {
			served[m.Seat]++
		}
	}
	b.WriteString("\nTotals (each word judged on its own):\n")
	for s := range a.Played {
		fmt.Fprintf(b, "  %s: %s played, %d if each word had been placed best; %s despite a legal placement", name(s), game.Count(a.Played[s], "point", "points"), a.Best[s], game.Count(a.Missed[s], "word refused", "words refused"))
		if n := served[s]; n > 0 {
			fmt.Fprintf(b, " (%d of them by the server, for a player out of time or away)", n)
		}
		b.WriteString(".\n")
	}
}

func pct(p float64) string { return fmt.Sprintf("%.0f%%", 100*p) }
