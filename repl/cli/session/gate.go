package session

import (
	"context"
	"errors"

	"github.com/locklab/locklab/repl/cli/resp"
)

// Gate decides when a session's next command goes out: a scheduler that
// lets sessions take turns in an order of its choosing (explore runs every
// interleaving this way). A normal run has none.
type Gate interface {
	// Turn waits until the command args of session name may be sent, or
	// ctx ends. release is called once the command's reply (or error)
	// came back, with its event: the turn is over, and the gate may tell
	// from the answer what the command did (a poll that got the same
	// answer again, say).
	Turn(ctx context.Context, name string, args []string) (release func(Event), err error)
}

// GateMiddleware makes each command wait for its turn at g. Install it
// first (outermost), so that the whole of what a command sends, a probe's
// MULTI included, is one turn. A command refused its turn (ctx ended) is
// not sent: its event carries the error.
func GateMiddleware(g Gate) Middleware {
	loser, _ := g.(ReplyLoser)
	return func(next Do) Do {
		return func(ctx context.Context, c *Conn, args []string) (Event, error) {
			start := Now(ctx)
			release, err := g.Turn(ctx, CallOf(ctx).Session, args)
			if err != nil && ctx.Err() == nil {
				err = &GateError{Err: err}
			}
			if err != nil {
				return Event{Args: args, Err: err, Start: start, End: Now(ctx)}, err
			}
			var e Event
			defer func() { release(e) }() // deferred: a turn ends however the command does
			e, err = next(ctx, c, args)
			if loser != nil && err == nil && loser.ReplyLost(CallOf(ctx).Session) {
				e.Reply, e.Err, err = resp.Reply{}, ErrReplyLost, ErrReplyLost
			}
			return e, err
		}
	}
}

// ReplyLoser is a gate that may lose a command's reply (explore's
// lost-reply fault, a saved schedule's): the server ran the command, and
// its session gets ErrReplyLost instead of the answer, as a client whose
// read timed out would.
type ReplyLoser interface {
	// ReplyLost reports whether the reply of session name's command that
	// has just gone is lost (asked once, after the server answered).
	ReplyLost(name string) bool
}

// ErrReplyLost is the error of a command whose reply was lost.
var ErrReplyLost = errors.New("no reply: it was lost on the way back (the server ran the command)")

// GateError is a command its gate refused: it was not sent, and nothing
// is wrong with the connection.
type GateError struct{ Err error }

func (e *GateError) Error() string { return e.Err.Error() }
func (e *GateError) Unwrap() error { return e.Err }
