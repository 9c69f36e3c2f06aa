package output

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestWriteFile: a new file and a regular file are written (the old text
// replaced whole); a symbolic link, a folder, a pipe (read or not) and a
// device are refused and left as they were, and so is a spared file; a
// missing folder is the system's error. CheckWrite says the same before.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	if err := os.WriteFile(at("old.svg"), []byte("a longer old text"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(at("target.svg"), []byte("target"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(at("s.lab"), []byte("SET a 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(os.Symlink(at("target.svg"), at("link.svg")), os.Symlink(at("gone.svg"), at("dangling.svg")),
		os.Mkdir(at("d.svg"), 0o755), syscall.Mkfifo(at("pipe.svg"), 0o644), syscall.Mkfifo(at("read.svg"), 0o644)); err != nil {
		t.Fatal(err)
	}
	// A pipe someone reads: opening it for writing would not block.
	reader, err := os.OpenFile(at("read.svg"), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()

	for _, c := range []struct {
		name string
		want error // nil: written
	}{
		{"new.svg", nil},
		{"old.svg", nil},
		{"link.svg", ErrSymlink},
		{"dangling.svg", ErrSymlink},
		{"d.svg", ErrFolder},
		{"pipe.svg", ErrNotRegular},
		{"read.svg", ErrNotRegular},
		{"/dev/null", ErrNotRegular},
		{"s.lab", ErrSpared},
		{"nodir/x.svg", syscall.ENOENT},
	} {
		path := c.name
		if !filepath.IsAbs(path) {
			path = at(path)
		}
		done := make(chan error, 1)
		go func() { done <- WriteFile(path, []byte("new"), at("s.lab")) }()
		var err error
		select {
		case err = <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: WriteFile still blocked after 5s", c.name)
		}
		var we *WriteError
		switch {
		case c.want == nil && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want == nil:
			if b, _ := os.ReadFile(path); string(b) != "new" {
				t.Errorf("%s: holds %q, want %q", c.name, b, "new")
			}
		case !errors.Is(err, c.want) || !errors.As(err, &we) || we.Path != path:
			t.Errorf("%s: got %v, want %v naming the path", c.name, err, c.want)
		}
		if c.want != nil && c.want != syscall.ENOENT {
			if check := CheckWrite(path, at("s.lab")); !errors.Is(check, c.want) {
				t.Errorf("%s: CheckWrite said %v, want %v", c.name, check, c.want)
			}
		}
	}
	if b, _ := os.ReadFile(at("target.svg")); string(b) != "target" {
		t.Errorf("the link's target holds %q: written through the link", b)
	}
	if _, err := os.Lstat(at("gone.svg")); err == nil {
		t.Errorf("the dangling link's target was created")
	}
	if b, _ := os.ReadFile(at("s.lab")); string(b) != "SET a 1\n" {
		t.Errorf("the spared script holds %q", b)
	}
	if err := CheckWrite(at("nodir/x.svg")); err == nil || err.Error() != at("nodir/x.svg")+": no folder "+at("nodir")+" to write it in" {
		t.Errorf("CheckWrite of a file in no folder: %v", err)
	}
	for _, ok := range []string{at("old.svg"), at("fresh.svg")} {
		if err := CheckWrite(ok, at("s.lab")); err != nil {
			t.Errorf("CheckWrite(%s): %v", ok, err)
		}
	}
}
