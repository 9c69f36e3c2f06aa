//go:build unix

package explore

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOutputsChecked refuses, before any schedule runs, output files that
// could not be written or would clobber something: the script itself, a
// symbolic link, a missing folder, a picture with the wrong ending.
// Before, --save onto the script overwrote it, and the others failed only
// after the whole search.
func TestOutputsChecked(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "s.lab")
	if err := os.WriteFile(script, []byte("SET a 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(script, filepath.Join(dir, "link.lab")); err != nil {
		t.Fatal(err)
	}
	for flag, file := range map[string]string{
		"--save": script, "--svg": filepath.Join(dir, "x.png"), "--mermaid": filepath.Join(dir, "x.svg"),
	} {
		if _, err := ParseCommand([]string{flag, file, script}); err == nil {
			t.Errorf("%s %s: no error", flag, file)
		}
	}
	for _, save := range []string{filepath.Join(dir, "link.lab"), filepath.Join(dir, "no", "x.lab")} {
		if _, err := ParseCommand([]string{"--save", save, script}); err == nil {
			t.Errorf("--save %s: no error", save)
		}
	}
	svgScript, folder := filepath.Join(dir, "s.svg"), filepath.Join(dir, "d.lab")
	if err := errors.Join(os.WriteFile(svgScript, []byte("SET a 1\n"), 0o644), os.Mkdir(folder, 0o755)); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "p.lab")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--svg", svgScript, svgScript}, {"--save", folder, script}, {"--save", fifo, script}} {
		if _, err := ParseCommand(args); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	if _, err := ParseCommand([]string{"--save", filepath.Join(dir, "new.lab"), "--svg", "a.svg", script}); err != nil {
		t.Error(err)
	}
}
