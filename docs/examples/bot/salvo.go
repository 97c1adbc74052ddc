package main

// Salvo: the bot fires its salvos over the ocean in a fixed order and,
// once the target's fleet is sunk, works out from the reports alone where
// the ships may have lain, as a player must (each report says how many of
// a salvo's shots hit each kind of ship, and in which salvo each ship
// sank, never which shot hit what), and outlines the first such fleet the
// referee takes as legal. When the reports allow several fleets, as they
// mostly do after salvos fired in a fixed order, the outline is a guess:
// the server's strong computer player aims its salvos so that they tell
// the fleets apart (docs/bots.md).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// ship is the kind of the k-th ship of a fleet, in the order an outline
// names them, and its length.
func ship(k int) (class string, size int) {
	classes := [5]string{"battleship", "cruiser", "destroyer", "submarine", "submarine"}
	sizes := [5]int{5, 4, 3, 2, 2}
	return classes[k], sizes[k]
}

// salvoGame is what the bot knows of a Salvo game in play: enough to
// fire its next salvo and to outline its target's fleet. With three or
// more seats the bot fires at the next player round the table still in
// the game, and at the one after once that one is out.
type salvoGame struct {
	seat, seats int
	shots       int    // the bot's shots a salvo now
	lostBy      string // who loses a shot for a ship sunk: "sinker" or "owner"
	diagonal    bool   // ships may lie on diagonals
	// fired are the squares the bot fired at, by the ocean's seat.
	fired map[int]*[100]bool
	// reports are every salvo at each seat's ocean, anybody's, in order:
	// with three or more players an ocean may be fired at by several.
	reports map[int][]salvoReport
	out     map[int]bool // the seats out of the game
	// outlineOf is the seat whose fleet the bot must outline, -1 when
	// none.
	outlineOf int
	over      bool // the bot is out of the game
}

// salvoReport is one salvo as the "salvo" event tells it.
type salvoReport struct {
	By      int      `json:"by"`
	At      int      `json:"at"`
	Squares []string `json:"squares"`
	Report  struct {
		Hits map[string]int `json:"hits"`
		Sank map[string]int `json:"sank"`
	} `json:"report"`
}

// newSalvo is a game at a table of seats seats, with the rules a table
// takes by default.
func newSalvo(seat, seats int) *salvoGame {
	return &salvoGame{seat: seat, seats: max(seats, 2), shots: 5, lostBy: "sinker",
		fired: map[int]*[100]bool{}, reports: map[int][]salvoReport{}, out: map[int]bool{}, outlineOf: -1}
}

// sunk reports whether every ship of seat's fleet is sunk, by the
// reports of the salvos at it.
func (g *salvoGame) sunk(seat int) bool {
	n := 0
	for _, r := range g.reports[seat] {
		for _, k := range r.Report.Sank {
			n += k
		}
	}
	return n >= 5
}

// target is the seat the bot fires at: the next round the table still in
// the game.
func (g *salvoGame) target() int {
	for k := 1; k < g.seats; k++ {
		if t := (g.seat + k) % g.seats; !g.out[t] {
			return t
		}
	}
	return (g.seat + 1) % g.seats
}

// hear updates g with the events of the moves made since it last heard.
func (g *salvoGame) hear(events []Event) {
	for _, e := range events {
		switch e.Kind {
		case "salvo":
			var r salvoReport
			if json.Unmarshal(e.Data, &r) != nil {
				continue
			}
			sank := 0
			for _, n := range r.Report.Sank {
				sank += n
			}
			if g.lostBy == "sinker" && r.By == g.seat || g.lostBy == "owner" && r.At == g.seat {
				g.shots = max(1, g.shots-sank)
			}
			g.reports[r.At] = append(g.reports[r.At], r)
			if r.By == g.seat {
				if g.fired[r.At] == nil {
					g.fired[r.At] = new([100]bool)
				}
				for _, sq := range r.Squares {
					if i, ok := square(sq); ok {
						g.fired[r.At][i] = true
					}
				}
			}
		case "fleet_sunk":
			var d struct{ Seat, By int }
			if json.Unmarshal(e.Data, &d) == nil && d.By == g.seat {
				g.outlineOf = d.Seat
			}
		case "out":
			var d struct{ Seat int }
			if json.Unmarshal(e.Data, &d) != nil {
				continue
			}
			g.out[d.Seat] = true
			if d.Seat == g.seat {
				g.over = true
			}
			if d.Seat == g.outlineOf {
				g.outlineOf = -1 // outlined rightly: on to the next
			}
		}
	}
}

