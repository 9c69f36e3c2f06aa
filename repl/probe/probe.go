package probe

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/locklab/locklab/repl/check"
	"github.com/locklab/locklab/repl/resp"
	"github.com/locklab/locklab/repl/session"
)

// States is what the probe attaches to an event (session.Event.Probe):
// the lock keys the command touched, as they were just before and just
// after it.
type States struct {
	Before, After []check.KeyState
}

// Prober is the lock-key memory of one run: the keys some session
// acquired with SET ... NX, and any key named lock:...
type Prober struct {
	mu    sync.Mutex
	locks map[string]bool // guarded by mu: sessions send concurrently
}

// New makes a Prober that knows no lock yet.
func New() *Prober { return &Prober{locks: map[string]bool{}} }

// Middleware probes the commands on lock keys. It sends the probe on the
// command's connection itself, so it goes last (innermost) in a chain. A
// command inside MULTI or WATCH is sent as it is: a probe would change
// its meaning. A lock acquired there is remembered all the same.
func (p *Prober) Middleware() session.Middleware {
	return func(next session.Do) session.Do {
		return func(ctx context.Context, c *session.Conn, args []string) (session.Event, error) {
			pl, ok := p.plan(args)
			if !ok || session.CallOf(ctx).Transaction {
				return next(ctx, c, args)
			}
			return pl.send(ctx, c, args, next)
		}
	}
}

// plan remembers a lock acquired by args, and decides how to probe them.
func (p *Prober) plan(args []string) (plan, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if key, _, _, ok := check.IsSetNX(args); ok {
		p.locks[key] = true
	}
	return planFor(args, func(k string) bool { return p.locks[k] || strings.HasPrefix(k, "lock:") })
}

// send sends args inside the probe's MULTI; when the transaction did not
// run (EXECABORT), it sends them alone through next, for the real error.
func (pl plan) send(ctx context.Context, c *session.Conn, args []string, next session.Do) (session.Event, error) {
	start := time.Now()
	replies, err := c.DoBatch(ctx, pl.batch(args))
	if err != nil {
		return session.Event{Args: args, Err: err, Start: start, End: time.Now()}, err
	}
	reply, states, ok := pl.read(replies[len(replies)-1])
	if !ok {
		e, err := next(ctx, c, args)
		e.Start = start
		return e, err
	}
	return session.Event{Args: args, Reply: reply, Start: start, End: time.Now(), Probe: states}, nil
}

// CheckEvent is e as the annotator reads it, with the key states the
// probe attached, if any.
func CheckEvent(e session.Event) check.Event {
	r := check.Reply{Nil: e.Reply.Kind == resp.Nil, Str: e.Reply.Str, Int: e.Reply.Int, IsInt: e.Reply.Kind == resp.Int}
	if e.Reply.IsError() {
		r.Err, r.Str = e.Reply.Str, ""
	}
	states, _ := e.Probe.(States)
	return check.Event{Session: e.Session, Args: e.Args, Reply: r, Start: e.Start, End: e.End, Before: states.Before, After: states.After}
}
