package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/cli/stream"
	"github.com/locklab/locklab/repl/lang/budget"
	"github.com/locklab/locklab/repl/lang/jobs"
	"github.com/locklab/locklab/repl/lang/lines"
	"github.com/locklab/locklab/repl/lang/precheck"
	"github.com/locklab/locklab/repl/lang/words"
)

// entries is the state of a run read entry by entry (the REPL, a pipe,
// a command as arguments): the plain commands waiting to go in one
// pipeline, and the lines read before the parser last began.
type entries struct {
	s          *Shell
	r          *interp.Runner
	src        Source
	feed       *lines.Feed
	base       int // lines read before the current parser began
	batch      [][]string
	batchBytes int                       // the bytes of the batch's words
	jobs       []context.CancelFunc      // the contexts of entries that started background jobs
	ready      interface{ Ready() bool } // a pipe: whether its next line is already here
	held       []ranEntry                // entries whose jobs may still send a secret (see remember)
}

// ranEntry is an entry that ran, as typed, and whether it sent a secret.
type ranEntry struct {
	text string
	sent *session.SecretWatch
}

// runEntries runs src one entry at a time, as it is read. A syntax error
// or a Ctrl-C while typing drops that entry and reading goes on.
func (s *Shell) runEntries(ctx context.Context, r *interp.Runner, src Source) error {
	e := &entries{s: s, r: r, src: src, feed: lines.NewFeed(src.Lines, src.Prompt)}
	e.ready, _ = src.Lines.(interface{ Ready() bool })
	for {
		e.feed.Restart(lines.NewParser())
		done := e.parse(ctx)
		e.flush(ctx)
		if done {
			break
		}
	}
	if err := e.feed.Err(); err != nil && err != io.EOF && !errors.Is(err, lines.ErrInterrupt) {
		return err
	}
	stream.End(ctx) // a SUBSCRIBE job would hold the wait below for ever
	if !r.Exited() && (src.Summary != "" || len(e.jobs) > 0) {
		e.withEntry(ctx, entryKind{waits: true, quiet: true}, func(ctx context.Context) error { // Ctrl-C stops the jobs waited for
			return s.waitAll(ctx, r) // the run's jobs finish before its verdict, as if it ended in wait
		})
	}
	if !s.jobs.Running() {
		e.rememberHeld() // else (exit with jobs running) they are left out: what they send is not known
	}
	return s.status()
}

// parse runs the entries of one parser's life, and says whether the
// input is done (its end, `exit`, or an error reading it).
func (e *entries) parse(ctx context.Context) bool {
	for stmts, err := range e.feed.Parser.InteractiveSeq(e.feed) {
		if err != nil {
			return e.failed(err)
		}
		if e.feed.Parser.Incomplete() || len(stmts) == 0 {
			continue
		}
		if e.batched(ctx, stmts) {
			continue
		}
		e.flush(ctx)
		if err := e.runRemembered(ctx, stmts); e.r.Exited() && !errors.Is(err, context.Canceled) && !stopped(err) {
			return true // `exit` (a Ctrl-C, or a word that stops the shell, also leaves the runner "exited")
		}
	}
	return e.failed(nil)
}

// failed handles the end of a parser's life: a syntax error is reported
// and reading goes on after it; a Ctrl-C while typing drops the entry.
// It says whether the input is done.
func (e *entries) failed(err error) bool {
	readErr := e.feed.Err()
	interrupted := errors.Is(readErr, lines.ErrInterrupt)
	var perr syntax.ParseError
	isSyntax := errors.As(err, &perr)
	if isSyntax && !interrupted {
		e.src.Lines.Remember(e.feed.Entry()) // recalled to be mended
		e.flush(context.Background())
		perr.Pos = syntax.NewPos(perr.Pos.Offset(), perr.Pos.Line()+uint(e.base), perr.Pos.Col())
		_, stderr := e.s.out.Writers(session.Main)
		fmt.Fprintln(stderr, words.Describe(perr))
		if hint := e.s.hint(e.feed.Entry()); hint != "" && !e.s.said(hint) {
			fmt.Fprintln(stderr, hint)
		}
		e.s.setStatus(perr)
	}
	e.base = e.feed.Lines()
	if interrupted {
		e.r.Run(context.Background(), interruptedStmt) // $? is 130, as after Ctrl-C at sh's prompt
		return false                                   // the next parser's Restart drops the entry
	}
	return readErr != nil || (err != nil && !isSyntax)
}

