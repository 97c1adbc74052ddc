package analyses

import (
	"strconv"
	"testing"
)

// TestCacheForgetsLeastRecentlyUsed: a full cache forgets the analysis
// asked for least recently, not the one filed first.
func TestCacheForgetsLeastRecentlyUsed(t *testing.T) {
	t.Parallel()
	c := New(nil, nil, nil, nil)
	c.mu.Lock()
	for i := range cacheSize {
		id := "t" + strconv.Itoa(i)
		c.file(id, &entry{body: []byte(id)})
	}
	c.mu.Unlock()
	// Asked for again, the first filed is the most recently used.
	if e := c.lookup("t0"); e == nil || string(e.body) != "t0" {
		t.Fatalf("lookup(t0) = %+v", e)
	}
	c.mu.Lock()
	c.file("new", &entry{body: []byte("new")})
	_, t0 := c.done["t0"]
	_, t1 := c.done["t1"]
	_, added := c.done["new"]
	n := len(c.done)
	c.mu.Unlock()
	if n != cacheSize || !t0 || t1 || !added {
		t.Errorf("after one more than it holds: %d kept (want %d), t0 kept %v (want true), t1 kept %v (want false), the new one %v", n, cacheSize, t0, t1, added)
	}
}
