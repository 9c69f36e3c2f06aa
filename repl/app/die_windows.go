package app

import (
	"os"
	"syscall"
)

// dieBy ends the process with the status a shell gives a process ended
// by sig (128+sig): a Windows process cannot end itself by a signal.
func dieBy(sig syscall.Signal) {
	os.Exit(128 + int(sig))
}
