package sshdoor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"parlour/store"
)

// GuestTTL is how long the server remembers a guest after its last use
// (players.GuestTTL), for the players' words.
const GuestTTL = 30 * 24 * time.Hour

// GuestsFile is the file in the data directory where doors before the
// server kept the guests in its database remembered them, with their
// identity tokens. A door that finds it hands its guests to the server
// (Config.Remember) and removes it; a file it cannot read is moved aside
// to GuestsFile+".damaged" with a warning in the log, and its guests come
// back as new guests.
const GuestsFile = "ssh_guests.json"

// importWait bounds the hand-over of a data directory's guests.
const importWait = time.Minute

// savedGuest is a guest as GuestsFile kept it: Key is a key's fingerprint
// or a resume code's key (codePrefix and the code).
type savedGuest struct {
	Key   string    `json:"key"`
	Name  string    `json:"name"`
	Token string    `json:"token"`
	Used  time.Time `json:"used"`
}

// importGuests hands the guests of the data directory's GuestsFile, if
// any, to the server and removes the file. A guest whose token the
// server refuses (it ended: the guest made an account, say) is left out;
// any other failure keeps the file for the next start, which hands it
// over again whole (remembering a guest twice is remembering it once).
func (d *Door) importGuests() {
	path := filepath.Join(d.cfg.DataDir, GuestsFile)
	list, err := readGuests(path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		aside := path + ".damaged"
		os.Rename(path, aside)
		d.cfg.Log.Warn("ssh door: the guests' keys of an earlier start are forgotten", "err", err, "moved_to", aside)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), importWait)
	defer cancel()
	now, kept := time.Now(), 0
	for _, g := range list {
		if g.Key == "" || g.Token == "" || now.Sub(g.Used) > GuestTTL {
			continue
		}
		key := g.Key
		if !strings.HasPrefix(key, codePrefix) {
			key = guestKey(g.Key, g.Name)
		}
		if err := d.cfg.Remember(ctx, key, g.Name, g.Token); errors.Is(err, store.ErrNotFound) {
			continue // the guest made an account, say: nothing to hand over
		} else if err != nil {
			d.cfg.Log.Warn("ssh door: the guests' keys are not handed to the server yet; the next start tries again", "file", path, "err", err)
			return
		}
		kept++
	}
	if err := os.Remove(path); err != nil {
		d.cfg.Log.Warn("ssh door: removing the guests' file handed to the server", "file", path, "err", err)
	}
	d.cfg.Log.Info("ssh door: the guests' keys are kept by the server now", "guests", kept, "of", len(list))
}

// readGuests reads the guests kept at path.
func readGuests(path string) ([]savedGuest, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var saved struct {
		Guests []savedGuest `json:"guests"`
	}
	if err := json.Unmarshal(b, &saved); err != nil {
		return nil, fmt.Errorf("reading the guests' keys in %s: %w", path, err)
	}
	return saved.Guests, nil
}

// guestKey is the key a guest who came with the public key of fingerprint
// fp, under the login name, is remembered by: the same key under another
// name is another guest.
func guestKey(fp, name string) string { return fp + " " + name }
