package shell

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/load"
	"github.com/locklab/locklab/repl/session"
)

// loadUsage adds the shell's --modes to load's own options.
const loadUsage = load.Usage + " [--modes break,fix,extend,fenced]"

// loadWord is `load ...`: many workers on one lock, counted from the
// server's answers. --modes runs several modes one after another and
// prints one table comparing them.
func (s *Shell) loadWord(ctx context.Context, hc interp.HandlerContext, args []string) error {
	modes, rest := splitModes(args[1:])
	cfg, asJSON, err := load.ParseArgs(rest)
	if err != nil {
		fmt.Fprintln(hc.Stderr, "locklab:", err)
		return interp.ExitStatus(2)
	}
	if len(modes) == 0 {
		modes = []string{cfg.Mode}
	}
	var runs []load.Stats
	defer leaveServerACore(s.cfg.Sessions.Target)()
	for _, mode := range modes {
		cfg.Mode = mode
		stats, err := load.Run(ctx, s.loadDialer(), cfg, s.progressWriter(hc, asJSON))
		runs = append(runs, stats)
		if err != nil || stats.Interrupted {
			s.printLoad(hc.Stdout, runs, asJSON)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			fmt.Fprintln(hc.Stderr, "locklab: load:", err)
			return interp.ExitStatus(1)
		}
	}
	s.printLoad(hc.Stdout, runs, asJSON)
	return nil
}

// leaveServerACore runs a load against a redis-server on this machine on
// one CPU fewer (at least one), and returns what restores the setting.
// Its workers and the server share the CPUs: with every CPU running
// workers, the server's one thread gets less than a whole one, and every
// cycle waits on it (on 2 CPUs, 1 instead of 2 gave 10-15% more cycles/s
// in alternated runs). Not for the embedded server, which is locklab's
// own goroutines, nor when GOMAXPROCS is set: the user chose.
// Loads running at once (background jobs) share the setting: the first
// one in lowers it, the last one out restores it.
//
// The CPUs are the runtime's default GOMAXPROCS, which follows a
// container's CPU limit (NumCPU does not); restoring goes back to that
// default, so that it follows the limit again.
func leaveServerACore(t session.Target) (restore func()) {
	if t.Embedded || !t.OnThisMachine() || os.Getenv("GOMAXPROCS") != "" {
		return func() {}
	}
	loadProcs.Lock()
	defer loadProcs.Unlock()
	if loadProcs.running == 0 {
		if n := runtime.GOMAXPROCS(0); n >= 2 {
			runtime.GOMAXPROCS(n - 1)
		}
	}
	loadProcs.running++
	return func() {
		loadProcs.Lock()
		defer loadProcs.Unlock()
		if loadProcs.running--; loadProcs.running == 0 {
			runtime.SetDefaultGOMAXPROCS()
		}
	}
}

// loadProcs is how many loads run on one CPU fewer.
var loadProcs struct {
	sync.Mutex
	running int
}

// splitModes takes --modes A,B,... out of the arguments.
func splitModes(args []string) ([]string, []string) {
	for i, a := range args {
		if a == "--modes" && i+1 < len(args) {
			return strings.Split(args[i+1], ","), append(append([]string{}, args[:i]...), args[i+2:]...)
		}
		if v, ok := strings.CutPrefix(a, "--modes="); ok {
			return strings.Split(v, ","), append(append([]string{}, args[:i]...), args[i+1:]...)
		}
	}
	return nil, args
}

// loadDialer gives each worker (and load's control connection, 0) a
// connection of its own to the lab's server, named on it.
func (s *Shell) loadDialer() func(int) load.Conn {
	t := s.cfg.Sessions.Target
	return func(w int) load.Conn {
		name := fmt.Sprintf("load-w%d", w)
		if w == 0 {
			name = "load-control"
		}
		return session.NewConn(t, name)
	}
}

// progressWriter is where load's progress bar goes: the terminal only.
func (s *Shell) progressWriter(hc interp.HandlerContext, asJSON bool) io.Writer {
	if !s.cfg.TTY || asJSON || !s.cfg.Interactive && hc.Stdout != io.Writer(s.out) {
		return nil
	}
	return s.cfg.Stderr
}

func (s *Shell) printLoad(w io.Writer, runs []load.Stats, asJSON bool) {
	switch {
	case asJSON:
		for _, r := range runs {
			fmt.Fprintln(w, r.JSON())
		}
	case len(runs) == 1:
		fmt.Fprint(w, runs[0].Table())
	default:
		fmt.Fprint(w, load.Compare(runs))
	}
}
