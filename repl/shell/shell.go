package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/locklab/locklab/repl/check"
	"github.com/locklab/locklab/repl/cliflags"
	"github.com/locklab/locklab/repl/session"
	"github.com/locklab/locklab/repl/timeline"
)

// Config is what a Shell needs from the program around it.
type Config struct {
	Sessions    *session.Set
	Flags       cliflags.Options // locklab's own flags: output mode, -e
	Stdout      io.Writer        // the terminal (or whatever stdout is)
	Stderr      io.Writer
	TTY         bool       // Stdout is a terminal: replies to it use redis-cli's TTY format
	Interactive bool       // a person is typing: slow commands print redis-cli's (N.NNs)
	Notes       bool       // annotate replies and print verdicts (off for redis-cli-style use)
	Trace       bool       // keep the run's events for its timeline even without notes
	Gutter      bool       // prefix lines with session and time when several sessions run
	Color       bool       // colour notes and gutters
	Width       func() int // the terminal's width, for the timeline (nil: 80)
	Dir         string
}

// Shell runs lab-language entries. It keeps one interpreter, so variables
// set by one entry are seen by the next, as in an interactive sh.
type Shell struct {
	cfg     Config
	output  *output
	writers writers
	out     *lineWriter // main's stdout: the terminal, a whole line at a time
	errOut  *lineWriter
	runner  *interp.Runner

	jobMu       sync.Mutex
	barriers    map[string]*barrier // id -> a group's start barrier
	arrived     map[string]bool     // barrier id/session -> that job has passed it
	nextBarrier int
	cluster     *cluster // the failover lab's servers, if started

	mu         sync.Mutex
	redisErrs  int               // Redis error replies seen, for -e
	lastStatus error             // the exit status of the last entry, as an interp.ExitStatus
	scripts    map[string]string // Lua scripts loaded on the server: script -> SHA1
	replies    map[string]string // each session's last printed reply, raw (expect reply)
	expects    int               // expectations checked in this run
	failed     int               // ... and failed

	annMu  sync.Mutex
	ann    *check.Annotator // what this run did with locks and slots
	start  time.Time        // when this run began
	events []timeline.Event // ... its commands
	notes  []timeline.TimedNote
}

// New makes a shell. It fails only if the interpreter rejects its options.
func New(cfg Config) (*Shell, error) {
	if cfg.Dir == "" {
		cfg.Dir, _ = os.Getwd()
	}
	if cfg.Width == nil {
		cfg.Width = func() int { return 80 }
	}
	s := &Shell{cfg: cfg, output: newOutput(cfg.Stdout, cfg.Stderr, cfg.Gutter, cfg.Color), barriers: map[string]*barrier{}, arrived: map[string]bool{}, scripts: map[string]string{}, replies: map[string]string{}}
	s.writers.out = s.output
	s.out, s.errOut = s.writers.get(session.Main)
	r, err := s.newRunner(s.out, s.errOut, session.Main)
	if err != nil {
		return nil, err
	}
	s.runner = r
	s.resetAnnotator()
	return s, nil
}

// newRunner makes an interpreter whose Redis commands go to sessionName.
// Its environment is the lab's own: nothing leaks in from the host.
func (s *Shell) newRunner(stdout, stderr io.Writer, sessionName string, params ...string) (*interp.Runner, error) {
	return interp.New(
		interp.StdIO(nil, stdout, stderr),
		interp.Env(expand.ListEnviron("LOCKLAB=1", "HOME=/lab", "PATH=", sessionVar+"="+sessionName)),
		interp.Dir(s.cfg.Dir),
		interp.Params(append([]string{"-f", "--"}, params...)...), // -f: no globbing, `KEYS *` reaches Redis
		interp.CallHandler(s.call),
		interp.ExecHandlers(s.execMiddleware),
		interp.OpenHandler(s.open),
	)
}

// RunEntry parses and runs one entry (one line, or several joined by
// continuations). The error is a syntax error (a syntax.ParseError), an
// interp.ExitStatus, or ctx's error when cancelled.
//
// An entry that starts background jobs or names sessions is a run of its
// own: gutters on, times from its start, and a verdict at its end.
func (s *Shell) RunEntry(ctx context.Context, src string) error {
	return s.RunEntryAt(ctx, src, 1)
}

// RunEntryAt is RunEntry for an entry that starts on line line of its
// input, so that a syntax error names the line of the input, not of the
// entry.
func (s *Shell) RunEntryAt(ctx context.Context, src string, line int) error {
	f, err := Parse(Normalize(src), "")
	err = shiftLines(err, line-1)
	if err == nil {
		jobs := s.nameJobs(f)
		s.beginRun(len(jobs) > 0, jobs)
		err = s.runner.Run(context.WithValue(ctx, lineKey{}, line), f)
		s.writers.flush()
		if len(jobs) > 0 && endsInWait(f) && ctx.Err() == nil { // jobs still running: no verdict yet
			s.Verdict(ctx)
		}
	}
	s.mu.Lock()
	s.lastStatus = asStatus(err)
	s.mu.Unlock()
	return err
}

