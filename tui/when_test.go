package tui

import (
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // Asia/Tokyo, on a machine with no zoneinfo

	"github.com/charmbracelet/x/ansi"
)

// TestWhen: a time of day is written in the player's zone, named when
// the player did not choose it (over SSH without TZ), and the help says
// which zone and how to choose one; the lists whose times leave the
// zone out name it beside their titles when the player did not choose it.
func TestWhen(t *testing.T) {
	t.Parallel()
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 6, 9, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		name      string
		zone      *time.Location
		named     bool
		want      string
		help, not string
	}{
		{"local play", nil, false, at.Local().Format("Mon 2 Jan 15:04"), "", "Times of day"},
		{"ssh without TZ", time.UTC, true, "Sun 6 Dec 09:30 UTC", "Times of day: UTC, named so; in your own zone with ssh -o SetEnv=TZ=", ""},
		{"ssh with TZ", tokyo, false, "Sun 6 Dec 18:30", "Times of day: Asia/Tokyo, as your client's TZ says", "JST"},
	} {
		sh := &shared{w: 80, h: 24, cfg: Config{Zone: tc.zone, ZoneNamed: tc.named}}
		if got := sh.when(at, "Mon 2 Jan 15:04"); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
		// A list whose times leave the zone out says it beside its title.
		if note, want := ansi.Strip(sh.zoneNote()), map[bool]string{true: " · times in UTC"}[tc.named]; note != want {
			t.Errorf("%s: the lists' note reads %q, want %q", tc.name, note, want)
		}
		help := strings.Join(strings.Fields(ansi.Strip((&helpScreen{shared: sh}).view())), " ")
		if tc.help != "" && !strings.Contains(help, tc.help) {
			t.Errorf("%s: the help does not say %q:\n%s", tc.name, tc.help, help)
		}
		if tc.not != "" && strings.Contains(help+sh.when(at, "15:04"), tc.not) {
			t.Errorf("%s: %q is said:\n%s", tc.name, tc.not, help)
		}
	}
}
