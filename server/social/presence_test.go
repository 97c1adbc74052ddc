package social

import (
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