// shiftLines moves a syntax error's position down by n lines.
func shiftLines(err error, n int) error {
	var perr syntax.ParseError
	if n == 0 || !errors.As(err, &perr) {
		return err
	}
	p := perr.Pos
	perr.Pos = syntax.NewPos(p.Offset(), p.Line()+uint(n), p.Col())
	return perr
}

// LastStatus is the exit status of the last entry (nil for 0), as sh
// reports $? when its input ends: 2 after a syntax error, 130 after Ctrl-C.
func (s *Shell) LastStatus() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastStatus
}

// ExitCode is the process exit status for a run's error: the script's own
// status, 2 for a syntax error, 130 for Ctrl-C, 1 for anything else.
func ExitCode(err error) int {
	if status, ok := asStatus(err).(interp.ExitStatus); ok {
		return int(status)
	}
	return 0
}

func asStatus(err error) error {
	var perr syntax.ParseError
	var status interp.ExitStatus
	switch {
	case err == nil:
		return nil
	case errors.As(err, &status):
		return status
	case errors.As(err, &perr):
		return interp.ExitStatus(2)
	case errors.Is(err, context.Canceled):
		return interp.ExitStatus(130)
	}
	return interp.ExitStatus(1)
}

// RunFile parses a whole script first, so that a typo is reported as
// file:line:col before anything runs, then runs it with args as $1, $2...
func (s *Shell) RunFile(ctx context.Context, name string, src []byte, args []string) error {
	f, err := Parse(Normalize(string(src)), name)
	if err != nil {
		return err
	}
	r, err := s.newRunner(s.out, s.errOut, session.Main, args...)
	if err != nil {
		return err
	}
	if name != "" { // a file: its typos are reported before anything runs
		if err := s.precheck(f, name); err != nil {
			return err
		}
	}
	s.beginRun(true, s.nameJobs(f))
	err = r.Run(context.WithValue(ctx, fileKey{}, name), f)
	if ctx.Err() == nil && !r.Exited() {
		r.Run(ctx, waitStmt) // a script's jobs finish before its verdict, as if it ended in wait
	}
	s.writers.flush()
	if ctx.Err() == nil {
		s.Verdict(ctx)
	}
	return s.Finish(name, err)
}

// Finish ends a script run: when expectations failed, a summary
// and status 1 (unless the script exited with a status of its own).
func (s *Shell) Finish(name string, err error) error {
	s.mu.Lock()
	expects, failed := s.expects, s.failed
	s.mu.Unlock()
	if name == "" {
		name = "-c"
	}
	switch {
	case failed > 0:
		fmt.Fprintf(s.errOut, "%s: %d of %d expectations failed\n", name, failed, expects)
		s.writers.flush()
		if err == nil || asStatus(err) == interp.ExitStatus(1) {
			return interp.ExitStatus(1)
		}
	case expects > 0:
		fmt.Fprintf(s.out, "%s: all %d expectations held\n", name, expects)
		s.writers.flush()
	}
	return err
}

// waitStmt is `wait`, run at the end of a script.
var waitStmt = &syntax.CallExpr{Args: []*syntax.Word{litWord("wait")}}

// endsInWait reports whether an entry's last command is `wait`: its jobs
// are done when it returns.
func endsInWait(f *syntax.File) bool {
	if len(f.Stmts) == 0 {
		return false
	}
	call, ok := f.Stmts[len(f.Stmts)-1].Cmd.(*syntax.CallExpr)
	return ok && len(call.Args) == 1 && call.Args[0].Lit() == "wait"
}

// beginRun starts a new run when fresh is set (a new annotator, times from
// now), with gutters when it starts sessions (jobs).
func (s *Shell) beginRun(fresh bool, jobs []string) {
	if fresh {
		s.resetAnnotator()
	}
	s.output.beginRun(s.start, jobs)
}

// Exited reports whether the last entry ran `exit` (or `quit`).
func (s *Shell) Exited() bool { return s.runner.Exited() }

// RedisErrors is how many error replies Redis gave so far (for -e).
func (s *Shell) RedisErrors() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.redisErrs
}

// Describe words an error from RunEntry or RunFile for the user, or
// returns "" when there is nothing to say (a plain exit status).
func Describe(err error) string {
	var perr syntax.ParseError
	var status interp.ExitStatus
	switch {
	case err == nil, errors.As(err, &status):
		return ""
	case errors.Is(err, context.Canceled):
		return "(interrupted)"
	case errors.As(err, &perr):
		return fmt.Sprintf("locklab: %v", perr)
	}
	return "locklab: " + err.Error()
}
