package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"
)

// settingsFile keeps the player's choices in the data directory, across
// runs of the client.
const settingsFile = "play-settings.json"

// bellIdle is how long without a key makes a player seem away from the
// terminal, where the terminal does not say that it lost the focus.
const bellIdle = 10 * time.Second

// settings are the player's choices the client keeps.
type settings struct {
	// Bell rings the terminal's bell when it becomes the player's turn
	// while they are away from the terminal, as the browser's sound does
	// while its tab is hidden. It is off until the player turns it on.
	Bell bool `json:"bell"`
	// Guided lists the games whose first-game guide the player has
	// closed: it opens by itself no more (? then g opens it again).
	Guided []string `json:"guided,omitempty"`
}

// loadSettings reads the settings kept in dir; none are the defaults.
func loadSettings(dir string) settings {
	var s settings
	if dir == "" {
		return s
	}
	if raw, err := os.ReadFile(filepath.Join(dir, settingsFile)); err == nil {
		json.Unmarshal(raw, &s) // a damaged file: the defaults
	}
	return s
}

// keepSettings saves the settings in the data directory, when there is
// one (over SSH they last the session).
func (sh *shared) keepSettings() {
	if sh.cfg.DataDir == "" {
		return
	}
	raw, _ := json.MarshalIndent(sh.set, "", "  ")
	err := os.MkdirAll(sh.cfg.DataDir, 0o700)
	if err == nil {
		err = os.WriteFile(filepath.Join(sh.cfg.DataDir, settingsFile), raw, 0o600)
	}
	if err != nil {
		sh.err = "could not keep your settings: " + err.Error()
	}
}

// toggleBell turns the bell on or off, and says which.
func (sh *shared) toggleBell() tea.Cmd {
	sh.set.Bell = !sh.set.Bell
	sh.keepSettings()
	sh.err = ""
	if !sh.set.Bell {
		sh.note = "the bell is off (ctrl+b turns it on)"
		return nil
	}
	sh.note = "the bell rings when it becomes your turn while you are away (ctrl+b turns it off)"
	return tea.Raw("\a") // the player hears, or sees, what it does
}

// away says whether the player seems away from the terminal: it lost the
// focus, or no key came for bellIdle.
func (sh *shared) away(now time.Time) bool {
	return sh.blurred || now.Sub(sh.lastKey) >= bellIdle
}

// turnBell rings the bell for a turn that has just come to the player,
// when they asked for it and seem away.
func (sh *shared) turnBell() tea.Cmd {
	if !sh.set.Bell || !sh.away(time.Now()) {
		return nil
	}
	return tea.Raw("\a")
}
