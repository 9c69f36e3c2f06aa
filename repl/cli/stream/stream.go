package stream

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/locklab/locklab/repl/cli/session"
)

// Banner is what redis-cli 7.0 prints before the messages of SUBSCRIBE,
// PSUBSCRIBE and SSUBSCRIBE in its terminal format (not for MONITOR, and
// not raw). redis-cli 7.2 added " or any key to type command", for the
// commands it takes while subscribed: locklab takes none.
const Banner = "Reading messages... (press Ctrl-C to quit)"

// Printer is where a command's replies go.
type Printer struct {
	Out     io.Writer           // the session's stdout, for the banner
	TTY     bool                // replies print in redis-cli's terminal format: the banner shows
	Deliver func(session.Event) // prints one reply (reply.Printer.Deliver)
}

// Do sends args in sess and delivers what comes back to p: the one reply,
// or, for a command after which the server keeps sending (see
// session.Streams), every message as it comes, until ctx ends or the
// main lines of the run are done and the messages sent before that have
// come (see Scope). Inside MULTI such a command is only queued, and gets
// one reply. Do returns the last event delivered; the error is the
// connection's, or ctx's when it ended first.
func Do(ctx context.Context, sess *session.Session, args []string, p Printer) (session.Event, error) {
	if !sess.Streams(args) {
		e, err := sess.Do(ctx, args)
		if err == nil {
			p.Deliver(e)
		}
		return e, err
	}
	if p.TTY && !strings.EqualFold(args[0], "MONITOR") {
		fmt.Fprintln(p.Out, Banner)
	}
	var last session.Event
	err := sess.Stream(ctx, ended(ctx), args, func(e session.Event) {
		last = e
		p.Deliver(e)
	})
	return last, err
}

type scopeKey struct{}

// scope is a run's: closed when its main lines are done.
type scope struct {
	done context.Context
	end  context.CancelFunc
}

// Scope returns ctx with a scope of its own: the streams started under it
// (its background jobs share its context) end when End is called on it,
// once the messages the server sent them by then are printed.
func Scope(ctx context.Context) context.Context {
	done, end := context.WithCancel(context.Background())
	return context.WithValue(ctx, scopeKey{}, scope{done: done, end: end})
}

// End ends the streams of ctx's innermost scope, and any started in it
// from now on: the main lines of its run are done, and the run is about
// to wait for its jobs.
func End(ctx context.Context) {
	if sc, ok := ctx.Value(scopeKey{}).(scope); ok {
		sc.end()
	}
}

// ended is done when the main lines of ctx's run are (never, outside
// a run).
func ended(ctx context.Context) context.Context {
	if sc, ok := ctx.Value(scopeKey{}).(scope); ok {
		return sc.done
	}
	return context.Background()
}
