package probe

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/lockargs"
)

// States is what the probe attaches to an event (session.Event.Probe):
// the lock keys the command touched, as they were just before and just
// after it.
type States struct {
	Before, After []check.KeyState
	// Served is the server's clock when it ran the command (TIME, read in
	// the same transaction); zero when it could not be read.
	Served time.Time
	// Flight is the command's place in the order the server ran the
	// probed commands: the recorder waits for its turn (Flight.Wait)
	// before it annotates the event.
	Flight *Flight
}

// Prober is the lock-key memory of one run: the keys some session
// acquired with SET ... NX, and any key named lock:...
type Prober struct {
	mu    sync.Mutex
	locks map[string]bool // guarded by mu: sessions send concurrently
	order *order          // the probed commands in flight
}

// New makes a Prober that knows no lock yet.
func New() *Prober { return &Prober{locks: map[string]bool{}, order: newOrder()} }

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
			return pl.send(ctx, p.order.send(session.CallOf(ctx).Session, c.Server()), c, args, next)
		}
	}
}

// plan remembers a lock acquired by args, and decides how to probe them.
func (p *Prober) plan(args []string) (plan, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if key, _, _, ok := lockargs.IsSetNX(args); ok {
		p.locks[key] = true
	}
	return planFor(args, func(k string) bool { return p.locks[k] || strings.HasPrefix(k, "lock:") })
}

// send sends args inside the probe's MULTI, as flight f; when the
// transaction did not run (EXECABORT), it sends them alone through next,
// for the real error (an event with no server time).
func (pl plan) send(ctx context.Context, f *Flight, c *session.Conn, args []string, next session.Do) (session.Event, error) {
	start := session.Now(ctx)
	replies, err := c.DoBatch(ctx, pl.batch(args))
	end := session.Now(ctx)
	if err != nil {
		f.fail()
		return session.Event{Args: args, Err: err, Start: start, End: end}, err
	}
	reply, states, ok := pl.read(replies[len(replies)-1])
	if !ok {
		f.fail()
		e, err := next(ctx, c, args)
		e.Start = start
		return e, err
	}
	f.answer(end, args, reply, states)
	states.Flight = f
	return session.Event{Args: args, Reply: reply, Start: start, End: end, Probe: states}, nil
}

// FlightOf is the flight of a probed event; nil for any other.
func FlightOf(e session.Event) *Flight {
	states, _ := e.Probe.(States)
	return states.Flight
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
