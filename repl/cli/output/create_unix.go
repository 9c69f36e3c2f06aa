//go:build unix

package output

import (
	"os"
	"syscall"
)

// CreateNoFollow opens name for writing, a new file (0644) or one it
// truncates, never through a symbolic link: a link is an error that is
// syscall.ELOOP (O_NOFOLLOW).
func CreateNoFollow(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o644)
}
