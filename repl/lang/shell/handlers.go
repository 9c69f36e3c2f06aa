package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/lang/jobs"
	"github.com/locklab/locklab/repl/lang/precheck"
	"github.com/locklab/locklab/repl/lang/words"
)

// dispatchWord marks a command the call handler took from the
// interpreter's builtins (lower-case `eval k`, `source x.lab`, `help`):
// the exec handler runs it instead. It starts with a NUL byte, which no
// word typed or read from a file can contain.
const dispatchWord = "\x00lab"

// mode is how this shell's lines are classified (see words.Mode).
func (s *Shell) mode() words.Mode {
	if s.cfg.StandIn {
		return words.StandIn
	}
	return words.Lang
}

// call sees every simple command before the interpreter's builtins do.
// The shell's own words pass on; any other word that a builtin shares
// (`eval`, `set k v`, `source`) goes to the exec handler instead.
func (s *Shell) call(ctx context.Context, args []string) ([]string, error) {
	if args[0] == jobs.StartWord {
		return s.startJob(ctx, args)
	}
	if out, ok, err := s.jobs.Call(ctx, args); ok {
		return out, err // a job's first and last words, a killed job
	}
	if args[0] == "wait" {
		s.jobs.Waiting()
	}
	c := words.Classify(args, s.mode())
	switch {
	case c.Refusal != nil || jobs.Controls(args):
		return append([]string{dispatchWord}, args...), nil // cd, set +f: refused by dispatch; kill %1
	case c.Name == "exit" && len(args) == 1:
		// A bare exit keeps $? without the error behind it: after a
		// Ctrl-C, that is the Ctrl-C's, and the REPL would go on.
		return []string{"exit", strconv.Itoa(interp.HandlerCtx(ctx).LastExitStatus)}, nil
	case c.Kind == words.Shell && c.Name != args[0]:
		return append([]string{c.Name}, args[1:]...), nil // quit is exit
	case c.Kind != words.Shell && interp.IsBuiltin(args[0]):
		return append([]string{dispatchWord}, args...), nil
	}
	return args, nil
}

// startJob takes a slot for the background job about to start (see
// jobs.Reserve). At the limit, the shell that tried stops: its error,
// fatal to the interpreter, halts it (a fork bomb ends there), and the
// limit is reported once.
func (s *Shell) startJob(ctx context.Context, args []string) ([]string, error) {
	err := s.jobs.ReserveTelling(ctx, func(err error) { s.report(ctx, args, err) })
	if e, ok := words.AsError(err); ok {
		return nil, words.Status(e.Status) // reported: Describe says nothing more
	}
	if err != nil {
		return nil, err // Ctrl-C
	}
	return s.jobs.Started(ctx, args), nil
}

// execMiddleware replaces the interpreter's exec handler entirely: it
// never calls next, so no host program can ever start.
func (s *Shell) execMiddleware(interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		if args[0] == dispatchWord {
			args = args[1:]
		}
		ctx, unbind := s.jobs.Bind(ctx) // in a job, kill ends it
		defer unbind()
		return s.report(ctx, args, s.dispatch(ctx, args))
	}
}

// dispatch runs one command line as Classify says.
func (s *Shell) dispatch(ctx context.Context, args []string) error {
	env := s.env(ctx)
	c := words.Classify(args, s.mode())
	if c.Refusal != nil {
		return c.Refusal
	}
	if c.Word != nil && s.cfg.Refuse != nil {
		if err := s.cfg.Refuse(c.Word, args, env.Position()); err != nil {
			return err
		}
	}
	if jobs.Controls(args) {
		return s.jobs.Control(ctx, args)
	}
	switch c.Kind {
	case words.Redis:
		return s.redis(ctx, env, args)
	case words.Lab, words.Macro:
		return c.Word.Run(ctx, env, args)
	case words.Script:
		if c.Word != nil {
			return c.Word.Run(ctx, env, args)
		}
		return s.runScript(ctx, env, args[0], args[1:])
	case words.Session:
		return s.inSession(ctx, env, args)
	case words.Repeat:
		return s.repeat(ctx, args)
	}
	return &words.Error{Status: 127, Msg: precheck.NotALabCommand(args[0])}
}

// report is the one place a word's failure is printed and turned into an
// exit status, and counted against the run's verdict (an expectation's
// failure is not a command's: it is summed up on its own).
func (s *Shell) report(ctx context.Context, args []string, err error) error {
	e, ok := words.AsError(err)
	if !ok {
		return err // nil, an exit status, ctx's error, or a fatal error that stops the script
	}
	if e.Status != 0 && args[0] != "expect" {
		s.obs.Failed(s.env(ctx).describe(args, e.Msg))
	}
	if e.Msg != "" {
		msg := e.Msg
		if !e.Bare {
			msg = "locklab: " + msg
		}
		fmt.Fprintln(interp.HandlerCtx(ctx).Stderr, msg)
	}
	return interp.ExitStatus(e.Status)
}

// repeat runs `N CMD ...` N times, as redis-cli does.
func (s *Shell) repeat(ctx context.Context, args []string) error {
	n, _ := strconv.Atoi(args[0])
	var err error
	for range n {
		if err = s.report(ctx, args[1:], s.dispatch(ctx, args[1:])); ctx.Err() != nil {
			return ctx.Err()
		}
	}
	return err
}

type sessionKey struct{}

// inSession runs a command in session name (`@alice SET k v`).
func (s *Shell) inSession(ctx context.Context, env *env, args []string) error {
	name, ok := words.SessionName(args[0])
	if !ok || len(args) < 2 {
		return words.Usage("@NAME COMMAND [ARG ...]   (e.g. @alice SET lock:demo alice-token NX PX 5000; NAME is a letter, then letters, digits, - or _)")
	}
	return s.dispatch(context.WithValue(ctx, sessionKey{}, name), args[1:])
}

// open is the interpreter's only way to files: `> /dev/null` works, and a
// job's output goes to its session's lines; every other redirection is
// refused. (Scripts are read by runScript, not here.)
func (s *Shell) open(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	if path == "/dev/null" {
		return devNull{}, nil
	}
	if path == frameHook {
		return s.frames.enter(ctx)
	}
	if jobs.IsHook(path) {
		return s.jobs.Begin(ctx, interp.HandlerCtx(ctx).Stderr), nil
	}
	if name, stderr, ok := jobs.SessionFile(path); ok {
		out, errOut := s.out.Writers(name)
		if stderr {
			return errOut, nil
		}
		return out, nil
	}
	// interp prints an *os.PathError and sets $? to 1; any other error
	// type would halt the whole runner.
	return nil, &os.PathError{Op: "open", Path: path, Err: errors.New("files are not available in the lab (only /dev/null)")}
}

type devNull struct{}

func (devNull) Read([]byte) (int, error)    { return 0, io.EOF }
func (devNull) Write(p []byte) (int, error) { return len(p), nil }
func (devNull) Close() error                { return nil }
