package account

import (
	"errors"
	"fmt"
	"strings"
)

// The length of an account name, in characters (all of them ASCII).
const (
	MinNameLen = 3
	MaxNameLen = 20
)

// Key returns the canonical form of an account name: names that differ
// only in case are one name, so the store keys accounts by Key(name) and
// keeps the name as its owner typed it for display. Key is meant for names
// CheckName accepts; for them it is ASCII lower case.
func Key(name string) string {
	return strings.ToLower(name)
}

// CheckName reports whether name may be chosen as an account name: 3 to 20
// characters, each an ASCII letter, a digit, '_' or '-', beginning with a
// letter or a digit (so that a name never reads as a command-line flag),
// and not reserved (see [Reserved]). Whether the name is already taken is
// the store's question, asked with [Key].
func CheckName(name string) error {
	if name == "" {
		return errors.New("choose a name")
	}
	for i, r := range name {
		if !nameRune(r) {
			if r == ' ' {
				return errors.New("a name may not hold spaces: use _ or - between words")
			}
			return fmt.Errorf("a name may hold only letters a to z, digits, _ and -, not %q", r)
		}
		if i == 0 && (r == '_' || r == '-') {
			return errors.New("a name must begin with a letter or a digit")
		}
	}
	// Every character is ASCII, so bytes count characters.
	if len(name) < MinNameLen {
		return fmt.Errorf("a name needs at least %d characters", MinNameLen)
	}
	if len(name) > MaxNameLen {
		return fmt.Errorf("a name may have at most %d characters", MaxNameLen)
	}
	if why := Reserved(name); why != "" {
		return fmt.Errorf("%q is reserved: %s; choose another name", name, why)
	}
	return nil
}

func nameRune(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-'
}

// Reserved returns why name is kept from players, or "" when it is not.
// A name is reserved when, ignoring case, '_' and '-', it is the house's
// ("admin", "parlour", "system", "moderator" and the like), what the
// server calls someone ("deleted", "deleted player", "guest" with or
// without a number, "spectator", "anonymous"), or a computer player's
// ("computer", "bot" and the computer players' levels: "easy", "medium",
// "strong", "greedy", "greedy-best", "random", "hunt-target", "density",
// "fleet-density"): a player
// choosing one could pass for the house, for a deleted account or for a
// computer player.
func Reserved(name string) string {
	f := fold(name)
	switch {
	case f == "":
		return ""
	case strings.HasPrefix(f, "guest") && strings.Trim(f[len("guest"):], "0123456789") == "":
		return "it is what guests are called"
	}
	return reservedWhy(f)
}

// fold lowers the case of name and drops '_' and '-', so that "Deleted_Player"
// and "deleted-player" both fold to "deletedplayer".
func fold(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' {
			return -1
		}
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, name)
}

// reservedWhy returns why the folded name f is reserved, or "". The
// computer players' levels are game.Easy, game.Medium and game.Strong, and
// the baseline players of games/salvo/bot and games/wordfight/bot; a test
// checks that every level the bots accept is here.
func reservedWhy(f string) string {
	switch f {
	case "admin", "administrator", "moderator", "mod", "parlour", "system",
		"root", "staff", "support", "server", "house", "official":
		return "it is kept for the house"
	case "deleted", "deletedplayer", "deleteduser", "deletedaccount":
		return "it is what deleted accounts are called"
	case "spectator", "anonymous":
		return "it is what the server calls someone"
	case "computer", "bot", "easy", "medium", "strong", "greedy", "greedybest",
		"random", "hunttarget", "density", "fleetdensity":
		return "it is a computer player's name"
	}
	return ""
}
