package server

import (
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
