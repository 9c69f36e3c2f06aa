package app

import (
	"os"
	"os/signal"
	"syscall"
	"time"
	"unsafe"
)

// dieBy ends the process by sig, as if nothing had caught it, so that
// the shell that ran locklab sees it (status 128+sig). Go's own SIGQUIT
// handler would print every goroutine's stack instead: the signal's
// action is set back to the system's default first.
func dieBy(sig syscall.Signal) {
	signal.Reset(sig)
	var dfl [4]uintptr // struct sigaction, zero: SIG_DFL, no flags, empty mask
	syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&dfl)), 0, 8, 0, 0)
	syscall.Kill(os.Getpid(), sig)
	time.Sleep(time.Second) // the signal ends the process meanwhile
	os.Exit(128 + int(sig))
}
