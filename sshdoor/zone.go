package sshdoor

import (
	"strings"
	"time"
	_ "time/tzdata" // the zones players name, on a server with no zoneinfo of its own
)

// sessionZone is the time zone a session's player reads times in: the
// one their client sent as TZ (`ssh -o SetEnv=TZ=Europe/Paris`), an IANA
// name, as a Unix shell takes it. ok is false when the client sent none
// or one this server cannot read, and the times are then UTC.
func sessionZone(environ []string) (loc *time.Location, ok bool) {
	for _, kv := range environ {
		name, found := strings.CutPrefix(kv, "TZ=")
		if !found {
			continue
		}
		// A leading ":" is the shells' way of naming a zone's file.
		name = strings.TrimPrefix(strings.TrimSpace(name), ":")
		// "" and "Local" would be the server's own zone, not the
		// player's; LoadLocation refuses paths.
		if name == "" || name == "Local" {
			return time.UTC, false
		}
		loc, err := time.LoadLocation(name)
		if err != nil {
			return time.UTC, false
		}
		return loc, true
	}
	return time.UTC, false
}
