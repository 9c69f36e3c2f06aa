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
			if err == nil && LosesReply(g, CallOf(ctx).Session) {
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

// LosesReply reports whether g loses the reply of the command session
// name has just sent (g is a ReplyLoser that says so): the session gets
// ErrReplyLost instead, on the lab's server or one of its own (TurnOn).
func LosesReply(g Gate, name string) bool {
	loser, ok := g.(ReplyLoser)
	return ok && loser.ReplyLost(name)
}

// ErrReplyLost is the error of a command whose reply was lost.
var ErrReplyLost = errors.New("no reply: it was lost on the way back (the server ran the command)")

// ServerGate is a gate that takes apart the commands a session sends to
// a server other than the lab's own (a Redlock node, on a connection of
// the lab's): explore's scheduler, which must know that a key there is
// not the key of the same name on the lab's server.
type ServerGate interface {
	Gate
	// TurnOn is Turn for session name's command args to server: a turn
	// of its own, a step named At(name, server).
	TurnOn(ctx context.Context, name, server string, args []string) (release func(Event), err error)
}

// TurnOn waits at g for the turn of session name's command args to
// server, a server other than the lab's own: with g's TurnOn when it is a
// ServerGate, else as a command of session At(name, server) (a saved
// schedule's order names its steps so).
func TurnOn(ctx context.Context, g Gate, name, server string, args []string) (func(Event), error) {
	if sg, ok := g.(ServerGate); ok {
		return sg.TurnOn(ctx, name, server, args)
	}
	return g.Turn(ctx, At(name, server), args)
}

// At names the commands session name sends to server (another than the
// lab's own) as a gate's steps name sessions: "alice@A" (an @NAME's
// name has no @: words.ValidName).
func At(name, server string) string { return name + "@" + server }

// GateError is a command its gate refused: it was not sent, and nothing
// is wrong with the connection.
type GateError struct{ Err error }

func (e *GateError) Error() string { return e.Err.Error() }
func (e *GateError) Unwrap() error { return e.Err }
