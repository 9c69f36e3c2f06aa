package load

import (
	"context"
	"time"

	"github.com/locklab/locklab/repl/cli/server"
)

// inProgress is a run going on: how to stop it, and when it is over (its
// keys deleted).
type inProgress struct {
	stop context.CancelFunc
	over chan struct{}
}

// runs are the load runs of the process in progress, so that a signal
// that ends locklab can stop them and let them delete their keys first
// (StopAll).
var runs server.Running[*inProgress]

// track adds a run to runs: its ctx, which StopAll cancels, and what
// marks it over, to call once it has deleted its keys.
func track(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	p := &inProgress{stop: cancel, over: make(chan struct{})}
	runs.Add(p)
	return ctx, func() {
		runs.Remove(p)
		close(p.over)
		cancel()
	}
}

// stopWait bounds StopAll's wait: a stopped run takes at most grace for
// its workers, then endWait to read the resource and endWait to delete its
// keys; the rest is room for a loaded machine.
const stopWait = grace + 2*endWait + 450*time.Millisecond

// StopAll stops every load run of the process, as Ctrl-C stops one, and
// waits (at most stopWait) until each has deleted its keys: what a signal
// that ends locklab (SIGTERM, SIGHUP, SIGQUIT) does before it ends it.
func StopAll() {
	inProgress := runs.All()
	for _, p := range inProgress {
		p.stop()
	}
	deadline := time.After(stopWait)
	for _, p := range inProgress {
		select {
		case <-p.over:
		case <-deadline:
			return
		}
	}
}
