package server

import "context"

// Die stops s as a node's death would: its background work stops, it
// releases no lease and disowns nothing (the test closes its bus
// connection and its HTTP server).
func (s *Service) Die() {
	s.cl.Halt()
	s.Close()
}

// Pause stops s's lease renewals and sweeps, as a node paused (a long
// garbage collection, a frozen virtual machine) would stop; it still
// answers on the bus and serves HTTP.
func (s *Service) Pause() { s.cl.Halt() }

// Holds reports whether s, a node of a cluster, counts table id's lease
// as its own (renewed in time or not).
func (s *Service) Holds(id string) bool {
	return s.cl.Holds(id)
}

// Unreachable makes s, a node of a cluster, stop answering on the bus
// for table id while it keeps the table's lease, as when the bus loses
// its subscription.
func (s *Service) Unreachable(id string) {
	s.cfg.Cluster.Bus.Disown(context.Background(), id)
}

// Keeps reports whether s holds table id in memory.
func (s *Service) Keeps(id string) bool {
	return s.Loaded(id)
}

// LapseEvent counts s's lease of event id, s a node of a cluster, as run
// out by its own clock until its next renewal, as on a busy machine.
func (s *Service) LapseEvent(id string) { s.cl.Events().Lapse(id) }
