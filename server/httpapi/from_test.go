package httpapi

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// TestParseFromNamesWhatWasSent: a bad version is refused in the words of
// what the client sent, the from parameter or the Last-Event-ID header, so
// that a client which sent only the header is not told about a parameter
// it never gave.
func TestParseFromNamesWhatWasSent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		query, header string
		want          int
		wantErr       string
	}{
		{"", "", -1, ""},
		{"from=4", "", 4, ""},
		{"", "4", 4, ""},
		{"from=4", "9", 4, ""},
		{"from=x", "", 0, "from must be a version number"},
		{"from=-2", "", 0, "from must be a version number"},
		{"", "x", 0, "Last-Event-ID must be a version number"},
		{"", "-2", 0, "Last-Event-ID must be a version number"},
	} {
		r := httptest.NewRequest("GET", "/api/v1/tables/t/events?"+tc.query, nil)
		if tc.header != "" {
			r.Header.Set("Last-Event-ID", tc.header)
		}
		n, err := parseFrom(r)
		switch {
		case tc.wantErr == "" && (err != nil || n != tc.want):
			t.Errorf("?%s Last-Event-ID %q: %d, %v; want %d", tc.query, tc.header, n, err, tc.want)
		case tc.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.wantErr)):
			t.Errorf("?%s Last-Event-ID %q: %v; want an error starting %q", tc.query, tc.header, err, tc.wantErr)
		}
	}
}
