package tui

import "time"

// zone is the time zone the player reads times in.
func (sh *shared) zone() *time.Location {
	if sh.cfg.Zone != nil {
		return sh.cfg.Zone
	}
	return time.Local
}

// zoneNote follows the title of a list whose times of day leave out the
// zone for want of room: " · times in UTC" where the player did not
// choose the zone, else nothing.
func (sh *shared) zoneNote() string {
	if !sh.cfg.ZoneNamed {
		return ""
	}
	return faint(" · times in " + sh.zone().String())
}

// when writes t in the player's zone with layout, followed by the zone's
// name where the player did not choose it ("Mon 7 Dec 18:00 UTC" over
// SSH from a client that sent no TZ).
func (sh *shared) when(t time.Time, layout string) string {
	t = t.In(sh.zone())
	if sh.cfg.ZoneNamed {
		return t.Format(layout + " MST")
	}
	return t.Format(layout)
}
