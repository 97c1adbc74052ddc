package tui

import (
	"context"
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"
)

// archive saves records fetched from the server, one a line, as file in
// the client's records folder (the working directory without a data
// directory), and answers with done. A client whose player sits at
// another computer (the SSH door's) saves nothing: it says how to fetch
// path, the export's address on the server, there instead.
func (sh *shared) archive(path, file string, fetch func(ctx context.Context) (string, int, error), done func(path string, n int, err error) tea.Msg) tea.Cmd {
	if sh.cfg.NoDisk {
		sh.err, sh.note = "", "every game's record, one a line, from your own computer: curl -o "+file+" "+sh.public()+path
		return nil
	}
	dir := sh.cfg.DataDir
	if dir == "" {
		dir = "."
	} else {
		dir = filepath.Join(dir, "records")
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(sh.ctx, time.Minute)
		defer cancel()
		text, n, err := fetch(ctx)
		if err != nil || n == 0 {
			return done("", n, err)
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return done("", n, err)
		}
		out := filepath.Join(dir, file)
		if err := os.WriteFile(out, []byte(text), 0o600); err != nil {
			return done("", n, err)
		}
		return done(out, n, nil)
	}
}
