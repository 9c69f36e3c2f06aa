package explore

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/locklab/locklab/repl/cli/output"
	"github.com/locklab/locklab/repl/cli/server"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/explore/oracle"
	"github.com/locklab/locklab/repl/explore/sched"
	"github.com/locklab/locklab/repl/lab"
	"github.com/locklab/locklab/repl/lab/check"
	"github.com/locklab/locklab/repl/lab/probe"
	"github.com/locklab/locklab/repl/lab/scripts"
	"github.com/locklab/locklab/repl/lab/timeline"
	"github.com/locklab/locklab/repl/lang/lines"
	"github.com/locklab/locklab/repl/lang/shell"
	"github.com/locklab/locklab/repl/lang/words"
)

// Script is what to explore: a lab script's text and how to run it.
type Script struct {
	Name    string   // its file name (for positions and the summary)
	Text    []byte   // its lines
	Args    []string // $1, $2 ...
	Scripts fs.FS    // the lab's own scripts (nil: none)
	Dir     string   // where it runs

	// prepared is the script as its first run read it, for the runs
	// after, and servers the embedded servers ended runs left, reset for
	// the next (explore sets both; nil: each run reads the text and
	// starts a server of its own, as --plain asks).
	prepared *shell.Prepared
	servers  *servers
}

// start is the virtual time every schedule starts at.
var start = time.Date(2024, 5, 1, 14, 0, 0, 0, time.UTC)

// outcome is what one schedule did.
type outcome struct {
	choices  []sched.Choice
	picks    []int        // the choices' picks: the schedule's place in depth-first order
	steps    []string     // every command sent ("session command")
	schedule []sched.Step // the same as the schedule's steps: a poll is one
	bad      []check.Kind // the verdict's bug kinds, sorted
	cleared  bool         // the verdict said all clear
	status   int          // the script's exit status (1: an expectation failed)
	output   string       // its transcript
	diverged bool
	cut      bool // stopped as equivalent to another schedule (reduction)
	stuck    bool // a fault left it unable to go on (see stuckByFault)
	preempts int
	faults   int               // faults that happened (--faults)
	number   int               // its place in the search's order, from 1
	picture  timeline.Timeline // its timeline (a replay's only)
}

// group is the schedule's verdict as the summary counts it: its bug
// kinds (DOUBLE BOOKING + OVERLAP), else "all clear" when the verdict
// said so, else "no verdict" (the run judged nothing, or could not: a
// command failed, nothing was contested).
func (o *outcome) group() string {
	switch {
	case o.stuck:
		return stuckGroup
	case len(o.bad) > 0:
		return groupName(o.bad)
	case o.cleared:
		return allClear
	}
	return noVerdict
}

// The groups of schedules with no bug.
const (
	allClear   = "all clear"
	noVerdict  = "no verdict"
	stuckGroup = "stuck after a fault"
)

// failed reports whether the schedule broke a property: a bug verdict,
// or a failed expectation (or any other failure of the script).
func (o *outcome) failed() bool { return len(o.bad) > 0 || o.status != 0 }

// breaks reports whether o breaks property: a comma-separated list of
// bug kinds (double-booking, overlap ...) and "expect" (the script's own
// checks); "" for any bug or failure (failed).
func (o *outcome) breaks(property string) bool {
	if property == "" {
		return o.failed()
	}
	for _, p := range strings.Split(property, ",") {
		if p == "expect" && o.status != 0 || slices.Contains(o.bad, check.Kind(p)) {
			return true
		}
	}
	return false
}

// runOnce runs sc once on a fresh embedded Redis, under a scheduler
// that replays p's prefix and takes the first choice after it.
func runOnce(ctx context.Context, sc Script, p plan) (*outcome, error) {
	s := sched.New(clock.NewVirtual(start), p.Plan)
	r, err := sc.servers.get(s)
	if err != nil {
		return nil, err
	}
	clean, e := false, r.server
	defer func() { sc.servers.put(r, clean) }() // after the sessions and the shell close
	set := session.NewSet(session.Target{Network: "tcp", Addr: "127.0.0.1:0", Embedded: true, InProcess: e, Links: r.links})
	set.SetClock(s.Stamp)
	set.UseGate(s) // outermost: a probe's MULTI is one step; Redlock's nodes take their turns at it too
	set.Use(probe.New().Middleware())
	defer set.Close()
	out, refusal := &output.Buffer{}, &runRefusal{}
	var run *lab.Run
	observe := func(c words.ObserverConfig) words.Observer { run = lab.NewRun(c); return run }
	sh, err := shell.New(shell.Config{Sessions: set, Stdout: out, Stderr: out, Notes: true, Trace: p.picture,
		Gutter: p.picture, Color: p.picture && p.color,
		Clock: s, Tracker: s, Seed: randomSeed, Scripts: sc.Scripts, Dir: sc.Dir, Refuse: refusal.check, Observe: observe, Hint: scripts.LuaHint})
	if err != nil {
		return nil, err
	}
	defer sh.Close()
	if p.faults != nil {
		s.InjectFaults(p.faults(faultRig{server: e, run: run}, sh.Lane("fault"))) // run: made by shell.New
	}
	if p.oracle {
		s.Between((&oracle.Oracle{Server: e, Checker: run, Now: s.Now}).Check)
	}
	status, err := runScript(ctx, s, sh, sc, len(p.Prefix) == 0 || p.picture)
	if refused := refusal.err(); refused != nil {
		return nil, refused // the search stops: no schedule of this script can run
	}
	ran := s.Ran()
	if d := (*oracle.Divergence)(nil); errors.As(err, &d) {
		d.Choices = picks(ran.Choices)
	}
	o := &outcome{choices: ran.Choices, steps: ran.Steps, schedule: ran.Schedule, status: status, diverged: ran.Diverged, preempts: ran.Preempts, faults: ran.Faults}
	if errors.Is(err, sched.ErrEquivalent) {
		o.cut, clean = true, true
		return o, nil
	}
	if stuckByFault(err, ran) {
		o.stuck, o.output = true, out.String()
		return o, nil
	}
	sayScriptRuns(err, e)
	if err != nil {
		return nil, err
	}
	main := set.Get(session.Main)
	o.judge(run.EndVerdict(ctx, main))
	if p.picture {
		o.picture = run.Timeline(ctx, main)
	}
	if p.draw > 0 {
		sh.DrawTimeline(ctx, p.draw)
	}
	o.output = out.String()
	clean = true
	return o, nil
}

