package players

import (
	"context"
	"net/http"
	"parlour/server/auth"
	"parlour/server/refuse"
	"strings"
	"testing"
)

// TestAccountOnlyRefusesAllButAccounts: nobody and guests are refused in
// words that say what to do; an account passes.
func TestAccountOnlyRefusesAllButAccounts(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	ctx := context.Background()
	guest, err := f.tables.NewIdentity(ctx, "Olga")
	if err != nil {
		t.Fatal(err)
	}
	ann := f.signUp("Ann")
	for _, tc := range []struct {
		name   string
		p      *auth.Principal
		status int
		words  string
	}{
		{"nobody", nil, http.StatusUnauthorized, "challenging needs you signed in"},
		{"guest", f.principal(guest.Token), http.StatusForbidden, "challenging is for players with accounts"},
		{"account", ann, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := f.s.AccountOnly(ctx, tc.p, "challenging")
			if tc.status == 0 {
				if err != nil || a.Name != "Ann" {
					t.Fatalf("got %+v %v, want Ann's account", a, err)
				}
				return
			}
			if refuse.Status(err) != tc.status || !strings.Contains(err.Error(), tc.words) {
				t.Fatalf("got %v, want %d %q", err, tc.status, tc.words)
			}
		})
	}
}

// TestSettingsHidden: an account hides and shows itself; a field left
// out changes nothing; a guest has no settings.
func TestSettingsHidden(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil)
	ctx := context.Background()
	p := f.signUp("Ann")
	yes, no := true, false
	for _, tc := range []struct {
		req  SettingsRequest
		want bool
	}{
		{SettingsRequest{Hidden: &yes}, true},
		{SettingsRequest{}, true},
		{SettingsRequest{Hidden: &no}, false},
	} {
		got, err := f.s.SetSettings(ctx, p, tc.req)
		if err != nil || got.Hidden != tc.want {
			t.Fatalf("%+v: %+v %v, want hidden %v", tc.req, got, err, tc.want)
		}
		if again, err := f.s.Settings(ctx, p); err != nil || again != got {
			t.Fatalf("read back: %+v %v, want %+v", again, err, got)
		}
	}
	guest, err := f.tables.NewIdentity(ctx, "Olga")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.SetSettings(ctx, f.principal(guest.Token), SettingsRequest{Hidden: &yes}); refuse.Status(err) != http.StatusForbidden {
		t.Fatalf("a guest's settings: %v, want 403", err)
	}
}
