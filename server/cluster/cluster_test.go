package cluster

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"parlour/bus"
	"parlour/store"
)

// leasing is a store that keeps leases as far as the compiler sees: New
// asks no more of it.
type leasing struct {
	store.Store
	store.Leases
}

// notLeasing is a store that keeps no leases.
type notLeasing struct{ store.Store }

// joined connects a node called name to a hub of its own, answering
// through relay.
func joined(t *testing.T, name string, relay *Relay) bus.Bus {
	t.Helper()
	b, err := bus.NewHub().Join(name, relay.Handle)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// TestNewRefuses: a node without a bus, without the relay its bus
// answers through, or on a store that keeps no leases is not made.
func TestNewRefuses(t *testing.T) {
	t.Parallel()
	relay := NewRelay()
	b := joined(t, "a", relay)
	for _, tc := range []struct {
		name string
		cfg  Config
		st   store.Store
		want string
	}{
		{"no bus", Config{Relay: relay}, leasing{}, "bus"},
		{"no relay", Config{Bus: b}, leasing{}, "Relay"},
		{"a store without leases", Config{Bus: b, Relay: relay}, notLeasing{}, "leases"},
	} {
		n, err := New(tc.cfg, tc.st, nil, nil, prometheus.NewRegistry())
		if err == nil || n != nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, %v; want no node and an error about %s", tc.name, n, err, tc.want)
		}
	}
}

// TestNewRegistersMetrics: a node registers its metrics under the names
// the dashboards read, and the defaults of its times apply.
func TestNewRegistersMetrics(t *testing.T) {
	t.Parallel()
	relay := NewRelay()
	reg := prometheus.NewRegistry()
	n, err := New(Config{Bus: joined(t, "a", relay), Relay: relay}, leasing{}, nil, nil, reg)
	if err != nil {
		t.Fatal(err)
	}
	if n.ttl != DefaultLease || n.fwd != max(2*DefaultLease, minForward) || n.node != "a" {
		t.Errorf("node %q, lease %v, forward %v; want a, %v, %v", n.node, n.ttl, n.fwd, DefaultLease, max(2*DefaultLease, minForward))
	}
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, mf := range mfs {
		got = append(got, mf.GetName())
	}
	want := []string{
		"parlour_cluster_bus_seconds", "parlour_cluster_forward_seconds", "parlour_cluster_forwarded_total",
		"parlour_cluster_handed_total", "parlour_cluster_leases_lost_total", "parlour_cluster_notes_unanswered_total",
		"parlour_cluster_owned_tables", "parlour_cluster_takeovers_total",
	}
	if !slices.Equal(got, want) {
		t.Errorf("metrics %v, want %v", got, want)
	}
	// A second node on the same registry would count into the first's
	// metrics: it is refused.
	if _, err := New(Config{Bus: joined(t, "b", relay), Relay: relay}, leasing{}, nil, nil, reg); err == nil {
		t.Error("two nodes registered on one registry")
	}
}

// TestRelayBeforeStart: the bus's requests are refused until the node
// starts, whatever they ask.
func TestRelayBeforeStart(t *testing.T) {
	t.Parallel()
	relay := NewRelay()
	if _, err := New(Config{Bus: joined(t, "a", relay), Relay: relay}, leasing{}, nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	for _, data := range []string{`{"kind":"probe"}`, `{"kind":"online"}`, `{"kind":"ping","table":"abcdefgh23456789"}`} {
		if _, err := relay.Handle(context.Background(), bus.Request{Data: []byte(data)}); err == nil {
			t.Errorf("%s was answered before the node started", data)
		}
	}
}
