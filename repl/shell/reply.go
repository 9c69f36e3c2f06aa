package shell

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/check"
	"github.com/locklab/locklab/repl/cliflags"
	"github.com/locklab/locklab/repl/commands"
	"github.com/locklab/locklab/repl/output"
	"github.com/locklab/locklab/repl/resp"
	"github.com/locklab/locklab/repl/session"
	"github.com/locklab/locklab/repl/words"
)

// slowCommand is when redis-cli starts printing how long a command took.
const slowCommand = 500 * time.Millisecond

// quiet is an output mode for replies that are not printed (a macro's).
const quiet cliflags.Output = -1

// notePrefix starts every annotation line, so that notes never read as
// replies.
const notePrefix = "   ↳ "

// redis sends args in the caller's session and prints the reply.
func (s *Shell) redis(ctx context.Context, e *env, args []string) error {
	reply, err := s.send(ctx, e, e.Session(), args, true)
	if err != nil {
		return err
	}
	return s.replyStatus(e.hc.Stderr, args, reply, s.cfg.Flags.ExitOnError)
}

// send sends args in session name; when print is set it prints the reply
// as redis-cli would (with its timing for slow commands). Notes are
// printed either way. The error is an exit status for a connection that
// failed (already reported), or ctx's.
func (s *Shell) send(ctx context.Context, e *env, name string, args []string, print bool) (resp.Reply, error) {
	s.jobs.atStart(e.hc)
	s.rec.Sending(name, args)
	ev, err := s.cfg.Sessions.Get(name).Do(ctx, args)
	if err != nil {
		return ev.Reply, s.connFailed(ctx, e.hc.Stderr, s.cfg.Sessions.Target, err)
	}
	mode := s.cfg.Flags.Output
	if !print {
		mode = quiet
	}
	s.deliver(e, s.stdoutFor(e.hc, name), ev, mode, s.cfg.Flags.ExitOnError)
	return ev.Reply, nil
}

// deliver is what every reply goes through, however it was sent: it is
// remembered (expect reply), printed as redis-cli would in mode (with the
// timing of a slow command at the prompt), and annotated.
func (s *Shell) deliver(e *env, w io.Writer, ev session.Event, mode cliflags.Output, exitOnError bool) {
	if mode != quiet {
		s.rec.Printed(ev.Session, ev.Reply)
		tty := s.ttyFor(w, mode)
		if exitOnError && ev.Reply.IsError() {
			fmt.Fprintln(e.hc.Stderr, ev.Reply.Str) // redis-cli -e prints the bare error on stderr
		} else {
			io.WriteString(w, resp.Format(ev.Args, ev.Reply, tty))
		}
		if took := ev.End.Sub(ev.Start); tty && s.cfg.Interactive && took >= slowCommand {
			fmt.Fprintf(w, "(%.2fs)\n", took.Seconds())
		}
	}
	s.annotate(w, ev)
}

// replyStatus is the exit status of a command that got reply: as with
// redis-cli, a Redis error is data and gives 0, unless fail (-e) is set,
// then 1. A wrong-arity error also prints the command's syntax, as a hint.
func (s *Shell) replyStatus(stderr io.Writer, args []string, reply resp.Reply, fail bool) error {
	if !reply.IsError() {
		return nil
	}
	s.rec.RedisError()
	if strings.Contains(reply.Str, "wrong number of arguments") {
		if cmd, _ := commands.Lookup(args); cmd != nil {
			fmt.Fprintf(stderr, "usage: %s\n", cmd.Syntax())
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
	lw, ok := w.(*output.LineWriter)
	return s.cfg.TTY && ok && !lw.Stderr()
}

// stdoutFor is where a command of session name prints: its own stdout,
// except that a command sent to another session (`@alice ...`) from the
// terminal prints in that session's lines.
func (s *Shell) stdoutFor(hc interp.HandlerContext, name string) io.Writer {
	mainOut, _ := s.out.Writers(session.Main)
	if hc.Stdout == io.Writer(mainOut) && name != session.Main {
		out, _ := s.out.Writers(name)
		return out
	}
	return hc.Stdout
}

// annotate feeds an event to the recorder and prints its notes on the
// lab's own output (never into a $(...) capture or a redirection, whose
// reader expects redis-cli's bytes only).
func (s *Shell) annotate(w io.Writer, e session.Event) {
	if !s.cfg.Notes && !s.cfg.Trace {
		return // locklab as redis-cli (piped input, one command): nothing to keep
	}
	notes := s.rec.Observe(e, e.Check())
	if !s.cfg.Notes {
		return
	}
	if lw, ok := w.(*output.LineWriter); !ok || lw.Stderr() {
		w, _ = s.out.Writers(e.Session) // captured or redirected: the notes go to the session's lines
	}
	for _, n := range notes {
		fmt.Fprintln(w, s.out.Note(n.Level, notePrefix+n.Text))
	}
}

// connFailed reports a connection that could not be made or broke, in
// redis-cli's words plus what to do about it.
func (s *Shell) connFailed(ctx context.Context, stderr io.Writer, t session.Target, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	fmt.Fprintln(stderr, session.Describe(err, t))
	if session.IsAuthError(err) {
		fmt.Fprintln(stderr, "hint: check the credentials (-a/--pass, --user, REDISCLI_AUTH, or the -u URL); the next command tries again.")
	}
	if session.IsServerError(err) {
		return words.Status(1)
	}
	switch {
	case t.Embedded:
		fmt.Fprintln(stderr, "hint: the embedded Redis has stopped; restart locklab")
	case session.IsDropped(err):
		fmt.Fprintf(stderr, "hint: %s closed this session's connection (a restart, CLIENT KILL or its idle timeout); "+
			"the next command connects again, on the same database.\n", t.Label())
	default:
		fmt.Fprintf(stderr, "hint: is a Redis running at %s? `docker compose up -d` starts one; "+
			"without -h/-p/-u locklab uses its embedded Redis. The next command tries again.\n", t.Label())
	}
	return words.Status(1)
}

// verdict prints the verdict on the run so far to w, if the run did
// anything with locks or slots, and returns it.
func (s *Shell) verdict(ctx context.Context, w io.Writer) []check.Finding {
	if !s.cfg.Notes {
		return nil
	}
	findings := s.findings(ctx)
	for _, f := range findings {
		level := check.Good
		if f.Bad() {
			level = check.Bad
		}
		fmt.Fprintln(w, s.out.Note(level, "verdict: "+f.Text))
	}
	return findings
}

// findings is the verdict as it stands: each slot judged by its length as
// the server reports it now, then the lock findings.
func (s *Shell) findings(ctx context.Context) []check.Finding {
	return s.rec.Verdict(s.slotLengths(ctx, s.rec.Slots()))
}

// slotLengths asks the server, on a connection of its own (no event is
// recorded), how many bookings each slot holds now.
func (s *Shell) slotLengths(ctx context.Context, slots []string) map[string]int64 {
	out := map[string]int64{}
	if len(slots) == 0 {
		return out
	}
	conn := s.cfg.Sessions.Get(session.Main).Untraced()
	defer conn.Close()
	for _, k := range slots {
		r, err := conn.Do(ctx, []string{"LLEN", k})
		if err != nil || r.Kind != resp.Int {
			out[k] = -1 // unknown: the verdict says so rather than guess 0
			continue
		}
		out[k] = r.Int
	}
	return out
}
