package main

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// reportsOf fires salvos (each a list of squares) at fleet (five ships,
// each its squares, in fleet order) and returns the reports the referee
// would give: the hits on each kind of ship, and the ships each salvo
// sank.
func reportsOf(fleet [5][]string, salvos [][]string) []salvoReport {
	hit := map[string]bool{}
	var out []salvoReport
	for _, sv := range salvos {
		var r salvoReport
		r.Squares = sv
		r.Report.Hits, r.Report.Sank = map[string]int{}, map[string]int{}
		for _, sq := range sv {
			for k, sh := range fleet {
				if slices.Contains(sh, sq) {
					class, _ := ship(k)
					r.Report.Hits[class]++
				}
			}
		}
		for k, sh := range fleet {
			before := !slices.ContainsFunc(sh, func(sq string) bool { return !hit[sq] })
			for _, sq := range sv {
				if slices.Contains(sh, sq) {
					hit[sq] = true
				}
			}
			after := !slices.ContainsFunc(sh, func(sq string) bool { return !hit[sq] })
			if after && !before {
				class, _ := ship(k)
				r.Report.Sank[class]++
			}
		}
		out = append(out, r)
	}
	return out
}

// squaresOf lists a ship's squares from its ends.
func squaresOf(t *testing.T, ends string) []string {
	a, b, _ := strings.Cut(ends, "-")
	i, ok1 := square(a)
	j, ok2 := square(b)
	if !ok1 || !ok2 {
		t.Fatalf("ship %q", ends)
	}
	step := 1
	if i/10 != j/10 {
		step = 10
	}
	var out []string
	for k := i; k <= j; k += step {
		out = append(out, name(k))
	}
	return out
}

// TestOutlines: the fleets that fit a fleet's reports hold that fleet,
// and only it when the reports leave no doubt.
func TestOutlines(t *testing.T) {
	t.Parallel()
	fleet := [5]string{"B2-B6", "D2-G2", "I4-I6", "D8-E8", "G9-G10"}
	var ships [5][]string
	for k, s := range fleet {
		ships[k] = squaresOf(t, s)
	}
	every := func(order []int) [][]string {
		var out [][]string
		for len(order) > 0 {
			n := min(5, len(order))
			var sv []string
			for _, i := range order[:n] {
				sv = append(sv, name(i))
			}
			out = append(out, sv)
			order = order[n:]
		}
		return out
	}
	var rowByRow, spread []int
	for i := range 100 {
		rowByRow = append(rowByRow, i)
		spread = append(spread, i*37%100)
	}
	// One ship's squares a salvo: each report says where each ship
	// lies.
	var shipBySalvo [][]string
	for _, sh := range ships {
		shipBySalvo = append(shipBySalvo, sh)
	}
	for _, tc := range []struct {
		name   string
		salvos [][]string
		only   bool // the reports leave one fleet
	}{
		{"every square, row by row", every(rowByRow), false},
		{"every square, spread", every(spread), false},
		{"each ship a salvo of its own", shipBySalvo, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := outlines(reportsOf(ships, tc.salvos), false, 1000)
			if !slices.Contains(got, fleet) {
				t.Fatalf("%d fleets fit, not the fleet itself: %v", len(got), got)
			}
			if tc.only && len(got) != 1 {
				t.Errorf("%d fleets fit, want the one: %v", len(got), got)
			}
			// Every fleet found fits the reports as the fleet does.
			for _, f := range got {
				var sh [5][]string
				for k, s := range f {
					sh[k] = squaresOf(t, s)
				}
				a, _ := json.Marshal(reportsOf(sh, tc.salvos))
				b, _ := json.Marshal(reportsOf(ships, tc.salvos))
				if string(a) != string(b) {
					t.Errorf("fleet %v does not fit the reports", f)
				}
			}
		})
	}
	// Reports no fleet fits (a hit on a battleship where none could
	// lie) give none, and a bad square is left out.
	bad := reportsOf(ships, shipBySalvo)
	bad[0].Report.Hits["battleship"] = 4
	if got := outlines(bad, false, 10); len(got) != 0 {
		t.Errorf("reports no fleet fits gave %v", got)
	}
	odd := reportsOf(ships, append([][]string{{"K1", "A0", "", "B"}}, shipBySalvo...))
	if got := outlines(odd, false, 10); !slices.Equal(got, [][5]string{fleet}) {
		t.Errorf("with a salvo of bad squares first: %v", got)
	}
}

