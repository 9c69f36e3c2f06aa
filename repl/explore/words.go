package explore

import (
	"context"
	"io/fs"
	"slices"

	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/explore/order"
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
	env.Sessions().UseFirst(session.GateMiddleware(order.New(steps, wait, env.Stderr())))
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
