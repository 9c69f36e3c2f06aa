package lab

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/locklab/locklab/repl/cli/output"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lab/load"
	"github.com/locklab/locklab/repl/lab/redlockload"
	"github.com/locklab/locklab/repl/lang/flags"
	"github.com/locklab/locklab/repl/lang/words"
)

// loadSpec is the load word's arguments: load's own, or, with --redlock,
// load --redlock's.
var loadSpec = func() *flags.Spec {
	s := *load.Spec
	s.Forms = []*flags.Spec{redlockload.Spec}
	return &s
}()

// loadWord is `load ...`: many workers on one lock, counted from the
// server's answers. --modes runs several modes one after another and
// prints one table comparing them. Its status says what the verdicts
// concluded (see loadStatus).
func loadWord(ctx context.Context, env words.Env, args []string) error {
	if p, err := loadSpec.Parse(args[1:]); err != nil {
		return err
	} else if p.Spec == redlockload.Spec {
		return redlockLoad(ctx, env, p) // through Redlock, on its nodes
	}
	call, err := load.Parse(args[1:])
	if err != nil {
		return err
	}
	cfg, asJSON, modes := call.Config, call.JSON, call.Modes
	if len(modes) == 0 {
		modes = []string{cfg.Mode}
	}
	cfg.OwnServer = env.Sessions().Target.Embedded // fresh for this run: nothing on it is someone else's
	var runs []load.Stats
	for _, mode := range modes {
		cfg.Mode = mode
		stats, err := load.Run(ctx, loadDialer(env.Sessions().Target), cfg, progressWriter(env, asJSON))
		if errors.Is(err, load.ErrNotStarted) {
			printLoad(env.Stdout(), runs, asJSON)
			return words.Failf("%v", err)
		}
		runs = append(runs, stats)
		if err != nil || stats.Interrupted {
			break
		}
	}
	printLoad(env.Stdout(), runs, asJSON)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return loadStatus(runs)
}

// loadFailStatus is load's exit status when a verdict is FAIL: the server's
// answers showed a lock bug. It differs from 1, a run that could not be
// judged (an error, a resource that could not be read, counts that do
// not add up), so that a script can expect break mode's FAIL without
// taking a server gone for it.
const loadFailStatus = 3

// loadStatus is nil when every run's verdict is OK, status 1 (already
// reported: the verdict says why) when one could not be judged, else
// loadFailStatus when one is FAIL.
func loadStatus(runs []load.Stats) error {
	status := 0
	for _, s := range runs {
		switch s.Outcome() {
		case load.Unknown, load.Nothing:
			return words.Status(1)
		case load.Fail:
			status = loadFailStatus
		}
	}
	if status != 0 {
		return words.Status(status)
	}
	return nil
}

// loadDialer gives each worker (and load's control connection, 0) a
// connection of its own to the lab's server, named on it.
func loadDialer(t session.Target) func(int) load.Conn {
	return func(w int) load.Conn {
		name := fmt.Sprintf("load-w%d", w)
		if w == 0 {
			name = "load-control"
		}
		return session.NewConn(t, name)
	}
}

// progressWriter is where load's progress bar goes: the terminal only.
func progressWriter(env words.Env, asJSON bool) io.Writer {
	lw, toTerminal := env.Stdout().(*output.LineWriter)
	if !env.TTY() || asJSON || !env.Interactive() && !(toTerminal && lw.Session() == session.Main) {
		return nil
	}
	return env.Output().TerminalErr()
}

func printLoad(w io.Writer, runs []load.Stats, asJSON bool) {
	switch {
	case len(runs) == 0:
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
