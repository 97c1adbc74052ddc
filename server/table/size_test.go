package table

import (
	"testing"
	"unsafe"
)

// TestSizes holds what a server keeps for every game in memory to the
// sizes their docs promise: a table within the heap's 896-byte size class
// with the 8-byte header the allocator gives an object of more than 512
// bytes with pointers (the next class is 1,024 bytes; what a table keeps
// only to answer sooner, and a clock most tables do not have, go behind
// pointers), its packed parts within the 448-byte class, and a move to
// 32 bytes.
func TestSizes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		what      string
		size, max uintptr
	}{
		{"a table", unsafe.Sizeof(table{}), 896 - 8},
		{"a table's packed parts", unsafe.Sizeof(packed{}), 448 - 8},
		{"a move", unsafe.Sizeof(move{}), 32},
	} {
		if c.size > c.max {
			t.Errorf("%s takes %d bytes, more than %d", c.what, c.size, c.max)
		}
	}
}
