package social

import (
	"slices"
	"testing"
	"time"

	"parlour/server/auth"
)

// BenchmarkOnlineTouch measures what presence adds to every authenticated
// request: one touch of an identity seen before, from many goroutines.
func BenchmarkOnlineTouch(b *testing.B) {
	p := newOnlineSet()
	ids := make([]string, 200)
	for i := range ids {
		ids[i] = auth.NewID()
		p.touch(ids[i], time.Now())
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			p.touch(ids[i%len(ids)], time.Now())
			i++
		}
	})
}

// TestOnlineSet: an identity is online for OnlineWindow after its last
// request, and for as long as a stream of its is open (however long ago
// it was opened); the end of its last stream counts as a request; one
// gone for twice the window is forgotten.
func TestOnlineSet(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	now := t0
	clock := func() time.Time { return now }
	p := newOnlineSet()
	p.touch("ann", now)
	release, _ := p.hold("ben", clock)
	again, _ := p.hold("ben", clock)
	for _, c := range []struct {
		at   time.Duration
		do   func()
		want []string
	}{
		{0, nil, []string{"ann", "ben"}},
		{OnlineWindow, nil, []string{"ann", "ben"}},
		{OnlineWindow + time.Second, nil, []string{"ben"}}, // Ann's last request is too old; Ben holds streams
		{time.Hour, release, []string{"ben"}},              // one of Ben's two streams closes
		{time.Hour, release, []string{"ben"}},              // a release counts once
		{time.Hour, again, []string{"ben"}},                // the last closes: seen just now
		{time.Hour + OnlineWindow + time.Second, nil, nil}, // and no more
	} {
		now = t0.Add(c.at)
		if c.do != nil {
			c.do()
		}
		got := p.online(now)
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("at %v: online %v, want %v", c.at, got, c.want)
		}
		for _, id := range []string{"ann", "ben"} {
			if on := p.isOnline(id, now); on != slices.Contains(c.want, id) {
				t.Errorf("at %v: isOnline(%s) = %v, online lists %v", c.at, id, on, got)
			}
		}
	}
	if _, ok := p.seen.Load("ann"); ok {
		t.Error("an identity gone for over twice the window is still remembered")
	}
}

// TestOnlineSetComesOnline: a request or a stream brings an identity
// online when it was not (never seen, or gone for longer than the
// window), and not while it is online already, by a request or by a
// stream held open.
func TestOnlineSetComesOnline(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	now := t0
	clock := func() time.Time { return now }
	p := newOnlineSet()
	touch := func(id string) bool { return p.touch(id, now) }
	hold := func(id string) (func(), bool) { return p.hold(id, clock) }
	if !touch("ann") {
		t.Error("Ann's first request did not bring her online")
	}
	if touch("ann") {
		t.Error("Ann's second request brought her online again")
	}
	release, came := hold("ann")
	if came {
		t.Error("a stream of Ann, online already, brought her online again")
	}
	now = t0.Add(OnlineWindow + time.Second)
	if touch("ann") {
		t.Error("a request of Ann while her stream is open brought her online again")
	}
	release()
	now = now.Add(OnlineWindow + time.Second)
	release2, came := hold("ann")
	if !came {
		t.Error("Ann's stream after she was away did not bring her online")
	}
	release2()
	if _, came := hold("ben"); !came {
		t.Error("Ben's first stream did not bring him online")
	}
	now = now.Add(2 * OnlineWindow)
	if touch("ben") {
		t.Error("Ben, whose stream is still open, came online again")
	}
}
