package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// sessionFile keeps parlour play's account sessions, one per server, in
// the data directory (mode 0600: the tokens act for the accounts).
const sessionFile = "play-session.json"

type keptSession struct {
	Name  string `json:"name"`
	Token string `json:"token"`
}

// loadSession returns the session kept for server, if any, and if the
// server still honours it (GET /api/v1/account).
func loadSession(dir, server, base string) (keptSession, bool) {
	all := map[string]keptSession{}
	b, err := os.ReadFile(filepath.Join(dir, sessionFile))
	if err != nil || json.Unmarshal(b, &all) != nil {
		return keptSession{}, false
	}
	s, ok := all[server]
	if !ok || s.Token == "" {
		return keptSession{}, false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/v1/account", nil)
	req.Header.Set("Authorization", "Bearer "+s.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return keptSession{}, false
	}
	res.Body.Close()
	return s, res.StatusCode == http.StatusOK
}

// saveSession keeps (or, with an empty token, forgets) server's session.
func saveSession(dir, server, token, name string) error {
	path := filepath.Join(dir, sessionFile)
	all := map[string]keptSession{}
	if b, err := os.ReadFile(path); err == nil {
		json.Unmarshal(b, &all)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	if token == "" {
		delete(all, server)
	} else {
		all[server] = keptSession{Name: name, Token: token}
	}
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return os.Rename(tmp, path)
}
