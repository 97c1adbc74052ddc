package salvo

import (
	"encoding/json"
	"regexp"
	"slices"
	"testing"

	"parlour/game"
)

// TestSpectatorSeesShotsNotShips: an onlooker's view carries every salvo,
// its squares and its report per class, so that both oceans can be drawn
// with their fired squares; it carries no fleet, no tracking of a seat,
// no ship square nobody fired at, and nothing that says which shot hit.
func TestSpectatorSeesShotsNotShips(t *testing.T) {
	t.Parallel()
	st := newState(t, nil, fleetA, fleetB)
	apply(t, st, 0, "fire D4 B6 H7 E9 A1") // four hits on Ben's fleet
	apply(t, st, 1, "fire B2 C2 D2 J10 A10")
	apply(t, st, 0, "fire E4 F4 G4 H4 A2") // sinks Ben's battleship

	v := st.SeatView(game.Spectator)
	if len(v.Salvos) != 3 {
		t.Fatalf("the onlooker hears %d salvos, want 3", len(v.Salvos))
	}
	fired := map[game.Seat][]string{}
	for _, s := range v.Salvos {
		for _, q := range s.Squares {
			fired[s.At] = append(fired[s.At], q.String())
		}
	}
	if got := fired[1]; !slices.Contains(got, "D4") || !slices.Contains(got, "H4") || len(got) != 10 {
		t.Errorf("the squares fired at Ben, as the onlooker hears them: %v", got)
	}
	if s := v.Salvos[2]; s.Report.Hits.Total() != 4 || s.Report.Sank.Total() != 1 {
		t.Errorf("the third salvo's report: %+v", s.Report)
	}
	if v.Fleet != nil || v.Tracking != nil || v.Fleets != nil || v.Shots != 0 {
		t.Errorf("the onlooker sees a seat's own part: fleet %v, tracking %v, fleets %v, shots %d", v.Fleet, v.Tracking, v.Fleets, v.Shots)
	}

	b, err := json.Marshal(st.View(game.Spectator))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"fleet", "fleets", "tracking"} {
		if _, ok := m[k]; ok {
			t.Errorf("the onlooker's view holds %q: %s", k, m[k])
		}
	}
	// A report names classes and counts, never a square.
	var salvos []struct {
		Report map[string]map[string]int `json:"report"`
	}
	if err := json.Unmarshal(m["salvos"], &salvos); err != nil {
		t.Fatalf("the salvos: %v", err)
	}
	for i, s := range salvos {
		for k, tally := range s.Report {
			if k != "hits" && k != "sank" {
				t.Errorf("salvo %d's report holds %q", i+1, k)
			}
			for c := range tally {
				if !slices.Contains([]string{"battleship", "cruiser", "destroyer", "submarine"}, c) {
					t.Errorf("salvo %d's report counts %q, not a class", i+1, c)
				}
			}
		}
	}
	// No ship square that nobody fired at is anywhere in the view (a
	// square fired at in either ocean may be named, for that ocean).
	anyFired := slices.Concat(fired[0], fired[1])
	said := map[string]bool{}
	for _, q := range regexp.MustCompile(`"([A-J](?:10|[1-9]))"`).FindAllStringSubmatch(string(b), -1) {
		said[q[1]] = true
	}
	for seat, ships := range [][]string{fleetA, fleetB} {
		f, err := ParseFleet(ships)
		if err != nil {
			t.Fatal(err)
		}
		for q := range Square(Squares) {
			if f.Board().Has(q) && said[q.String()] && !slices.Contains(anyFired, q.String()) {
				t.Errorf("the onlooker's view names %s, a square of seat %d's fleet nobody fired at", q, seat)
			}
		}
	}
}

// TestViewSalvosIsAList: before the first salvo a view's salvos is an
// empty list, not null, as Quizl's moves and Word Fight's list are, so a
// program that walks the list needs no case for a game not yet fired in.
func TestViewSalvosIsAList(t *testing.T) {
	t.Parallel()
	st := newState(t, nil, fleetA, fleetB)
	for _, seat := range []game.Seat{0, 1, game.Spectator} {
		b, err := json.Marshal(st.View(seat))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if got := string(m["salvos"]); got != "[]" {
			t.Errorf("seat %d's view before any salvo: salvos %s, want []", seat, got)
		}
	}
}
