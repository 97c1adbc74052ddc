package sqlite

import (
	"os"
	"runtime"
	"syscall"
)

// ownLogSync says whether a FULL store's writer syncs the log itself
// (logSync): on Linux, where a raw system call can keep the processor.
const ownLogSync = true

// syncFile syncs f. Held, it is a raw system call, which Go's scheduler
// does not see: the thread keeps its processor until the disk answers.
func syncFile(f *os.File, held bool) error {
	if !held {
		return f.Sync()
	}
	for {
		_, _, errno := syscall.RawSyscall(syscall.SYS_FSYNC, f.Fd(), 0, 0)
		runtime.KeepAlive(f)
		switch errno {
		case 0:
			return nil
		case syscall.EINTR:
			continue
		default:
			return &os.PathError{Op: "sync", Path: f.Name(), Err: errno}
		}
	}
}
