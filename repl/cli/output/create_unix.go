//go:build unix

package output

import (
	"errors"
	"os"
	"syscall"
)

// CreateNoFollow opens name for writing, a new file (0644) or one it
// truncates, never through a symbolic link: a link is an error that is
// syscall.ELOOP (O_NOFOLLOW; FreeBSD says EMLINK and NetBSD EFTYPE
// instead, which the link's Lstat turns into ELOOP).
func CreateNoFollow(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o644)
	if err != nil && !errors.Is(err, syscall.ELOOP) {
		if info, lerr := os.Lstat(name); lerr == nil && info.Mode()&os.ModeSymlink != 0 {
			err = &os.PathError{Op: "open", Path: name, Err: syscall.ELOOP}
		}
	}
	return f, err
}
