package sshdoor

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// Bounds of the guests a door remembers.
const (
	maxGuests = 10000
	guestTTL  = 30 * 24 * time.Hour
)

// GuestsFile is the file in the data directory where the door keeps the
// guests it remembers between starts. It holds their identity tokens,
// which play as them: it is written with mode 0600, as the host key is.
const GuestsFile = "ssh_guests.json"

// guestSaveDelay gathers the changes of a moment into one write of the
// guests' file.
const guestSaveDelay = time.Second

// guests remembers the guest identity each public key last played under,
// and the name it played as, so that a guest who comes back with the same
// key (after a dropped connection or a restart of the server, say) plays
// as the same guest and finds their tables. Only a key the client proved
// it holds is remembered. At most maxGuests keys, the longest unused
// dropped first, each forgotten guestTTL after its last use. With a path,
// the list is kept in that file too, written guestSaveDelay after a
// change and at shutdown.
type guests struct {
	mu    sync.Mutex
	byKey map[string]guest // by the key's SHA256 fingerprint
	// path is the file the list is kept in ("": memory only), log where
	// a failure to write it is told; due is the write waiting, if any.
	path string
	log  *slog.Logger
	due  *time.Timer
	// saving lets one write of the file run at a time.
	saving sync.Mutex
}

type guest struct {
	name, token string
	used        time.Time
}

// savedGuest is a guest as the file keeps it.
type savedGuest struct {
	Key   string    `json:"key"`
	Name  string    `json:"name"`
	Token string    `json:"token"`
	Used  time.Time `json:"used"`
}

// get returns the identity key fp last played under as name, if any.
func (g *guests) get(fp, name string, now time.Time) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	e, ok := g.byKey[fp]
	if !ok || e.name != name || now.Sub(e.used) > guestTTL {
		return ""
	}
	e.used = now
	g.byKey[fp] = e
	g.changed()
	return e.token
}

// put remembers that key fp plays as name under identity token.
func (g *guests) put(fp, name, token string, now time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.byKey == nil {
		g.byKey = make(map[string]guest)
	}
	if _, ok := g.byKey[fp]; !ok && len(g.byKey) >= maxGuests {
		oldest, at := "", now
		for k, e := range g.byKey {
			if now.Sub(e.used) > guestTTL {
				delete(g.byKey, k)
				continue
			}
			if !e.used.After(at) {
				oldest, at = k, e.used
			}
		}
		if len(g.byKey) >= maxGuests {
			delete(g.byKey, oldest)
		}
	}
	g.byKey[fp] = guest{name: name, token: token, used: now}
	g.changed()
}

// changed arranges the write of the file, when there is one; g.mu is
// held.
func (g *guests) changed() {
	if g.path != "" && g.due == nil {
		g.due = time.AfterFunc(guestSaveDelay, g.flush)
	}
}

// flush writes the file now if a write is due. A failure is logged: the
// guests stay remembered in memory, and the next change tries again.
func (g *guests) flush() {
	g.saving.Lock()
	defer g.saving.Unlock()
	g.mu.Lock()
	if g.due == nil {
		g.mu.Unlock()
		return
	}
	g.due.Stop()
	g.due = nil
	list := make([]savedGuest, 0, len(g.byKey))
	for k, e := range g.byKey {
		list = append(list, savedGuest{Key: k, Name: e.name, Token: e.token, Used: e.used})
	}
	g.mu.Unlock()
	slices.SortFunc(list, func(a, b savedGuest) int { return b.Used.Compare(a.Used) })
	if err := writeGuests(g.path, list); err != nil && g.log != nil {
		g.log.Warn("ssh door: the guests' keys are not kept for the next start", "err", err)
	}
}

// writeGuests replaces the file at path with list, whole or not at all.
func writeGuests(path string, list []savedGuest) error {
	b, err := json.Marshal(struct {
		Guests []savedGuest `json:"guests"`
	}{list})
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*") // mode 0600
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// load reads the guests kept at g.path, leaving out those unused for
// longer than guestTTL at now. A missing file is an empty list; a file
// that cannot be read is an error, and the list stays empty.
func (g *guests) load(now time.Time) error {
	b, err := os.ReadFile(g.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the guests' keys: %w", err)
	}
	var saved struct {
		Guests []savedGuest `json:"guests"`
	}
	if err := json.Unmarshal(b, &saved); err != nil {
		return fmt.Errorf("reading the guests' keys in %s: %w", g.path, err)
	}
	// The latest used first, so that past maxGuests the oldest go.
	slices.SortFunc(saved.Guests, func(a, b savedGuest) int { return b.Used.Compare(a.Used) })
	g.mu.Lock()
	defer g.mu.Unlock()
	g.byKey = make(map[string]guest)
	for _, s := range saved.Guests {
		if len(g.byKey) >= maxGuests {
			break
		}
		if s.Key == "" || s.Token == "" || now.Sub(s.Used) > guestTTL {
			continue
		}
		if _, ok := g.byKey[s.Key]; !ok {
			g.byKey[s.Key] = guest{name: s.Name, token: s.Token, used: s.Used}
		}
	}
	return nil
}
