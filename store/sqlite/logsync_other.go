//go:build !linux

package sqlite

import "os"

// ownLogSync says whether a FULL store's writer syncs the log itself
// (logSync): elsewhere than on Linux SQLite does, as it knows each
// system's way of reaching the disk.
const ownLogSync = false

// syncFile syncs f.
func syncFile(f *os.File, held bool) error { return f.Sync() }
