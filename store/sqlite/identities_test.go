package sqlite

import (
	"testing"

	"parlour/store"
)

// TestIdentityCache: what a read began before a change put is not
// remembered, since it may be what the change replaced; a change forgets
// its identity; and the cache stays within its bound.
func TestIdentityCache(t *testing.T) {
	t.Parallel()
	var c identityCache
	ann := store.Identity{ID: "a", Name: "Ann"}
	gen := c.begin()
	c.changed("a") // Ann signs up meanwhile, as "Anna"
	c.put(ann, gen)
	if i, ok := c.get("a"); ok {
		t.Errorf("a read begun before a change was remembered: %+v", i)
	}
	c.put(store.Identity{ID: "a", Name: "Anna"}, c.begin())
	if i, ok := c.get("a"); !ok || i.Name != "Anna" {
		t.Errorf("get = %+v, %v; want Anna", i, ok)
	}
	c.changed("a")
	if _, ok := c.get("a"); ok {
		t.Error("a changed identity is still remembered")
	}
	for i := range maxCachedIdentities + 10 {
		c.put(store.Identity{ID: string(rune('a'+i%26)) + string(rune(i))}, c.begin())
	}
	if n := len(c.m); n > maxCachedIdentities {
		t.Errorf("the cache holds %d identities, more than %d", n, maxCachedIdentities)
	}
}
