package output

import (
	"os"
	"syscall"
)

// openNoFollow opens name for writing, a new file or an existing one it
// does not yet truncate, never through a symbolic link: a link is an
// error that is syscall.ELOOP. Windows has no O_NOFOLLOW: the name is
// opened with FILE_FLAG_OPEN_REPARSE_POINT, which opens a link itself
// instead of its target, and a link is closed untouched.
func openNoFollow(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|syscall.FILE_FLAG_OPEN_REPARSE_POINT, 0o644)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err == nil && info.Mode()&os.ModeSymlink != 0 {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: name, Err: syscall.ELOOP}
	}
	return f, nil
}
