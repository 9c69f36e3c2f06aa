//go:build unix

package labfs_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/locklab/locklab/repl/lang/labfs"
)

// TestName: a path of the language names a lab script only inside the
// folder, relative or under /lab, and only a .lab or .sh file.
func TestName(t *testing.T) {
	for _, c := range []struct {
		path, name string
		ok         bool
	}{
		{"x.lab", "x.lab", true},
		{"./x.sh", "x.sh", true},
		{"/lab/sub/x.lab", "sub/x.lab", true},
		{"sub/../x.lab", "x.lab", true},
		{"../x.lab", "", false},
		{"/lab/../etc/x.sh", "", false},
		{"/etc/x.sh", "", false},
		{"/labx/x.sh", "", false},
		{"x.txt", "", false},
		{"/lab", "", false},
		{"sub/", "", false},
	} {
		name, ok := labfs.Name(c.path)
		if ok != c.ok || ok && name != c.name {
			t.Errorf("Name(%q) = %q, %v; want %q, %v", c.path, name, ok, c.name, c.ok)
		}
	}
}

// lab is a folder holding scripts, a secret beside it, and the ways out.
func lab(t *testing.T) (dir string, v *labfs.View) {
	t.Helper()
	top := t.TempDir()
	dir = filepath.Join(top, "lab")
	must(t, os.Mkdir(dir, 0o755))
	must(t, os.WriteFile(filepath.Join(top, "secret.sh"), []byte("TOKEN=outside\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(dir, "x.lab"), []byte("PING\n"), 0o644))
	must(t, os.Symlink("../secret.sh", filepath.Join(dir, "up.sh")))
	must(t, os.Symlink(filepath.Join(top, "secret.sh"), filepath.Join(dir, "abs.sh")))
	must(t, os.Symlink("x.lab", filepath.Join(dir, "inside.lab")))
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo.lab"), 0o644))
	big := make([]byte, labfs.MaxScript+1)
	must(t, os.WriteFile(filepath.Join(dir, "big.lab"), big, 0o644))
	own := fstest.MapFS{"own.sh": {Data: []byte("echo own\n")}}
	v = labfs.New(dir, own)
	t.Cleanup(v.Close)
	return dir, v
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadScript: a script of the folder reads; a symlink out of it, a
// path out of it, a FIFO and an oversized file do not, and no error
// carries what a file outside holds. A FIFO must not block the read.
func TestReadScript(t *testing.T) {
	_, v := lab(t)
	for _, c := range []struct {
		path, want string
		err        error // nil: read
	}{
		{"x.lab", "PING\n", nil},
		{"/lab/inside.lab", "PING\n", nil},
		{"scripts/own.sh", "echo own\n", nil},
		{"../secret.sh", "", labfs.ErrNotLabFile},
		{"up.sh", "", nil},
		{"abs.sh", "", nil},
		{"fifo.lab", "", labfs.ErrNotRegular},
		{"none.lab", "", fs.ErrNotExist},
	} {
		done := make(chan struct{})
		var data []byte
		var err error
		go func() { data, _, err = v.ReadScript(c.path); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadScript(%q) still blocks after 5s", c.path)
		}
		switch {
		case c.want != "" && (err != nil || string(data) != c.want):
			t.Errorf("ReadScript(%q) = %q, %v; want %q", c.path, data, err, c.want)
		case c.want == "" && err == nil:
			t.Errorf("ReadScript(%q) read %q; want it refused", c.path, data)
		case c.err != nil && !errors.Is(err, c.err):
			t.Errorf("ReadScript(%q) fails with %v; want %v", c.path, err, c.err)
		case err != nil && strings.Contains(err.Error(), "outside"):
			t.Errorf("ReadScript(%q)'s error quotes the file: %v", c.path, err)
		}
	}
	if _, _, err := v.ReadScript("big.lab"); err == nil || !strings.Contains(err.Error(), "MiB") {
		t.Errorf("ReadScript of a file over MaxScript: %v; want it refused by size", err)
	}
}

// TestStat: the interpreter's stat sees lab scripts and /dev/null; a host
// path is ErrNotLabFile whether it exists or not.
func TestStat(t *testing.T) {
	dir, v := lab(t)
	ctx := context.Background()
	for _, p := range []string{"/lab/x.lab", "/lab/scripts/own.sh", "/dev/null"} {
		if _, err := v.Stat(ctx, p, true); err != nil {
			t.Errorf("Stat(%q): %v; want it seen", p, err)
		}
	}
	for _, p := range []string{"/etc/passwd", filepath.Join(dir, "x.lab"), "/lab/../secret.sh", "/", "/lab"} {
		if _, err := v.Stat(ctx, p, true); !errors.Is(err, labfs.ErrNotLabFile) {
			t.Errorf("Stat(%q): %v; want ErrNotLabFile", p, err)
		}
	}
}
