package probe

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/locklab/locklab/repl/cli/commands"
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
	// DB is the database the command ran on (a key is its database and
	// name).
	DB int
	// Loose is set when Before could not be read in the same step as the
	// command (an EXEC of the user's own MULTI, a blocking command): After
	// was read just after it, and another client's command may have run
	// in between.
	Loose bool
	// Flight is the command's place in the order the server ran the
	// probed commands: the recorder waits for its turn (Flight.Wait)
	// before it annotates the event.
	Flight *Flight
}

// Prober is the lock- and slot-key memory of one run: the keys some
// session acquired with SET ... NX and any key named lock:..., the lists
// some session counted (LLEN) and any key named ...:bookings; each in its
// database (check.DBKey).
type Prober struct {
	mu     sync.Mutex // guards the fields below: sessions send concurrently
	locks  map[dbKey]bool
	slots  map[dbKey]bool
	queued map[*session.Conn][]string // the keys of the commands queued in a user's MULTI
	order  *order                     // the probed commands in flight
}

// dbKey is a key as the server holds it: its database and name.
type dbKey struct {
	db  int
	key string
}

// New makes a Prober that knows no lock yet.
func New() *Prober {
	return &Prober{locks: map[dbKey]bool{}, slots: map[dbKey]bool{}, queued: map[*session.Conn][]string{}, order: newOrder()}
}

// Middleware probes the commands on lock and slot keys. It sends the
// probe on the command's connection itself, so it goes last (innermost)
// in a chain. A command inside MULTI or WATCH is sent as it is: a probe
// would change its meaning; the EXEC that runs a MULTI reads the keys its
// commands named just after it (see after). So does a blocking command,
// which would not block inside the probe's MULTI. A lock acquired inside
// a transaction is remembered all the same.
func (p *Prober) Middleware() session.Middleware {
	return func(next session.Do) session.Do {
		return func(ctx context.Context, c *session.Conn, args []string) (session.Event, error) {
			pl, ok := p.plan(c, args)
			call := session.CallOf(ctx)
			switch {
			case call.Transaction:
				return p.inTransaction(ctx, c, args, pl, next)
			case !ok:
				return next(ctx, c, args)
			case commands.Blocks(args):
				return pl.after(ctx, p.order.send(call.Session, c.Server()), c, args, next)
			}
			return pl.send(ctx, p.order.send(call.Session, c.Server()), c, args, next)
		}
	}
}

// inTransaction sends args as they are, remembering the keys a queued
// command names; the EXEC that runs them reads those keys right after.
func (p *Prober) inTransaction(ctx context.Context, c *session.Conn, args []string, pl plan, next session.Do) (session.Event, error) {
	name := strings.ToUpper(args[0])
	p.mu.Lock()
	switch {
	case name == "MULTI" || name == "DISCARD":
		delete(p.queued, c)
	case name != "EXEC":
		p.queued[c] = append(p.queued[c], pl.keys...)
	}
	keys := p.queued[c]
	if name == "EXEC" {
		delete(p.queued, c)
	}
	p.mu.Unlock()
	if name != "EXEC" || len(keys) == 0 {
		return next(ctx, c, args)
	}
	exec := p.planKeys(c, keys)
	return exec.after(ctx, p.order.send(session.CallOf(ctx).Session, c.Server()), c, args, next)
}

// plan remembers a lock acquired, or a slot counted, by args, and decides
// how to probe them.
func (p *Prober) plan(c *session.Conn, args []string) (plan, bool) {
	db := c.DB()
	p.mu.Lock()
	defer p.mu.Unlock()
	if key, _, _, ok := lockargs.IsSetNX(args); ok {
		p.locks[dbKey{db, key}] = true
	}
	if len(args) == 2 && strings.EqualFold(args[0], "LLEN") {
		p.slots[dbKey{db, args[1]}] = true
	}
	pl, ok := planFor(args, p.knows(db), p.known(db))
	pl.db = db
	for i, k := range pl.keys { // a key named like one is known from now on
		if pl.slots[i] {
			p.slots[dbKey{db, k}] = true
		} else {
			p.locks[dbKey{db, k}] = true
		}
	}
	return pl, ok
}

// planKeys is the plan that reads keys (the run's lock and slot keys
// among them) on c's database.
func (p *Prober) planKeys(c *session.Conn, keys []string) plan {
	db := c.DB()
	p.mu.Lock()
	defer p.mu.Unlock()
	know := p.knows(db)
	pl := plan{db: db}
	for _, k := range keys {
		if kd := know(k); kd != other && !slices.Contains(pl.keys, k) {
			pl.keys, pl.slots = append(pl.keys, k), append(pl.slots, kd == slotKey)
		}
	}
	return pl
}

// knows says what key is on database db; p.mu is held.
func (p *Prober) knows(db int) knows {
	return func(key string) kind {
		name := dbKey{db, key}
		switch {
		case p.slots[name] || strings.HasSuffix(key, ":bookings"):
			return slotKey
		case p.locks[name] || strings.HasPrefix(key, "lock:"):
			return lockKey
		}
		return other
	}
}

// known is every lock and slot key the run knows on database db, sorted;
// p.mu is held.
func (p *Prober) known(db int) []string {
	var out []string
	for _, m := range []map[dbKey]bool{p.locks, p.slots} {
		for k := range m {
			if k.db == db && !slices.Contains(out, k.key) {
				out = append(out, k.key)
			}
		}
	}
	slices.Sort(out)
	return out
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
	r := check.Reply{Nil: e.Reply.Kind == resp.Nil, Str: e.Reply.Str, Int: e.Reply.Int, IsInt: e.Reply.Kind == resp.Int,
		Queued: e.Reply.Kind == resp.Status && e.Reply.Str == "QUEUED"}
	if e.Reply.IsError() {
		r.Err, r.Str = e.Reply.Str, ""
	}
	states, _ := e.Probe.(States)
	return check.Event{Session: e.Session, Args: e.Args, Reply: r, Start: e.Start, End: e.End, Before: states.Before, After: states.After, Loose: states.Loose, DB: states.DB, HasDB: e.Probe != nil,
		Window: e.End.Sub(e.Start)}
}

// after sends args through next, as they are, then reads the plan's keys
// in a transaction of their own (with TIME): as close after the command
// as the protocol allows, for a command that a probe's MULTI would change
// (a blocking one, which would not block) or that ran in the user's own
// MULTI (its EXEC). Nothing is read when the server will not answer.
func (pl plan) after(ctx context.Context, f *Flight, c *session.Conn, args []string, next session.Do) (session.Event, error) {
	e, err := next(ctx, c, args)
	if err != nil || c.Unanswered() {
		f.fail()
		return e, err
	}
	read := append(append([][]string{{"MULTI"}}, pl.reads()...), []string{"TIME"}, []string{"EXEC"})
	replies, rerr := c.DoBatch(ctx, read)
	exec := resp.Reply{}
	if rerr == nil {
		exec = replies[len(replies)-1]
	}
	n := len(pl.reads())
	if exec.Kind != resp.Array || len(exec.Elems) != n+1 {
		f.fail()
		return e, err
	}
	states := States{After: pl.states(exec.Elems[:n]), Served: serverTime(exec.Elems[n]), Loose: true, DB: pl.db}
	f.answer(e.End, args, e.Reply, states)
	states.Flight = f
	e.Probe = states
	return e, err
}