// randomSeed starts every $RANDOM of every schedule (shell.Config.Seed):
// the same numbers in every run that takes the same course, so that a
// schedule whose tokens come from $RANDOM replays. ($SRANDOM, read from
// the system, still differs: explore says so when a replay does.)
const randomSeed = 1

// runScript runs the script while the scheduler drives it from a
// goroutine of its own, and returns the script's exit status. Only a search's first run
// (the empty prefix, which runs before any other) checks the script for
// commands that can never run: the same text passes in every run.
func runScript(ctx context.Context, s *sched.Sched, sh *shell.Shell, sc Script, precheck bool) (int, error) {
	run, cancel := context.WithCancel(ctx)
	defer cancel()
	driven := make(chan error, 1)
	go func() {
		err := s.Drive(ctx)
		if err != nil {
			cancel()
		}
		driven <- err
	}()
	src := shell.Source{Lines: lines.From(bytes.NewReader(sc.Text)), Name: sc.Name, Args: sc.Args,
		Whole: true, Precheck: precheck, Summary: sc.Name, Prepared: sc.prepared}
	runErr := sh.Run(run, src) // on the worker's own goroutine, whose stack has grown to the interpreter's depth already
	s.RunDone()
	driveErr := <-driven
	if ctx.Err() != nil {
		return 0, ctx.Err() // stopped (Ctrl-C): not a schedule that ran
	}
	if driveErr != nil {
		return 0, driveErr
	}
	if msg := words.Describe(runErr); msg != "" {
		return words.ExitCode(runErr), &scriptError{strings.TrimPrefix(msg, "locklab: ")} // the caller says locklab
	}
	return words.ExitCode(runErr), nil
}

// stuckByFault reports whether a schedule stopped after a fault happened
// in it because only polls were left that nothing could change: a poll
// waiting for what the fault took away (a lock that expired before the
// poll saw it) waits for ever. That is one of the schedules --faults
// explores, counted as such, not a script that cannot be explored. A
// stall on the wall clock or a loop past the step limit stops the search
// as it does without faults.
func stuckByFault(err error, ran sched.Ran) bool {
	var stuck *sched.StuckError
	return ran.Faults > 0 && errors.As(err, &stuck) && stuck.Polling
}

// sayScriptRuns adds to a schedule stuck on the wall clock what the
// embedded server says of it: a script of the schedule's is still
// running there, which nothing can stop (`EVAL "while true do end" 0`).
func sayScriptRuns(err error, e *server.Embedded) {
	var stuck *sched.StuckError
	if errors.As(err, &stuck) && e.ScriptRunning() {
		stuck.Why += "; the embedded Redis is still running its script, which nothing there can stop: it keeps a CPU busy until locklab ends; on redis-server, SCRIPT KILL stops one"
	}
}

// scriptError is a script that could not run (a syntax error, say).
type scriptError struct{ msg string }

func (e *scriptError) Error() string { return e.msg }

// judge keeps what the run's verdict said: its bug kinds, and whether
// it said all clear.
func (o *outcome) judge(verdict []check.Finding) {
	o.bad = badKinds(verdict)
	o.cleared = slices.ContainsFunc(verdict, func(f check.Finding) bool { return f.Kind == check.AllClear })
}

// badKinds are the kinds of the findings that name a bug, sorted, once
// each.
func badKinds(fs []check.Finding) []check.Kind {
	var kinds []check.Kind
	for _, f := range fs {
		if f.Bad() && !slices.Contains(kinds, f.Kind) {
			kinds = append(kinds, f.Kind)
		}
	}
	slices.Sort(kinds)
	return kinds
}
