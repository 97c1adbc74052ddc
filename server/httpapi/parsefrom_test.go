package httpapi

import (
	"net/http/httptest"
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
