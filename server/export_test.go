package server

import (
	"context"

	"parlour/server/auth"
	"parlour/server/limit"
	"parlour/server/refuse"
)

// StatusOf and Error keep the tests of this package reading as they did
// before refusals got a package of their own.
func StatusOf(err error) int { return refuse.Status(err) }

type Error = refuse.Error

type Limits = limit.Limits

func DefaultLimits() Limits { return limit.Defaults() }

const (
	DefaultStreams   = limit.DefaultStreams
	ChatPerAddrBurst = limit.ChatPerAddrBurst
)

type Principal = auth.Principal

const (
	SessionCookie  = auth.SessionCookie
	SignedInCookie = auth.SignedInCookie
)

// Authenticate lets the tests resolve a token as the doors do.
func (s *Service) Authenticate(ctx context.Context, token string) (*Principal, error) {
	return s.auth.Authenticate(ctx, token)
}
