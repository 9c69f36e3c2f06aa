//go:build unix && !linux

package app

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// dieBy ends the process by sig, as if nothing had caught it, so that
// the shell that ran locklab sees it (status 128+sig). Once the signal
// is no longer caught, Go's runtime ends the process by SIGINT, SIGTERM
// or SIGHUP itself; its SIGQUIT handler would print every goroutine's
// stack instead, and the system's default action cannot be set back
// without Linux's raw rt_sigaction: SIGQUIT ends it with status 131.
func dieBy(sig syscall.Signal) {
	if sig != syscall.SIGQUIT {
		signal.Reset(sig)
		syscall.Kill(os.Getpid(), sig)
		time.Sleep(time.Second) // the signal ends the process meanwhile
	}
	os.Exit(128 + int(sig))
}