// next is the bot's next salvo: the squares it has not fired at yet, in
// a fixed order that covers every other square first (no ship is shorter
// than two, so each has a square among them), spread over the ocean. It
// sinks ships late, and so keeps its five shots long: each ship it sinks
// costs it one.
func (g *salvoGame) next() string {
	var shots []string
	fired := g.fired[g.target()]
	if fired == nil {
		fired = new([100]bool)
	}
	for pass := range 2 {
		for k := range 100 {
			// 37 and 100 share no factor: k*37 runs over every square
			// once, each a long way from the one before.
			i := k * 37 % 100
			if (i/10+i%10)%2 == pass && !fired[i] && len(shots) < g.shots {
				shots = append(shots, name(i))
			}
		}
	}
	return "fire " + strings.Join(shots, " ")
}

// salvo plays the bot's seat of a Salvo game in g to its end: it fires
// until its target's fleet is sunk, then outlines it. so is the answer
// that brought the bot its turn.
func (b *Bot) salvo(ctx context.Context, g *salvoGame, so Answer) error {
	g.hear(so.Events)
	for a := so; a.Status != "finished" && !g.over; {
		var err error
		if t := g.target(); g.outlineOf < 0 && g.sunk(t) {
			// A fleet sunk by a player who is out since (a wrong
			// outline of it, say) is the next player's to outline.
			g.outlineOf = t
		}
		if g.outlineOf >= 0 {
			a, err = b.outline(ctx, g)
		} else {
			a, err = b.move(ctx, g.next())
		}
		if err != nil {
			return err
		}
		g.hear(a.Events)
	}
	return nil
}

// outline outlines g's target's fleet: the first fleet that fits every
// report, and the next when the referee refuses one (a fleet that breaks
// the table's placement rules, which the bot does not check itself).
func (b *Bot) outline(ctx context.Context, g *salvoGame) (Answer, error) {
	fleets := outlines(g.reports[g.outlineOf], g.diagonal, maxOutlines)
	if len(fleets) == 0 {
		// Only a report the bot misread leads here: no fleet fits.
		fmt.Fprintln(b.Log, "no fleet fits the reports")
		return b.move(ctx, "resign")
	}
	for _, f := range fleets {
		a, err := b.move(ctx, "outline "+strings.Join(f[:], " "))
		var r *Refusal
		if errors.As(err, &r) && r.Status == http.StatusUnprocessableEntity {
			continue
		}
		for _, e := range a.Events {
			var d struct {
				By    int
				Right bool
			}
			if e.Kind == "outline" && json.Unmarshal(e.Data, &d) == nil && d.By == g.seat {
				fmt.Fprintf(b.Log, "outlined rightly: %v (%d fleets fit the reports)\n", d.Right, len(fleets))
			}
		}
		return a, err
	}
	return b.move(ctx, "resign")
}

// maxOutlines bounds the fleets outline tries: each refused one is a
// request.
const maxOutlines = 100

// knowledge is what the reports of the salvos fired at one ocean say.
type knowledge struct {
	// first[i] is the first salvo to fire at square i (-1: none did);
	// in[i] lists every salvo that did.
	first [100]int
	in    [100][]int
	// hits[s][k] is what salvo s's report says of the ships of the k-th
	// ship's class; the two submarines share theirs.
	hits [][5]int
	// sinks[k] lists the salvos that sank a ship of the k-th ship's
	// class (k < 4).
	sinks [4][]int
	dirs  [][2]int
}

func know(reports []salvoReport, diagonal bool) *knowledge {
	kn := &knowledge{hits: make([][5]int, len(reports)), dirs: [][2]int{{1, 0}, {0, 1}}}
	if diagonal {
		kn.dirs = append(kn.dirs, [2]int{1, 1}, [2]int{-1, 1})
	}
	for i := range kn.first {
		kn.first[i] = -1
	}
	for s, r := range reports {
		for _, sq := range r.Squares {
			if i, ok := square(sq); ok {
				if kn.first[i] < 0 {
					kn.first[i] = s
				}
				kn.in[i] = append(kn.in[i], s)
			}
		}
		for k := range 5 {
			class, _ := ship(k)
			kn.hits[s][k] = r.Report.Hits[class]
		}
		for k := range 4 {
			class, _ := ship(k)
			for range r.Report.Sank[class] {
				kn.sinks[k] = append(kn.sinks[k], s)
			}
		}
	}
	return kn
}

