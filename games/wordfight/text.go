package wordfight

import (
	"bytes"
	"fmt"
	"strings"

	"parlour/game"
)

// String writes v for people, as `parlour replay` prints it: the rules,
// the public list with what v's seat may know of the answers, and the grids
// it may see (every grid and the audit once the game is over).
func (v *View) String() string {
	var sb strings.Builder
	name := func(s game.Seat) string {
		if s >= 0 && int(s) < len(v.Players) {
			return v.Players[s]
		}
		return "spectator"
	}
	r := v.Rules
	scoring := "multiply (letters reused x length)"
	if !r.Multiply {
		scoring = "base (a word's length)"
	}
	fmt.Fprintf(&sb, "Sightless Word Fight on %d x %d, scoring %s, strikes per %s, %d of %s\n",
		r.Width, r.Height, scoring, r.StrikesPer, v.Strikes, game.Count(v.StrikeLimit, "strike", "strikes"))
	if len(v.List) > 0 {
		sb.WriteString("\nWords:\n")
	}
	for i, e := range v.List {
		fmt.Fprintf(&sb, "%3d. %s (%d) by %s", i+1, e.Word, e.Length, name(e.By))
		if len(e.Cannot) > 0 {
			names := make([]string, len(e.Cannot))
			for j, c := range e.Cannot {
				names[j] = name(c)
			}
			fmt.Fprintf(&sb, "; not placed by %s", strings.Join(names, ", "))
		}
		sb.WriteByte('\n')
		switch {
		case e.Answers != nil:
			for s, a := range e.Answers {
				fmt.Fprintf(&sb, "       %s: %s\n", name(game.Seat(s)), a.text(r, e.Length))
			}
		case e.Mine != nil:
			fmt.Fprintf(&sb, "       you: %s\n", e.Mine.text(r, e.Length))
		}
	}
	if v.Current != "" {
		var waiting []string
		for s, done := range v.Answered {
			if !done && !(s < len(v.Resigned) && v.Resigned[s]) {
				waiting = append(waiting, name(game.Seat(s)))
			}
		}
		fmt.Fprintf(&sb, "\n%s is being placed; waiting for %s\n", v.Current, strings.Join(waiting, ", "))
	} else if v.Status != game.Finished {
		fmt.Fprintf(&sb, "\n%s declares next\n", name(v.Declarer))
	}
	switch {
	case v.Grids != nil:
		for s, g := range v.Grids {
			fmt.Fprintf(&sb, "\n%s: %s\n", name(game.Seat(s)), game.Count(v.Scores[s], "point", "points"))
			writeGrid(&sb, g)
		}
	case v.Grid != nil:
		fmt.Fprintf(&sb, "\nYour grid: %s\n", game.Count(v.Score, "point", "points"))
		writeGrid(&sb, v.Grid)
	}
	if v.Audit != nil {
		sb.WriteString("\nAudit:\n")
		for _, a := range v.Audit {
			verdict := "confirmed"
			if !a.Confirmed {
				verdict = fmt.Sprintf("DOES NOT ADD UP (recorded %d)", a.Recorded)
			}
			fmt.Fprintf(&sb, "  %s: %s, %s", name(game.Seat(a.Seat)), game.Count(a.Points, "point", "points"), verdict)
			for _, l := range a.Lines {
				switch {
				case l.Problem != "":
					fmt.Fprintf(&sb, "; %s: %s", l.Word, l.Problem)
				case l.Possible != "":
					fmt.Fprintf(&sb, "; said cannot to %s, but it fit (%s)", l.Word, l.Possible)
				}
			}
			sb.WriteByte('\n')
		}
	}
	return strings.TrimRight(sb.String(), "\n")
}

func (a Answer) text(r Rules, n int) string {
	switch {
	case a.Move == "":
		return "no answer"
	case a.Move == "cannot":
		return "cannot"
	case r.Multiply:
		return fmt.Sprintf("%s, %d x %d = %d", a.Move, a.Reused, n, a.Points)
	}
	return fmt.Sprintf("%s, %d", a.Move, a.Points)
}

// writeGrid draws rows with column letters and row numbers.
func writeGrid(sb *strings.Builder, rows []string) {
	if len(rows) == 0 {
		return
	}
	cell := 2
	if len(rows[0]) > 26 {
		cell = 3 // room for the two-letter columns, AA to AD
	}
	line := []byte("    ")
	for c := range len(rows[0]) {
		line = fmt.Appendf(line, "%-*s", cell, column(c))
	}
	sb.Write(bytes.TrimRight(line, " "))
	sb.WriteByte('\n')
	for r, row := range rows {
		line = fmt.Appendf(line[:0], "%3d ", r+1)
		for c := 0; c < len(row); c++ {
			line = fmt.Appendf(line, "%-*c", cell, row[c])
		}
		sb.Write(bytes.TrimRight(line, " "))
		sb.WriteByte('\n')
	}
}
