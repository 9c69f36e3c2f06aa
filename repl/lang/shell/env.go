package shell

import (
	"context"
	"fmt"
	"io"
	"strings"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/cli/cliflags"
	"github.com/locklab/locklab/repl/cli/output"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/clock"
	"github.com/locklab/locklab/repl/lang/jobs"
	"github.com/locklab/locklab/repl/lang/words"
)

// env is one command's view of the run (words.Env): the shell, and the
// interpreter's context of the command (its stdio, its session, where it
// stands in its file).
type env struct {
	s   *Shell
	ctx context.Context
	hc  interp.HandlerContext
}

func (s *Shell) env(ctx context.Context) *env {
	return &env{s: s, ctx: ctx, hc: interp.HandlerCtx(ctx)}
}

func (e *env) Stdout() io.Writer              { return e.hc.Stdout }
func (e *env) Stderr() io.Writer              { return e.hc.Stderr }
func (e *env) Stdin() io.Reader               { return e.hc.Stdin }
func (e *env) Sessions() *session.Set         { return e.s.cfg.Sessions }
func (e *env) Output() *output.Output         { return e.s.out }
func (e *env) Parts() *words.Parts            { return e.s.parts }
func (e *env) Interactive() bool              { return e.s.cfg.Interactive }
func (e *env) TTY() bool                      { return e.s.cfg.TTY }
func (e *env) Width() int                     { return e.s.cfg.Width() }
func (e *env) Clock() clock.Clock             { return e.s.cfg.Clock }
func (e *env) StdoutOf(name string) io.Writer { return e.s.stdoutFor(e.hc, name) }

// Session is the session a command runs in: an @NAME prefix first, then
// the job's session, then main.
func (e *env) Session() string {
	if name, ok := e.ctx.Value(sessionKey{}).(string); ok {
		return name
	}
	if v := e.hc.Env.Get(jobs.SessionVar); v.IsSet() {
		if v.String() == "" {
			return "job" // a job named by an empty word (`book $w &`, $w unset)
		}
		return v.String()
	}
	return session.Main
}

func (e *env) Send(ctx context.Context, name string, args []string, print bool) (resp.Reply, error) {
	return e.s.send(ctx, e, name, args, print)
}

func (e *env) Deliver(ev session.Event, mode cliflags.Output, exitOnError bool) error {
	e.s.obs.Deliver(e.hc.Stderr, e.s.stdoutFor(e.hc, ev.Session), ev, mode, exitOnError)
	return e.s.replied(e, ev.Session, ev.Args, ev.Reply, exitOnError)
}

func (e *env) ConnFailed(ctx context.Context, t session.Target, err error) error {
	if e.s.down.stops(ctx, e.hc.Stderr, t, err) {
		return words.Status(1)
	}
	return words.ConnFailed(ctx, e.hc.Stderr, t, err)
}

func (e *env) Dispatch(ctx context.Context, name string, args []string) error {
	return e.s.dispatch(context.WithValue(ctx, sessionKey{}, name), args)
}

func (e *env) RunScript(ctx context.Context, path string, args []string) error {
	return e.s.runScript(ctx, e, path, args)
}

// Sending tells the run's record a command is about to go on a
// connection of its own.
func (e *env) Sending(name string, args []string) { e.s.obs.Sending(name, args) }

// ReadScript reads a script through the lab's view of files.
func (e *env) ReadScript(path string) ([]byte, error) { return e.s.readScriptText(path) }

// Position is FILE:LINE:COL of the command (LINE:COL outside a file),
// counted in its input's lines.
func (e *env) Position() string {
	base, _ := e.ctx.Value(lineBaseKey{}).(int)
	pos := fmt.Sprintf("%d:%d", int(e.hc.Pos.Line())+base, e.hc.Pos.Col())
	if name := e.File(); name != "" {
		pos = name + ":" + pos
	}
	return pos
}

// File is the script the command comes from, or "".
func (e *env) File() string {
	name, _ := e.ctx.Value(fileKey{}).(string)
	return name
}

func (e *env) InFile() bool { return e.File() != "" }

type fileKey struct{}

// lineBaseKey carries the lines of input read before the entry's parser
// began (the REPL's and a pipe's parser restart after a syntax error).
type lineBaseKey struct{}

// describe names a failed command for a verdict: where it stands, and
// what went wrong (its first line).
func (e *env) describe(args []string, msg string) string {
	what := args[0] + " failed"
	if msg != "" {
		what, _, _ = strings.Cut(msg, "\n")
	}
	return e.Position() + ": " + what
}
