package sshdoor

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestAPIWords: a request of the door's own sign-in prompts says a
// refusal in the server's words, and a server that does not answer in
// the player's, keeping the address the door asked at for its log.
func TestAPIWords(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		w.Write([]byte(`{"error": "wrong name or password"}`))
	}))
	t.Cleanup(srv.Close)
	// An address nothing listens at: a listener closed at once.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := "http://" + l.Addr().String()
	l.Close()
	for _, c := range []struct {
		name, api, want string
		logged          bool
	}{
		{"a refusal", srv.URL, "wrong name or password", false},
		{"no answer", gone, "the server did not answer just now; try again in a moment", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var log bytes.Buffer
			d := &Door{cfg: Config{API: c.api, Log: slog.New(slog.NewTextHandler(&log, nil))}}
			err := d.api(context.Background(), http.DefaultClient, "POST", "/api/v1/sessions", "", map[string]string{"name": "ann"}, nil)
			if err == nil || err.Error() != c.want {
				t.Errorf("the error says %v, want %q", err, c.want)
			}
			if strings.Contains(err.Error(), "127.0.0.1") {
				t.Errorf("the error names the door's way in: %v", err)
			}
			if c.logged != strings.Contains(log.String(), strings.TrimPrefix(c.api, "http://")) {
				t.Errorf("logged %q", log.String())
			}
		})
	}
}
