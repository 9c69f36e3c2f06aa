package shell

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/cliflags"
	"github.com/locklab/locklab/repl/commands"
	"github.com/locklab/locklab/repl/resp"
	"github.com/locklab/locklab/repl/session"
)

// slowCommand is when redis-cli starts printing how long a command took.
const slowCommand = 500 * time.Millisecond

// redis sends args in the caller's session and prints the reply.
func (s *Shell) redis(ctx context.Context, hc interp.HandlerContext, args []string) error {
	reply, err := s.send(ctx, hc, sessionOf(ctx, hc), args, true)
	if err != nil {
		return err
	}
	return s.replyStatus(hc, args, reply, s.cfg.Flags.ExitOnError)
}

// send sends args in session name; when print is set it prints the reply
// as redis-cli would (with its timing for slow commands). Notes are
// printed either way. The error is an exit status for a connection that
// failed (already reported), or ctx's.
func (s *Shell) send(ctx context.Context, hc interp.HandlerContext, name string, args []string, print bool) (resp.Reply, error) {
	s.atStart(hc)
	s.sending(name, args)
	e, err := s.cfg.Sessions.Get(name).Do(ctx, args)
	if err != nil {
		return e.Reply, s.connFailed(ctx, hc, s.cfg.Sessions.Target, err)
	}
	mode := s.cfg.Flags.Output
	if !print {
		mode = quiet
	}
	s.deliver(hc, s.stdoutFor(hc, name), e, mode, s.cfg.Flags.ExitOnError)
	return e.Reply, nil
}

// quiet is an output mode for replies that are not printed (a macro's).
const quiet cliflags.Output = -1

// deliver is what every reply goes through, however it was sent: it is
// remembered (expect reply), printed as redis-cli would in mode (with the
// timing of a slow command at the prompt), and annotated.
func (s *Shell) deliver(hc interp.HandlerContext, w io.Writer, e session.Event, mode cliflags.Output, exitOnError bool) {
	if mode != quiet {
		s.noteReply(e.Session, e.Reply)
		tty := s.ttyFor(w, mode)
		s.printReply(hc, w, e.Args, e.Reply, tty, exitOnError)
		if took := e.End.Sub(e.Start); tty && s.cfg.Interactive && took >= slowCommand {
			fmt.Fprintf(w, "(%.2fs)\n", took.Seconds())
		}
	}
	s.annotate(w, e)
}

// printReply writes one reply as redis-cli would: its TTY format, or the
// raw one (which redis-cli also uses on a terminal for INFO and the like).
// With -e, an error reply goes to stderr as its bare text, as redis-cli
// -e prints it.
func (s *Shell) printReply(hc interp.HandlerContext, w io.Writer, args []string, reply resp.Reply, tty, exitOnError bool) {
	if exitOnError && reply.IsError() {
		fmt.Fprintln(hc.Stderr, reply.Str)
		return
	}
	io.WriteString(w, resp.Format(args, reply, tty))
}

// replyStatus is the exit status of a command that got reply: as with
// redis-cli, a Redis error is data and gives 0, unless fail (-e) is set,
// then 1. A wrong-arity error also prints the command's syntax, as a hint.
func (s *Shell) replyStatus(hc interp.HandlerContext, args []string, reply resp.Reply, fail bool) error {
	if !reply.IsError() {
		return nil
	}
	s.mu.Lock()
	s.redisErrs++
	s.mu.Unlock()
	if strings.Contains(reply.Str, "wrong number of arguments") {
		if cmd, _ := commands.Lookup(args); cmd != nil {
			fmt.Fprintf(hc.Stderr, "usage: %s\n", cmd.Syntax())
		}
	}
	if fail {
		return interp.ExitStatus(1)
	}
	return nil
}

// ttyFor says whether replies written to w use the TTY format: --no-raw
// and --raw decide, else only the terminal itself gets it (so $(GET k)
// captures "v", not "\"v\"", as with redis-cli).
func (s *Shell) ttyFor(w io.Writer, mode cliflags.Output) bool {
	switch mode {
	case cliflags.OutputTTY:
		return true
	case cliflags.OutputRaw:
		return false
	}
	lw, ok := w.(*lineWriter)
	return s.cfg.TTY && ok && !lw.stderr
}

// stdoutFor is where a command of session name prints: its own stdout,
// except that a command sent to another session (`@alice ...`) from the
// terminal prints in that session's lines.
func (s *Shell) stdoutFor(hc interp.HandlerContext, name string) io.Writer {
	if hc.Stdout == io.Writer(s.out) && name != session.Main {
		out, _ := s.writers.get(name)
		return out
	}
	return hc.Stdout
}

// connFailed reports a connection that could not be made or broke, in
// redis-cli's words plus what to do about it.
func (s *Shell) connFailed(ctx context.Context, hc interp.HandlerContext, t session.Target, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	fmt.Fprintln(hc.Stderr, session.Describe(err, t))
	if session.IsAuthError(err) {
		fmt.Fprintln(hc.Stderr, "hint: check the credentials (-a/--pass, --user, REDISCLI_AUTH, or the -u URL); the next command tries again.")
	}
	if session.IsServerError(err) {
		return interp.ExitStatus(1)
	}
	switch {
	case t.Embedded:
		fmt.Fprintln(hc.Stderr, "hint: the embedded Redis has stopped; restart locklab")
	case session.IsDropped(err):
		fmt.Fprintf(hc.Stderr, "hint: %s closed this session's connection (a restart, CLIENT KILL or its idle timeout); "+
			"the next command connects again, on the same database.\n", t.Label())
	default:
		fmt.Fprintf(hc.Stderr, "hint: is a Redis running at %s? `docker compose up -d` starts one; "+
			"without -h/-p/-u locklab uses its embedded Redis. The next command tries again.\n", t.Label())
	}
	return interp.ExitStatus(1)
}
