package server

// Die stops s as a node's death would: its background work stops, it
// releases no lease and disowns nothing (the test closes its bus
// connection and its HTTP server).
func (s *Service) Die() {
	s.cl.halt()
	s.Close()
}
