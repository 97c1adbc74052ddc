package auth

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"parlour/account"
	"parlour/internal/text"
	"parlour/server/refuse"
	"parlour/store"
)

// MaxNameLen caps a display name, in characters (letters, digits, signs
// and spaces: a letter with its accents counts once).
const MaxNameLen = 24

// CleanName checks a display name and returns it in the form the server
// keeps: NFC-normalised, with runs of spaces made one and none at the
// ends. An empty name (or one of spaces) makes a guest name. A name is
// refused, with the rule it broke, when it is not UTF-8, holds a control
// character, a direction control, an invisible or private-use character,
// or a mark or variation selector that belongs to no character (see
// package text), or has more than MaxNameLen characters, or is reserved:
// whatever name is shown to the other players must be what its owner
// typed, and show as something.
func CleanName(name string) (string, error) {
	name, err := text.Check(name, text.Rules{Noun: "name", Max: MaxNameLen, Collapse: true, Explain: true})
	if err != nil {
		return "", refuse.Bad("%v", err)
	}
	if name == "" {
		return fmt.Sprintf("Guest %04d", RandomSeed()%10000), nil
	}
	if why := account.Reserved(name); why != "" {
		return "", refuse.Bad("%q is reserved: %s; choose another name", name, why)
	}
	return name, nil
}

// GuestName is CleanName for a guest's name, which may not pass for an
// account's either: a name an account holds, in any case, or spelt so
// that it looks the same (accents, width, spaces and signs, another
// script's letters, digits for letters: see account.Skeleton), is refused,
// so that a guest cannot pass for a player with an account.
func (a *Auth) GuestName(ctx context.Context, name string) (string, error) {
	typed := strings.TrimSpace(name) != ""
	name, err := CleanName(name)
	if err != nil || !typed {
		return name, err
	}
	acc, ok, err := a.AccountLike(ctx, name, "")
	switch {
	case err != nil:
		return "", err
	case !ok:
		return name, nil
	case acc.Name == name:
		return "", refuse.Conflict("%q is the name of a player with an account: a guest may not take it; choose another name, or sign in if it is yours", name)
	}
	return "", refuse.Conflict("%q looks like %q, the name of a player with an account: a guest may not take it; choose another name, or sign in if it is yours", name, acc.Name)
}

// AccountLike returns the account whose name name is, in any case, or
// looks like (accents, width, spaces and signs, another script's
// letters, digits for letters: see GuestName), the nearest to name when
// several are, leaving out the account of identity except ("" leaves
// none out); ok is false when none is. A guest's name, a new account's
// and an account's new name are checked with it, so that none passes for
// another account; an account renamed may take a look-alike of its own
// name ("Cat" to "CAT"), which passes for nobody else.
func (a *Auth) AccountLike(ctx context.Context, name, except string) (acc store.Account, ok bool, err error) {
	ps, isPlayers := a.st.(store.Players)
	if !isPlayers {
		return store.Account{}, false, nil
	}
	keys := accountKeys(name)
	accs, err := ps.AccountsByKeys(ctx, keys)
	if err != nil {
		return store.Account{}, false, a.readFailed("the account names", err)
	}
	// The keys come closest first (the name itself, then it run
	// together or joined by '_' or '-', then its spellings with the
	// fewest letters changed).
	for _, key := range keys {
		for _, acc := range accs {
			if acc.Key == key && (except == "" || acc.Identity != except) {
				return acc, true, nil
			}
		}
	}
	return store.Account{}, false, nil
}

// maxLookalikes bounds the account names one guest name is checked
// against: its look-alike spellings grow as the product of its letters'.
const maxLookalikes = 32

// accountKeys returns the account keys (account.Key) that display name
// could be taken for: the name in lower case, its letters and digits run
// together or joined by '_' or '-' where it has spaces or signs, and
// those with the digits and letters that pass for one another swapped
// ("b0b" for "bob"), at most maxLookalikes, each a name account.CheckName
// would accept.
func accountKeys(name string) []string {
	var parts []string
	for _, w := range strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) }) {
		if b := account.Base(w); b != "" {
			parts = append(parts, b)
		}
	}
	var keys []string
	add := func(k string) {
		if len(keys) < maxLookalikes && !slices.Contains(keys, k) && account.CheckName(k) == nil {
			keys = append(keys, k)
		}
	}
	add(account.Key(name))
	for _, sep := range []string{"", "_", "-"} {
		add(strings.Join(parts, sep))
	}
	// The look-alike spellings of the name run together, those with the
	// fewest letters changed first (a breadth-first walk).
	alike := []string{"o0", "il1", "s5", "e3", "a4", "t7", "b8", "g9"}
	base := []rune(strings.Join(parts, ""))
	opts := make([]string, len(base))
	for i, r := range base {
		for _, c := range alike {
			if strings.ContainsRune(c, r) {
				opts[i] = c
			}
		}
	}
	seen := map[string]bool{string(base): true}
	queue := [][]rune{base}
	for len(queue) > 0 && len(keys) < maxLookalikes {
		cur := queue[0]
		queue = queue[1:]
		add(string(cur))
		for i, o := range opts {
			if cur[i] != base[i] {
				continue
			}
			for _, r := range o {
				next := slices.Clone(cur)
				next[i] = r
				if k := string(next); !seen[k] && len(seen) < 8*maxLookalikes {
					seen[k] = true
					queue = append(queue, next)
				}
			}
		}
	}
	return keys
}
