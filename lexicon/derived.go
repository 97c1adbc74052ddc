package lexicon

import "sync"

// derivedSet holds what callers derived from a lexicon, by key.
type derivedSet struct {
	mu sync.Mutex
	m  map[any]*derivedValue
}

type derivedValue struct {
	once sync.Once
	v    any
}

// Derived returns the value build makes from l, building it once per key
// for the lexicon's life. Computer players keep tables computed from a
// lexicon here (a table per lexicon, shared by every game that uses it)
// rather than in caches of their own. key must be comparable; a type
// private to the caller's package keeps keys apart. Concurrent callers
// with the same key wait for one build.
func (l *Lexicon) Derived(key any, build func() any) any {
	l.derived.mu.Lock()
	if l.derived.m == nil {
		l.derived.m = map[any]*derivedValue{}
	}
	d, ok := l.derived.m[key]
	if !ok {
		d = &derivedValue{}
		l.derived.m[key] = d
	}
	l.derived.mu.Unlock()
	d.once.Do(func() { d.v = build() })
	return d.v
}
