package httpapi

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func FuzzParseFrom(f *testing.F) {
	for _, s := range []string{"0", "17", "-1", "x", "99999999999999999999", " 3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Last-Event-ID", s)
		n, err := parseFrom(r)
		if err == nil && s != "" && n < 0 {
			t.Fatalf("parseFrom(%q) = %d", s, n)
		}
	})
}

func FuzzParseKeepAlive(f *testing.F) {
	for _, s := range []string{"1", "0", "true", "false", "yes", " 1", "2", "t", "TRUE", "False"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := httptest.NewRequest("GET", "/?"+url.Values{"keepalive": {s}}.Encode(), nil)
		on, err := parseKeepAlive(r)
		if err != nil {
			if !strings.Contains(err.Error(), "keepalive must be") {
				t.Fatalf("parseKeepAlive(%q): %v, want a refusal saying what it takes", s, err)
			}
			return
		}
		// Taken: the four spellings the documentation gives, and none.
		want, ok := map[string]bool{"": false, "0": false, "false": false, "1": true, "true": true}[s]
		if !ok || want != on {
			t.Fatalf("parseKeepAlive(%q) = %v, taken; want %v (taken: %v)", s, on, want, ok)
		}
	})
}
