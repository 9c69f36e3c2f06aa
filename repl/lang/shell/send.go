package shell

import (
	"context"
	"fmt"
	"io"

	"mvdan.cc/sh/v3/interp"

	"github.com/locklab/locklab/repl/cli/commands"
	"github.com/locklab/locklab/repl/cli/gaps"
	"github.com/locklab/locklab/repl/cli/resp"
	"github.com/locklab/locklab/repl/cli/session"
	"github.com/locklab/locklab/repl/cli/stream"
	"github.com/locklab/locklab/repl/lang/words"
)

// redis sends args in the caller's session and prints the reply.
func (s *Shell) redis(ctx context.Context, e *env, args []string) error {
	r, err := s.send(ctx, e, e.Session(), args, true)
	if err != nil {
		return err
	}
	return s.replied(e, e.Session(), args, r, s.cfg.Flags.ExitOnError)
}

// replied is what follows a reply to a command typed (or piped): an error
// from the embedded Redis for a command real Redis has says so; the exit
// status, as redis-cli's. (An error reply typed by hand is data, as in
// redis-cli: it does not count against the verdict; one inside a macro
// does, as the macro's failure.)
func (s *Shell) replied(e *env, name string, args []string, r resp.Reply, exitOnError bool) error {
	if r.IsError() {
		embeddedGap(e.hc.Stderr, s.cfg.Sessions.Get(name).Target(), args)
	}
	return s.obs.Status(e.hc.Stderr, args, r, exitOnError)
}

// send sends args in session name; when print is set it prints the reply
// as redis-cli would (with its timing for slow commands), and every
// message after a SUBSCRIBE or MONITOR (see package stream). Notes are
// printed either way. The error is an exit status for a connection that
// failed (already reported), or ctx's.
func (s *Shell) send(ctx context.Context, e *env, name string, args []string, print bool) (resp.Reply, error) {
	s.jobs.AtStart(ctx)
	sess, err := s.cfg.Sessions.Open(name)
	if err != nil {
		return resp.Reply{}, &words.Error{Status: 1, Msg: err.Error()}
	}
	s.obs.Sending(name, args)
	mode := s.cfg.Flags.Output
	if !print {
		mode = words.Quiet
	}
	out := s.stdoutFor(e.hc, name)
	ev, err := stream.Do(ctx, sess, args, stream.Printer{Out: out, TTY: print && s.obs.TTYFor(out, mode), Deliver: func(ev session.Event) {
		s.obs.Deliver(e.hc.Stderr, out, ev, mode, s.cfg.Flags.ExitOnError)
	}})
	if err != nil {
		s.obs.Unanswered(ev)
		return ev.Reply, e.ConnFailed(ctx, sess.Target(), err)
	}
	return ev.Reply, nil
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

// verdict prints the verdict on the run so far to w, if the run did
// anything with locks or slots.
func (s *Shell) verdict(ctx context.Context, w io.Writer) {
	s.obs.Verdict(ctx, w, s.cfg.Sessions.Get(session.Main))
}

// embeddedGap says, under the embedded Redis's error for a command real
// Redis has and it lacks (CLIENT LIST, CONFIG GET, DEBUG ...), that the
// gap is the embedded server's, and what to do. gaps.Embedded decides, as
// it does for completion.
func embeddedGap(stderr io.Writer, t session.Target, args []string) {
	if !t.Embedded {
		return
	}
	if cmd, _ := commands.Lookup(args); cmd != nil && gaps.Embedded(cmd.Name) {
		fmt.Fprintf(stderr, "hint: the embedded Redis does not implement %s; run against redis-server with -p PORT (README: the embedded Redis)\n", cmd.Name)
	}
}
