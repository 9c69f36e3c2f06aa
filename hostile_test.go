//go:build linux

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/lang/canarytest"
)

// attack is one line of testdata/hostile/attacks.txt in one of its modes:
// 'c' (locklab -c LINE), 's' (a line of piped stdin) or 'f' (a script,
// locklab attack.lab).
type attack struct {
	mode byte
	line string
	at   int // its line number in the file
}

func (a attack) String() string { return fmt.Sprintf("%c %s", a.mode, a.line) }

// hostileTimeout bounds one run of locklab: the FIFO watch lets a reader
// blocked on a canary FIFO go on, so only a real hang reaches it.
const hostileTimeout = 45 * time.Second

// strayTmp is a host path outside every canary tree that one attack
// names: the interpreter's FIFO prefix under the usual /tmp.
const strayTmp = "/tmp/sh-interp-hostile-locklab"

// TestHostile runs every hostile line against locklab, each in a canary
// tree of its own, and watches from outside the process: with strace
// (when it is on PATH and may trace), every file system call locklab made
// that a benign run does not make; and always, the canaries (created,
// changed, read, a FIFO opened), what locklab printed (a canary's secret,
// the tree's host path, the leak marker), and whether it ended. Each
// line is logged "held" or reported "NOT HELD" with what was seen.
func TestHostile(t *testing.T) {
	attacks := readAttacks(t, "testdata/hostile/attacks.txt")
	os.Remove(strayTmp)
	o := newObserver(t)
	var held, notHeld atomic.Int32
	t.Cleanup(func() {
		t.Logf("hostile: %d attacks, %d held, %d not held (strace: %v)", len(attacks), held.Load(), notHeld.Load(), o.strace != "")
		os.Remove(strayTmp)
	})
	for _, a := range attacks {
		t.Run(fmt.Sprintf("%03d%c", a.at, a.mode), func(t *testing.T) {
			t.Parallel()
			if problems := o.judge(t, a); len(problems) > 0 {
				notHeld.Add(1)
				t.Errorf("NOT HELD: %s\n\t%s", a, strings.Join(problems, "\n\t"))
				return
			}
			held.Add(1)
			t.Logf("held: %s", a)
		})
	}
}

// readAttacks reads the corpus: MODES LINE per line, # comments.
func readAttacks(t *testing.T, name string) []attack {
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []attack
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		modes, line, ok := strings.Cut(sc.Text(), " ")
		if !ok || strings.HasPrefix(modes, "#") {
			continue
		}
		if strings.Trim(modes, "csf") != "" {
			t.Fatalf("%s:%d: modes %q: want some of c, s and f", name, n, modes)
		}
		for _, m := range []byte(modes) {
			out = append(out, attack{mode: m, line: line, at: n})
		}
	}
	return out
}

// judge runs a in a fresh canary tree and says what it touched.
func (o *observer) judge(t *testing.T, a attack) []string {
	tr := canarytest.New(t)
	r := o.run(t, tr, a.mode, tr.Expand(a.line))
	problems := append(r.fifos, tr.Check()...)
	problems = append(problems, o.strange(tr, r.accesses)...)
	problems = append(problems, leaks(tr, a.line, r.out)...)
	if r.timedOut {
		problems = append(problems, fmt.Sprintf("still running after %v: killed", hostileTimeout))
	}
	if _, err := os.Lstat(strayTmp); err == nil {
		problems = append(problems, strayTmp+": created")
	}
	return problems
}

// leaks says what the output tells of the host: a canary's secret, the
// leak marker, or (for a line that names no host path) the tree's path;
// and a Go panic, which ends locklab before its cleanup.
func leaks(tr *canarytest.Tree, line, out string) []string {
	var found []string
	if strings.Contains(out, "panic: ") && strings.Contains(out, "\ngoroutine ") {
		found = append(found, "locklab crashed: "+strings.SplitN(out[strings.Index(out, "panic: "):], "\n", 2)[0])
	}
	for _, s := range tr.Secrets() {
		if strings.Contains(out, s) {
			found = append(found, "printed the secret "+s)
		}
	}
	if strings.Contains(out, "HOSTILE-LEAK") {
		found = append(found, "printed HOSTILE-LEAK: the line learned something of the host")
	}
	if !namesHostPath(line) && strings.Contains(out, tr.Root) {
		found = append(found, "printed a host path it was not given: "+tr.Root)
	}
	return found
}

func namesHostPath(line string) bool {
	return strings.Contains(line, "{OUT}") || strings.Contains(line, "{LAB}") || strings.Contains(line, "{TMP}")
}

// result is what one run of locklab showed the observer.
type result struct {
	out      string   // stdout and stderr
	accesses []access // its file system calls (strace), nil without strace
	fifos    []string // what the FIFO watch saw
	timedOut bool
}

// run runs locklab on line in the tree, as mode says, and watches.
func (o *observer) run(t *testing.T, tr *canarytest.Tree, mode byte, line string) result {
	args := []string{"-c", line}
	switch mode {
	case 's':
		args = nil
	case 'f':
		if err := tr.AddScript("attack.lab", line+"\n"); err != nil {
			t.Fatal(err)
		}
		args = []string{"attack.lab"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), hostileTimeout)
	defer cancel()
	logFile := filepath.Join(t.TempDir(), "strace.log")
	cmd := o.command(ctx, tr, logFile, args)
	if mode == 's' {
		cmd.Stdin = strings.NewReader(line + "\n")
	}
	stop := tr.Watch()
	out, err := cmd.CombinedOutput()
	var r result
	r.out, r.fifos = string(out), stop()
	for i := range r.fifos {
		r.fifos[i] = "FIFO " + r.fifos[i]
	}
	r.timedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
	if o.strace != "" && !r.timedOut {
		r.accesses = readAccesses(t, logFile, tr, o.bin, err)
	}
	return r
}

// command is locklab with args, in the lab folder, under strace when the
// observer has it (with a seccomp filter where strace has one, so only
// the traced calls stop the process: the run costs half the CPU). Its environment is the tree's: HOME, TMPDIR, and a
// canary variable; and LOCKLAB_NO_LANDLOCK=1: what is tested here is the
// language's own wall, so a route past its view must show as a touched
// canary, not as the kernel's refusal (Landlock, the second wall, is
// TestSandboxEnforced's). On a timeout its whole process group is killed.
func (o *observer) command(ctx context.Context, tr *canarytest.Tree, logFile string, args []string) *exec.Cmd {
	name, argv := o.bin, args
	if o.strace != "" {
		name = o.strace
		argv = append(append(slices.Clone(o.straceFlags), "-qq", "-e", "signal=none", "-e", "trace=%file,connect,bind", "-s", "4096", "-o", logFile, "--", o.bin), args...)
	}
	cmd := exec.CommandContext(ctx, name, argv...)
	cmd.Dir = tr.Lab
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + tr.Home, "TMPDIR=" + tr.Tmp, "NO_COLOR=1",
		"HOSTILE_CANARY_ENV=" + tr.Env, "LOCKLAB_HISTFILE=" + filepath.Join(tr.Home, ".locklab_history"),
		"LOCKLAB_NO_LANDLOCK=1"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}
