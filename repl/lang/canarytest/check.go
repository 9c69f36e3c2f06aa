//go:build linux

package canarytest

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// entry is what the tree knows of one of its files, folders or links.
type entry struct {
	mode         os.FileMode
	size         int64
	mtime, ctime time.Time
	atime        time.Time
	sum          [32]byte // a regular file's contents
	link         string   // a symlink's target
	watchAtime   bool     // a read of it is a finding
}

// entries are the tree's entries by their path from Root, read without
// moving any access time (O_NOATIME: the tree's files are the test's).
func (tr *Tree) entries() map[string]entry {
	out := map[string]entry{}
	tr.walk(".", out)
	return out
}

func (tr *Tree) walk(rel string, out map[string]entry) {
	abs := filepath.Join(tr.Root, rel)
	info, err := os.Lstat(abs)
	if err != nil {
		return
	}
	e := entry{mode: info.Mode(), size: info.Size(), mtime: info.ModTime(), watchAtime: tr.watched(rel, info)}
	st := info.Sys().(*syscall.Stat_t)
	e.atime, e.ctime = time.Unix(st.Atim.Unix()), time.Unix(st.Ctim.Unix())
	switch {
	case info.Mode().IsRegular():
		e.sum = sumNoAtime(abs)
	case info.Mode()&os.ModeSymlink != 0:
		e.link, _ = os.Readlink(abs)
	case info.IsDir():
		for _, name := range listNoAtime(abs) {
			tr.walk(filepath.Join(rel, name), out)
		}
	}
	out[rel] = e
}

// watched reports whether a read of the entry is a finding: every file
// and folder outside the lab folder, and the lab folder itself (the lab
// never lists it); not the lab's own scripts, which it reads.
func (tr *Tree) watched(rel string, info os.FileInfo) bool {
	inLab := rel == "lab" || strings.HasPrefix(rel, "lab/")
	if !info.Mode().IsRegular() && !info.IsDir() {
		return false // FIFOs are watched by Watch, symlinks not at all
	}
	return !inLab || info.IsDir()
}

func sumNoAtime(path string) [32]byte {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOATIME, 0)
	if err != nil {
		return [32]byte{}
	}
	defer f.Close()
	h := sha256.New()
	io.Copy(h, f)
	return [32]byte(h.Sum(nil))
}

func listNoAtime(dir string) []string {
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_NOATIME|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	slices.Sort(names)
	return names
}

// arm sets every watched entry's access time back to oldTime, its
// modification time a year after.
func (tr *Tree) arm() error {
	for rel, e := range tr.entries() {
		if e.watchAtime {
			if err := os.Chtimes(filepath.Join(tr.Root, rel), oldTime, oldTime.AddDate(1, 0, 0)); err != nil {
				return err
			}
		}
	}
	return nil
}

// AddScript writes a script into the lab folder (the observer's own
// attack.lab), as one of the files the lab was given.
func (tr *Tree) AddScript(name, text string) error {
	if err := os.WriteFile(filepath.Join(tr.Lab, name), []byte(text), 0o644); err != nil {
		return err
	}
	tr.before = tr.entries()
	return nil
}

// Rebase takes the tree as it is now for the state Check compares with,
// its canaries' access times set back: after a finding, the next check
// reports only what comes after.
func (tr *Tree) Rebase() {
	tr.arm()
	tr.before = tr.entries()
	tr.checkHeldFIFO()
}

// Check says what happened to the tree since it was made: entries
// created, removed or changed, canaries read, fifo.lab's secret taken.
// Nothing is a finding when it returns none.
func (tr *Tree) Check() []string {
	now := tr.entries()
	var problems []string
	for rel, was := range tr.before {
		is, ok := now[rel]
		switch {
		case !ok:
			problems = append(problems, rel+": removed")
		case is.changed(was):
			problems = append(problems, rel+": changed")
		case was.watchAtime && !is.atime.Equal(was.atime):
			problems = append(problems, rel+": read (its access time moved)")
		}
	}
	for rel := range now {
		if _, ok := tr.before[rel]; !ok {
			problems = append(problems, rel+": created")
		}
	}
	slices.Sort(problems)
	return append(problems, tr.checkHeldFIFO()...)
}

// changed reports whether e is not what was: a FIFO's times move with
// every write (checkHeldFIFO's own), so only its kind is compared.
func (e entry) changed(was entry) bool {
	if e.mode != was.mode {
		return true
	}
	return e.mode&os.ModeNamedPipe == 0 && (e.size != was.size || e.sum != was.sum || e.link != was.link ||
		!e.mtime.Equal(was.mtime) || !e.ctime.Equal(was.ctime))
}

// checkHeldFIFO takes what fifo.lab holds and puts it back: anything
// else than the secret put there means someone read from it or wrote to it.
func (tr *Tree) checkHeldFIFO() []string {
	buf := make([]byte, 4096)
	n, _ := syscall.Read(tr.held, buf)
	n = max(n, 0)
	if _, err := syscall.Write(tr.held, tr.inFIFO); err != nil {
		return []string{"lab/fifo.lab: cannot put the secret back: " + err.Error()}
	}
	if !bytes.Equal(buf[:n], tr.inFIFO) {
		return []string{fmt.Sprintf("lab/fifo.lab: read from or written to (it held %q)", buf[:n])}
	}
	return nil
}
