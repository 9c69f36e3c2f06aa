package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// The refusals of WriteFile and CheckWrite, which a *WriteError carries.
var (
	ErrSymlink    = errors.New("a symbolic link: not followed (name the file itself)")
	ErrFolder     = errors.New("a folder: name a file in it")
	ErrNotRegular = errors.New("not a regular file (a pipe or a device): name a file")
	ErrSpared     = errors.New("that is the script itself: write it under another name")
)

// WriteError is a file the lab would not or could not write: Path, and
// why (one of the Err values above, or the system's reason).
type WriteError struct {
	Path string
	Err  error
}

func (e *WriteError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *WriteError) Unwrap() error { return e.Err }

// WriteFile writes data to path, as the lab writes every file it is asked
// for (a picture, a saved schedule): a new file, or a regular file it
// replaces. It follows no symbolic link, refuses a folder, a pipe or a
// device (a pipe with no reader does not block it), and refuses to
// overwrite any of spare (the script being run). It decides on the file
// it opened, not on a look at the name before: a file swapped meanwhile
// is the one judged.
func WriteFile(path string, data []byte, spare ...string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return &WriteError{path, ErrSymlink}
	case errors.Is(err, syscall.EISDIR):
		return &WriteError{path, ErrFolder}
	case errors.Is(err, syscall.ENXIO): // a pipe no one reads
		return &WriteError{path, ErrNotRegular}
	case err != nil:
		return &WriteError{path, unwrapPath(err)}
	}
	fi, err := f.Stat()
	if err == nil {
		err = refuse(fi, spare)
	}
	if err == nil {
		err = f.Truncate(0)
	}
	if err == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return &WriteError{path, unwrapPath(err)}
	}
	return nil
}

// CheckWrite says, before anything runs, why WriteFile would refuse
// path, or that it could not create it (no folder to write it in); nil
// when it may.
func CheckWrite(path string, spare ...string) error {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return &WriteError{path, ErrSymlink}
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return &WriteError{path, fmt.Errorf("no folder %s to write it in", dir)}
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil // a new file
	}
	if err := refuse(fi, spare); err != nil {
		return &WriteError{path, err}
	}
	return nil
}

// refuse says why a file that exists is not one to overwrite: a folder,
// not a regular file, one of spare.
func refuse(fi os.FileInfo, spare []string) error {
	switch {
	case fi.IsDir():
		return ErrFolder
	case !fi.Mode().IsRegular():
		return ErrNotRegular
	}
	for _, s := range spare {
		if si, err := os.Stat(s); err == nil && os.SameFile(fi, si) {
			return ErrSpared
		}
	}
	return nil
}

// unwrapPath is the reason of a *os.PathError, whose path the
// WriteError already names.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
