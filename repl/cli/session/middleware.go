package session

import (
	"context"
	"time"
)

// Do sends one command on c and returns its event. The innermost Do of a
// Set's chain sends args on c as they are; a middleware may send
// something else instead (the lab's probe sends the command inside a
// MULTI) as long as the event it returns is the command's.
type Do func(ctx context.Context, c *Conn, args []string) (Event, error)

// Middleware wraps a Do: it may look at the command and its Call, wait,
// change what is sent, attach something to the event (Event.Probe), or
// pass straight through to next.
type Middleware func(next Do) Do

// Call is what a middleware knows of the command it wraps, besides its
// arguments and connection: read it with CallOf.
type Call struct {
	Session string // the session the event is recorded under
	// Transaction is set when the connection is inside MULTI or has
	// WATCHed keys, or its replies are off (CLIENT REPLY): anything more
	// sent on it would change the meaning of the command (queue it, or
	// abort the EXEC to come), or get no reply.
	Transaction bool
	now         func() time.Time // the set's clock
}

// Now is the time on the clock of the set the command runs in (the wall
// clock outside a Set's chain): what events are stamped with.
func Now(ctx context.Context) time.Time {
	if now := CallOf(ctx).now; now != nil {
		return now()
	}
	return time.Now()
}

type callKey struct{}

// CallOf is the Call of the command a Do was called for (the zero Call
// outside a Set's chain).
func CallOf(ctx context.Context) Call {
	c, _ := ctx.Value(callKey{}).(Call)
	return c
}

func withCall(ctx context.Context, c Call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

// send is the innermost Do: args on c, as they are.
func send(ctx context.Context, c *Conn, args []string) (Event, error) {
	e := Event{Args: args, Start: Now(ctx)}
	reply, err := c.Do(ctx, args)
	e.Reply, e.Err, e.End = reply, err, Now(ctx)
	return e, err
}

// chain wraps send in mws, the first outermost.
func chain(mws []Middleware) Do {
	do := Do(send)
	for i := len(mws) - 1; i >= 0; i-- {
		do = mws[i](do)
	}
	return do
}
