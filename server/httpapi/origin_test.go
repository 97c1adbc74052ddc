package httpapi

import (
	"net/http/httptest"
	"net/netip"
	"slices"
	"testing"

	"parlour/server/limit"
)

// TestClientAddr: the address the limits count is the peer's, or behind
// trusted proxies the last hop they did not add.
func TestClientAddr(t *testing.T) {
	t.Parallel()
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("2001:db8::/32")}
	for _, tc := range []struct {
		name    string
		trusted []netip.Prefix
		remote  string
		hd      map[string][]string
		want    string
	}{
		{"no proxy", nil, "198.51.100.1:5000", nil, "198.51.100.1"},
		{"untrusted peer's header ignored", nil, "198.51.100.1:5000", map[string][]string{"X-Forwarded-For": {"203.0.113.9"}}, "198.51.100.1"},
		{"untrusted peer, proxies set", proxies, "198.51.100.1:5000", map[string][]string{"X-Forwarded-For": {"203.0.113.9"}}, "198.51.100.1"},
		{"trusted proxy", proxies, "10.1.2.3:5000", map[string][]string{"X-Forwarded-For": {"203.0.113.9"}}, "203.0.113.9"},
		{"client's forgery at the left", proxies, "10.1.2.3:5000", map[string][]string{"X-Forwarded-For": {"1.2.3.4, 203.0.113.9"}}, "203.0.113.9"},
		{"two proxies", proxies, "10.1.2.3:5000", map[string][]string{"X-Forwarded-For": {"203.0.113.9, 10.9.9.9"}}, "203.0.113.9"},
		{"two header lines", proxies, "10.1.2.3:5000", map[string][]string{"X-Forwarded-For": {"1.2.3.4", "203.0.113.9"}}, "203.0.113.9"},
		{"with a port", proxies, "10.1.2.3:5000", map[string][]string{"X-Forwarded-For": {"203.0.113.9:4711"}}, "203.0.113.9"},
		{"Forwarded", proxies, "10.1.2.3:5000", map[string][]string{"Forwarded": {`for=1.2.3.4, for="[2001:db9::7]:80";proto=https`}}, "2001:db9::7"},
		{"Forwarded wins over X-Forwarded-For", proxies, "10.1.2.3:5000", map[string][]string{"Forwarded": {"for=203.0.113.5"}, "X-Forwarded-For": {"203.0.113.9"}}, "203.0.113.5"},
		{"only proxies", proxies, "10.1.2.3:5000", map[string][]string{"X-Forwarded-For": {"10.4.4.4"}}, "10.4.4.4"},
		{"no header from the proxy", proxies, "10.1.2.3:5000", nil, "10.1.2.3"},
		{"IPv6 proxy", proxies, "[2001:db8::1]:443", map[string][]string{"X-Forwarded-For": {"203.0.113.9"}}, "203.0.113.9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &Handler{lim: limit.Limits{TrustedProxies: tc.trusted}}
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tc.remote
			for k, vs := range tc.hd {
				for _, v := range vs {
					r.Header.Add(k, v)
				}
			}
			if got := h.clientAddr(r); got != tc.want {
				t.Fatalf("clientAddr = %q, want %q", got, tc.want)
			}
		})
	}
}

// FuzzForwardedFor checks that no forwarding header, as a client or a
// proxy may write it, crashes the reading of it, and that the address the
// limits count is either the peer or one the header named.
func FuzzForwardedFor(f *testing.F) {
	f.Add("203.0.113.9, 10.0.0.1", `for=1.2.3.4, for="[2001:db8::7]:80";proto=https`, "https")
	f.Add("", "", "")
	f.Add("unknown", "for=_hidden;by=10.0.0.1", "http, https")
	f.Add(",,,", `for="`, ";;")
	h := &Handler{lim: limit.Limits{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}}
	f.Fuzz(func(t *testing.T, xff, fwd, proto string) {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = "10.1.2.3:4000"
		r.Header.Set("X-Forwarded-For", xff)
		r.Header.Set("Forwarded", fwd)
		r.Header.Set("X-Forwarded-Proto", proto)
		hops := forwardedFor(r.Header)
		got := h.clientAddr(r)
		if got != "10.1.2.3" && !slices.Contains(hops, got) {
			t.Fatalf("clientAddr = %q, neither the peer nor one of %q", got, hops)
		}
		h.overTLS(r)
		h.sameOrigin(r, fwd)
	})
}
