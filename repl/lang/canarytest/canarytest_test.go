//go:build linux

package canarytest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestUntouched: a tree nobody touched has nothing to say, and Check
// itself moves no access time (it runs twice).
func TestUntouched(t *testing.T) {
	tr := New(t)
	stop := tr.Watch()
	time.Sleep(5 * time.Millisecond)
	if got := append(stop(), append(tr.Check(), tr.Check()...)...); len(got) > 0 {
		t.Errorf("an untouched tree: %q", got)
	}
}

// TestSeesTouches: each kind of touch is seen, so the hostile tests can
// fail: a read, a write, a new file, fifo.lab read, a FIFO opened.
func TestSeesTouches(t *testing.T) {
	for _, c := range []struct {
		touch func(tr *Tree) error
		want  string
	}{
		{func(tr *Tree) error { _, err := os.ReadFile(filepath.Join(tr.Root, "secret.sh")); return err }, "secret.sh: read"},
		{func(tr *Tree) error { return os.WriteFile(filepath.Join(tr.Root, "canary.txt"), []byte("x"), 0o644) }, "canary.txt: changed"},
		{func(tr *Tree) error { return os.WriteFile(filepath.Join(tr.Tmp, "sh-interp-x"), nil, 0o644) }, "tmp/sh-interp-x: created"},
		{func(tr *Tree) error { _, err := os.ReadFile(filepath.Join(tr.Lab, "link.lab")); return err }, "secret.lab: read"},
		{func(tr *Tree) error { _, err := os.ReadDir(tr.Root); return err }, ".: read"},
		{readHeldFIFO, "lab/fifo.lab: read from"},
		{openFIFO, "pipe.lab: opened for reading"},
	} {
		tr := New(t)
		stop := tr.Watch()
		if err := c.touch(tr); err != nil {
			t.Fatal(err)
		}
		got := append(stop(), tr.Check()...)
		if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, c.want) }) {
			t.Errorf("want %q among %q", c.want, got)
		}
	}
}

func readHeldFIFO(tr *Tree) error {
	f, err := os.OpenFile(filepath.Join(tr.Lab, "fifo.lab"), os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.Read(make([]byte, 8))
	return err
}

// openFIFO opens pipe.lab for reading, as a script read would, and waits
// for the watch to let it go on.
func openFIFO(tr *Tree) error {
	f, err := os.OpenFile(filepath.Join(tr.Root, "pipe.lab"), os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	return f.Close()
}
