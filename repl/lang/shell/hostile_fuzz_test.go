package shell_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lab"
	"github.com/locklab/locklab/repl/lang/canarytest"
	"github.com/locklab/locklab/repl/lang/lines"
	"github.com/locklab/locklab/repl/lang/shell"
)

// strayFIFO is a host path outside the canary tree under the usual
// TMPDIR, with the interpreter's FIFO prefix: it must never be made.
const strayFIFO = "/tmp/sh-interp-lockfuzz"

// FuzzHostileScript runs scripts written from the lab language's grammar
// (see gen) with host paths in every slot, in process, as a script file,
// as -c LINE or as piped lines, in the lab folder of a canary tree whose
// paths are the process's TMPDIR and HOME. It fails when a canary is
// created, changed or read, a FIFO outside the lab folder is opened,
// fifo.lab's secret is taken, a secret is printed, or the process's
// working folder moves. HOSTILE_FUZZ_SKIP=tls,socket,lua leaves out the
// commands of holes already reported, to look past them.
func FuzzHostileScript(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 4, 2, 255, 0})
	session.SilenceDriverLog() // redis-cli -s PATH's failed dials
	addr := redistest.Embedded(f)
	tr := canarytest.New(f)
	f.Setenv("TMPDIR", tr.Tmp)
	f.Setenv("HOME", tr.Home)
	f.Setenv("HOSTILE_CANARY_ENV", tr.Env)
	wd, _ := os.Getwd()
	skip := knownHoles()
	f.Fuzz(func(t *testing.T, data []byte) {
		mode := 0
		if len(data) > 0 {
			mode, data = int(data[0])%3, data[1:]
		}
		g := &gen{data: data, skip: skip}
		script := tr.Expand(g.script())
		stop := tr.Watch()
		out := runHostile(t, addr, tr.Lab, mode, script)
		problems := append(stop(), tr.Check()...)
		problems = append(problems, strays(tr, out, wd)...)
		if len(problems) > 0 {
			tr.Rebase() // the next input starts from here
			t.Fatalf("mode %d script:\n%s\nNOT HELD:\n\t%s\noutput:\n%s", mode, script, strings.Join(problems, "\n\t"), out)
		}
	})
}

// runHostile runs script in a fresh shell on the embedded Redis at addr,
// for at most 3 s (a run that ignores its end fails the test 7 s later),
// and returns what it printed. mode 0 is a script file,
// 1 is -c LINE, 2 is piped lines.
func runHostile(t *testing.T, addr, dir string, mode int, script string) string {
	sessions := session.NewSet(session.Target{Network: "tcp", Addr: addr})
	defer sessions.Close()
	var out lockedBuffer
	sh, err := shell.New(shell.Config{Sessions: sessions, Stdout: &out, Stderr: &out, Dir: dir, Notes: true, Observe: lab.Observe})
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	src := shell.Source{Lines: lines.From(strings.NewReader(script))}
	switch mode {
	case 0:
		src.Name, src.Whole, src.Precheck, src.Summary = "fuzz.lab", true, true, "fuzz.lab"
	case 1:
		src.Whole, src.Summary = true, "-c"
	}
	done := make(chan struct{})
	go func() { sh.Run(ctx, src); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("mode %d script still runs 7 s after its end was asked (hung):\n%s\noutput:\n%s", mode, script, out.String())
	}
	return out.String()
}

// strays are what the run left outside the tree's files: a secret in
// its output, the stray FIFO path made (removed again), the process's
// working folder moved.
func strays(tr *canarytest.Tree, out, wd string) []string {
	var found []string
	for _, s := range tr.Secrets() {
		if strings.Contains(out, s) {
			found = append(found, "printed the secret "+s)
		}
	}
	if _, err := os.Lstat(strayFIFO); err == nil {
		os.Remove(strayFIFO)
		found = append(found, strayFIFO+": created")
	}
	if now, _ := os.Getwd(); now != wd {
		found = append(found, "the process's working folder moved to "+now)
	}
	return found
}

// lockedBuffer is a strings.Builder that the shell's jobs may write to
// at once.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
