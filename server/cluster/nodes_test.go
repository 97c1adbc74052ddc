package cluster

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"parlour/bus"
)

// lateAnswer is a bus on which node "b" answers looks for the nodes too
// late while late is set, as a node busy for a moment does.
type lateAnswer struct {
	bus.Bus
	late atomic.Bool
}

func (l *lateAnswer) Nodes(ctx context.Context) ([]string, error) {
	names, err := l.Bus.Nodes(ctx)
	if l.late.Load() {
		names = slices.DeleteFunc(names, func(n string) bool { return n == "b" })
	}
	return names, err
}

// TestNotesReachLateNodes: a node that answered a look for the nodes and
// missed the next (it answered late) is still told the notes, and its
// players hear their news; one that is gone is left out without an error
// until it comes back, and one not heard of for peersKept is left out.
func TestNotesReachLateNodes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	hub := bus.NewHub()
	ab, err := hub.Join("a", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ab.Close() })
	var told atomic.Int32
	answer := func(context.Context, bus.Request) ([]byte, error) {
		told.Add(1)
		return json.Marshal(relayReply{Status: http.StatusOK, Body: []byte(`{}`)})
	}
	join := func() bus.Bus {
		b, err := hub.Join("b", answer)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	bb := join()
	lb := &lateAnswer{Bus: ab}
	c := &Node{b: lb, node: "a", notesLost: prometheus.NewCounter(prometheus.CounterOpts{Name: "lost"})}
	note := relayRequest{Kind: "probe"}

	if peers, err := c.others(ctx, true); err != nil || !slices.Equal(peers, []string{"b"}) {
		t.Fatalf("the others: %v, %v; want b", peers, err)
	}
	lb.late.Store(true)
	out, err := c.tellAll(ctx, note, true)
	if err != nil || len(out) != 1 || told.Load() != 1 {
		t.Fatalf("a note with b late to answer the look: answers %v, %v, b told %d times; want b told", out, err, told.Load())
	}

	bb.Close()
	if out, err = c.tellAll(ctx, note, true); err != nil || len(out) != 0 {
		t.Errorf("a note with b gone: answers %v, %v; want none and no error", out, err)
	}
	if peers, _ := c.others(ctx, true); len(peers) != 0 {
		t.Errorf("the others once b is gone: %v", peers)
	}
	lb.late.Store(false)
	bb = join()
	t.Cleanup(func() { bb.Close() })
	if out, err = c.tellAll(ctx, note, true); err != nil || len(out) != 1 || told.Load() != 2 {
		t.Errorf("a note with b back: answers %v, %v, b told %d times", out, err, told.Load())
	}

	lb.late.Store(true)
	c.notes.mu.Lock()
	c.notes.seen["b"] = time.Now().Add(-peersKept - time.Second)
	c.notes.mu.Unlock()
	if peers, _ := c.others(ctx, true); len(peers) != 0 {
		t.Errorf("the others with b unheard of for longer than %v: %v", peersKept, peers)
	}
	var m dto.Metric
	if err := c.notesLost.Write(&m); err != nil || m.GetCounter().GetValue() != 0 {
		t.Errorf("%v notes counted lost (%v), want none", m.GetCounter().GetValue(), err)
	}
}
