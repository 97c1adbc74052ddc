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
