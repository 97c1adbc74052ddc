package server

import "parlour/server/refuse"

// StatusOf and Error keep the tests of this package reading as they did
// before refusals got a package of their own.
func StatusOf(err error) int { return refuse.Status(err) }

type Error = refuse.Error
