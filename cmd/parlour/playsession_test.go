package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// TestPlaySessionKept: parlour play keeps a session per server in a file
// of mode 0600, offers it back only while the server honours it, and
// forgets it on sign-out.
func TestPlaySessionKept(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v1/account" && r.Header.Get("Authorization") == "Bearer good" {
			w.Write([]byte(`{"name":"Ann"}`))
			return
		}
		http.Error(w, `{"error":"sign in"}`, http.StatusUnauthorized)
	}))
	defer srv.Close()
	dir := t.TempDir()
	if _, ok := loadSession(dir, "a", srv.URL); ok {
		t.Fatal("a session from nowhere")
	}
	if err := saveSession(dir, "a", "good", "Ann"); err != nil {
		t.Fatal(err)
	}
	if err := saveSession(dir, "b", "stale", "Ben"); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, sessionFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the session file: %v, %v", st, err)
	}
	if s, ok := loadSession(dir, "a", srv.URL); !ok || s.Name != "Ann" || s.Token != "good" {
		t.Fatalf("server a's session: %+v %v", s, ok)
	}
	if _, ok := loadSession(dir, "b", srv.URL); ok {
		t.Fatal("a session the server no longer honours was offered")
	}
	saveSession(dir, "a", "", "")
	if _, ok := loadSession(dir, "a", srv.URL); ok {
		t.Fatal("a session signed out of was kept")
	}
}
