package lab

import (
	"context"
	"fmt"
	"slices"

	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/expect"
	"github.com/locklab/locklab/repl/lab/macros"
	"github.com/locklab/locklab/repl/lab/record"
	"github.com/locklab/locklab/repl/lab/redlock"
	"github.com/locklab/locklab/repl/lab/reply"
	"github.com/locklab/locklab/repl/lang/flags"
	"github.com/locklab/locklab/repl/lang/words"
)

// Words are the lesson's words, in the order help lists them: the
// checks (seats, expect, verdict, timeline), load, the failover lab,
// Redlock, the Locks Lab's make, then the macros.
func Words() []words.Word {
	ws := []words.Word{
		{Name: "seats", Kind: words.Lab, Run: seatsWord, Spec: seatsSpec, Summary: "tell the notes how many bookings SLOT may hold (1 unless told)"},
		{Name: "expect", Kind: words.Lab, Run: expectWord, Check: checkExpect, Help: expect.Help,
			Usage:   "expect CMD ... OP VALUE | expect reply VALUE | expect verdict KIND | expect lines REGEX OP N",
			Summary: "check the run (a self-checking .lab script); help expect for the grammar"},
		{Name: "timeline", Kind: words.Lab, Run: timelineWord, Spec: timelineSpec,
			Summary: "draw the last run: a lane per session, time flowing down, a bar per lock"},
		{Name: "load", Kind: words.Lab, Run: loadWord, Spec: loadSpec, Effects: loadEffects,
			Unexplorable: "it runs its own workers for thousands of steps; run it without explore",
			Summary:      "stress the lock: N workers x M acquire/work/release cycles, counted from the server's answers (--json, --modes)"},
		{Name: "cluster", Kind: words.Lab, Run: clusterWord, Spec: clusterSpec,
			Unexplorable: "it starts real redis-server processes, which do not run on virtual time",
			Summary:      "a primary and a replica (real redis-server children, a proxy in their link) for the failover lab"},
		{Name: "on", Kind: words.Lab, Run: onWord, Usage: "@NAME on primary|replica COMMAND ...",
			Unexplorable: "it reaches a real cluster's node (cluster)",
			Summary:      "session NAME now talks to the cluster's primary or replica (and stays there), then runs COMMAND"},
		{Name: "link", Kind: words.Lab, Run: linkWord, Spec: linkSpec,
			Unexplorable: "it cuts a real replication link (cluster)",
			Summary:      "drop the replication stream (primary->replica, or both ways), keeping the connection open"},
		{Name: "crash", Kind: words.Lab, Run: crashWord, Spec: crashSpec, UnexplorableCall: crashUnexplorable,
			Summary: "SHUTDOWN NOSAVE NOW on the primary (nothing unreplicated survives), or stop a redlock node (its data gone)"},
		{Name: "promote", Kind: words.Lab, Run: promoteWord, Spec: promoteSpec,
			Unexplorable: "it promotes a real replica (cluster)",
			Summary:      "REPLICAOF NO ONE: the replica becomes the primary (`@NAME on primary` follows it)"},
		{Name: "replication", Kind: words.Lab, Run: replicationWord, Spec: &flags.Spec{Name: "replication"},
			Unexplorable: "it reads a real cluster's replication offsets",
			Summary:      "both roles, the primary's and the replica's offsets, the bytes the link dropped"},
		{Name: "redlock", Kind: words.Lab, Run: redlockWord, Spec: redlock.Spec, Effects: redlockEffects, UnexplorableCall: redlockUnexplorable,
			Summary: "lesson 5: N independent nodes (A..E) and the Redlock algorithm, each node's answer shown"},
		{Name: "clock", Kind: words.Lab, Run: redlockWord, Spec: redlock.ClockSpec, Effects: clockEffects, Summary: "move one redlock node's clock (and its TTLs)"},
		{Name: "restart", Kind: words.Lab, Run: redlockWord, Spec: redlock.RestartSpec, Summary: "bring a crashed redlock node back, empty"},
		{Name: "pause", Kind: words.Lab, Run: redlockWord, Spec: redlock.PauseSpec, Summary: "stop a whole session, its watchdog included, for DUR (a GC pause)"},
		{Name: "make", Kind: words.Lab, Run: makeWord, Spec: makeSpec,
			Summary: "the lesson's Locks Lab: make break (plain DEL), make test (the Lua release), make load"},
		{Name: "record", Kind: words.Lab, Run: recordWord, Spec: recordSpec, Unexplorable: "it writes a file at the REPL's prompt",
			Summary: "write the entries typed from now on to a .lab that checks itself (record stop ends it)"},
		{Name: "verdict", Kind: words.Lab, Run: verdictWord, Spec: &flags.Spec{Name: "verdict"},
			Summary: "the verdict on the run so far: double booking, wrong-owner deletes, overlaps, or all clear"},
	}
	for i := range macros.Macros {
		ws = append(ws, macroWord(&macros.Macros[i]))
	}
	return ws
}

// redlockUnexplorable says why explore cannot run a `redlock` call:
// `redlock up --real` (redis-server processes) and `--client redsync`
// (its library's goroutines); embedded nodes it runs on its own clock,
// each command to a node a step.
func redlockUnexplorable(args []string) string {
	p, err := redlock.Spec.Parse(args[1:])
	switch {
	case err != nil || p.Sub != "up":
		return "" // wrong words fail as the call runs
	case p.Bool("real"):
		return "`redlock up --real` starts redis-server processes, which do not run on virtual time; explore runs Redlock on embedded nodes (redlock up without --real)"
	case p.String("client") == "redsync":
		return "`redlock up --client redsync` runs go-redsync, which sends to the nodes from goroutines of its own that explore cannot order; explore runs locklab's own client (--client locklab)"
	}
	return ""
}

// crashUnexplorable says why explore cannot run a `crash` call: `crash
// primary` kills a real cluster's primary; a Redlock node it crashes.
func crashUnexplorable(args []string) string {
	if len(args) == 2 && args[1] == "primary" {
		return "it kills the primary of a cluster of real redis-server processes (cluster)"
	}
	return ""
}

// recorderOf is the run's record in the shell env runs in.
func recorderOf(env words.Env) *record.Recorder { return record.Part.Of(env) }

// findings is the verdict on the run so far, unprinted.
func findings(ctx context.Context, env words.Env) []check.Finding {
	return recorderOf(env).Judge(ctx, env.Sessions().Get(session.Main))
}

// verdictWord prints the verdict on the run so far.
func verdictWord(ctx context.Context, env words.Env, args []string) error {
	if len(reply.Part.Of(env).Judge(ctx, env.Stdout(), env.Sessions().Get(session.Main))) == 0 {
		fmt.Fprintln(env.Stdout(), "verdict: nothing yet: no lock or booking in this run")
	}
	return nil
}

var seatsSpec = &flags.Spec{Name: "seats", Args: []flags.Arg{{Name: "SLOT"}, {Name: "N", Kind: flags.Int, Min: 1}}}

// seatsWord is `seats SLOT N`: the notes judge SLOT's bookings against N.
func seatsWord(ctx context.Context, env words.Env, args []string) error {
	p, err := seatsSpec.Parse(args[1:])
	if err != nil {
		return err
	}
	recorderOf(env).SetSeats(p.Args[0], p.Int("N"))
	return nil
}

// checkExpect is expect's grammar, checked before the script runs when
// every word of it is known.
func checkExpect(args []string, known []bool) error {
	if slices.Contains(known, false) {
		return nil
	}
	_, err := expect.Parse(args)
	return err
}
