package redlock

import (
	"context"
	"fmt"
)

// pauseWord is `pause SESSION DUR`: the whole session stops for DUR from
// now, like a stop-the-world GC pause after its last step. Nothing it
// sends goes out meanwhile: its commands, its watchdog's extends, its
// redlock words. (Any session may be paused, with or without nodes.)
func pauseWord(env Env, name, dur string) error {
	d, err := durationArg(PauseUsage, "", dur)
	if err != nil {
		return err
	}
	if d <= 0 {
		return UsageError(PauseUsage)
	}
	resume := make(chan struct{})
	env.Sessions().Pause(name, resume)
	c := env.Clock()
	go func() {
		c.Sleep(context.Background(), d)
		close(resume)
	}()
	fmt.Fprintf(env.Stdout(), "%s paused for %v (a stop-the-world pause, like a long GC): nothing %s sends, its watchdog included, goes out before it ends\n",
		name, d, name)
	return nil
}
