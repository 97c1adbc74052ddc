package server

import "parlour/server/cluster"

// Cluster makes a Service one node of a cluster (see server/cluster).
type Cluster = cluster.Config

// Relay passes the bus's requests to a Service's node of the cluster,
// which does not exist yet when the bus is connected (cluster.Relay).
type Relay = cluster.Relay

// DefaultLease is a table lease's default time.
const DefaultLease = cluster.DefaultLease

// NewRelay returns a Relay that refuses requests until its service
// starts.
func NewRelay() *Relay { return cluster.NewRelay() }
