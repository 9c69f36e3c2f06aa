//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locklab/locklab/repl/lang/canarytest"
)

// observer runs locklab from outside: the binary (the test binary under
// the name locklab, see TestMain), strace when it can be used, and the
// file system calls benign runs make (by key, see access.key).
type observer struct {
	bin         string
	strace      string   // "" when locklab runs without it
	straceFlags []string // how it runs: with a seccomp filter when it has one (only the traced calls stop locklab)
	baseline    map[string]bool
}

// benignLines are what a lab does every day: the allowed set of file
// system calls is what they make, in each mode, not a list guessed by
// hand. The start-up reads of Go's runtime and libc are among them; the
// resolver's files (/etc/hosts ...) come with the localhost lookup.
var benignLines = []string{
	`echo hi; ./hello.sh w; run x.lab; run sub/inner.lab; source hello.sh a; [ -e x.lab ] && [ -e /dev/null ] && echo x > /dev/null`,
	`PING; SET k v; GET k; redis-cli PING; docker exec redis-lesson redis-cli PING; EVAL "return 1" 0`,
	`redis-cli -h localhost -p 1 PING`,
	`explore x.lab; explore double-booking.lab`,
	`f() { echo "$1"; }; f a & wait; x=$(echo sub); echo "$x"`,
}

// newObserver finds locklab and strace and runs the benign lines. A
// benign run that touches its tree means the observer is wrong: fatal.
func newObserver(t *testing.T) *observer {
	o := &observer{bin: locklabBinary(t), baseline: map[string]bool{}}
	o.strace, o.straceFlags = straceFor(t)
	t.Logf("observer: strace %q %q (empty: canaries, FIFO watch and output only)", o.strace, o.straceFlags)
	sawScriptRead := map[byte]bool{}
	for _, line := range benignLines {
		for _, mode := range []byte("csf") {
			tr := canarytest.New(t)
			r := o.run(t, tr, mode, line)
			if problems := append(r.fifos, tr.Check()...); len(problems) > 0 || r.timedOut {
				t.Fatalf("benign %c %s touched its tree: %q (timed out: %v)\n%s", mode, line, problems, r.timedOut, r.out)
			}
			for _, a := range r.accesses {
				o.baseline[a.key()] = true
				sawScriptRead[mode] = sawScriptRead[mode] || filepath.Base(a.path) == "x.lab"
			}
		}
	}
	for _, mode := range []byte("csf") {
		if o.strace != "" && !sawScriptRead[mode] {
			t.Fatalf("strace saw no read of x.lab in the benign %c runs (`run x.lab`): the observer is blind there, and every attack would pass", mode)
		}
	}
	return o
}

// locklabBinary is the test binary under the name locklab: TestMain then
// runs it as locklab (testscript.Main), with nothing rebuilt.
func locklabBinary(t *testing.T) string {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "locklab")
	if err := os.Symlink(self, bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

// straceFor is strace's path when it is on PATH and may trace here (a
// container may forbid ptrace), and HOSTILE_NO_STRACE is not set, with
// the flags it runs with: a seccomp filter when this strace has one
// (5.3 and later), else none.
func straceFor(t *testing.T) (string, []string) {
	path, err := exec.LookPath("strace")
	if err != nil || os.Getenv("HOSTILE_NO_STRACE") != "" {
		return "", nil
	}
	for _, flags := range [][]string{{"--seccomp-bpf", "-f"}, {"-f"}} {
		out, err := exec.Command(path, append(flags, "-qq", "-o", os.DevNull, "--", "true")...).CombinedOutput()
		if err == nil {
			return path, flags
		}
		t.Logf("strace %q cannot trace here: %v: %s", flags, err, out)
	}
	return "", nil
}

// strange are the accesses of an attack that no benign run makes and
// that stay inside the lab folder's own files, read only.
func (o *observer) strange(tr *canarytest.Tree, accesses []access) []string {
	var out []string
	for _, a := range accesses {
		if !o.baseline[a.key()] && !a.inLab(tr) && !a.runtimeCPUs() && !slices.Contains(out, a.key()) {
			out = append(out, a.key())
		}
	}
	return out
}

// runtimeCPUs reports whether a is Go's runtime reading how many CPUs
// there are, which it may do again at any time while a run lasts (a
// slow attack's run under two CPU hogs met it; a benign run that lasted
// did not): a read of the host's CPU list, which says nothing a lab could
// use and touches no canary.
func (a access) runtimeCPUs() bool {
	return !a.write && strings.HasPrefix(a.path, "/sys/devices/system/cpu/")
}