// TestBotOutlines: at a practice table the bot fires until the hidden
// fleet is sunk, then outlines a fleet that fits every report of its
// salvos: the hidden fleet, or one the reports cannot tell from it.
func TestBotOutlines(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	for range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var out strings.Builder
		b := &Bot{Server: srv.URL, Log: &out}
		var seated struct{ Table, Token string }
		if err := b.call(ctx, "/api/v1/tables", map[string]any{"game": "salvo", "seats": []string{"me"}, "name": "Example bot", "private": true}, &seated); err != nil {
			t.Fatal(err)
		}
		b.table, b.token = seated.Table, seated.Token
		if err := b.salvo(ctx, newSalvo(0, 1), Answer{Status: "playing"}); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		// The record keeps the hidden fleet under the player's name (a
		// practice table has one seat) and every salvo.
		var rec struct {
			Setup map[string]struct{ Fleet []string }
			Moves []struct{ By, Move string }
		}
		if err := b.call(ctx, "/api/v1/tables/"+b.table+"/record", nil, &rec); err != nil {
			t.Fatal(err)
		}
		var hidden, said [5][]string
		for k, s := range rec.Setup["Example bot"].Fleet {
			hidden[k] = squaresOf(t, s)
		}
		var salvos [][]string
		for _, m := range rec.Moves[:len(rec.Moves)-1] {
			shots, ok := strings.CutPrefix(m.Move, "fire ")
			if !ok {
				t.Fatalf("the bot played %q before its outline", m.Move)
			}
			salvos = append(salvos, strings.Fields(shots))
		}
		last, ok := strings.CutPrefix(rec.Moves[len(rec.Moves)-1].Move, "outline ")
		if !ok || len(strings.Fields(last)) != 5 || len(salvos) < 4 {
			t.Fatalf("the game ended on %q after %d salvos\n%s", rec.Moves[len(rec.Moves)-1].Move, len(salvos), out.String())
		}
		for k, s := range strings.Fields(last) {
			said[k] = squaresOf(t, s)
		}
		a, _ := json.Marshal(reportsOf(said, salvos))
		h, _ := json.Marshal(reportsOf(hidden, salvos))
		if string(a) != string(h) {
			t.Errorf("the bot outlined %s, which does not fit the reports of the hidden fleet %v", last, rec.Setup["Example bot"].Fleet)
		}
		if !strings.Contains(out.String(), "outlined rightly: ") {
			t.Errorf("the bot did not say how its outline went:\n%s", out.String())
		}
	}
}

