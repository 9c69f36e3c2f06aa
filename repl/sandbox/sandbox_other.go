//go:build !linux

package sandbox

import "runtime"

// KernelABI is 0: Landlock is Linux's.
func KernelABI() int { return 0 }

// Restrict enforces nothing here: Landlock is Linux's, and on this
// system the lab language's view of files is the only wall.
func Restrict(p Policy) (Status, error) {
	return Status{Reason: "Landlock is Linux's; on " + runtime.GOOS + " the lab language's view of files is the only wall"}, nil
}
