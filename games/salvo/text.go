package salvo

import (
	"fmt"
	"strings"

	"parlour/game"
)

// String draws the view as text, for parlour replay and logs: every fleet
// the view may show (the seat's own, or all of them once the game is over)
// with the squares hit, then every salvo with its report.
func (v View) String() string {
	var b strings.Builder
	name := func(s game.Seat) string {
		if s >= 0 && int(s) < len(v.Players) {
			return v.Players[s].Name
		}
		return "?"
	}
	fleets := map[game.Seat]Fleet{}
	for i, f := range v.Fleets {
		fleets[game.Seat(i)] = f
	}
	if len(v.Fleets) == 0 && len(v.Fleet) == FleetSize && v.Seat >= 0 {
		var f Fleet
		for i, s := range v.Fleet {
			f[i] = s.Ship
		}
		fleets[v.Seat] = f
	}
	// fired marks every square shot at each seat's ocean.
	fired := map[game.Seat]*[Squares]bool{}
	for _, s := range v.Salvos {
		if fired[s.At] == nil {
			fired[s.At] = new([Squares]bool)
		}
		for _, q := range s.Squares {
			if q.Valid() {
				fired[s.At][q] = true
			}
		}
	}
	fmt.Fprintf(&b, "Salvo (placement %s", v.Placement)
	if v.DiagonalShips {
		b.WriteString(", diagonal ships")
	}
	fmt.Fprintf(&b, ", shots lost by %s)\n", v.ShotsLostBy)
	for i := range v.Players {
		seat := game.Seat(i)
		f, ok := fleets[seat]
		if !ok || v.Practice && seat == 0 {
			// In practice the player has no fleet: the one fleet of
			// the game is the computer's, seat 1.
			continue
		}
		fmt.Fprintf(&b, "\n%s's ocean (B battleship, C cruiser, D destroyer, S submarine; lower case hit, * shot in the sea)\n", name(seat))
		writeOcean(&b, f, fired[seat])
	}
	if len(v.Salvos) > 0 {
		b.WriteString("\nSalvos:\n")
	}
	for _, s := range v.Salvos {
		sq := make([]string, len(s.Squares))
		for i, q := range s.Squares {
			sq[i] = q.String()
		}
		fmt.Fprintf(&b, "  %s #%d at %s: %s: %s\n", name(s.By), s.Number, name(s.At), strings.Join(sq, " "), s.Report.Text())
	}
	for _, o := range v.Outlines {
		verdict := "wrong"
		if o.Right {
			verdict = "right"
		}
		fmt.Fprintf(&b, "  %s outlined %s's fleet %s: %s\n", name(o.By), name(o.Of), strings.Join(o.Fleet.Strings(), " "), verdict)
	}
	b.WriteString("\n")
	for _, p := range v.Players {
		fmt.Fprintf(&b, "%s: %s sunk, %d lost, %s", p.Name, game.Count(p.ShipsSunk, "ship", "ships"), p.ShipsLost, game.Count(p.Shots, "shot", "shots"))
		if p.Out != "" {
			fmt.Fprintf(&b, ", out (%s)", p.Out)
		}
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

// writeOcean draws one ocean: ships by class letter, upper case while
// unhit, lower case once hit; '*' for a shot into open sea.
func writeOcean(b *strings.Builder, f Fleet, fired *[Squares]bool) {
	var cell [Squares]byte
	for i := range cell {
		cell[i] = '.'
		if fired != nil && fired[i] {
			cell[i] = '*'
		}
	}
	for i, sh := range f {
		letter := "BCDSS"[i]
		for _, q := range sh.Squares() {
			if !q.Valid() {
				continue
			}
			c := letter
			if fired != nil && fired[q] {
				c += 'a' - 'A'
			}
			cell[q] = c
		}
	}
	b.WriteString("    A B C D E F G H I J\n")
	for r := 0; r < Size; r++ {
		fmt.Fprintf(b, "%3d", r+1)
		for c := 0; c < Size; c++ {
			b.WriteByte(' ')
			b.WriteByte(cell[r*Size+c])
		}
		b.WriteByte('\n')
	}
}
