package social

import (
	"slices"
	"testing"

	"parlour/server/table"
)

// TestFollowable: the followers of a game's players are looked up only
// for the people who sat down with an account.
func TestFollowable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		n    table.GameNote
		want []string
	}{
		{"two accounts", table.GameNote{Seats: []string{"ann", "ben"}}, []string{"ann", "ben"}},
		{"an account and a computer", table.GameNote{Seats: []string{"ann", ""}}, []string{"ann"}},
		{"an account and a guest", table.GameNote{Seats: []string{"ann", "gus"}, Guests: []bool{false, true}}, []string{"ann"}},
		{"two guests", table.GameNote{Seats: []string{"gus", "gil"}, Guests: []bool{true, true}}, nil},
		{"computers only", table.GameNote{Seats: []string{"", ""}}, nil},
	} {
		if got := followable(tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
