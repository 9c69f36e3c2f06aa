//go:build linux

// Package canarytest gives the hostile tests a lab folder with canaries
// around it, and tells whether anything touched them: a canary created,
// removed, changed or read (its access time moved), or a FIFO that got a
// reader or a writer. It watches from outside the lab's code: it looks
// only at the files.
package canarytest

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Tree is a temporary folder laid out as
//
//	ROOT/secret.sh secret.lab canary.txt secret.lua   canaries (text)
//	ROOT/canary.fifo pipe.lab                         canaries (FIFOs)
//	ROOT/tmp/sh-interp-canary   the host TMPDIR given to locklab, holding a canary
//	ROOT/home/.profile          the host HOME given to locklab
//	ROOT/lab/                   the lab folder: locklab's working folder
//	  x.lab hello.sh sub/inner.lab   scripts the lab was given
//	  link.lab -> ../secret.lab      ways out: a relative symlink,
//	  abs.sh -> ROOT/secret.sh       an absolute one,
//	  out -> ..                      a folder's,
//	  linkfifo.lab -> ../pipe.lab    one to a FIFO,
//	  fifo.lab                       and a FIFO inside, held open with data in it
type Tree struct {
	Root, Lab, Tmp, Home string
	Env                  string // a canary value for an environment variable

	secrets map[string]string // canary file (relative to Root) -> its contents
	before  map[string]entry  // every entry of the tree, as made
	held    int               // fifo.lab's descriptor, open for reading and writing
	inFIFO  []byte            // what fifo.lab holds
	fifos   []string          // the FIFOs outside the lab folder
}

// oldTime is the access time every canary starts with: older than its
// modification time, so that a relatime mount still records a read.
var oldTime = time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)

// New makes a tree in a temporary folder of t's.
func New(t testing.TB) *Tree {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tr := &Tree{Root: root, Lab: filepath.Join(root, "lab"), Tmp: filepath.Join(root, "tmp"),
		Home: filepath.Join(root, "home"), Env: "CANARY-env-" + randomHex(), secrets: map[string]string{}}
	for _, step := range []func() error{tr.makeFolders, tr.makeCanaries, tr.makeLab, tr.holdFIFO} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { syscall.Close(tr.held) })
	if err := tr.arm(); err != nil {
		t.Fatal(err)
	}
	tr.before = tr.entries()
	return tr
}

func (tr *Tree) makeFolders() error {
	for _, d := range []string{tr.Lab, tr.Tmp, tr.Home, filepath.Join(tr.Lab, "sub")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// makeCanaries writes the canaries outside the lab folder. A script
// canary that runs prints its secret; the Lua one returns it.
func (tr *Tree) makeCanaries() error {
	for name, text := range map[string]string{
		"secret.sh": "echo %s\n", "secret.lab": "echo %s\n", "canary.txt": "%s\n",
		"secret.lua": "return \"%s\"\n", "tmp/sh-interp-canary": "%s\n", "home/.profile": "echo %s\n",
	} {
		secret := "CANARY-" + strings.NewReplacer("/", "-", ".", "-").Replace(name) + "-" + randomHex()
		tr.secrets[name] = strings.Replace(text, "%s", secret, 1)
		if err := os.WriteFile(filepath.Join(tr.Root, name), []byte(tr.secrets[name]), 0o644); err != nil {
			return err
		}
	}
	for _, name := range []string{"canary.fifo", "pipe.lab"} {
		tr.fifos = append(tr.fifos, filepath.Join(tr.Root, name))
		if err := syscall.Mkfifo(filepath.Join(tr.Root, name), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// makeLab writes the lab folder's own scripts and its ways out.
func (tr *Tree) makeLab() error {
	files := map[string]string{"x.lab": "echo hello-from-x\n", "hello.sh": "echo hello \"$@\"\n", "sub/inner.lab": "echo inner\n"}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(tr.Lab, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	links := map[string]string{"link.lab": "../secret.lab", "abs.sh": filepath.Join(tr.Root, "secret.sh"),
		"out": "..", "linkfifo.lab": "../pipe.lab"}
	for name, to := range links {
		if err := os.Symlink(to, filepath.Join(tr.Lab, name)); err != nil {
			return err
		}
	}
	return syscall.Mkfifo(filepath.Join(tr.Lab, "fifo.lab"), 0o644)
}

// holdFIFO opens fifo.lab for reading and writing, so that opening it
// never blocks, and puts a secret in it: a read by anyone else takes it.
// The descriptor is a plain one: an *os.File would wait in Go's poller on
// an empty FIFO instead of answering EAGAIN.
func (tr *Tree) holdFIFO() error {
	fd, err := syscall.Open(filepath.Join(tr.Lab, "fifo.lab"), syscall.O_RDWR|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	tr.held, tr.inFIFO = fd, []byte("CANARY-fifo-lab-"+randomHex()+"\n")
	_, err = syscall.Write(fd, tr.inFIFO)
	return err
}

// Expand puts the tree's paths in a line: {OUT} is Root (outside the lab
// folder), {LAB} the lab folder, {TMP} the host TMPDIR.
func (tr *Tree) Expand(line string) string {
	return strings.NewReplacer("{OUT}", tr.Root, "{LAB}", tr.Lab, "{TMP}", tr.Tmp).Replace(line)
}

// Secrets are the canaries' contents (and the environment canary): none
// may ever appear in what the lab prints.
func (tr *Tree) Secrets() []string {
	out := []string{strings.TrimSpace(string(tr.inFIFO)), tr.Env}
	for _, text := range tr.secrets {
		out = append(out, strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(text, "echo "), "return ")))
	}
	for i := range out {
		out[i] = strings.Trim(out[i], `"`)
	}
	return out
}

func randomHex() string {
	b := make([]byte, 6)
	rand.Read(b)
	return hex.EncodeToString(b)
}
