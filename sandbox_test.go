package main

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/app"
	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/sandbox"
)

// probeEnv makes the test binary a sandbox probe (see TestMain): it
// reads its arguments as locklab does, confines itself as locklab would
// (app.Confine, the path Main takes), then tries each access the
// variable lists, one a line ("read PATH", "write PATH", "list PATH",
// "exec PATH"), and prints what happened. It lives in the test binary
// only: locklab itself has no way to be told to try a path.
const probeEnv = "LOCKLAB_SANDBOX_PROBE"

// sandboxProbe is the probe's whole run; it returns the exit status.
func sandboxProbe() int {
	o, err := parseArgs(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	st := app.Confine(o, os.Stdin, os.Stderr)
	fmt.Printf("status %s\n", st)
	for _, line := range strings.Split(strings.TrimSpace(os.Getenv(probeEnv)), "\n") {
		op, path, _ := strings.Cut(line, " ")
		here := outcome(try(op, path))
		there := outcome(onNewThread(func() error { return try(op, path) }))
		if here != there {
			here += " (on a new thread: " + there + ")"
		}
		fmt.Printf("%s %s: %s\n", op, path, here)
	}
	return 0
}

// try makes one access.
func try(op, path string) error {
	switch op {
	case "read":
		_, err := os.ReadFile(path)
		return err
	case "write":
		return os.WriteFile(path, []byte("probe\n"), 0o644)
	case "list":
		_, err := os.ReadDir(path)
		return err
	case "exec":
		return exec.Command(path, "-c", "true").Run()
	}
	return fmt.Errorf("unknown probe %q", op)
}

// onNewThread runs f on an OS thread of its own, which ends with it: the
// restriction must hold on every thread, old and new.
func onNewThread(f func() error) error {
	done := make(chan error)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
		done <- f()
	}()
	return <-done
}

// outcome is "ok", "denied" (EACCES or EPERM) or the error.
func outcome(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, fs.ErrPermission):
		return "denied"
	}
	return err.Error()
}

// probeTree is a lab folder, a script folder elsewhere, an output folder,
// a home, a temporary folder and, outside them all, a canary.
type probeTree struct{ base, lab, scripts, out, home, tmp, outside string }

func newProbeTree(t *testing.T) probeTree {
	base := t.TempDir()
	in := func(name string) string { return filepath.Join(base, name) }
	tr := probeTree{base, in("lab"), in("scripts"), in("out"), in("home"), in("tmp"), in("outside")}
	files := map[string]string{
		tr.lab + "/x.lab": "PING\n", tr.scripts + "/y.lab": "PING\n", tr.scripts + "/notes.txt": "n\n",
		tr.home + "/secret.txt": "home secret\n", tr.outside + "/secret.txt": "canary\n", tr.tmp + "/old.txt": "t\n",
	}
	for _, d := range []string{tr.lab, tr.scripts, tr.out, tr.home, tr.tmp, tr.outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range files {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// probe runs the test binary as a probe in tr's lab folder, with tr's
// home and temporary folder, locklab's args and the accesses; it returns
// the probe's lines by what each tried ("read PATH": "ok").
func (tr probeTree) probe(t *testing.T, env []string, args []string, accesses ...string) (string, map[string]string) {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = tr.lab
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + tr.home, "TMPDIR=" + tr.tmp,
		probeEnv + "=" + strings.Join(accesses, "\n")}, env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("probe %q: %v\n%s", args, err, out)
	}
	status, got := "", map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if s, ok := strings.CutPrefix(line, "status "); ok {
			status = s
		} else if access, result, ok := strings.Cut(line, ": "); ok {
			got[access] = result
		}
	}
	return status, got
}

// TestSandboxEnforced: locklab, confined as it confines itself, is
// refused by the kernel what its policy leaves out (a canary beside its
// folder, its home, its folder's parent, any program but redis-server),
// and keeps what it needs, in the modes whose policies differ: -c, a
// script and an output named on the command line, one command (no
// temporary folder), explore --save. With
// LOCKLAB_NO_LANDLOCK=1 the canary is read.
func TestSandboxEnforced(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Landlock is Linux's")
	}
	if sandbox.KernelABI() == 0 {
		if redistest.InCI() {
			t.Fatal("this kernel has no Landlock: CI's must have it (ABI 1 or later)")
		}
		t.Skip("this kernel has no Landlock")
	}
	tr := newProbeTree(t)
	canary, home := tr.outside+"/secret.txt", tr.home+"/secret.txt"
	for _, c := range []struct {
		args []string
		want map[string]string
	}{
		{[]string{"-c", "PING"}, map[string]string{
			"read " + canary: "denied", "write " + tr.outside + "/new.txt": "denied", "list " + tr.base: "denied",
			"read " + home: "denied", "read " + tr.scripts + "/y.lab": "denied",
			"read " + tr.lab + "/x.lab": "ok", "list " + tr.lab: "ok", "write " + tr.lab + "/new.txt": "denied",
			"write " + tr.tmp + "/new.txt": "ok", "read " + tr.tmp + "/old.txt": "ok",
			"read /etc/hosts": "ok", "write /dev/null": "ok", "exec /bin/sh": "denied", "read /proc/1/environ": "denied",
		}},
		{[]string{"--svg", tr.out + "/run.svg", tr.scripts + "/y.lab"}, map[string]string{
			"read " + tr.scripts + "/y.lab": "ok", "read " + tr.scripts + "/notes.txt": "ok", "write " + tr.scripts + "/y.lab": "denied",
			"write " + tr.out + "/run.svg": "ok", "list " + tr.out: "denied", "read " + canary: "denied",
		}},
		{[]string{"PING"}, map[string]string{ // one command starts no server: no temporary folder, no redis-server
			"write " + tr.tmp + "/new.txt": "denied", "read " + tr.lab + "/x.lab": "ok", "read " + canary: "denied",
		}},
		{[]string{"explore", "--save", "saved.lab", tr.scripts + "/y.lab"}, map[string]string{
			"read " + tr.scripts + "/y.lab": "ok", "write " + tr.lab + "/saved.lab": "ok", "read " + canary: "denied",
		}},
	} {
		status, got := tr.probe(t, nil, c.args, slices.Collect(maps.Keys(c.want))...)
		if !strings.HasPrefix(status, "Landlock: enforced (ABI ") {
			t.Fatalf("%q: status %q", c.args, status)
		}
		for access, want := range c.want {
			if got[access] != want {
				t.Errorf("%q: %s: %q, want %q", c.args, access, got[access], want)
			}
		}
	}
	status, got := tr.probe(t, []string{sandbox.EnvOff + "=1"}, []string{"-c", "PING"}, "read "+canary)
	if status != "Landlock: not enforced: LOCKLAB_NO_LANDLOCK is set" || got["read "+canary] != "ok" {
		t.Errorf("with %s=1: status %q, canary %q", sandbox.EnvOff, status, got["read "+canary])
	}
}

// landlockCondition is the scripts' [landlock]: the kernel has Landlock.
// In CI it must: there a kernel without it fails the script.
func landlockCondition(cond string) (bool, error) {
	if cond != "landlock" {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	if sandbox.KernelABI() > 0 {
		return true, nil
	}
	if redistest.InCI() {
		return false, errors.New("this kernel has no Landlock: CI's must have it (ABI 1 or later)")
	}
	return false, nil
}
