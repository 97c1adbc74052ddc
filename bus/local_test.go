package bus_test

import (
	"testing"

	"parlour/bus"
	"parlour/bus/bustest"
)

// TestHub runs the bus contract on the in-process hub.
func TestHub(t *testing.T) {
	bustest.Run(t, func(t *testing.T) bustest.Join {
		hub := bus.NewHub()
		return func(t *testing.T, name string, h bus.Handler) (bus.Bus, error) {
			b, err := hub.Join(name, h)
			if err != nil {
				return nil, err
			}
			t.Cleanup(func() { b.Close() })
			return b, nil
		}
	})
}
