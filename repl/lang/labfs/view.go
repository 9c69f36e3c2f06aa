package labfs

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/interp"
)

// Root is the folder the lab was given, as the lab language names it:
// the interpreter's working folder, $PWD and $HOME.
const Root = "/lab"

// DevNull is the one host device the language may name.
const DevNull = "/dev/null"

// ErrNotLabFile is the answer for every name outside the view, whatever
// the host holds there: it says nothing of the host.
var ErrNotLabFile = errors.New("no such lab file (the lab sees only the .lab and .sh scripts of the folder it was given, and /dev/null)")

// View is what the lab's language may see of files: the scripts of one
// folder (opened once, as an os.Root, the first time a script looks at
// it: most runs never do, and explore makes a view per schedule) and the
// lab's own embedded ones. The folder is the one its path names at that
// first look: a folder renamed or replaced in between (by someone else)
// is not followed, as an open one would be.
type View struct {
	dir     string
	opening sync.Once
	root    *os.Root // nil when the folder cannot be opened: only the lab's own scripts are seen
	scripts fs.FS    // the lab's own scripts (may be nil)
}

// New is the view of the folder dir and the lab's own scripts.
func New(dir string, scripts fs.FS) *View {
	return &View{dir: dir, scripts: scripts}
}

// folder is the opened folder, or nil when it cannot be opened (or the
// view was closed before anything looked).
func (v *View) folder() *os.Root {
	v.opening.Do(func() { v.root, _ = os.OpenRoot(v.dir) })
	return v.root
}

// Close lets the folder go. Nothing looks at it after.
func (v *View) Close() {
	v.opening.Do(func() {}) // never opened: it stays shut
	if v.root != nil {
		v.root.Close()
	}
}

// Name is the name inside the folder that a path of the language stands
// for (relative to Root, or absolute under it), when it names a lab
// script: a .lab or .sh file, local to the folder. ok is false for any
// other path.
func Name(p string) (name string, ok bool) {
	if !path.IsAbs(p) {
		p = path.Join(Root, p)
	}
	rel, inside := strings.CutPrefix(path.Clean(p), Root+"/")
	ext := path.Ext(rel)
	return rel, inside && (ext == ".lab" || ext == ".sh") && fs.ValidPath(rel)
}

// Stat is the interpreter's stat handler (test -e, -f, -s ...): /dev/null
// is what it is, a lab script is looked at inside the folder, and any
// other path is ErrNotLabFile without a look at the host.
func (v *View) Stat(ctx context.Context, p string, follow bool) (fs.FileInfo, error) {
	if p == DevNull {
		return os.Stat(DevNull)
	}
	name, ok := Name(p)
	if !ok {
		return nil, &fs.PathError{Op: "stat", Path: p, Err: ErrNotLabFile}
	}
	info, err := v.statInFolder(name, follow)
	if own := v.ownScript(name); errors.Is(err, fs.ErrNotExist) && own != "" {
		return fs.Stat(v.scripts, own)
	}
	return info, err
}

func (v *View) statInFolder(name string, follow bool) (fs.FileInfo, error) {
	root := v.folder()
	if root == nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	if follow {
		return root.Stat(name)
	}
	return root.Lstat(name)
}

// Access answers test -r, -w and -x: a lab script can be read, not
// written or run (the language only runs it through its own words).
func (v *View) Access(ctx context.Context, p string, mode interp.AccessMode) error {
	if _, err := v.Stat(ctx, p, true); err != nil {
		return err
	}
	if mode != interp.AccessRead && p != DevNull {
		return &fs.PathError{Op: "access", Path: p, Err: fs.ErrPermission}
	}
	return nil
}

// ReadDir lists no folder: were globbing on, no pattern would match.
func (v *View) ReadDir(ctx context.Context, p string) ([]fs.DirEntry, error) {
	return nil, &fs.PathError{Op: "readdir", Path: p, Err: ErrNotLabFile}
}

// ownScript is the lab's own (embedded) script that name stands for when
// the folder lacks it: x.sh or scripts/x.sh is x.sh. "" when there is none.
func (v *View) ownScript(name string) string {
	dir, base := path.Split(name)
	if v.scripts == nil || dir != "" && path.Clean(dir) != "scripts" {
		return ""
	}
	if _, err := fs.Stat(v.scripts, base); err != nil {
		return ""
	}
	return base
}
