package sshdoor

import (
	"testing"
	"time"
)

// TestSessionZone: a client's TZ names the player's zone when it is a
// zone's name; anything else, or none, is UTC.
func TestSessionZone(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		env  []string
		want string
		ok   bool
	}{
		{nil, "UTC", false},
		{[]string{"TERM=xterm", "LANG=C"}, "UTC", false},
		{[]string{"TZ=Europe/Paris"}, "Europe/Paris", true},
		{[]string{"LANG=C", "TZ=:Asia/Tokyo"}, "Asia/Tokyo", true},
		{[]string{"TZ= America/New_York "}, "America/New_York", true},
		{[]string{"TZ=UTC"}, "UTC", true},
		{[]string{"TZ="}, "UTC", false},
		{[]string{"TZ=Local"}, "UTC", false},
		{[]string{"TZ=Mars/Olympus_Mons"}, "UTC", false},
		{[]string{"TZ=CET-1CEST,M3.5.0,M10.5.0/3"}, "UTC", false}, // a POSIX rule, not a name
		{[]string{"TZ=/etc/passwd"}, "UTC", false},
		{[]string{"TZ=../../../../etc/localtime"}, "UTC", false},
	} {
		loc, ok := sessionZone(tc.env)
		if loc.String() != tc.want || ok != tc.ok {
			t.Errorf("sessionZone(%q) = %s, %v; want %s, %v", tc.env, loc, ok, tc.want, tc.ok)
		}
	}
}

// FuzzSessionZone: whatever a client sends as TZ, the zone is one to
// read times in, and never the server's own.
func FuzzSessionZone(f *testing.F) {
	for _, s := range []string{"Europe/Paris", ":Asia/Tokyo", "", "Local", "/etc/passwd", "../x", "CET-1", "UTC", "Etc/GMT+5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tz string) {
		loc, ok := sessionZone([]string{"TZ=" + tz})
		if loc == nil || loc == time.Local && time.Local != time.UTC {
			t.Fatalf("TZ=%q gives the zone %v", tz, loc)
		}
		if !ok && loc != time.UTC {
			t.Fatalf("TZ=%q refused, but the zone is %v, not UTC", tz, loc)
		}
		_ = time.Date(2026, 12, 6, 12, 0, 0, 0, loc).Format(time.RFC3339)
	})
}
