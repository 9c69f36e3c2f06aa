package shell

import (
	"context"
	"errors"
	"fmt"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/cli/stream"
	"github.com/locklab/locklab/repl/lang/budget"
	"github.com/locklab/locklab/repl/lang/lines"
	"github.com/locklab/locklab/repl/lang/precheck"
	"github.com/locklab/locklab/repl/lang/words"
)

// Source is where a run's entries come from, and how the run ends. Every
// mode is a Source: the REPL (Prompt set), piped stdin, -c LINE, one
// command given as arguments, a script file, and `run FILE`.
type Source struct {
	Lines  lines.Reader
	Name   string        // a script's file name: positions read NAME:LINE:COL
	Prompt func() string // the REPL's prompt; nil: none
	Args   []string      // a script's $1, $2 ...
	// Whole reads the source to its end before anything runs, so that a
	// syntax error (or, with Precheck, a command that can never run) stops
	// it first: a script, and -c LINE. It runs in an interpreter of its
	// own, as a child sh would.
	Whole    bool
	Precheck bool
	// StopWhenDown stops the run at the first command that cannot reach
	// its own server (a script file: what follows needs the server);
	// otherwise, as in -c and at the prompt, the next command tries again.
	StopWhenDown bool
	// Summary names the run in its expectations' summary and asks for the
	// verdict at its end: "" for the REPL and a command as arguments.
	Summary string
	// Prepared, when set, keeps the script as its first run read it, for
	// the next runs of the same text (explore's schedules): Lines is read
	// only while it is empty.
	Prepared *Prepared
	// OnEntry is given each entry's cancel func while it runs, and nil
	// after (the REPL's Ctrl-C cancels one entry and its jobs).
	OnEntry func(context.CancelFunc)
}

// maxBatch and maxBatchBytes bound the plain commands from a pipe that go
// in one pipeline: ten piped lines of 60 MB each were held at once (1.59
// GB, where redis-cli took 0.27 GB).
const (
	maxBatch      = 1000
	maxBatchBytes = 4 << 20
)

// Run runs a source's entries, each parsed once as it is read, until its
// end or `exit`; then it waits for the run's background jobs and, when
// src.Summary is set, prints the verdict and the expectations' summary.
// The error is the run's exit status (see ExitCode).
func (s *Shell) Run(ctx context.Context, src Source) error {
	if !src.Whole {
		return s.run(ctx, s.runner, src, outermost) // each entry is guarded on its own (withEntry)
	}
	stdout, stderr := s.out.Writers(session.Main)
	r, err := s.newRunner(stdout, stderr, session.Main, src.Args...)
	if err != nil {
		return err
	}
	s.seedRandom(r, "")
	guarded, release := budget.Guard(ctx)
	defer release()
	if src.StopWhenDown {
		guarded, s.down = stopWhenDown(guarded)
		defer func() { s.down = nil }()
	}
	err = s.run(guarded, r, src, outermost)
	switch {
	case budget.Over(guarded):
		fmt.Fprintln(stderr, "locklab:", budget.Explain())
		return interp.ExitStatus(1)
	case errors.Is(context.Cause(guarded), errServerDown):
		return interp.ExitStatus(1)
	}
	return err
}

// scope is what a run is to the runs around it.
type scope int

const (
	nested    scope = iota // a script inside a script or -c: part of that run
	ownRun                 // a script run from the prompt: a run of its own
	outermost              // what locklab was given to run
)

// run runs src in r. Every job it starts, and every job those start,
// counts in a group of its own (see jobs.Group), which its end waits for.
func (s *Shell) run(ctx context.Context, r *interp.Runner, src Source, sc scope) error {
	ctx = stream.Scope(ctx) // a SUBSCRIBE in one of its jobs ends with its main lines
	ctx = s.jobs.Group(ctx)
	if !src.Whole {
		err := s.runEntries(ctx, r, src) // its jobs are waited for as an entry of its own
		return s.end(ctx, src, sc, err)
	}
	top := sc != nested
	f, err := s.prepare(src, top)
	if err != nil {
		return err // nothing ran: no verdict, no summary
	}
	var outer [2]int
	if sc == ownRun {
		outer[0], outer[1] = s.obs.TakeExpectations() // the script's summary counts its own
		defer func() { s.obs.AddExpectations(outer[0], outer[1]) }()
	}
	err = s.runWhole(ctx, r, src, f)
	stream.End(ctx)
	if ctx.Err() == nil && !r.Exited() {
		s.waitAll(ctx, r) // a script's jobs finish before it ends, as if it ended in wait
	}
	return s.end(ctx, src, sc, err)
}

