package table

import (
	"encoding/json"
	"fmt"
	"slices"

	"parlour/game"
	"parlour/store"
)

// A finished table's stored description, as the parts above the tables
// read and amend it without holding the table.

// StoredSeat is one seat of a stored description.
type StoredSeat struct {
	Identity string // "" for a computer
	Name     string
	Computer string // the computer's level, "" for a person
	// Forfeited says why the server first played a move for the seat:
	// analysis.ForfeitTimeout, its time ran out, or analysis.ForfeitClaim,
	// its game was claimed while it was away; "" when it never did.
	Forfeited string
}

// Stored is what a player's history reads of a finished table's stored
// description: its seats, and the daily puzzle it was an attempt at.
type Stored struct {
	Seats []StoredSeat
	Daily string // "quizl/2006-01-02"; "" for any other table
	// Event names the tournament whose pairing made the table; nil for
	// any other.
	Event *game.Tournament
}

// StoredOf returns what the stored description desc of table id holds.
func StoredOf(id string, desc []byte) (Stored, error) {
	var m meta
	if err := json.Unmarshal(desc, &m); err != nil {
		return Stored{}, fmt.Errorf("table %s: reading description: %w", id, err)
	}
	out := Stored{Seats: make([]StoredSeat, len(m.Seats)), Daily: m.Daily, Event: m.Event}
	for i, st := range m.Seats {
		out.Seats[i] = StoredSeat{Identity: st.Identity, Name: st.Name, Computer: st.Computer}
	}
	for _, f := range slices.Backward(m.Forfeits) {
		if f.Seat >= 0 && f.Seat < len(out.Seats) {
			out.Seats[f.Seat].Forfeited = f.analysed().Why
		}
	}
	return out, nil
}

// RenameSeat returns the update of finished table id's stored description
// desc that renames identity's seats name (made unique at the table).
func RenameSeat(id string, desc []byte, identity, name string) (store.TableUpdate, error) {
	var m meta
	if err := json.Unmarshal(desc, &m); err != nil {
		return store.TableUpdate{}, fmt.Errorf("table %s: reading description: %w", id, err)
	}
	if m.Played == nil || len(*m.Played) != len(m.Seats) {
		// The first rename: the moves were written under these.
		played := make([]string, len(m.Seats))
		for i, st := range m.Seats {
			played[i] = st.Name
		}
		m.Played = &played
	}
	for i, st := range m.Seats {
		if st.Identity == identity {
			m.Seats[i].Name = uniqueName(m.Seats, name, i)
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return store.TableUpdate{}, err
	}
	return store.TableUpdate{ID: id, Status: store.Finished, Meta: b}, nil
}