// TestBotPlaysSalvoAtThree: at a table of three, the bot fires at the
// next seat round the table, outlines that fleet once it is sunk, and
// goes on against the seat after it, until the game ends.
func TestBotPlaysSalvoAtThree(t *testing.T) {
	t.Parallel()
	srv, _ := newServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out strings.Builder
	b := &Bot{Server: srv.URL, Log: &out}
	var seated struct{ Table, Token string }
	if err := b.call(ctx, "/api/v1/tables", map[string]any{"game": "salvo", "seats": []string{"me", "computer:easy", "computer:easy"}, "name": "Example bot", "private": true}, &seated); err != nil {
		t.Fatal(err)
	}
	b.token = seated.Token
	if err := b.playAt(ctx, seated.Table, "salvo"); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	var rec struct {
		Moves []struct{ By, Move string }
	}
	if err := b.call(ctx, "/api/v1/tables/"+seated.Table+"/record", nil, &rec); err != nil {
		t.Fatal(err)
	}
	mine := 0
	for _, m := range rec.Moves {
		if m.By == "Example bot" {
			mine++
		}
	}
	if mine < 4 {
		t.Fatalf("the bot made %d moves in a game of three\n%s", mine, out.String())
	}
	// Once the bot is out, the computers may play on without it.
	var u struct {
		Table struct {
			Status string `json:"status"`
		} `json:"table"`
	}
	for u.Table.Status != "finished" && ctx.Err() == nil {
		if err := b.call(ctx, "/api/v1/tables/"+seated.Table, nil, &u); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if u.Table.Status != "finished" {
		t.Fatalf("the table is %q long after the bot played\n%s", u.Table.Status, out.String())
	}
	t.Logf("%d moves of the bot's\n%s", mine, out.String())
}

// TestSalvoTargets: at a table of four the bot fires at the next seat
// still in the game, keeps each ocean's reports (anybody's salvos) apart,
// outlines the fleet the referee says it must, and moves on once that
// seat is out.
func TestSalvoTargets(t *testing.T) {
	t.Parallel()
	g := newSalvo(3, 4)
	ev := func(kind, data string) Event { return Event{Kind: kind, Data: json.RawMessage(data)} }
	if got := g.target(); got != 0 {
		t.Fatalf("seat 3 of 4 fires at %d, want 0", got)
	}
	g.hear([]Event{
		ev("salvo", `{"by":3,"at":0,"squares":["A1","B2"],"report":{"hits":{},"sank":{}}}`),
		ev("salvo", `{"by":2,"at":3,"squares":["C3"],"report":{"hits":{},"sank":{}}}`),
		ev("salvo", `{"by":1,"at":2,"squares":["D4"],"report":{"hits":{},"sank":{}}}`),
	})
	if len(g.reports[0]) != 1 || len(g.reports[3]) != 1 || len(g.reports[2]) != 1 || !g.fired[0][0] || g.fired[2] != nil {
		t.Errorf("reports %v, fired %v: want each ocean's own, and only the bot's shots as fired", g.reports, g.fired)
	}
	if next := g.next(); strings.Contains(next, "A1 ") || strings.HasSuffix(next, " A1") {
		t.Errorf("the next salvo %q fires at A1 again", next)
	}
	g.hear([]Event{ev("out", `{"seat":0,"why":"resigned"}`)})
	if got := g.target(); got != 1 {
		t.Errorf("seat 0 out: the bot fires at %d, want 1", got)
	}
	g.hear([]Event{ev("fleet_sunk", `{"seat":1,"by":3}`)})
	if g.outlineOf != 1 {
		t.Fatalf("seat 1's fleet sunk by the bot: it outlines %d, want 1", g.outlineOf)
	}
	g.hear([]Event{ev("out", `{"seat":1,"why":"outlined"}`)})
	if g.outlineOf != -1 || g.target() != 2 || g.over {
		t.Errorf("seat 1 outlined: outlining %d, target %d, over %v; want none, 2, playing on", g.outlineOf, g.target(), g.over)
	}
	// Seat 2's fleet, sunk by seat 1 before its wrong outline, is the
	// bot's to outline, though no fleet_sunk named it.
	if g.sunk(2) {
		t.Error("seat 2's fleet counted sunk before its ships were")
	}
	g.hear([]Event{
		ev("salvo", `{"by":1,"at":2,"squares":["A1"],"report":{"hits":{},"sank":{"battleship":1,"cruiser":1}}}`),
		ev("salvo", `{"by":1,"at":2,"squares":["A2"],"report":{"hits":{},"sank":{"destroyer":1,"submarine":2}}}`),
	})
	if !g.sunk(2) {
		t.Error("seat 2's five ships reported sunk: the bot does not count its fleet sunk")
	}
	g.hear([]Event{ev("out", `{"seat":3,"why":"wrong outline"}`)})
	if !g.over {
		t.Error("the bot out: it plays on")
	}
}
