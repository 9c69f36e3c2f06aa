package redlock

import (
	"fmt"
	"time"

	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/quorum"
)

// step is a node's answer as the checker (repl/lab/quorum) reads it.
func (a Answer) step() quorum.Step {
	s := quorum.Step{Node: a.Node, Args: a.Args, Start: a.Start, End: a.End}
	if a.Err != nil {
		s.NoAnswer = a.Err.Error()
		return s
	}
	r := a.Reply
	s.Reply = check.Reply{Nil: r.Kind == resp.Nil, Str: r.Str, Int: r.Int, IsInt: r.Kind == resp.Int}
	if r.IsError() {
		s.Reply.Err, s.Reply.Str = r.Str, ""
	}
	return s
}

func steps(answers []Answer) []quorum.Step {
	out := make([]quorum.Step, len(answers))
	for i, a := range answers {
		out[i] = a.step()
	}
	return out
}

// Quorum is the attempt as the checker reads it: its nodes' answers and
// its client's conclusion.
func (a *Attempt) Quorum() quorum.Attempt {
	return quorum.Attempt{Lab: a.Lab, Nodes: a.Of, Session: a.Holder, Key: a.Key, Token: a.Token,
		Start: a.Start, Validity: a.Validity, Granted: a.Granted, Set: steps(a.Set), Released: steps(a.Released)}
}

// Gen numbers the lab's `redlock up`s: nodes of another are other
// servers, and a grant there never overlaps one here.
func (l *Lab) Gen() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.gen
}

// fault prints what the lab did to its current nodes (text, "" for
// nothing) and gives it to the run's record, in the calling session's
// name, at the time the nodes' answers are read on (timing).
func (l *Lab) fault(env Env, kind quorum.FaultKind, node string, by time.Duration, text string) {
	env.Recorder().Fault(env.Session(), text, quorum.Fault{Lab: l.Gen(), Node: node, Kind: kind, By: by, At: timing(env).Now()})
	if text != "" {
		fmt.Fprintln(env.Stdout(), text)
	}
}

// timing is the clock a word times what it does to the nodes on: the
// time the sessions' events are stamped with (the wall clock, or under
// explore virtual time plus a nanosecond per step, so that the nodes'
// answers and the sessions' commands of one instant keep their order),
// waiting on the lab's clock.
func timing(env Env) clock.Clock { return stamps{Clock: env.Clock(), now: env.Sessions().Now} }

// stamps is a clock that reads now and sleeps on Clock.
type stamps struct {
	clock.Clock
	now func() time.Time
}

func (s stamps) Now() time.Time { return s.now() }
