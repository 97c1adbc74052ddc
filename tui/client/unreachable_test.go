package client

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestUnreachable: a request that never had an answer says which server
// could not be reached and why in a few words, without Go's chain of
// operations, and still unwraps to its cause.
func TestUnreachable(t *testing.T) {
	t.Parallel()
	// A port nobody listens on any more.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	// A server that never answers.
	hold := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hold:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(hold); slow.Close() })
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name, base string
		ctx        func() (context.Context, context.CancelFunc)
		want       string
		is         error
	}{
		{"refused", closed, nil, "cannot reach the server at " + closed + " (connection refused)", syscall.ECONNREFUSED},
		{"no answer", slow.URL, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 50*time.Millisecond)
		}, "cannot reach the server at " + slow.URL + " (no answer in time)", context.DeadlineExceeded},
		{"cancelled", slow.URL, func() (context.Context, context.CancelFunc) { return cancelled, func() {} },
			"cannot reach the server at " + slow.URL + " (the request was cancelled)", context.Canceled},
	} {
		c, err := New(tc.base, "Ann")
		if err != nil {
			t.Fatal(err)
		}
		ctx, stop := context.Background(), func() {}
		if tc.ctx != nil {
			ctx, stop = tc.ctx()
		}
		_, err = c.Games(ctx)
		stop()
		var u *Unreachable
		if !errors.As(err, &u) || err.Error() != tc.want || !errors.Is(err, tc.is) {
			t.Errorf("%s: %v; want %q, unwrapping to %v", tc.name, err, tc.want, tc.is)
		}
		if err != nil && (strings.Contains(err.Error(), "dial tcp") || strings.Contains(err.Error(), "Get \"")) {
			t.Errorf("%s: Go's chain of operations is said: %v", tc.name, err)
		}
	}
}

// TestCause: the cause of a failed lookup names the host.
func TestCause(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&net.DNSError{Err: "no such host", Name: "parlour.invalid", IsNotFound: true}, "no such host: parlour.invalid"},
		{&net.DNSError{Err: "server misbehaving", Name: "parlour.example"}, "looking up parlour.example: server misbehaving"},
		{errors.New("something else"), "something else"},
	} {
		if got := cause(tc.err); got != tc.want {
			t.Errorf("cause(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