// batched takes an entry of plain Redis commands from a pipe into the
// batch, and sends the batch when no more input is waiting.
func (e *entries) batched(ctx context.Context, stmts []*syntax.Stmt) bool {
	if e.ready == nil {
		return false
	}
	var cmds [][]string
	secret := false
	for _, st := range stmts {
		args, ok := e.s.plainCommand(st)
		if !ok {
			return false
		}
		cmds = append(cmds, args)
		secret = secret || session.CarriesSecret(args)
	}
	if !secret {
		e.src.Lines.Remember(e.feed.Entry()) // its commands are sent as they are
	}
	e.batch = append(e.batch, cmds...)
	for _, args := range cmds {
		for _, a := range args {
			e.batchBytes += len(a)
		}
	}
	if !e.ready.Ready() || len(e.batch) >= maxBatch || e.batchBytes >= maxBatchBytes {
		e.flush(ctx)
	}
	return true
}

// flush sends the batch waiting, if any.
func (e *entries) flush(ctx context.Context) {
	if len(e.batch) == 0 {
		return
	}
	batch := e.batch
	e.batch, e.batchBytes = nil, 0
	e.withEntry(ctx, entryKind{}, func(ctx context.Context) error { return e.s.runBatch(ctx, batch) })
}

// run runs one entry. An entry that starts background jobs is a run of
// its own: gutters on, times from its start, and, at the REPL, a verdict
// once its jobs are done. One typed while jobs run (a bare wait) is part
// of their run.
func (e *entries) run(ctx context.Context, stmts []*syntax.Stmt) error {
	f := &syntax.File{Stmts: stmts}
	if uses := precheck.Positionals(f); uses > len(e.r.Params) && !e.s.said("$") {
		_, stderr := e.s.out.Writers(session.Main)
		fmt.Fprintf(stderr, "locklab: this uses $%d, which is empty at the prompt: a pasted script body needs its argument (run the file: ./book_no_lock.sh alice)\n", uses)
	}
	rewrite(f)
	named := e.s.jobs.Name(f)
	if len(named) > 0 || !e.s.jobs.Running() {
		e.s.beginRun(len(named) > 0, named) // else it joins the run of the jobs still running: their gutters stay
	}
	return e.withEntry(ctx, entryKind{waits: jobs.Calls(f, "wait"), jobs: jobs.Starts(f)}, func(ctx context.Context) error {
		ctx = e.s.jobs.Group(ctx) // the entry's jobs, and the jobs they start
		err := e.r.Run(context.WithValue(ctx, lineBaseKey{}, e.base), f)
		e.s.out.Flush()
		if len(named) > 0 && e.src.Prompt != nil && endsInWait(stmts) {
			e.verdict(ctx)
		}
		return err
	})
}

// runRemembered runs one entry, watching what it sends, and then hands
// it to the history unless it sent a secret: however the entry spelled
// it, what reached a server decides (see session.WatchSecrets). An entry
// cut short by Ctrl-C, or that failed, is judged the same way, on what
// it sent before.
func (e *entries) runRemembered(ctx context.Context, stmts []*syntax.Stmt) error {
	ran := ranEntry{text: e.feed.Entry()}
	ctx, ran.sent = session.WatchSecrets(ctx)
	err := e.run(ctx, stmts)
	started := jobs.Starts(&syntax.File{Stmts: stmts})
	if e.src.Prompt != nil && !e.r.Exited() { // quit ends the session, not the recording's lab
		e.s.obs.Entered(words.Entry{Text: ran.text, Sent: ran.sent, StartedJobs: started, JobsRunning: e.s.jobs.Running})
	}
	e.remember(ran, started)
	return err
}

// remember hands an entry that ran to the history, unless it sent a
// secret. One that started background jobs is held while jobs run, as
// they may send one yet; held entries are handed over once none runs
// (after a later entry, or at the end of the run), so they may come
// after entries typed later.
func (e *entries) remember(ran ranEntry, startedJobs bool) {
	if startedJobs {
		e.held = append(e.held, ran)
	} else if !ran.sent.Sent() {
		e.src.Lines.Remember(ran.text)
	}
	if !e.s.jobs.Running() {
		e.rememberHeld()
	}
}

// rememberHeld hands the held entries to the history, but those that
// sent a secret.
func (e *entries) rememberHeld() {
	for _, ran := range e.held {
		if !ran.sent.Sent() {
			e.src.Lines.Remember(ran.text)
		}
	}
	e.held = nil
}

