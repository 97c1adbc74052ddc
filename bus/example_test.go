package bus_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"parlour/bus"
)

// Two nodes on one hub: b follows a table that a owns, and forwards a
// move to it.
func Example() {
	hub := bus.NewHub()
	a, _ := hub.Join("a", func(ctx context.Context, req bus.Request) ([]byte, error) {
		return []byte("accepted " + string(req.Data)), nil
	})
	b, _ := hub.Join("b", nil)
	defer a.Close()
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()

	a.Own(ctx, "T1")
	sub, _ := b.Subscribe(ctx, "T1")
	defer sub.Close()

	// A move that reached b goes to the table's owner.
	answer, err := b.Request(ctx, bus.ToOwner("T1"), []byte("CRANE"))
	fmt.Println(string(answer), err)

	// The owner publishes the change; b's watchers hear of it.
	a.Publish("T1", 7, []byte("view at 7"))
	c, _ := sub.Next(ctx)
	fmt.Println(c.Table, c.Version, string(c.Data), c.Gap)

	// When the owner is gone, nobody answers, at once.
	a.Close()
	_, err = b.Request(ctx, bus.ToOwner("T1"), []byte("CRANE"))
	fmt.Println(errors.Is(err, bus.ErrNoResponder))
	fmt.Println(err)
	// Output:
	// accepted CRANE <nil>
	// T1 7 view at 7 false
	// true
	// bus: request to the owner of table T1: no node answers for it
}
