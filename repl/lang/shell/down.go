package shell

import (
	"context"
	"io"
	"sync"

	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lang/words"
)

// errServerDown ends a script whose own server could not be reached.
var errServerDown = words.ErrServerDown

// serverDown stops a script (or -c) at the first command that cannot
// reach its own server: one message and its hint, status 1, instead of the
// same error once per command and expectations failed for want of
// replies. At the prompt the next command tries again, as redis-cli's does.
type serverDown struct {
	once   sync.Once
	cancel context.CancelCauseFunc
}

func stopWhenDown(ctx context.Context) (context.Context, *serverDown) {
	ctx, cancel := context.WithCancelCause(ctx)
	return ctx, &serverDown{cancel: cancel}
}

// stops reports whether err stopped the run (said once, whichever of its
// sessions met it first); false leaves err to words.ConnFailed.
func (d *serverDown) stops(ctx context.Context, stderr io.Writer, t session.Target, err error) bool {
	if d == nil || ctx.Err() != nil || !words.Unreachable(err, t) {
		return false
	}
	d.once.Do(func() {
		words.ServerDown(stderr, t, err)
		d.cancel(errServerDown)
	})
	return true
}