// end ends a run: the verdict, when anything happened since the last
// one, and the summary of its expectations.
func (s *Shell) end(ctx context.Context, src Source, sc scope, err error) error {
	s.out.Flush()
	if sc == nested || src.Summary == "" {
		return err
	}
	if ctx.Err() == nil && s.obs.Judged() {
		mainOut, _ := s.out.Writers(session.Main)
		s.verdict(ctx, mainOut)
	}
	return s.finish(src.Summary, err, sc == outermost)
}

// waitAll is the wait at a run's end: for the jobs r started (the
// interpreter's wait), then for the jobs those started, at any depth,
// which r's wait does not see (`both(){ book alice & book bob & }; both &`).
// Ctrl-C (ctx's end) stops it.
func (s *Shell) waitAll(ctx context.Context, r *interp.Runner) error {
	if err := r.Run(ctx, waitStmt); err != nil {
		return err
	}
	return s.jobs.WaitGroup(ctx)
}

// waitStmt is `wait`, run at the end of a run; interruptedStmt is
// `(exit 130)`, run after a Ctrl-C.
var (
	waitStmt        = &syntax.CallExpr{Args: []*syntax.Word{lit("wait")}}
	interruptedStmt = &syntax.Stmt{Cmd: &syntax.Subshell{Stmts: []*syntax.Stmt{{Cmd: &syntax.CallExpr{Args: []*syntax.Word{lit("exit"), lit("130")}}}}}}
)

func lit(s string) *syntax.Word { return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: s}}} }

// prepare reads a script to its end and checks it; a run of its own
// begins once it is sound.
func (s *Shell) prepare(src Source, top bool) (*syntax.File, error) {
	f, jobs, uses, err := s.readWhole(src)
	if err != nil {
		return nil, err
	}
	if uses > len(src.Args) && src.Name != "" {
		_, stderr := s.out.Writers(session.Main)
		fmt.Fprintln(stderr, precheck.MissingArgs(src.Name, uses, len(src.Args)))
	}
	if top {
		s.beginRun(true, jobs)
	}
	return f, nil
}

// runWhole runs a script read whole.
func (s *Shell) runWhole(ctx context.Context, r *interp.Runner, src Source, f *syntax.File) error {
	if src.Name != "" {
		ctx = context.WithValue(ctx, fileKey{}, src.Name)
	}
	return r.Run(context.WithValue(ctx, inScriptKey{}, true), f)
}

// inScriptKey marks commands run by a script or -c: a script they run is
// part of their run, not a run of its own.
type inScriptKey struct{}

// beginRun starts a new run when fresh is set (a new record, times from
// now, jobs that ended forgotten), with gutters when it starts sessions
// (jobs).
func (s *Shell) beginRun(fresh bool, jobs []string) {
	if fresh {
		s.obs.Begin()
		s.jobs.Forget()
	}
	s.out.BeginRun(s.obs.Start(), jobs)
}

// finish ends a run: when expectations failed, a summary and status 1
// (unless the script exited with a status of its own). An outermost run
// (the pipe, -c, a file given to locklab) also ends 1 when a script run
// inside it had a failed expectation.
func (s *Shell) finish(name string, err error, outermost bool) error {
	expects, failed := s.obs.TakeExpectations()
	mainOut, mainErr := s.out.Writers(session.Main)
	switch {
	case failed > 0:
		fmt.Fprintf(mainErr, "%s: %d of %d expectations failed\n", name, failed, expects)
	case expects > 0:
		fmt.Fprintf(mainOut, "%s: all %d expectations held\n", name, expects)
	}
	s.out.Flush()
	if (failed > 0 || outermost && s.obs.AnyFailed()) && (err == nil || words.AsStatus(err) == interp.ExitStatus(1)) {
		return interp.ExitStatus(1)
	}
	return err
}

// DrawTimeline draws the run's timeline on the lab's output, width
// columns wide.
func (s *Shell) DrawTimeline(ctx context.Context, width int) {
	s.out.Drawing(s.obs.Draw(ctx, s.cfg.Sessions.Get(session.Main), width))
}
