package shell

import (
	"context"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/cli/redistest"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lang/lines"
)

// TestCtrlCCancelsOneEntry: Ctrl-C during `BLPOP q 0` cuts that command
// short, says (interrupted), and the next line still runs: the REPL and
// piped input go on, as with redis-cli's prompt. (Bugs this catches: a
// cancelled entry leaving the interpreter "exited", which ended the REPL;
// a blocking command pipelined with the lines after it, which a Ctrl-C
// then lost.)
func TestCtrlCCancelsOneEntry(t *testing.T) {
	addr := redistest.Real(t)
	sh, out, errOut := newTestShell(t, addr, 0, "")
	cancels := make(chan context.CancelFunc, 4)
	src := Source{Lines: lines.From(strings.NewReader("BLPOP q 0\nPING\n")), OnEntry: func(c context.CancelFunc) {
		if c != nil {
			cancels <- c
		}
	}}
	done := make(chan error, 1)
	go func() { done <- sh.Run(context.Background(), src) }()
	cancel := <-cancels
	waitBlocked(t, addr)
	cancel() // what the interrupter does on SIGINT
	if err := <-done; err != nil {
		t.Errorf("Run: %v, want the last line's status (0)", err)
	}
	if got := out.String(); got != "PONG\n" {
		t.Errorf("stdout %q, want the line after the interrupted one: PONG", got)
	}
	if got := errOut.String(); got != "(interrupted)\n" {
		t.Errorf("stderr %q, want (interrupted)", got)
	}
}

// waitBlocked waits until the server at addr has a client blocked in a
// command (the BLPOP), asking it with INFO clients.
func waitBlocked(t *testing.T, addr string) {
	t.Helper()
	c := redistest.Dial(t, addr)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		r, _ := c.Do("INFO", "clients")
		if r.Kind == resp.Bulk && strings.Contains(r.Str, "blocked_clients:1") {
			return
		}
	}
	t.Fatal("no client blocked in 10s")
}

// TestCtrlCStopsTheWait: Ctrl-C while a run waits for its jobs (a bare
// `wait`, or the end of piped input) stops the jobs, so that the wait
// returns: the interpreter's wait does not see a cancelled context.
// (Before, the prompt or the pipe's end hung until the jobs were done.)
func TestCtrlCStopsTheWait(t *testing.T) {
	for _, tt := range []struct {
		name, input string
		interrupt   int // which entry Ctrl-C lands in, from 0
		want        string
	}{
		{"bare wait", "sleep 30 &\nwait\necho after $?\n", 1, "after 130\n"}, // $? as sh's after a Ctrl-C
		{"end of the pipe", "sleep 30 &\necho hi\n", 2, "hi\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sh, out, _ := newTestShell(t, redistest.Embedded(t), 0, "")
			entries := make(chan context.CancelFunc, 8)
			src := Source{Lines: lines.From(strings.NewReader(tt.input)), Summary: "<stdin>", OnEntry: func(c context.CancelFunc) {
				if c != nil {
					entries <- c
				}
			}}
			done := make(chan error, 1)
			go func() { done <- sh.Run(context.Background(), src) }()
			for i := 0; i < tt.interrupt; i++ {
				<-entries
			}
			(<-entries)() // Ctrl-C
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Ctrl-C did not stop the wait: the run is still waiting for its job")
			}
			if got := out.String(); got != tt.want {
				t.Errorf("stdout %q, want %q", got, tt.want)
			}
		})
	}
}

// TestQuitAfterCtrlC: `quit` (or `exit`) right after Ctrl-C stopped a
// command ends the REPL, with $? as its status, as sh's exit does: 130,
// as sh's $? after a Ctrl-C (issue 11; before, the interpreter's $? was
// 1). (Before that, it said "(interrupted)" again and the prompt came
// back: a bare exit took the last status's error with it, the Ctrl-C's,
// and the REPL took it for another Ctrl-C.)
func TestQuitAfterCtrlC(t *testing.T) {
	for kind, addr := range redistest.Servers(t) {
		for _, word := range []string{"quit", "exit"} {
			t.Run(kind+"/"+word, func(t *testing.T) {
				sh, out, errOut := newTestShell(t, addr, 0, "")
				first := true
				src := Source{Lines: lines.From(strings.NewReader("sleep 30\n" + word + "\necho after\n")), OnEntry: func(c context.CancelFunc) {
					if c != nil && first {
						first = false
						c() // Ctrl-C in the first entry
					}
				}}
				if err := sh.Run(context.Background(), src); err != interp.ExitStatus(130) {
					t.Errorf("Run: %v, want exit status 130 ($?, as sh)", err)
				}
				if got := out.String(); got != "" {
					t.Errorf("stdout %q: the line after %s ran", got, word)
				}
				if got := errOut.String(); got != "(interrupted)\n" {
					t.Errorf("stderr %q, want (interrupted) once", got)
				}
			})
		}
	}
}

// TestStatusAfterCtrlC: after Ctrl-C stopped a command, $? is 130, as in
// sh (issue 11; before, the interpreter's $? was 1).
func TestStatusAfterCtrlC(t *testing.T) {
	sh, out, _ := newTestShell(t, redistest.Embedded(t), 0, "")
	first := true
	src := Source{Lines: lines.From(strings.NewReader("sleep 30\necho $?\n")), OnEntry: func(c context.CancelFunc) {
		if c != nil && first {
			first = false
			c() // Ctrl-C in the first entry
		}
	}}
	if err := sh.Run(context.Background(), src); err != nil {
		t.Errorf("Run: %v, want echo's status (0)", err)
	}
	if got := out.String(); got != "130\n" {
		t.Errorf("stdout %q, want $? = 130", got)
	}
}
