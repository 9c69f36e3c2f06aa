//go:build unix

package output

import (
	"errors"
	"os"
	"syscall"
)

// openNoFollow opens name for writing, a new file (0644) or an existing
// one it does not yet truncate, never through a symbolic link: a link is
// an error that is syscall.ELOOP (O_NOFOLLOW; FreeBSD says EMLINK and
// NetBSD EFTYPE instead, which the link's Lstat turns into ELOOP). A pipe
// no one reads is ENXIO (O_NONBLOCK), not a wait.
func openNoFollow(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	if err != nil && !errors.Is(err, syscall.ELOOP) {
		if info, lerr := os.Lstat(name); lerr == nil && info.Mode()&os.ModeSymlink != 0 {
			err = &os.PathError{Op: "open", Path: name, Err: syscall.ELOOP}
		}
	}
	return f, err
}
