package tournament

import "time"

// OnWave has s tell f of each arena wave it runs: the pairs seated and
// the wall time the whole wave took. Set it before any event starts.
func OnWave(s *Service, f func(pairs int, took time.Duration)) { s.waved = f }

// Settle waits until the work s has started on goroutines of its own
// (waves, games' ends) is done. Its caller must be the only one making
// work for s meanwhile.
func Settle(s *Service) { s.wg.Wait() }
