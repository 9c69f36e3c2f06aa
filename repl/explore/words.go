package explore

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/explore/order"
	"github.com/locklab/locklab/repl/lab"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/record"
	"github.com/locklab/locklab/repl/lang/words"
)

// WordOptions are what the explore word takes from the program: its
// colour, and the lab's own scripts.
type WordOptions struct {
	Color   bool
	Scripts fs.FS
}

// Words are explore's words: explore itself, and schedule, which forces
// the order a search saved on any server.
func Words(o WordOptions) []words.Word {
	return []words.Word{
		{Name: "explore", Kind: words.Lab, Run: o.exploreWord, Spec: Spec,
			Summary: "run a script in every order of its sessions' commands, on virtual time"},
		{Name: "schedule", Kind: words.Lab, Run: scheduleWord, Spec: order.Spec, Check: checkSchedule,
			Unexplorable: "it forces one order of the sessions (a saved schedule); explore the script it was saved from",
			Summary:      "make the sessions' commands go in this order (a schedule explore --save found), on any server"},
	}
}

// exploreWord is `explore ARGS` in the language: the script is read
// through the lab's view of files, and files are written only when a
// person typed it at the REPL.
func (o WordOptions) exploreWord(ctx context.Context, env words.Env, args []string) error {
	call := Call{Args: args[1:], MayWrite: env.Interactive() && !env.InFile(), Read: env.ReadScript,
		Color: o.Color, Width: env.Width, Scripts: o.Scripts, Stdout: env.Stdout(), Stderr: env.Stderr()}
	if status := Run(ctx, call); status != 0 {
		return words.Status(status)
	}
	return nil
}

// scheduleWord is `schedule [--wait DUR] SESSION ...`: from now on the
// sessions' commands go in that order (see package order).
func scheduleWord(ctx context.Context, env words.Env, args []string) error {
	steps, wait, err := order.Parse(args[1:])
	if err != nil {
		return err
	}
	g := order.New(steps, wait, env.Stderr())
	set := env.Sessions()
	if i := slices.Index(steps, order.RestartStep); i >= 0 && !set.Target.Embedded {
		return fmt.Errorf("schedule: step %d restarts the server, which locklab does only to its own embedded Redis; run this script without -h/-p", i+1)
	}
	rec := record.Part.Of(env)
	g.Restart = func(ctx context.Context) error {
		if err := restartEmpty(ctx, set.Target); err != nil {
			return err
		}
		rec.Lost(set.Now(), check.LostInRestart) // the checker hears it, as in the search
		return nil
	}
	nodes := lab.RedlockOf(env)
	g.Node = func(kind, node string, d time.Duration) error {
		if kind == "restart" {
			return nodes.RestartEmpty(node, set.Now(), rec)
		}
		return nodes.JumpAt(node, d, set.Now(), rec)
	}
	set.UseGate(g)
	return nil
}

// restartEmpty is a saved schedule's restart on the embedded Redis t: as
// explore's restart fault, every key and script gone (FLUSHALL, SCRIPT
// FLUSH, on a connection of its own that no session, probe or gate
// sees); the sessions' connections stay.
func restartEmpty(ctx context.Context, t session.Target) error {
	c := session.NewConn(t, "")
	defer c.Close()
	for _, cmd := range [][]string{{"FLUSHALL"}, {"SCRIPT", "FLUSH"}} {
		if r, err := c.Do(ctx, cmd); err != nil || r.Kind == resp.Error {
			return fmt.Errorf("schedule: restarting the embedded Redis: %s: %v%s", cmd[0], err, r.Str)
		}
	}
	return nil
}

// checkSchedule refuses, before the script runs, a saved schedule that
// would force no order.
func checkSchedule(args []string, known []bool) error {
	if slices.Contains(known, false) {
		return order.Spec.Check(args, known)
	}
	_, _, err := order.Parse(args)
	return err
}
