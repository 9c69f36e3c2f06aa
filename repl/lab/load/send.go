package load

import (
	"errors"
	"fmt"
	"strings"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/lab/scripts"
)

// call is one command of a round trip: a plain command, or a script run
// with EVALSHA (EVAL when the server answers NOSCRIPT).
type call struct {
	args   []string
	script *scripts.Script // the script EVALSHA runs, or nil
}

func cmd(args ...string) call { return call{args: args} }

// runScript calls s with all its keys, then its other arguments.
func runScript(s *scripts.Script, keysThenArgs ...string) call {
	n := s.NumKeys()
	return runScriptOn(s, keysThenArgs[:n], keysThenArgs[n:]...)
}

// runScriptOn calls s with these keys (a script's optional keys may be
// left out) and arguments.
func runScriptOn(s *scripts.Script, keys []string, args ...string) call {
	return call{args: s.EvalSHA(keys, args...), script: s}
}

// unansweredError is a round trip that got no answer: the stop cut it
// after grace, or the connection broke. The server may or may not have run
// its commands.
type unansweredError struct{ err error }

func (e unansweredError) Error() string { return e.err.Error() }
func (e unansweredError) Unwrap() error { return e.err }

// unanswered reports whether err is a round trip that got no answer.
func unanswered(err error) bool {
	var u unansweredError
	return errors.As(err, &u)
}

// send sends calls in one round trip (a pipeline of them all, or one
// command) and returns their replies in order; an error reply is an
// error. Only the last call may be a script: when the server answers it
// NOSCRIPT (its scripts were flushed) it is sent again alone as EVAL, and
// it must not run before the calls ahead of it. When that second round
// trip gets no answer, send returns the answers of the calls ahead of the
// script with the error: those calls did run.
func (w *worker) send(calls ...call) ([]resp.Reply, error) {
	for _, c := range calls[:len(calls)-1] {
		if c.script != nil {
			panic("load: a script must be the last call of a round trip")
		}
	}
	replies, err := w.roundTrip(calls)
	if err != nil {
		return nil, err
	}
	last := len(calls) - 1
	if err := w.errorReply(calls[:last], replies[:last]); err != nil {
		return nil, err
	}
	if s := calls[last].script; s != nil && isNoScript(replies[last]) {
		eval := append([]string{"EVAL", s.Body}, calls[last].args[2:]...)
		again, err := w.roundTrip([]call{{args: eval}})
		if err != nil {
			return replies[:last], err
		}
		replies[last] = again[0]
	}
	if err := w.errorReply(calls[last:], replies[last:]); err != nil {
		return nil, err
	}
	return replies, nil
}

// errorReply is the first error reply among replies, as an error.
func (w *worker) errorReply(calls []call, replies []resp.Reply) error {
	for i, r := range replies {
		if r.Kind == resp.Error {
			return fmt.Errorf("%s: %s: %s", w.name, describe(calls[i].args), r.Str)
		}
	}
	return nil
}

// roundTrip sends calls as they are: one command with Do, more in one
// pipeline with DoBatch. A round trip that gets no answer is counted, and
// its error is an unansweredError.
func (w *worker) roundTrip(calls []call) ([]resp.Reply, error) {
	replies, err := w.exchange(calls)
	if err != nil {
		w.c.unanswered.Add(1)
		return nil, unansweredError{err}
	}
	return replies, nil
}

func (w *worker) exchange(calls []call) ([]resp.Reply, error) {
	w.commands += int64(len(calls))
	if len(calls) == 1 {
		r, err := w.conn.Do(w.cmdCtx, calls[0].args)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", w.name, describe(calls[0].args), err)
		}
		return []resp.Reply{r}, nil
	}
	batch := make([][]string, len(calls))
	for i, c := range calls {
		batch[i] = c.args
	}
	replies, err := w.conn.DoBatch(w.cmdCtx, batch)
	if err == nil && len(replies) != len(calls) {
		err = fmt.Errorf("%d replies to %d commands", len(replies), len(calls))
	}
	if err != nil {
		names := make([]string, len(calls))
		for i, c := range calls {
			names[i] = describe(c.args)
		}
		return nil, fmt.Errorf("%s: %s: %w", w.name, strings.Join(names, ", "), err)
	}
	return replies, nil
}

func isNoScript(r resp.Reply) bool {
	return r.Kind == resp.Error && strings.HasPrefix(r.Str, "NOSCRIPT")
}

// describe names a command in an error: its name and key (a script by its
// name alone: the SHA says nothing).
func describe(args []string) string {
	if len(args) < 2 || args[0] == "EVALSHA" || args[0] == "EVAL" {
		return args[0]
	}
	return args[0] + " " + args[1]
}
