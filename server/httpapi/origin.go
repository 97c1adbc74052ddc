// Who is asking, as far as the network can tell: the client's address
// and scheme behind trusted proxies, and the same-site check of requests
// that a browser's cookie authenticates.

package httpapi

import (
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"parlour/server/auth"
	"parlour/server/refuse"
)

// clientAddr returns the address the per-address limits count r against.
// It is the connection's peer, unless that peer is one of the trusted
// proxies (limit.Limits.TrustedProxies): then it is the last address of
// X-Forwarded-For (or Forwarded's for=) that is not itself a trusted
// proxy, read from the right, since only the proxies' own additions can be
// believed and a client may write anything at the left.
func (h *Handler) clientAddr(r *http.Request) string {
	peer := peerHost(r.RemoteAddr)
	if !h.trusted(peer) {
		return peer
	}
	hops := forwardedFor(r.Header)
	for i := len(hops) - 1; i >= 0; i-- {
		if !h.trusted(hops[i]) {
			return hops[i]
		}
	}
	if len(hops) > 0 {
		return hops[0] // a client inside the proxies' own network
	}
	return peer
}

// peerHost returns the host of a host:port address, or the address itself.
func peerHost(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return host
}

// trusted reports whether host is one of the configured proxies.
func (h *Handler) trusted(host string) bool {
	if len(h.lim.TrustedProxies) == 0 {
		return false
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, p := range h.lim.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// forwardedFor lists the client addresses the proxies recorded, first hop
// first: Forwarded's for= parameters (RFC 7239) when that header is
// present, else X-Forwarded-For. Ports, brackets and quotes are dropped;
// an entry that is not an address ("unknown", an obfuscated name) stays,
// and is then counted as the client.
func forwardedFor(hd http.Header) []string {
	var out []string
	if fw := hd.Values("Forwarded"); len(fw) > 0 {
		for _, line := range fw {
			for _, elem := range strings.Split(line, ",") {
				for _, pair := range strings.Split(elem, ";") {
					k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
					if ok && strings.EqualFold(k, "for") {
						out = append(out, hostOnly(strings.Trim(v, `"`)))
					}
				}
			}
		}
		return out
	}
	for _, line := range hd.Values("X-Forwarded-For") {
		for _, a := range strings.Split(line, ",") {
			if a = strings.TrimSpace(a); a != "" {
				out = append(out, hostOnly(a))
			}
		}
	}
	return out
}

// hostOnly strips a port and IPv6 brackets from an address as proxies
// write it ("203.0.113.7:4711", "[2001:db8::1]:80", "2001:db8::1").
func hostOnly(a string) string {
	if h, _, err := net.SplitHostPort(a); err == nil {
		return h
	}
	return strings.TrimSuffix(strings.TrimPrefix(a, "["), "]")
}

// overTLS reports whether the client reached us over TLS: directly, or
// through a trusted proxy that says so (X-Forwarded-Proto, or Forwarded's
// proto=).
func (h *Handler) overTLS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	if !h.trusted(peerHost(r.RemoteAddr)) {
		return false
	}
	for _, line := range r.Header.Values("Forwarded") {
		for _, elem := range strings.Split(line, ",") {
			for _, pair := range strings.Split(elem, ";") {
				k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
				if ok && strings.EqualFold(k, "proto") {
					// The nearest proxy wrote the last element.
					return strings.EqualFold(strings.Trim(v, `"`), "https")
				}
			}
		}
	}
	protos := strings.Split(r.Header.Get("X-Forwarded-Proto"), ",")
	return strings.EqualFold(strings.TrimSpace(protos[len(protos)-1]), "https")
}

// secure reports whether the session cookie must be Secure for r.
func (h *Handler) secure(r *http.Request) bool {
	return h.lim.SecureCookies || h.overTLS(r)
}

// crossSite refuses a request that changes something on the strength of
// the browser's session cookie alone unless it comes from Parlour's own
// pages: its Origin must be this server's (or, where a browser sends no
// Origin, Sec-Fetch-Site must say same-origin), and a body it carries
// must be declared JSON, which another site's form cannot do. SameSite=Lax
// stops other sites, but not a page on another port of the same host, and
// a site is all of a host's ports. Requests with a bearer token are not
// checked: a browser never adds one by itself; nor are requests another
// node forwards, which the node that took them checked. A sign-in or a
// sign-up, which sets the cookie, is checked for where it came from
// without one: another site's form must not sign a visitor's browser in
// as the attacker's account, to play and chat where the attacker reads
// it all (a program that sends no Origin, as curl, is let through).
func (h *Handler) crossSite(r *http.Request) error {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return nil
	}
	if auth.Forwarded(r.Context()) || r.Header.Get("Authorization") != "" {
		return nil
	}
	cookie := auth.SessionToken(r) != ""
	if !cookie && !setsSession(r) {
		return nil
	}
	if o := r.Header.Get("Origin"); o != "" {
		if !h.sameOrigin(r, o) {
			return refuse.Forbidden("this request came from another site's page, not Parlour's: it was not carried out")
		}
	} else if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return refuse.Forbidden("this request came from another site's page, not Parlour's: it was not carried out")
	}
	if cookie && r.ContentLength != 0 {
		mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "application/json" {
			return refuse.With(http.StatusUnsupportedMediaType, "send the body as JSON, with Content-Type: application/json")
		}
	}
	return nil
}

// setsSession reports whether r asks for a session cookie: a sign-in or
// a sign-up.
func setsSession(r *http.Request) bool {
	return r.Method == http.MethodPost && (r.URL.Path == "/api/v1/sessions" || r.URL.Path == "/api/v1/accounts")
}

// sameOrigin reports whether origin names the server r was sent to: the
// same host and port, with the scheme the client used; or the address
// players open it at (--public-url), whatever the proxy in front of it
// made of the request's host (nginx's $host drops a port).
func (h *Handler) sameOrigin(r *http.Request, origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if pub, err := url.Parse(h.tables.BaseURL()); err == nil && pub.Host != "" &&
		strings.EqualFold(u.Scheme, pub.Scheme) && strings.EqualFold(withPort(u.Host, u.Scheme), withPort(pub.Host, pub.Scheme)) {
		return true
	}
	scheme := "http"
	if h.overTLS(r) {
		scheme = "https"
	}
	host := r.Host
	if h.trusted(peerHost(r.RemoteAddr)) {
		if fh := r.Header.Get("X-Forwarded-Host"); fh != "" {
			host = strings.TrimSpace(strings.Split(fh, ",")[0])
		}
	}
	return strings.EqualFold(u.Scheme, scheme) && strings.EqualFold(withPort(u.Host, u.Scheme), withPort(host, scheme))
}

// withPort writes host with its port, the scheme's default when it has
// none, so that "example.org" and "example.org:443" compare equal.
func withPort(host, scheme string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	if strings.EqualFold(scheme, "https") {
		return net.JoinHostPort(strings.Trim(host, "[]"), "443")
	}
	return net.JoinHostPort(strings.Trim(host, "[]"), "80")
}
