package table

import (
	"encoding/json"
	"fmt"

	"parlour/store"
)

// A finished table's stored description, as the parts above the tables
// read and amend it without holding the table.

// StoredSeat is one seat of a stored description.
type StoredSeat struct {
	Identity string // "" for a computer
	Name     string
	Computer string // the computer's level, "" for a person
}

// SeatsOf returns the seats of the stored description desc of table id.
func SeatsOf(id string, desc []byte) ([]StoredSeat, error) {
	var m meta
	if err := json.Unmarshal(desc, &m); err != nil {
		return nil, fmt.Errorf("table %s: reading description: %w", id, err)
	}
	out := make([]StoredSeat, len(m.Seats))
	for i, st := range m.Seats {
		out[i] = StoredSeat{Identity: st.Identity, Name: st.Name, Computer: st.Computer}
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
