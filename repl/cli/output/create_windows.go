package output

import (
	"os"
	"syscall"
)

// CreateNoFollow opens name for writing, a new file or one it truncates,
// never through a symbolic link: a link is an error that is
// syscall.ELOOP. Windows has no O_NOFOLLOW: the name is opened with
// FILE_FLAG_OPEN_REPARSE_POINT, which opens a link itself instead of
// its target, and a link is closed untouched; the file is truncated
// only once it is known not to be one.
func CreateNoFollow(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|syscall.FILE_FLAG_OPEN_REPARSE_POINT, 0o644)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err == nil && info.Mode()&os.ModeSymlink != 0 {
		err = &os.PathError{Op: "open", Path: name, Err: syscall.ELOOP}
	}
	if err == nil {
		err = f.Truncate(0)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
