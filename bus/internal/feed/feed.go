// Package feed holds one subscription's queue of changes, shared by the
// bus's implementations so that a slow subscriber, a lost connection and
// a skipped version are handled the same way by each.
//
// A push never blocks: the publisher's side (a NATS callback, or the
// in-process publisher itself) must not wait for the slowest watcher. A
// full queue drops what it holds and keeps only the newest change, marked
// as a gap, so a subscriber that falls behind learns so, and at once has
// the newest version to read the table at.
package feed

import (
	"context"
	"sync"
)

// Item is one queued change: version and data as published, and whether
// changes before it may have been lost.
type Item struct {
	Version int
	Data    []byte
	Gap     bool
}

// Feed is one subscription's queue. Its methods are safe for concurrent
// use.
type Feed struct {
	size int
	// ready holds a token while items wait for Next, and is closed with
	// the feed.
	ready chan struct{}

	mu      sync.Mutex
	items   []Item
	last    int  // version of the last item pushed
	gap     bool // the next item pushed is a gap
	closed  bool
	dropped int
}

// New returns a feed that holds at most size items.
func New(size int) *Feed {
	return &Feed{size: max(1, size), ready: make(chan struct{}, 1)}
}

// Push queues a change. A version that is not above the last one pushed
// is dropped (a late or repeated publish: the subscriber has newer); one
// more than one above it is marked as a gap.
func (f *Feed) Push(version int, data []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed || version <= f.last {
		return
	}
	gap := f.gap || (f.last > 0 && version > f.last+1)
	f.last, f.gap = version, false
	f.add(Item{Version: version, Data: data, Gap: gap})
}

// add queues it, dropping what the queue holds if it is full. f.mu must
// be held.
func (f *Feed) add(it Item) {
	if len(f.items) >= f.size {
		f.dropped += len(f.items)
		clear(f.items)
		f.items = f.items[:0]
		it.Gap = true
	}
	f.items = append(f.items, it)
	f.wake()
}

func (f *Feed) wake() {
	select {
	case f.ready <- struct{}{}:
	default:
	}
}

// MarkGap marks the next item pushed as a gap: changes may be lost from
// now on (the connection went down).
func (f *Feed) MarkGap() {
	f.mu.Lock()
	f.gap = true
	f.mu.Unlock()
}

// Mark queues a bare gap mark if a gap is pending and no item has carried
// it yet (the connection came back, and nothing was published since).
func (f *Feed) Mark() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed || !f.gap {
		return
	}
	f.gap = false
	f.add(Item{Gap: true})
}

// Dropped returns how many items were dropped from a full queue.
func (f *Feed) Dropped() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dropped
}

// Next returns the oldest item, waiting for one until ctx ends. ok is
// false once the feed is closed.
func (f *Feed) Next(ctx context.Context) (it Item, ok bool, err error) {
	for {
		f.mu.Lock()
		switch {
		case f.closed:
			f.mu.Unlock()
			return Item{}, false, nil
		case len(f.items) > 0:
			it = f.items[0]
			f.items[0] = Item{}
			f.items = f.items[1:]
			if len(f.items) > 0 {
				f.wake()
			} else {
				f.items = nil // let the emptied array go
			}
			f.mu.Unlock()
			return it, true, nil
		}
		f.mu.Unlock()
		select {
		case <-f.ready:
		case <-ctx.Done():
			return Item{}, true, ctx.Err()
		}
	}
}

// Close ends the feed: Next returns ok false from now on, and pushes are
// ignored. It reports whether this call closed it.
func (f *Feed) Close() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return false
	}
	f.closed = true
	f.items = nil
	close(f.ready) // wakes every Next; nothing sends on it once closed
	return true
}
