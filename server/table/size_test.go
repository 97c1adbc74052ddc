package table

import (
	"testing"
	"unsafe"
)

// TestTableSize holds a table within the heap's 1,024-byte size class: a
// server holds one for every game in memory, and the next class up is
// 1,152 bytes. What a table keeps only to answer sooner goes behind a
// pointer (encodings), which shed drops.
func TestTableSize(t *testing.T) {
	t.Parallel()
	if n := unsafe.Sizeof(table{}); n > 1024 {
		t.Errorf("a table takes %d bytes, more than the 1,024 of its size class", n)
	}
}
