package hostfs

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"mvdan.cc/sh/v3/interp"
)

// Files is what the lab's shell may see of the host's files: the lab's
// scripts in the folder locklab started in (Dir), and its own embedded
// ones (Scripts); every other path is "no such file". Its methods are the
// interpreter's stat, access and read-dir handlers.
type Files struct {
	Dir     string
	Scripts fs.FS // the lab's own scripts (may be nil)
}

// errNoHostFiles is what the lab's shell answers for a host path.
var errNoHostFiles = errors.New("no such file (the lab sees only its own scripts and /dev/null)")

// Stat is how the interpreter looks at a file (test -e, -f, -s ...):
// /dev/null and the lab's scripts are what they are; any other path is
// "no such file", whatever is there. The call handler refuses such a
// test first, with a message; this is the floor under it.
func (f Files) Stat(ctx context.Context, path string, follow bool) (fs.FileInfo, error) {
	if path != "/dev/null" && !LabFile(f.fromStart(path)) {
		return nil, &os.PathError{Op: "stat", Path: path, Err: errNoHostFiles}
	}
	info, err := os.Lstat(path)
	if follow {
		info, err = os.Stat(path)
	}
	if own := f.OwnScript(path); errors.Is(err, fs.ErrNotExist) && own != "" {
		return fs.Stat(f.Scripts, own)
	}
	return info, err
}

// Access answers test -r, -w and -x as stat does: on a lab file only.
// One of the lab's own scripts (embedded) can be read, not written or run.
func (f Files) Access(ctx context.Context, path string, mode interp.AccessMode) error {
	if _, err := f.Stat(ctx, path, true); err != nil {
		return err
	}
	if _, err := os.Stat(path); err == nil {
		return interp.DefaultAccessHandler()(ctx, path, mode)
	}
	if mode != interp.AccessRead {
		return &os.PathError{Op: "access", Path: path, Err: fs.ErrPermission}
	}
	return nil
}

// ReadDir lists no folder: globbing stays off (set +f is refused), and
// were it on, no pattern would match a host file.
func (f Files) ReadDir(ctx context.Context, path string) ([]fs.DirEntry, error) {
	return nil, &os.PathError{Op: "readdir", Path: path, Err: errNoHostFiles}
}

// OwnScript is the name of the lab's own (embedded) script that path,
// relative to the folder locklab started in, stands for when that folder
// lacks it: x.sh or scripts/x.sh is x.sh. "" when there is none.
func (f Files) OwnScript(path string) string {
	rel := f.fromStart(path)
	if rel == "" || f.Scripts == nil {
		return ""
	}
	dir, base := filepath.Split(rel)
	if dir != "" && filepath.Clean(dir) != "scripts" {
		return ""
	}
	if _, err := fs.Stat(f.Scripts, base); err != nil {
		return ""
	}
	return base
}

// fromStart is path (absolute, as the interpreter gives it) relative to
// the folder locklab started in, or "".
func (f Files) fromStart(path string) string {
	rel, err := filepath.Rel(f.Dir, path)
	if err != nil {
		return ""
	}
	return rel
}
