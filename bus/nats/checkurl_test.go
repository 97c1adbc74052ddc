package nats

import (
	"strings"
	"testing"
)

// TestCheckURL: a list of NATS addresses is checked without connecting;
// a bad one is named, unless it holds credentials, which are never shown.
func TestCheckURL(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		urls string
		ok   bool
	}{
		{"nats://127.0.0.1:4222", true},
		{"nats://10.0.0.10:4222,nats://10.0.0.11:4222", true},
		{"127.0.0.1:4222", true},
		{"", false},
		{"nats://a b:4222", false},
		{"nats://127.0.0.1:4222,nats://user:s3cret@:4222", false},
	} {
		err := CheckURL(tc.urls)
		if (err == nil) != tc.ok {
			t.Errorf("CheckURL(%q) = %v, want ok %v", tc.urls, err, tc.ok)
		}
		if err != nil && strings.Contains(err.Error(), "s3cret") {
			t.Errorf("CheckURL(%q) = %v: the password", tc.urls, err)
		}
	}
}
