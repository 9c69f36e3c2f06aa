package redlock

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lang/flags"
)

// pauseWord is `pause SESSION DUR`: the whole session stops for DUR from
// now, like a stop-the-world GC pause after its last step. Nothing it
// sends goes out meanwhile: its commands, its watchdog's extends, its
// redlock words. (Any session may be paused, with or without nodes.)
func pauseWord(env Env, p *flags.Parsed) error {
	name, d := p.Args[0], p.Duration("DUR")
	if d <= 0 {
		return p.Spec.Errorf("DUR needs a duration of more than 0, such as 2s, got %q", p.Args[1])
	}
	if known := env.Sessions().Names(); name != session.Main && name != env.Session() && !slices.Contains(known, name) {
		return p.Spec.Errorf("no session %s yet (so far: %s): a session begins with its first command, @%s CMD or a job named %s",
			name, strings.Join(known, ", "), name, name)
	}
	c := env.Clock()
	end := c.Now().Add(d)
	// Each command of the session sleeps, on its own goroutine, until the
	// pause's end: no goroutine of the lab's own ends it, so explore's
	// scheduler, the lab's clock there, sees every wait as the session's.
	env.Sessions().Pause(name, func(ctx context.Context) error { return c.Sleep(ctx, end.Sub(c.Now())) })
	fmt.Fprintf(env.Stdout(), "%s paused for %v (a stop-the-world pause, like a long GC): nothing %s sends, its watchdog included, goes out before it ends\n",
		name, d, name)
	return nil
}
