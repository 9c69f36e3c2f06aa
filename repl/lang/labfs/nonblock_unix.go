//go:build unix

package labfs

import "syscall"

// oNonblock opens a FIFO at once, without waiting for a writer.
const oNonblock = syscall.O_NONBLOCK