// verdict ends an entry typed at the prompt that starts jobs and waits
// for them: once the jobs its jobs started have ended too (its wait saw
// only its own), the verdict on what they did.
func (e *entries) verdict(ctx context.Context) {
	if e.s.jobs.WaitGroup(ctx) != nil || ctx.Err() != nil || !e.s.obs.Judged() {
		return // Ctrl-C
	}
	e.s.out.Flush()
	mainOut, _ := e.s.out.Writers(session.Main)
	e.s.verdict(ctx, mainOut)
}

// entryKind is what Ctrl-C must reach in an entry: the jobs it starts,
// the jobs it waits for.
type entryKind struct {
	jobs, waits bool
	quiet       bool // the run's own wait at its end: the last entry's status stands
}

// withEntry runs f with a context of its own, which Ctrl-C cancels (see
// Source.OnEntry), reports its error and keeps its status. Background
// jobs share the context: it is cancelled only by Ctrl-C, never when f
// returns. The interpreter's `wait` waits for jobs whatever its context:
// for an entry that waits, Ctrl-C stops the jobs too, so that it returns.
func (e *entries) withEntry(parent context.Context, kind entryKind, f func(context.Context) error) error {
	ctx, release := budget.Guard(parent)
	if !kind.jobs {
		defer release() // else its jobs stay guarded until the entry's context ends
	}
	if e.src.OnEntry != nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		if kind.jobs {
			e.jobs = append(e.jobs, cancel)
		}
		e.src.OnEntry(e.interrupt(cancel, kind.waits))
		defer e.src.OnEntry(nil)
	}
	err := f(ctx)
	if budget.Over(ctx) {
		err = e.overBudget()
	}
	waitCut := kind.waits && ctx.Err() != nil && !errors.Is(err, context.Canceled) && !budget.Over(ctx) // a wait Ctrl-C cut short
	if (errors.Is(err, context.Canceled) || waitCut) && parent.Err() == nil {
		e.r.Run(parent, interruptedStmt) // $? is 130 after Ctrl-C, as in sh
	}
	if waitCut && parent.Err() == nil {
		err = interp.ExitStatus(130)
	}
	if kind.quiet {
		return err
	}
	if msg := words.Describe(err); msg != "" {
		_, stderr := e.s.out.Writers(session.Main)
		fmt.Fprintln(stderr, msg)
	}
	e.s.setStatus(err)
	return err
}

// overBudget ends an entry the memory budget stopped: the variables that
// hold over a MiB are unset (else the next entry would stop at once), and
// the message names them.
func (e *entries) overBudget() error {
	var big []string
	for name, v := range e.r.Vars {
		if size := len(v.Str) + len(strings.Join(v.List, "")); size > 1<<20 {
			big = append(big, name)
		}
	}
	slices.Sort(big)
	msg := budget.Explain()
	if len(big) > 0 {
		e.r.Run(context.Background(), &syntax.CallExpr{Args: append([]*syntax.Word{lit("unset")}, lits(big)...)})
		msg += "; unset to free it: " + strings.Join(big, " ")
	}
	return &words.Error{Status: 1, Msg: msg}
}

func lits(values []string) []*syntax.Word {
	out := make([]*syntax.Word, len(values))
	for i, v := range values {
		out[i] = lit(v)
	}
	return out
}

// interrupt is what Ctrl-C does during an entry: cancel it, and when it
// waits for jobs, every job started so far.
func (e *entries) interrupt(cancel context.CancelFunc, waits bool) context.CancelFunc {
	jobs := append([]context.CancelFunc(nil), e.jobs...)
	return func() {
		cancel()
		if waits {
			for _, stop := range jobs {
				stop()
			}
		}
	}
}

// endsInWait reports whether an entry's last command is `wait`: its jobs
// are done when it returns.
func endsInWait(stmts []*syntax.Stmt) bool {
	if len(stmts) == 0 {
		return false
	}
	call, ok := stmts[len(stmts)-1].Cmd.(*syntax.CallExpr)
	return ok && len(call.Args) == 1 && call.Args[0].Lit() == "wait"
}

// stopped reports whether err is a word's failure that stopped the shell
// (the job limit): the entry ends, the REPL and the pipe go on.
func stopped(err error) bool {
	_, ok := words.AsError(err)
	return ok
}

// hint says what an entry that does not parse is, when a feature
// (Config.Hint) or the language (lines.PasteHint) can tell; "" otherwise.
func (s *Shell) hint(entry string) string {
	if s.cfg.Hint != nil {
		if h := s.cfg.Hint(entry); h != "" {
			return h
		}
	}
	return lines.PasteHint(entry)
}
