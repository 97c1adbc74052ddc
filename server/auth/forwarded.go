package auth

import "context"

type forwardedKey struct{}

// Forwarded says whether the request of ctx was taken by another node of
// a cluster and forwarded to this one, where its table runs. The node
// that took it checked where it came from and counted it against the
// asker's limits; its bearer is still authenticated here.
func Forwarded(ctx context.Context) bool { return ctx.Value(forwardedKey{}) != nil }

// WithForwarded marks ctx as that of a forwarded request (Forwarded).
func WithForwarded(ctx context.Context) context.Context {
	return context.WithValue(ctx, forwardedKey{}, true)
}