// places returns the lines where the k-th ship (k < 4; the fourth is
// either submarine) may lie, by the reports. Each salvo hit it at most
// as often as its report says of its class, exactly as often when it
// is the only ship of its class; once every square of a line was fired
// at, the ship there sank in the salvo that first fired at the last of
// them, which must be one that reported such a sinking; a ship reported
// sunk lies on squares fired at (both submarines, when both were).
func (kn *knowledge) places(k int) [][]int {
	_, size := ship(k)
	sunk := len(kn.sinks[k]) > 0
	if k == 3 {
		sunk = len(kn.sinks[k]) == 2
	}
	var out [][]int
	for i := range 100 {
		for _, d := range kn.dirs {
			line, ok := lineFrom(i, d, size)
			if !ok {
				continue
			}
			count := map[int]int{}
			last, fits := -1, true
			for _, sq := range line {
				if kn.first[sq] < 0 {
					last = -2 // not every square was fired at: afloat
				} else if last > -2 {
					last = max(last, kn.first[sq])
				}
				for _, s := range kn.in[sq] {
					count[s]++
					fits = fits && count[s] <= kn.hits[s][k]
				}
			}
			if k < 3 {
				for s, h := range kn.hits {
					fits = fits && count[s] == h[k]
				}
			}
			if last == -2 {
				fits = fits && !sunk
			} else {
				fits = fits && slices.Contains(kn.sinks[k], last)
			}
			if fits {
				out = append(out, line)
			}
		}
	}
	return out
}

// outlines returns at most limit fleets that fit the reports of the
// salvos fired at one ocean, whose ships are all sunk, each ship written
// as its two ends ("B2-B6") in fleet order.
func outlines(reports []salvoReport, diagonal bool, limit int) [][5]string {
	kn := know(reports, diagonal)
	first, in, hits, sinks := kn.first, kn.in, kn.hits, kn.sinks
	var places [5][][]int
	for k := range 4 {
		places[k] = kn.places(k)
	}
	places[4] = places[3]

	// Place the ships one by one, counting each salvo's hits on each
	// class: a partial fleet may not exceed a report, a whole one must
	// match every report exactly.
	var out [][5]string
	var chosen [5][]int
	var taken [100]bool
	got := make([][5]int, len(reports))
	var place func(k, from int)
	place = func(k, from int) {
		if len(out) >= limit {
			return
		}
		if k == 5 {
			for s := range reports {
				if got[s] != hits[s] {
					return
				}
			}
			if subs := []int{sunkIn(chosen[3], first), sunkIn(chosen[4], first)}; !sameSet(subs, sinks[3]) {
				return
			}
			var f [5]string
			for j, line := range chosen {
				f[j] = name(line[0]) + "-" + name(line[len(line)-1])
			}
			out = append(out, f)
			return
		}
		class := min(k, 3) // the submarines count as one class
		for p := from; p < len(places[k]); p++ {
			line := places[k][p]
			ok := true
			for _, sq := range line {
				if taken[sq] {
					ok = false
				}
			}
			if !ok {
				continue
			}
			for _, sq := range line {
				taken[sq] = true
				for _, s := range in[sq] {
					got[s][class]++
					if class == 3 {
						got[s][4]++
					}
				}
			}
			over := false
			for _, sq := range line {
				for _, s := range in[sq] {
					if got[s][class] > hits[s][class] {
						over = true
					}
				}
			}
			if !over {
				chosen[k] = line
				next := 0
				if k == 3 {
					next = p + 1 // the second submarine after the first: each pair once
				}
				place(k+1, next)
			}
			for _, sq := range line {
				taken[sq] = false
				for _, s := range in[sq] {
					got[s][class]--
					if class == 3 {
						got[s][4]--
					}
				}
			}
		}
	}
	place(0, 0)
	return out
}

// lineFrom returns the n squares from square i in direction d (columns,
// rows), or false when they leave the ocean.
func lineFrom(i int, d [2]int, n int) ([]int, bool) {
	col, row := i%10, i/10
	line := make([]int, n)
	for j := range n {
		c, r := col+j*d[0], row+j*d[1]
		if c < 0 || c > 9 || r > 9 {
			return nil, false
		}
		line[j] = r*10 + c
	}
	return line, true
}

// sunkIn is the salvo that sank a ship on line: the first to fire at the
// last of its squares.
func sunkIn(line []int, first [100]int) int {
	s := -1
	for _, sq := range line {
		s = max(s, first[sq])
	}
	return s
}

// sameSet reports whether a and b hold the same numbers as often.
func sameSet(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	n := map[int]int{}
	for _, x := range a {
		n[x]++
	}
	for _, x := range b {
		n[x]--
	}
	for _, c := range n {
		if c != 0 {
			return false
		}
	}
	return true
}

// square reads a square's name ("B3", "J10") as its index, row by row
// from A1.
func square(s string) (int, bool) {
	if len(s) < 2 {
		return 0, false
	}
	col := int(strings.ToUpper(s[:1])[0] - 'A')
	row, err := strconv.Atoi(s[1:])
	if col < 0 || col > 9 || err != nil || row < 1 || row > 10 {
		return 0, false
	}
	return (row-1)*10 + col, true
}

// name is square i's name.
func name(i int) string { return fmt.Sprintf("%c%d", 'A'+i%10, i/10+1) }
